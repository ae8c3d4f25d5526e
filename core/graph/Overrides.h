// `--set NODE.PARAM=VALUE` overrides, checked exactly like the file's own params.
#pragma once

#include "core/graph/Graph.h"

#include <optional>
#include <string>

namespace grove {

class NodeRegistry;

// Applies one override; returns the problem (with a did-you-mean) when it cannot.
std::optional<std::string> applyOverride(Graph &graph, const NodeRegistry &registry, const std::string &assignment);

} // namespace grove
