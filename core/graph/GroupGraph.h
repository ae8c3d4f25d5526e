// Group nodes: a node of type `group` stands for the graph in another file (its `graph` param,
// relative to the including file). The inner file declares what the group shows: `inputs`,
// `outputs` and `expose` (its params). Evaluation expands every group into its inner nodes,
// named GROUP_INNER, with the inner seeds offset by a hash of the group's id.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"
#include "core/graph/NodeDescriptor.h"
#include "core/base/YamlValue.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace YAML {
class Node;
}

namespace grove {

class GroupResolver;
class NodeRegistry;

inline constexpr const char *kGroupType = "group";
inline constexpr const char *kGroupGraphParam = "graph";
// How many group files may include one another in a chain.
inline constexpr int kMaxGroupDepth = 64;

// The `group` node type as the catalog lists it: only its graph param (registered with the built-ins).
NodeDescriptor groupNodeDescriptor();

// Problems of the group declarations (inputs, outputs, expose) against the graph's own nodes.
Diagnostics validateGroupDeclarations(const Graph &graph, const GroupResolver &groups);

// Reads the top-level `inputs`, `outputs` or `expose` map into graph (the GraphReader's part).
void readGroupDeclarations(const std::string &key, const YAML::Node &n, Graph &graph, const YamlErrorSink &error,
                           const std::function<void(const std::string &, YamlLocation)> &remember, std::size_t &budget);
// Writes them in canonical form (after world, before nodes); nothing when there are none.
void writeGroupDeclarations(std::string &out, const Graph &graph);

// The int32 a group id adds to the `seed` param of every seeded node inside it (with int32
// wrap-around): FNV-1a 32-bit of the id's bytes, read as two's complement.
std::int32_t groupSeedOffset(const std::string &groupId);
// seed + offset with int32 wrap-around (a seed param is a whole int32 once validated).
std::int32_t offsetSeed(double seed, std::int32_t offset);

bool hasGroupNodes(const Graph &graph);

// The graph with every group node replaced by its inner nodes (recursively): ids GROUP_INNER,
// exposed params written in, seeds offset, declared inputs wired to the group's links and links
// to a group's outputs taken from the inner node.port. Problems (a file that cannot be used, an
// expanded id that clashes or is too long, too many nodes) go to problems, located at the group
// node (path nodes.GROUP...). Layout: the outer nodes' only. groups: the graph's, resolved.
Graph expandGroups(const Graph &graph, const GroupResolver &groups, Diagnostics *problems);
// One-shot: resolves the graph's groups for this call (core/graph/OneShotGroups.cpp).
Graph expandGroups(const Graph &graph, const NodeRegistry &registry, Diagnostics *problems);

// Grouping a selection: the inner graph (the selected nodes with their ids, seeds less the
// group's offset so the world stays the same, file params relative to the group file, one
// declared input per outside source and one output per port used outside, their layout) and
// the outer graph (the selection replaced by one group node `groupId` at its centre, wired as
// before). groupFile: the group file as the group node names it (relative to the graph's folder).
struct Grouping
{
    Graph outer;
    Graph inner;
    std::string problem;  // why the selection cannot be grouped (then the graphs are empty)
};
Grouping groupNodes(const Graph &graph, const std::vector<std::string> &ids, const std::string &groupId,
                    const std::string &groupFile, const GroupResolver &groups);

// Ungrouping: the group node replaced by its file's nodes (one level; groups inside stay groups),
// seeds plus the offset, exposed params written in, wired as the group was, at their layout in the
// file. Inner ids stay as they are unless another node has one (then GROUP_ID). Grouping then
// ungrouping gives the graph back as it was. Empty problem on success.
struct Ungrouping
{
    Graph graph;
    std::vector<std::string> ids;  // the nodes that came out of the group
    std::string problem;
};
Ungrouping ungroupNode(const Graph &graph, const std::string &groupId, const GroupResolver &groups);

} // namespace grove
