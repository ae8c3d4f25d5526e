// Which node's output carries a layer's exported points: a layer whose own points are wired into
// a Refines input (an attribute added to each point) is exported as the last node of that chain,
// at the source's place and under its name; one rule for exports, the preview and the C API.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace grove {

struct NodeDescriptor;
class NodeRegistry;

// A node's descriptor, or nullptr for a type the caller does not know.
using DescriptorLookup = std::function<const NodeDescriptor *(const Node &)>;

class LayerRefinements
{
public:
    LayerRefinements(const Graph &graph, const DescriptorLookup &lookup);
    LayerRefinements(const Graph &graph, const NodeRegistry &registry);

    // The node whose output is exported for layer node `id`: the last refiner of its chain, or id.
    std::string exportedFrom(const std::string &id) const;
    // The layer node at the start of `id`'s chain (id itself when it refines nothing).
    std::string sourceOf(const std::string &id) const;
    // The node has a wired Refines input: its layer is exported in place of the one it refines.
    bool isRefiner(const std::string &id) const { return m_refiners.count(id) != 0; }
    // Wiring that breaks the rule, each at the refiner's input: a chain (`trees.all`) wired in,
    // or one layer refined by two nodes.
    const Diagnostics &problems() const { return m_problems; }

private:
    std::map<std::string, std::string> m_next;    // a source -> the node refining it
    std::map<std::string, std::string> m_source;  // a refiner -> the node it refines
    std::set<std::string> m_refiners;
    Diagnostics m_problems;
};

} // namespace grove
