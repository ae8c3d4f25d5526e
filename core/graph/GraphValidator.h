// Checks a graph against the node catalog: types, params, links, port types and cycles.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"

namespace grove {

class NodeRegistry;

// Every problem, each with its YAML path and node id (no line numbers: the loader adds them).
Diagnostics validateGraph(const Graph &graph, const NodeRegistry &registry);

// Whether `from.port` may be wired into `to.input`: the one place the editor asks.
// Returns the reason when it may not (type mismatch, cycle, unknown port).
std::optional<std::string> connectionProblem(const Graph &graph, const NodeRegistry &registry,
                                             const Link &from, const std::string &toNode,
                                             const std::string &toInput);

// The nodes of every cycle, each cycle in link order, to name them in messages.
std::vector<std::vector<std::string>> findCycles(const Graph &graph);

} // namespace grove
