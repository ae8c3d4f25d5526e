// InputWatcher: the graph's input files and their folders under a QFileSystemWatcher. Folders too,
// because most painting programs save by writing a new file and renaming it over the old one,
// which ends a watch on the file itself.
#include "document/InputWatcher.h"

#include "document/Document.h"

#include "core/graph/GroupGraph.h"
#include "core/base/FileInput.h"
#include "core/graph/NodeRegistry.h"

#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSet>

namespace grove {

InputWatcher::InputWatcher(Document *document, QObject *parent)
    : QObject(parent), m_document(document), m_watcher(new QFileSystemWatcher(this))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(150);
    connect(&m_settle, &QTimer::timeout, this, [this] {
        rewatch();  // a replaced file is a new file: watch it again
        emit inputChanged(m_changed);
    });
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &InputWatcher::onChange);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &dir) {
        // something in a folder of ours changed (a save beside it, an autosave...): was it one of
        // our files?
        for (auto it = m_prints.cbegin(); it != m_prints.cend(); ++it)
            if (QFileInfo(it.key()).absolutePath() == dir
                && QString::fromStdString(fileFingerprint(it.key().toStdString())) != it.value()) {
                onChange(it.key());
                return;
            }
    });
    connect(m_document, &Document::graphReset, this, &InputWatcher::rewatch);
    connect(m_document, &Document::filePathChanged, this, &InputWatcher::rewatch);
    // only a file param's edit changes what is watched: a slider drag elsewhere costs nothing
    connect(m_document, &Document::paramChanged, this, [this](const QString &id, const QString &param) {
        const Node *node = m_document->graph().node(id.toStdString());
        const NodeDescriptor *desc = node ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
        const ParamSpec *spec = desc ? desc->param(param.toStdString()) : nullptr;
        if (spec && spec->role == ParamRole::FilePath)
            rewatch();
    });
    connect(m_document, &Document::nodeAdded, this, &InputWatcher::rewatch);
    connect(m_document, &Document::nodeRemoved, this, &InputWatcher::rewatch);
    rewatch();
}

QStringList InputWatcher::files() const
{
    QStringList out = m_prints.keys();
    out.sort();
    return out;
}

void InputWatcher::onChange(const QString &path)
{
    m_changed = path;
    m_settle.start();
}

void InputWatcher::rewatch()
{
    const Graph &graph = m_document->graph();
    QSet<QString> files;
    for (const Node &node : graph.nodes) {
        const NodeDescriptor *desc = m_document->groups().find(node, graph.baseDir);
        if (!desc)
            continue;
        if (node.type == kGroupType)  // a group's file and the files it includes
            for (const auto &[file, signature] : m_document->groups().group(node, graph.baseDir)->deps)
                files.insert(QString::fromStdString(file));
        for (const ParamSpec &p : desc->params) {
            if (p.role != ParamRole::FilePath)
                continue;
            const Value *v = node.param(p.name);
            if (v && v->isString() && !v->toString().empty())
                files.insert(QFileInfo(QString::fromStdString(resolveInputPath(graph.baseDir, v->toString()))).absoluteFilePath());
        }
    }
    QSet<QString> folders;
    for (const QString &f : std::as_const(files))
        folders.insert(QFileInfo(f).absolutePath());
    // replace what is watched (a file that was replaced needs adding again even if listed)
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    QStringList existing;
    for (const QString &f : std::as_const(files))
        if (QFileInfo::exists(f))
            existing << f;
    if (!existing.isEmpty())
        m_watcher->addPaths(existing);
    QStringList dirs;
    for (const QString &d : std::as_const(folders))
        if (QFileInfo(d).isDir())
            dirs << d;
    if (!dirs.isEmpty())
        m_watcher->addPaths(dirs);
    m_prints.clear();
    for (const QString &f : std::as_const(files))
        m_prints.insert(f, QString::fromStdString(fileFingerprint(f.toStdString())));
}

} // namespace grove
