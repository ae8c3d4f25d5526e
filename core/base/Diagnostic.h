// A problem found in a graph: where it is (file, line, column, YAML path) and what to do about it.
#pragma once

#include <string>
#include <vector>

namespace grove {

struct Diagnostic
{
    enum class Severity { Error, Warning };

    Severity severity = Severity::Error;
    std::string file;     // as given by the caller; may be empty for in-memory graphs
    int line = 0;         // 1-based; 0 when unknown
    int column = 0;       // 1-based; 0 when unknown
    std::string path;     // YAML path, e.g. "nodes.rocks.params.radius"
    std::string nodeId;   // the node the problem belongs to, if any (for the editor's badges)
    std::string message;

    // "FILE:LINE:COL: error: MESSAGE (at PATH)"
    std::string format() const;
};

using Diagnostics = std::vector<Diagnostic>;

bool hasErrors(const Diagnostics &diagnostics);

// A user-given name for a message: in single quotes, control characters escaped, cut to
// 60 bytes (at a UTF-8 boundary) so a hostile file cannot flood the output.
std::string quote(const std::string &name);

// The closest of candidates to word by edit distance, or "" when nothing is close enough.
std::string closestMatch(const std::string &word, const std::vector<std::string> &candidates);

// " did you mean 'x'?" or "" : appended to "unknown ..." messages.
std::string didYouMean(const std::string &word, const std::vector<std::string> &candidates);

// The words as a message lists them: "a, b, c" ("" for none).
std::string commaList(const std::vector<std::string> &words);

} // namespace grove
