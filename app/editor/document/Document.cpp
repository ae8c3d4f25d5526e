// Document: file load/save, problem bookkeeping and the low-level mutators undo commands call.
#include "document/Document.h"

#include "core/base/SafeFile.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"

#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <cctype>
#include <optional>

namespace grove {

namespace {

QString qs(const std::string &s) { return QString::fromStdString(s); }

// A file path written relative to the folder `from`, as it reaches the same file from `to`; nothing
// when it needs no rewriting (absolute, empty, not a path, the same folder, a folder unknown).
std::optional<std::string> movedPath(const Value &value, const std::string &from, const std::string &to)
{
    if (from.empty() || to.empty() || !value.isString() || value.toString().empty())
        return std::nullopt;
    const QString path = qs(value.toString());
    if (QDir::isAbsolutePath(path) || QDir(qs(from)) == QDir(qs(to)))
        return std::nullopt;
    return QDir(qs(to)).relativeFilePath(QDir(qs(from)).absoluteFilePath(path)).toStdString();
}

bool sameProblem(const Diagnostic &a, const Diagnostic &b)
{
    return a.path == b.path && a.message == b.message;
}

} // namespace

Document::Document(const NodeRegistry &registry, QObject *parent)
    : QObject(parent), m_registry(registry), m_groups(registry)
{
    clear();
}

// The stack empties itself on the way out; that is not the user going back to the saved state
// (which would, for one, delete the crash-recovery file).
Document::~Document()
{
    m_undoStack.blockSignals(true);
}

void Document::clear()
{
    m_undoStack.clear();
    m_graph = Graph{};
    m_groups.clear();
    m_file = LoadResult{};
    m_fileDiagnostics.emplace();
    m_filePath.clear();
    m_undoStack.setClean();
    emit filePathChanged(m_filePath);
    emit graphReset();
    validateNow();
}

bool Document::load(const QString &path, Diagnostics *diagnostics)
{
    GroupResolver groups(m_registry);  // the new file's groups; the open graph keeps its own if it fails
    LoadResult loaded = loadGraphFile(path.toStdString(), groups);
    if (diagnostics)
        *diagnostics = loaded.diagnostics;
    // Refuse only what gave nothing to edit (unreadable, not YAML, not a graph); otherwise open
    // the best-effort graph and list its problems.
    if (!loaded.ok() && loaded.graph.nodes.empty())
        return false;
    m_undoStack.clear();
    m_groups = std::move(groups);
    m_graph = loaded.graph;
    m_filePath = path;
    setFileState(std::move(loaded));
    layoutUnplacedNodes();
    m_undoStack.setClean();
    emit filePathChanged(m_filePath);
    emit graphReset();
    emit problemsChanged();
    return true;
}

bool Document::loadAsNew(const QString &path, Diagnostics *diagnostics)
{
    if (!load(path, diagnostics))
        return false;
    m_filePath.clear();
    emit filePathChanged(m_filePath);
    return true;
}

std::optional<std::string> Document::save(const QString &path)
{
    // Files the graph reads are written relative to its folder: saved into another folder (a
    // preset saved into a project), each such path is rewritten to reach the same file from there.
    const QString folder = QFileInfo(path).absolutePath();
    Graph saved = m_graph;
    std::vector<std::pair<std::string, std::string>> moved;  // node, param
    for (Node &node : saved.nodes)
        for (const std::string &param : moveFilePaths(node, m_graph.baseDir, folder.toStdString()))
            moved.emplace_back(node.id, param);
    if (!moved.empty())
        saved.baseDir = folder.toStdString();  // where the rewritten paths are relative to
    // the groups were read when loaded or edited in: saving reads no group file
    const std::string text = saveGraphToString(saved, m_groups);
    if (auto error = writeFileAtomically(path.toStdString(), text))
        return error;
    m_graph = std::move(saved);
    m_filePath = path;
    m_graph.baseDir = folder.toStdString();
    for (const auto &[node, param] : moved)
        emit paramChanged(QString::fromStdString(node), QString::fromStdString(param));
    // The file now says exactly what the graph says: relocate problems against the new text.
    setFileState(loadGraphFromString(text, path.toStdString(), m_groups, m_graph.baseDir));
    m_undoStack.setClean();
    emit filePathChanged(m_filePath);
    emit problemsChanged();
    return std::nullopt;
}

// The graph is the file's: the loader's diagnostics (its validation included, every one located)
// are the problems, with no validation of our own until the first edit.
void Document::setFileState(LoadResult loaded)
{
    m_file = std::move(loaded);
    m_problems = m_file.diagnostics;
    m_fileDiagnostics.reset();
    m_validationPending = false;
}

// Problems the validator finds again are recomputed on every edit; the rest (bad values
// replaced by defaults, unknown keys) belong to the file until it is saved.
const Diagnostics &Document::fileDiagnostics()
{
    if (!m_fileDiagnostics) {
        const Diagnostics again = validateGraph(m_file.graph, m_groups);
        m_fileDiagnostics.emplace();
        for (const Diagnostic &d : m_file.diagnostics)
            if (std::none_of(again.begin(), again.end(), [&](const Diagnostic &v) { return sameProblem(d, v); }))
                m_fileDiagnostics->push_back(d);
    }
    return *m_fileDiagnostics;
}

// Nodes without a saved position go in columns by depth, so a hand-written file opens readable.
void Document::layoutUnplacedNodes()
{
    std::map<std::string, int> depth;
    for (int i : topologicalOrder(m_graph)) {
        const Node &n = m_graph.nodes[static_cast<size_t>(i)];
        int d = 0;
        for (const auto &[port, link] : n.inputs) {
            auto it = depth.find(link.node);
            if (it != depth.end())
                d = std::max(d, it->second + 1);
        }
        depth[n.id] = d;
    }
    std::map<int, int> rows;
    for (int i : topologicalOrder(m_graph)) {
        const Node &n = m_graph.nodes[static_cast<size_t>(i)];
        int column = depth[n.id];
        int row = rows[column]++;
        if (!m_graph.layout.count(n.id))
            m_graph.layout[n.id] = NodeLayout{40.0 + column * 280.0, 40.0 + row * 200.0, false};
    }
}

QPointF Document::nodePosition(const std::string &id) const
{
    auto it = m_graph.layout.find(id);
    return it == m_graph.layout.end() ? QPointF() : QPointF(it->second.x, it->second.y);
}

std::string Document::uniqueNodeId(const std::string &base) const
{
    std::string stem = base;
    while (!stem.empty() && (std::isdigit(static_cast<unsigned char>(stem.back())) || stem.back() == '_'))
        stem.pop_back();
    if (!isValidNodeId(stem))
        stem = "node";
    if (!m_graph.node(stem))
        return stem;
    for (int i = 2;; ++i) {
        std::string id = stem + "_" + std::to_string(i);
        if (!m_graph.node(id))
            return id;
    }
}

std::optional<std::string> Document::renameProblem(const std::string &oldId, const std::string &newId) const
{
    if (newId == oldId)
        return std::nullopt;
    if (!isValidNodeId(newId))
        return "an id starts with a lowercase letter, then lowercase letters, digits or _";
    if (m_graph.node(newId))
        return "another node is already called '" + newId + "'";
    return std::nullopt;
}

bool Document::isCollapsed(const std::string &id) const
{
    auto it = m_graph.layout.find(id);
    return it != m_graph.layout.end() && it->second.collapsed;
}

std::vector<std::string> Document::moveFilePaths(Node &node, const std::string &from, const std::string &to) const
{
    std::vector<std::string> moved;
    const NodeDescriptor *desc = from.empty() || to.empty() ? nullptr : m_groups.find(node, from);
    for (const ParamSpec &p : desc ? desc->params : std::vector<ParamSpec>{}) {
        const Value *v = p.role == ParamRole::FilePath ? node.param(p.name) : nullptr;
        if (const std::optional<std::string> path = v ? movedPath(*v, from, to) : std::nullopt) {
            node.setParam(p.name, Value(*path));
            moved.push_back(p.name);
        }
    }
    return moved;
}

void Document::insertNode(int index, const Node &node, const NodeLayout &layout, const std::string &writtenIn)
{
    index = std::clamp(index, 0, static_cast<int>(m_graph.nodes.size()));
    Node placed = node;
    moveFilePaths(placed, writtenIn, m_graph.baseDir);
    m_graph.nodes.insert(m_graph.nodes.begin() + index, std::move(placed));
    m_graph.layout[node.id] = layout;
    resolveGroups();  // a group node (pasted, grouped, undone) is read before anyone looks it up
    emit nodeAdded(qs(node.id));
    scheduleValidation();
}

void Document::removeNode(const std::string &id)
{
    int i = m_graph.indexOf(id);
    if (i < 0)
        return;
    m_graph.nodes.erase(m_graph.nodes.begin() + i);
    m_graph.layout.erase(id);
    emit nodeRemoved(qs(id));
    scheduleValidation();
}

void Document::setNodePosition(const std::string &id, QPointF pos)
{
    NodeLayout &l = m_graph.layout[id];
    l.x = pos.x();
    l.y = pos.y();
    emit nodeMoved(qs(id));
}

void Document::setInput(const std::string &id, const std::string &port, const std::optional<Link> &link)
{
    Node *n = m_graph.node(id);
    if (!n)
        return;
    if (link) {
        n->setInput(port, *link);
        // Keep inputs in catalog order, as the loader does, so undo restores an equal graph.
        if (const NodeDescriptor *desc = m_groups.find(*n, m_graph.baseDir)) {
            std::stable_sort(n->inputs.begin(), n->inputs.end(), [desc](const auto &a, const auto &b) {
                return desc->inputIndex(a.first) < desc->inputIndex(b.first);
            });
        }
    } else {
        n->removeInput(port);
    }
    emit inputChanged(qs(id), qs(port));
    scheduleValidation();
}

void Document::setParam(const std::string &id, const std::string &name, const Value &value, const std::string &writtenIn)
{
    Node *n = m_graph.node(id);
    if (!n)
        return;
    const NodeDescriptor *desc = writtenIn.empty() ? nullptr : m_groups.find(*n, m_graph.baseDir);
    const ParamSpec *spec = desc ? desc->param(name) : nullptr;
    const std::optional<std::string> moved =
        spec && spec->role == ParamRole::FilePath ? movedPath(value, writtenIn, m_graph.baseDir) : std::nullopt;
    n->setParam(name, moved ? Value(*moved) : value);
    if (n->type == kGroupType)
        resolveGroups();  // its file may be a new one
    emit paramChanged(qs(id), qs(name));
    scheduleValidation();
}

void Document::renameNode(const std::string &oldId, const std::string &newId)
{
    Node *n = m_graph.node(oldId);
    if (!n)
        return;
    n->id = newId;
    for (Node &other : m_graph.nodes)
        for (auto &[port, link] : other.inputs)
            if (link.node == oldId)
                link.node = newId;
    auto it = m_graph.layout.find(oldId);
    if (it != m_graph.layout.end()) {
        NodeLayout l = it->second;
        m_graph.layout.erase(it);
        m_graph.layout[newId] = l;
    }
    emit nodeRenamed(qs(oldId), qs(newId));
    scheduleValidation();
}

void Document::setCollapsed(const std::string &id, bool collapsed)
{
    if (!m_graph.node(id))
        return;
    m_graph.layout[id].collapsed = collapsed;
    emit nodeCollapsedChanged(qs(id));
}

void Document::setGraphInfo(const std::string &name, const std::string &notes, const World &world)
{
    m_graph.name = name;
    m_graph.notes = notes;
    m_graph.world = world;
    emit graphInfoChanged();
    scheduleValidation();
}

void Document::replaceGraph(const Graph &graph)
{
    m_graph = graph;
    resolveGroups();
    emit graphReset();
    scheduleValidation();
}

// Only files not read yet are read: an edit that names no new group file reads nothing.
void Document::resolveGroups()
{
    const std::string file = m_filePath.isEmpty() ? std::string() : QFileInfo(m_filePath).absoluteFilePath().toStdString();
    grove::resolveGroups(m_groups, m_graph, file);
}

void Document::reloadGroups()
{
    m_groups.clear();
    resolveGroups();
    scheduleValidation();  // the problems, and with them the group cards' ports
    emit groupsReloaded();
}

// Edits often come in bursts (a macro, a slider drag): validate once when they settle.
void Document::scheduleValidation()
{
    if (m_validationPending)
        return;
    m_validationPending = true;
    QTimer::singleShot(0, this, [this] {
        if (m_validationPending)  // not when a load or save since has put the file's problems in place
            validateNow();
    });
}

void Document::validateNow()
{
    m_validationPending = false;
    m_problems = fileDiagnostics();
    for (Diagnostic d : validateGraph(m_graph, m_groups)) {
        // A line is worth showing only where the file on disk has this very problem (the designer
        // opens that file); one an unsaved edit made has no line until saved: the panel says so.
        const auto onDisk = std::find_if(m_file.diagnostics.begin(), m_file.diagnostics.end(),
                                         [&](const Diagnostic &f) { return sameProblem(d, f); });
        if (!m_filePath.isEmpty() && onDisk != m_file.diagnostics.end()) {
            d.line = onDisk->line;
            d.column = onDisk->column;
        } else {
            d.line = d.column = 0;
        }
        d.file = m_filePath.toStdString();
        m_problems.push_back(std::move(d));
    }
    std::stable_sort(m_problems.begin(), m_problems.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    emit problemsChanged();
}

void Document::setRunProblems(Diagnostics problems)
{
    auto same = [](const Diagnostic &a, const Diagnostic &b) {
        return a.severity == b.severity && a.nodeId == b.nodeId && a.message == b.message;
    };
    if (std::equal(problems.begin(), problems.end(), m_runProblems.begin(), m_runProblems.end(), same))
        return;
    m_runProblems = std::move(problems);
    emit problemsChanged();
}

} // namespace grove
