// Refinement chains: found from the Refines input role, never from a node's type or params.
#include "core/graph/LayerRefinement.h"

#include "core/graph/NodeDescriptor.h"
#include "core/graph/NodeRegistry.h"

namespace grove {

LayerRefinements::LayerRefinements(const Graph &graph, const NodeRegistry &registry)
    : LayerRefinements(graph, [&registry](const Node &node) { return registry.find(node.type); })
{
}

LayerRefinements::LayerRefinements(const Graph &graph, const DescriptorLookup &lookup)
{
    GraphIndex index(graph);
    std::map<std::string, std::vector<std::string>> refinersOf;
    for (int i : topologicalOrder(graph)) {
        const Node &node = graph.nodes[static_cast<size_t>(i)];
        const NodeDescriptor *desc = lookup(node);
        const PortSpec *in = desc ? desc->inputWithRole(PortRole::Refines) : nullptr;
        const Link *link = in ? node.input(in->name) : nullptr;
        if (!link)
            continue;
        m_refiners.insert(node.id);
        const int s = index.indexOf(link->node);
        const NodeDescriptor *srcDesc = s < 0 ? nullptr : lookup(graph.nodes[static_cast<size_t>(s)]);
        if (!srcDesc || link->node == node.id)
            continue;  // the link's own problem, reported where links are checked
        const PortSpec *out = link->port.empty() ? (srcDesc->outputs.empty() ? nullptr : &srcDesc->outputs.front())
                                                 : srcDesc->output(link->port);
        if (!out || out->type != DataType::Points)
            continue;  // likewise
        const std::string path = "nodes." + node.id + ".inputs." + in->name;
        if (out->role != PortRole::LayerPoints) {
            const PortSpec *own = srcDesc->outputWithRole(PortRole::LayerPoints);
            Diagnostic d;
            d.path = path;
            d.nodeId = node.id;
            d.message = "input " + quote(in->name) + " takes one layer's own points; " + link->toString()
                        + (own ? " is not one (wire " + link->node + "." + own->name + ", the layer's own)"
                               : " is not one (wire a layer node's own points)");
            m_problems.push_back(std::move(d));
            continue;
        }
        refinersOf[link->node].push_back(node.id);
        if (refinersOf[link->node].size() == 2) {
            Diagnostic d;
            d.path = path;
            d.nodeId = node.id;
            d.message = quote(link->node) + " is refined by both " + quote(refinersOf[link->node][0]) + " and "
                        + quote(node.id) + ": a layer is exported once, so chain them (wire one's points into the other)";
            m_problems.push_back(std::move(d));
            continue;
        }
        m_next[link->node] = node.id;
        m_source[node.id] = link->node;
    }
}

namespace {

// Follows `links` from `id` to the end of its chain; the bound guards a cycle (the graph's own problem).
std::string follow(const std::map<std::string, std::string> &links, const std::string &id)
{
    std::string at = id;
    for (std::size_t steps = 0; steps <= links.size(); ++steps) {
        auto it = links.find(at);
        if (it == links.end())
            break;
        at = it->second;
    }
    return at;
}

} // namespace

std::string LayerRefinements::exportedFrom(const std::string &id) const
{
    return follow(m_next, id);
}

std::string LayerRefinements::sourceOf(const std::string &id) const
{
    return follow(m_source, id);
}

} // namespace grove
