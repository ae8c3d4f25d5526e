// NodeClipboard: subgraphs travel as graph YAML, so copy and paste reuse the file format.
#include "document/NodeClipboard.h"

#include "document/Document.h"
#include "document/NodeCommands.h"

#include "core/graph/GraphReader.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>

namespace grove {

std::string NodeClipboard::copy(const Document &document, const std::vector<std::string> &ids)
{
    const Graph &g = document.graph();
    const std::set<std::string> chosen(ids.begin(), ids.end());
    Graph sub;
    sub.name = "clipboard";
    sub.world = g.world;
    for (const Node &n : g.nodes) {
        if (!chosen.count(n.id))
            continue;
        Node copy = n;
        std::erase_if(copy.inputs, [&](const auto &in) { return !chosen.count(in.second.node); });
        sub.nodes.push_back(copy);
        auto l = g.layout.find(n.id);
        if (l != g.layout.end())
            sub.layout[n.id] = l->second;
    }
    return saveGraphToString(sub, document.groups());
}

QUndoCommand *NodeClipboard::paste(Document *document, const std::string &text, QPointF topLeft,
                                   std::vector<std::string> *newIds, const QString &commandText)
{
    LoadResult loaded = loadGraphFromString(text, "clipboard", document->registry());
    if (loaded.graph.nodes.empty())
        return nullptr;
    // Fresh ids: unique against the document and among the pasted nodes.
    std::map<std::string, std::string> rename;
    std::set<std::string> taken;
    for (const Node &n : document->graph().nodes)
        taken.insert(n.id);
    for (const Node &n : loaded.graph.nodes) {
        std::string stem = n.id;
        while (!stem.empty() && (std::isdigit(static_cast<unsigned char>(stem.back())) || stem.back() == '_'))
            stem.pop_back();
        if (!isValidNodeId(stem))
            stem = "node";
        std::string id = taken.count(n.id) ? stem : n.id;
        for (int i = 2; taken.count(id); ++i)
            id = stem + "_" + std::to_string(i);
        taken.insert(id);
        rename[n.id] = id;
    }
    double minX = std::numeric_limits<double>::max(), minY = std::numeric_limits<double>::max();
    for (const Node &n : loaded.graph.nodes) {
        const NodeLayout &l = loaded.graph.layout[n.id];
        minX = std::min(minX, l.x);
        minY = std::min(minY, l.y);
    }
    std::vector<Node> nodes;
    std::vector<NodeLayout> layouts;
    for (const Node &n : loaded.graph.nodes) {
        Node copy = n;
        copy.id = rename[n.id];
        for (auto &[port, link] : copy.inputs)
            link.node = rename.count(link.node) ? rename[link.node] : link.node;
        NodeLayout l = loaded.graph.layout[n.id];
        l.x = l.x - minX + topLeft.x();
        l.y = l.y - minY + topLeft.y();
        nodes.push_back(copy);
        layouts.push_back(l);
        if (newIds)
            newIds->push_back(copy.id);
    }
    return new AddNodesCommand(document, std::move(nodes), std::move(layouts), commandText);
}

QUndoCommand *NodeClipboard::newNode(Document *document, const std::string &typeId, QPointF pos, std::string *newId)
{
    const NodeDescriptor *desc = document->registry().find(typeId);
    if (!desc)
        return nullptr;
    Node node;
    node.id = document->uniqueNodeId(typeId);
    node.type = typeId;
    node.params = completeParams(*desc, {});
    if (newId)
        *newId = node.id;
    const QString text = QObject::tr("Add %1").arg(QString::fromStdString(desc->displayName));
    return new AddNodesCommand(document, {node}, {NodeLayout{pos.x(), pos.y(), false}}, text);
}

} // namespace grove
