// Group nodes: a node of type `group` stands for the graph in another file (its `graph` param,
// relative to the including file). The inner file declares what the group shows: `inputs`,
// `outputs` and `expose` (its params). Evaluation expands every group into its inner nodes,
// named GROUP_INNER, with the inner seeds offset by a hash of the group's id.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/GraphReader.h"
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

class NodeRegistry;

inline constexpr const char *kGroupType = "group";
inline constexpr const char *kGroupGraphParam = "graph";
// How many group files may include one another in a chain.
inline constexpr int kMaxGroupDepth = 64;

// A resolved group file: its graph and the descriptor a group node that includes it shows.
struct GroupInfo
{
    std::string file;          // the file as the including graph names it (for messages)
    std::string absolutePath;  // where it was read from
    LoadResult loaded;         // the inner graph as its file says (baseDir: the inner file's folder)
    NodeDescriptor descriptor; // the group's ports and params, synthesised from the declarations
    Diagnostics problems;      // why a group node cannot use it, each located: the including node's
                               // graph param (missing file, cycle, chain too deep), or the inner
                               // file's own FILE:LINE:COL for problems inside it
    bool usable = false;       // the descriptor reflects the file (it could be read)
    bool contextual = false;   // the problems depend on the chain that led here (not cached)
    std::vector<std::pair<std::string, std::string>> deps;  // (file, stat signature) it was built from
};

// While a graph file is read (absolute path), a group that includes it again is a cycle: the
// reader holds one of these for the file it reads. Nests with resolveGroup's own chain.
class GroupFileScope
{
public:
    explicit GroupFileScope(const std::string &absolutePath);
    ~GroupFileScope();
    GroupFileScope(const GroupFileScope &) = delete;
    GroupFileScope &operator=(const GroupFileScope &) = delete;

private:
    bool m_pushed = false;
};

// The `group` node type as the catalog lists it: only its graph param (registered with the built-ins).
NodeDescriptor groupNodeDescriptor();

// The group a node of type `group` includes, resolved relative to baseDir (the including
// graph's folder; empty: the working folder). Cached by path and file state; never null.
std::shared_ptr<const GroupInfo> resolveGroup(const Node &node, const std::string &baseDir, const NodeRegistry &registry);

// Problems of the group declarations (inputs, outputs, expose) against the graph's own nodes.
Diagnostics validateGroupDeclarations(const Graph &graph, const NodeRegistry &registry);

// The problems of one group node for the validator: its file's (missing, cycle, inside), as
// resolveGroup gives them, and ids its nodes would take that another node of graph has.
Diagnostics groupNodeProblems(const Node &node, const Graph &graph, const NodeRegistry &registry);

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
// node (path nodes.GROUP...). Layout: the outer nodes' only.
Graph expandGroups(const Graph &graph, const NodeRegistry &registry, Diagnostics *problems);

// A loaded graph made ready to evaluate: groups expanded, their problems added (located in the
// file), and the expanded nodes' YAML paths located at their group node's line. No-op without groups.
void expandLoadedGroups(LoadResult &loaded, const std::string &file, const NodeRegistry &registry);

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
                    const std::string &groupFile, const NodeRegistry &registry);

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
Ungrouping ungroupNode(const Graph &graph, const std::string &groupId, const NodeRegistry &registry);

} // namespace grove
