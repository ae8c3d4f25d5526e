// Autosave: atomic writes of the canonical text plus a small ".source" file naming the document.
#include "document/Autosave.h"

#include "document/Document.h"

#include "core/base/SafeFile.h"
#include "core/graph/GraphWriter.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace grove {

namespace {

constexpr int kDefaultDelayMs = 3000;
constexpr int kLongestDelayMs = 10000;
const char *kGraphSuffix = ".grove.yaml";
const char *kSourceSuffix = ".source";

QString sourcePathOf(const QString &recoveryPath)
{
    return recoveryPath.left(recoveryPath.size() - int(qstrlen(kGraphSuffix))) + kSourceSuffix;
}

} // namespace

bool Autosave::Entry::isStale() const
{
    if (documentPath.isEmpty())
        return false;
    const QFileInfo document(documentPath);
    return document.exists() && document.lastModified() > saved;
}

Autosave::Autosave(Document *document, QObject *parent)
    : QObject(parent), m_document(document),
      m_untitledKey(QString("untitled-%1-%2")
                        .arg(QDateTime::currentDateTimeUtc().toString("yyyyMMddHHmmsszzz"))
                        .arg(QCoreApplication::applicationPid()))
{
    const int delay = delayFromEnvironment();
    setDelays(delay, std::max(delay, kLongestDelayMs));
    for (ClockTimer *timer : {&m_quiet, &m_longest})
        connect(timer, &ClockTimer::timeout, this, [this] {
            m_quiet.stop();
            m_longest.stop();
            saveNow();
        });
    // Every push, merge, undo and redo: the graph may differ from what was last saved.
    connect(document->undoStack(), &QUndoStack::indexChanged, this, &Autosave::edited);
    // Back to the saved state (a save, or undo to it): nothing left to recover.
    connect(document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            discard();
    });
}

QString Autosave::folder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

int Autosave::delayFromEnvironment()
{
    bool ok = false;
    const int fromEnv = qEnvironmentVariableIntValue("GROVE_AUTOSAVE_MS", &ok);
    if (ok && fromEnv > 0)
        return fromEnv;
    const int fromSettings = QSettings().value("autosave/delayMs", kDefaultDelayMs).toInt(&ok);
    return ok && fromSettings > 0 ? fromSettings : kDefaultDelayMs;
}

void Autosave::setDelays(int quietMs, int longestMs)
{
    m_quiet.setInterval(quietMs);
    m_longest.setInterval(std::max(quietMs, longestMs));
}

void Autosave::setClock(EditorClock *clock)
{
    const bool pending = m_quiet.isActive();
    m_quiet.setClock(clock);
    m_longest.setClock(clock);
    if (pending)
        edited();
}

void Autosave::edited()
{
    if (!m_document->isModified())
        return;  // back at the saved state: cleanChanged has discarded the recovery
    m_quiet.start();
    if (!m_longest.isActive())
        m_longest.start();
}

std::vector<Autosave::Entry> Autosave::entries()
{
    std::vector<Entry> found;
    const QDir dir(folder());
    for (const QFileInfo &info : dir.entryInfoList({QString("*") + kGraphSuffix}, QDir::Files)) {
        Entry e;
        e.recoveryPath = info.absoluteFilePath();
        e.saved = info.lastModified();
        QFile source(sourcePathOf(e.recoveryPath));
        if (source.open(QIODevice::ReadOnly))
            e.documentPath = QString::fromUtf8(source.readAll());
        found.push_back(e);
    }
    std::stable_sort(found.begin(), found.end(), [](const Entry &a, const Entry &b) { return a.saved > b.saved; });
    return found;
}

void Autosave::remove(const Entry &entry)
{
    QFile::remove(entry.recoveryPath);
    QFile::remove(sourcePathOf(entry.recoveryPath));
}

QString Autosave::recoveryPathFor(const QString &documentPath) const
{
    // A hash of the document's path: the same file always maps to the same recovery file.
    const QString key = documentPath.isEmpty()
                            ? m_untitledKey
                            : QString::fromLatin1(QCryptographicHash::hash(QFileInfo(documentPath).absoluteFilePath().toUtf8(),
                                                                           QCryptographicHash::Sha1)
                                                      .toHex()
                                                      .left(16));
    return folder() + "/" + key + kGraphSuffix;
}

bool Autosave::saveNow()
{
    if (!m_document->isModified()) {
        discard();
        return false;
    }
    const QString path = recoveryPathFor(m_document->filePath());
    const std::string text = saveGraphToString(m_document->graph(), m_document->groups());
    if (path == m_written && text == m_lastText)
        return false;
    if (!QDir().mkpath(folder()))
        return false;
    const QString document = m_document->filePath().isEmpty() ? QString()
                                                              : QFileInfo(m_document->filePath()).absoluteFilePath();
    // The source first: a recovery file is never found without knowing whose it is.
    if (writeFileAtomically(sourcePathOf(path).toStdString(), document.toUtf8().toStdString())
        || writeFileAtomically(path.toStdString(), text))
        return false;
    if (!m_written.isEmpty() && m_written != path)  // the document was saved under a new name
        remove(Entry{m_written, {}, {}});
    m_written = path;
    m_lastText = text;
    emit saved(path);
    return true;
}

void Autosave::discard()
{
    m_quiet.stop();
    m_longest.stop();
    if (m_written.isEmpty())
        return;
    remove(Entry{m_written, {}, {}});
    m_written.clear();
    m_lastText.clear();
}

void Autosave::adopt(const Entry &entry)
{
    if (!m_written.isEmpty() && m_written != entry.recoveryPath)
        discard();
    m_written = entry.recoveryPath;
    m_lastText.clear();
}

} // namespace grove
