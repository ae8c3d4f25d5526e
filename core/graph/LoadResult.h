// What reading a graph gives: the best-effort graph, every problem, and where each YAML path was.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"

#include <map>
#include <string>
#include <utility>

namespace grove {

struct LoadResult
{
    // YAML path -> (line, column) of what the file said there, to place later problems
    // (evaluation failures, overrides) at their source.
    std::map<std::string, std::pair<int, int>> locations;
    Graph graph;              // best effort even when there are errors (bad params take defaults)
    Diagnostics diagnostics;  // every problem, in file order
    bool ok() const { return !hasErrors(diagnostics); }
};

} // namespace grove
