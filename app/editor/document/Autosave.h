// Crash insurance: a few seconds after an edit, the graph's text goes to a recovery file in the
// app's data folder.
#pragma once

#include "common/EditorClock.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <string>
#include <vector>

namespace grove {

class Document;

class Autosave : public QObject
{
    Q_OBJECT

public:
    // A recovery file left behind, and the document it belongs to ("" for an untitled graph).
    struct Entry
    {
        QString recoveryPath;
        QString documentPath;
        QDateTime saved;
        // The document on disk changed after the autosave: the recovery is out of date.
        bool isStale() const;
    };

    explicit Autosave(Document *document, QObject *parent = nullptr);

    // Where recovery files live: <AppDataLocation>/recovery, never beside the user's files.
    static QString folder();
    // The quiet time after an edit before it is saved: GROVE_AUTOSAVE_MS if set, else the
    // `autosave/delayMs` setting, else three seconds.
    static int delayFromEnvironment();
    // Every recovery file in the folder, newest first.
    static std::vector<Entry> entries();
    static void remove(const Entry &entry);

    // An edit is saved once `quietMs` pass without another; a steady stream of edits is saved at
    // least every `longestMs` (never less than quietMs).
    void setDelays(int quietMs, int longestMs);
    int quietDelay() const { return m_quiet.interval(); }
    // The clock the delays count on (the system clock unless a test sets one); pending saves restart on it.
    void setClock(EditorClock *clock);
    // Writes the recovery file now if the graph has unsaved changes that differ from the last one.
    bool saveNow();
    // Removes the recovery file this session wrote (after a clean save, or changes discarded).
    void discard();
    // Takes over a recovered file, so the next autosave replaces it and a save removes it.
    void adopt(const Entry &entry);
    QString currentRecoveryPath() const { return m_written; }

signals:
    void saved(const QString &recoveryPath);

private:
    QString recoveryPathFor(const QString &documentPath) const;
    void edited();

    Document *m_document;
    ClockTimer m_quiet;     // restarted by every edit
    ClockTimer m_longest;   // started by the first edit since the last save, never restarted
    QString m_untitledKey;   // one per session, so two editors never share a file
    QString m_written;       // the recovery file this session owns, if any
    std::string m_lastText;  // what it holds
};

} // namespace grove
