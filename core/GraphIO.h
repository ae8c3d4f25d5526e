// Graph YAML v1: load with every problem located, canonical byte-stable save, atomic file save.
#pragma once

#include "Diagnostic.h"
#include "Graph.h"

#include <map>
#include <optional>
#include <string>

namespace grove {

class NodeRegistry;

inline constexpr int kGraphFormatVersion = 1;

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
LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, const NodeRegistry &registry);
// Puts a later problem (evaluation, override) at the line of the YAML path it names.
void locate(const LoadResult &loaded, Diagnostic &diagnostic);

// Reads a file; a missing or unreadable file is a diagnostic, not an exception.
LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry);

// The canonical text: keys in the spec's order, nodes in stable topological order, every param
// in catalog order, numbers in shortest round-trip form.
std::string saveGraphToString(const Graph &graph, const NodeRegistry &registry, bool withLayout = true);

// "sha256:<hex>" of the canonical text without layout: what the graph computes.
std::string graphHash(const Graph &graph, const NodeRegistry &registry);

// Writes bytes to path atomically (temporary file in the same folder, flush, fsync, rename).
// On failure returns the reason and leaves any existing file untouched.
std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &bytes);

// A value as one line of flow YAML, exactly as the canonical save writes it.
std::string toFlowYaml(const Value &value);

// Parses a scalar or flow value as a param value, exactly as the loader reads YAML params
// (for --set overrides and the editor's text fields).
std::optional<Value> parseValueText(const std::string &text, std::string *error);

} // namespace grove
