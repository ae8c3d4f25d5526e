// Graph YAML v1 writing: the canonical, byte-stable text, and the graph hash taken from it.
#pragma once

#include "core/graph/Graph.h"

#include <string>

namespace grove {

class GroupResolver;
class NodeRegistry;

// The canonical text: keys in the spec's order, nodes in stable topological order, a node's
// version when above 1, the params that differ from their defaults in catalog order (a group
// node's all), numbers in shortest round-trip form.
// groups: the graph's, resolved; writing reads no file.
std::string saveGraphToString(const Graph &graph, const GroupResolver &groups, bool withLayout = true);

// "sha256:<hex>" of the canonical text without layout and expect: what the graph computes.
std::string graphHash(const Graph &graph, const GroupResolver &groups);

// One-shot forms: resolve the graph's groups for this call (core/graph/OneShotGroups.cpp).
std::string saveGraphToString(const Graph &graph, const NodeRegistry &registry, bool withLayout = true);
std::string graphHash(const Graph &graph, const NodeRegistry &registry);

} // namespace grove
