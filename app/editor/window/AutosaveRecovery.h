// Recovering an autosave: finds autosaved changes newer than their document (the front tab's, or
// any when it is empty and untouched), asks whether to restore them (or restores them directly),
// and restores them into the front tab as one undoable step.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace grove {

class TabSet;

class AutosaveRecovery : public QObject
{
    Q_OBJECT

public:
    enum class Mode { Ask, Accept };
    // How the window opens a file in the front tab (a recovered document's own file, first).
    using OpenFile = std::function<bool(const QString &path)>;
    // `window` parents the questions.
    AutosaveRecovery(TabSet *tabs, OpenFile openFile, QWidget *window);

    // What was recovered, for the status bar and the terminal; empty when nothing was.
    QString offer(Mode mode);

signals:
    void statusMessage(const QString &message, int timeoutMs);

private:
    TabSet *m_tabs;
    OpenFile m_openFile;
    QWidget *m_window;
};

} // namespace grove
