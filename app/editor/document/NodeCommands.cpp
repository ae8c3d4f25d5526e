// Undo commands on whole nodes.
#include "document/NodeCommands.h"

#include "document/Document.h"

#include <algorithm>
#include <set>

namespace grove {

AddNodesCommand::AddNodesCommand(Document *document, std::vector<Node> nodes, std::vector<NodeLayout> layouts,
                                 const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent), m_document(document), m_nodes(std::move(nodes)), m_layouts(std::move(layouts)),
      m_folder(document->graph().baseDir)
{
}

void AddNodesCommand::redo()
{
    for (size_t i = 0; i < m_nodes.size(); ++i)
        m_document->insertNode(static_cast<int>(m_document->graph().nodes.size()), m_nodes[i], m_layouts[i], m_folder);
}

void AddNodesCommand::undo()
{
    for (auto it = m_nodes.rbegin(); it != m_nodes.rend(); ++it)
        m_document->removeNode(it->id);
}

DeleteNodesCommand::DeleteNodesCommand(Document *document, const std::vector<std::string> &ids, QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_folder(document->graph().baseDir)
{
    const Graph &g = document->graph();
    std::set<std::string> doomed(ids.begin(), ids.end());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const Node &n = g.nodes[i];
        if (doomed.count(n.id)) {
            auto l = g.layout.find(n.id);
            m_removed.push_back({static_cast<int>(i), n, l == g.layout.end() ? NodeLayout{} : l->second});
        } else {
            for (const auto &[port, link] : n.inputs)
                if (doomed.count(link.node))
                    m_cutLinks.push_back({n.id, port, link});
        }
    }
    setText(m_removed.size() == 1 ? QObject::tr("Delete %1").arg(QString::fromStdString(m_removed[0].node.id))
                                  : QObject::tr("Delete %n nodes", nullptr, static_cast<int>(m_removed.size())));
}

void DeleteNodesCommand::redo()
{
    for (const CutLink &c : m_cutLinks)
        m_document->setInput(c.node, c.port, std::nullopt);
    for (auto it = m_removed.rbegin(); it != m_removed.rend(); ++it)
        m_document->removeNode(it->node.id);
}

void DeleteNodesCommand::undo()
{
    for (const Removed &r : m_removed)
        m_document->insertNode(r.index, r.node, r.layout, m_folder);
    for (const CutLink &c : m_cutLinks)
        m_document->setInput(c.node, c.port, c.link);
}

MoveNodesCommand::MoveNodesCommand(Document *document, std::map<std::string, QPointF> from,
                                   std::map<std::string, QPointF> to, QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_from(std::move(from)), m_to(std::move(to)),
      m_generation(document->mergeGeneration())
{
    setText(m_to.size() == 1 ? QObject::tr("Move %1").arg(QString::fromStdString(m_to.begin()->first))
                             : QObject::tr("Move %n nodes", nullptr, static_cast<int>(m_to.size())));
}

void MoveNodesCommand::redo()
{
    for (const auto &[id, pos] : m_to)
        m_document->setNodePosition(id, pos);
}

void MoveNodesCommand::undo()
{
    for (const auto &[id, pos] : m_from)
        m_document->setNodePosition(id, pos);
}

bool MoveNodesCommand::mergeWith(const QUndoCommand *other)
{
    auto *move = static_cast<const MoveNodesCommand *>(other);
    if (move->m_generation != m_generation || move->m_to.size() != m_to.size()
        || !std::equal(m_to.begin(), m_to.end(), move->m_to.begin(),
                       [](const auto &a, const auto &b) { return a.first == b.first; }))
        return false;
    m_to = move->m_to;
    return true;
}

RenameNodeCommand::RenameNodeCommand(Document *document, std::string oldId, std::string newId, QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_oldId(std::move(oldId)), m_newId(std::move(newId))
{
    setText(QObject::tr("Rename %1 to %2").arg(QString::fromStdString(m_oldId), QString::fromStdString(m_newId)));
}

void RenameNodeCommand::redo()
{
    m_document->renameNode(m_oldId, m_newId);
}

void RenameNodeCommand::undo()
{
    m_document->renameNode(m_newId, m_oldId);
}

SetCollapsedCommand::SetCollapsedCommand(Document *document, const std::vector<std::string> &ids, bool collapsed,
                                         QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_new(collapsed)
{
    for (const auto &id : ids)
        m_old[id] = document->isCollapsed(id);
    const QString what = ids.size() == 1 ? QString::fromStdString(ids.front())
                                         : QObject::tr("%n nodes", nullptr, static_cast<int>(ids.size()));
    setText(collapsed ? QObject::tr("Collapse %1").arg(what) : QObject::tr("Expand %1").arg(what));
}

void SetCollapsedCommand::redo()
{
    for (const auto &[id, old] : m_old)
        m_document->setCollapsed(id, m_new);
}

void SetCollapsedCommand::undo()
{
    for (const auto &[id, old] : m_old)
        m_document->setCollapsed(id, old);
}

} // namespace grove
