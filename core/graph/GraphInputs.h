// The files evaluating a graph reads: what a copy of the graph must carry to another machine.
#pragma once

#include "core/graph/Graph.h"

#include <string>
#include <vector>

namespace grove {

class GroupResolver;

// Every file evaluating `graph` (read from its file, baseDir set) reads besides that file: each
// group's graph file (and the group files those include) and the file of every file param, in
// the graph and inside its groups. Absolute, lexically normal, sorted, each once; a file that does
// not exist is listed too (evaluation reports it). groups: the graph's, resolved.
std::vector<std::string> graphInputFiles(const Graph &graph, const GroupResolver &groups);

} // namespace grove
