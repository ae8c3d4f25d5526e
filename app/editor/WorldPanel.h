// The World dock: the graph's name, notes and world size and seed, each edit an undoable command.
#pragma once

#include "core/Graph.h"

#include <QWidget>

class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace grove {

class Document;

class WorldPanel : public QWidget
{
    Q_OBJECT

public:
    explicit WorldPanel(Document *document, QWidget *parent = nullptr);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void refresh();
    void commit(const QString &what, std::string name, std::string notes, World world);

    Document *m_document;
    QLineEdit *m_name;
    QPlainTextEdit *m_notes;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QSpinBox *m_seed;
};

} // namespace grove
