// The graph model: world settings, nodes with params and input links, and editor-only layout.
#pragma once

#include "core/base/Value.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace grove {

// The graph file format version this Grove writes (`grove: 1`); it reads every version up to it.
// The format is the file's structure: it goes up only when that changes (a key moves or changes
// meaning), with a step in GraphReader that reads the older structure. Node types have versions
// of their own (NodeDescriptor::version): a changed default is a node version, not a format version.
inline constexpr int kGraphFormatVersion = 1;

struct World
{
    double width = 880;
    double height = 480;
    std::int32_t seed = 0;
    // world.chunk: the side of a chunk (world units); 0: no chunks, the whole-world method.
    double chunk = 0;
    // A chunked world without width and height has no edge: runs name the region they want.
    bool endless = false;
    // world.depth: a volume's third side (world units, z in [0, depth)); 0: a 2D world.
    // Only place_volume uses it.
    double depth = 0;
    // world.wrap: the world is a torus along x, y or both (`wrap: true`, `wrap: x`, `wrap: y`):
    // spacing is measured across the opposite edges and noise repeats with the world's size.
    bool wrapX = false;
    bool wrapY = false;
    bool wraps() const { return wrapX || wrapY; }
    // world.wrap as saved: "true", "x" or "y"; empty when the world does not wrap.
    std::string wrapText() const;
    // Sets the wrapped axes from world.wrap's text (true, false, x or y); false for any other.
    bool setWrap(const std::string &text);
    bool operator==(const World &) const = default;
};

// An input's source: `node` (its first output) or `node.port`.
struct Link
{
    std::string node;
    std::string port;  // empty: the node's first output
    bool operator==(const Link &) const = default;
    std::string toString() const { return port.empty() ? node : node + "." + port; }
    static Link parse(const std::string &text);
};

struct Node
{
    std::string id;
    std::string type;
    // The type's version its file gave (`version:`, 1 when absent; 0: not read from a file). Read
    // params are migrated to the registered type's version, which saves write; this is kept
    // only for a type this Grove does not know. Not compared.
    int version = 0;
    ValueMap params;                                   // catalog order once completed
    std::vector<std::pair<std::string, Link>> inputs;  // port name -> source, in catalog order once normalized
    // What the node's layer must satisfy ("count >= 400"), checked by grove-cli check. Not part
    // of evaluation: cache keys and the graph hash leave it out.
    std::vector<std::string> expect;
    // The same node: params and inputs compare as maps, like the YAML maps they are saved as.
    bool operator==(const Node &other) const;

    const Value *param(const std::string &name) const;
    void setParam(const std::string &name, Value value);
    const Link *input(const std::string &port) const;
    void setInput(const std::string &port, const Link &link);
    void removeInput(const std::string &port);
};

// A group file's interface (see core/graph/GroupGraph.h): what a group node that includes the file
// shows as its inputs, outputs and params. A graph with these is still a normal graph.
struct GroupInput
{
    std::vector<Link> to;     // the inner node.port inputs the group's input feeds
    std::string description;
    bool operator==(const GroupInput &) const = default;
};

struct GroupOutput
{
    Link from;                // the inner node.port the group's output gives
    std::string description;
    bool operator==(const GroupOutput &) const = default;
};

struct GroupParam
{
    Link param;               // the inner node and its param (node.param)
    std::string description;  // empty: the inner param's
    Value min, max;           // null: the inner param's range (a given one may only narrow it)
    Value defaultValue;       // null: the value the inner file gives the param
    bool operator==(const GroupParam &) const = default;
};

struct NodeLayout
{
    double x = 0;
    double y = 0;
    bool collapsed = false;
    bool operator==(const NodeLayout &) const = default;
};

struct Graph
{
    std::string name;
    std::string notes;
    World world;
    std::vector<Node> nodes;
    std::map<std::string, NodeLayout> layout;  // editor-only; ignored by evaluation and the hash
    // The interface the graph offers as a group (top-level inputs, outputs and expose), by name.
    std::map<std::string, GroupInput> groupInputs;
    std::map<std::string, GroupOutput> groupOutputs;
    std::map<std::string, GroupParam> exposed;
    // The folder file params (images, shapes, placements) are relative to: the graph file's,
    // absolute. Not saved, not hashed, not compared; empty: the working folder.
    std::string baseDir;

    // The same graph: nodes compare by id, whatever their order in `nodes` (files list them in
    // any order; the canonical save sorts them), so load(save(g)) == g.
    bool operator==(const Graph &other) const;

    int indexOf(const std::string &id) const;  // linear; use GraphIndex for many lookups
    const Node *node(const std::string &id) const;
    Node *node(const std::string &id);
};

// id -> index into graph.nodes, for code that resolves many links.
class GraphIndex
{
public:
    explicit GraphIndex(const Graph &graph);
    int indexOf(const std::string &id) const;

private:
    std::unordered_map<std::string, int> m_index;
};

// Node indices in a stable topological order: inputs first, ties broken by id. Nodes in a
// cycle (or downstream of one) follow at the end, by id. Links to missing nodes are ignored.
// `placed`, when given, says per node whether it found a place before the cycles.
std::vector<int> topologicalOrder(const Graph &graph, std::vector<char> *placed = nullptr);

// The nodes of every cycle, each cycle in link order, to name them in messages.
std::vector<std::vector<std::string>> findCycles(const Graph &graph);

// True for ids matching [a-z][a-z0-9_]*.
bool isValidNodeId(const std::string &id);

} // namespace grove
