// Graph YAML v1 reading: best-effort graph plus every problem with file, line, column and YAML path.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"

#include <map>
#include <string>
#include <utility>

namespace grove {

class NodeRegistry;

struct LoadResult
{
    // YAML path -> (line, column) of what the file said there, to place later problems
    // (evaluation failures, overrides) at their source.
    std::map<std::string, std::pair<int, int>> locations;
    Graph graph;              // best effort even when there are errors (bad params take defaults)
    Diagnostics diagnostics;  // every problem, in file order
    bool ok() const { return !hasErrors(diagnostics); }
};

// Parses YAML text; `fileName` is only used in diagnostics.
// `baseDir`: the folder file params and group files are relative to (the graph's baseDir).
LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, const NodeRegistry &registry,
                               const std::string &baseDir = {});
// Puts a later problem (evaluation, override) at the line of the YAML path it names.
void locate(const LoadResult &loaded, Diagnostic &diagnostic);

// Reads a file; a missing or unreadable file is a diagnostic, not an exception.
LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry);
// The same, with the file named shownAs in diagnostics (a group file as its including graph names it).
LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry, const std::string &shownAs);

} // namespace grove
