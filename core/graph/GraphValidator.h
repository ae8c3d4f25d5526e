// Checks a graph against the node catalog: types, params, links, port types and cycles.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"

namespace grove {

class GroupResolver;
class NodeRegistry;

// Every problem, each with its YAML path and node id (no line numbers: the loader adds them).
// groups: the graph's, resolved (a group it does not hold is reported as not read).
Diagnostics validateGraph(const Graph &graph, const GroupResolver &groups);
// One-shot: resolves the graph's groups for this call (core/graph/OneShotGroups.cpp).
Diagnostics validateGraph(const Graph &graph, const NodeRegistry &registry);

// Whether `from.port` may be wired into `to.input`: the one place the editor asks.
// Returns the reason when it may not (type mismatch, cycle, unknown port).
std::optional<std::string> connectionProblem(const Graph &graph, const GroupResolver &groups,
                                             const Link &from, const std::string &toNode,
                                             const std::string &toInput);
// One-shot: resolves the graph's groups for this call (core/graph/OneShotGroups.cpp).
std::optional<std::string> connectionProblem(const Graph &graph, const NodeRegistry &registry,
                                             const Link &from, const std::string &toNode,
                                             const std::string &toInput);

} // namespace grove
