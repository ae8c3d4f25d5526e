// Watches the files a graph reads (its FilePath params: images, shapes, placements) and says when
// one changes on disk, so the preview follows a mask repainted in Krita and saved.
#pragma once

#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

class QFileSystemWatcher;

namespace grove {

class Document;

class InputWatcher : public QObject
{
    Q_OBJECT

public:
    InputWatcher(Document *document, QObject *parent = nullptr);
    // The files watched now (absolute), for tests and the status bar.
    QStringList files() const;
    // A change was seen and is settling: inputChanged follows.
    bool isSettling() const { return m_settle.isActive(); }

signals:
    // A watched file was written, replaced, created or removed (one signal per burst of writes).
    void inputChanged(const QString &path);

private:
    void rewatch();
    void onChange(const QString &path);

    Document *m_document;
    QFileSystemWatcher *m_watcher;
    QHash<QString, QString> m_prints;  // watched file -> its fingerprint (size, time) when last seen
    QTimer m_settle;  // editors write in several steps (temp file, rename): wait for the last
    QString m_changed;
};

} // namespace grove
