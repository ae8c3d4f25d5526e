// The YAML <-> Value layer that the graph reader, the canonical writer and value text fields share.
#pragma once

#include "core/base/Value.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace YAML {
class Node;
}

namespace grove {

// Where a YAML node stands in its text: 1-based, 0 when unknown.
struct YamlLocation
{
    int line = 0, column = 0;
};

YamlLocation locationOf(const YAML::Node &node);

// Receives (where, YAML path, message) for every problem found while converting.
using YamlErrorSink = std::function<void(YamlLocation, const std::string &, const std::string &)>;

// Map entries with duplicate keys reported (the first one wins) and non-scalar keys rejected.
// Callers include <yaml-cpp/yaml.h> to use the nodes.
std::vector<std::pair<std::string, YAML::Node>> mapEntries(const YAML::Node &map, const std::string &path,
                                                           const YamlErrorSink &error,
                                                           std::vector<std::pair<std::string, YamlLocation>> *keyLocs);

// YAML -> Value: plain scalars typed like YAML 1.2's core schema, quoted scalars always strings.
// `budget` counts the values a file may expand to, so alias bombs ("billion laughs") stop early.
bool convertYaml(const YAML::Node &n, const std::string &path, int depth, Value &out, const YamlErrorSink &error,
                 std::size_t &budget);

// A problem with a YAML text found before its tree is built.
struct YamlTextProblem
{
    YamlLocation where;
    std::string message;
};

// Walks the text's first document through yaml-cpp's event parser (no tree: a long flow list
// costs its bytes, not a node each) and refuses it at the value that makes it hold more than
// limits::maxYamlValues values (keys, scalars, lists, maps and aliases count one each), so the
// tree YAML::Load builds afterwards is bounded. Text that is not valid YAML passes: YAML::Load
// then says where it goes wrong, having read no further than this did. Aliases count once
// here; what they repeat is counted by convertYaml's budget.
std::optional<YamlTextProblem> checkYamlSize(const std::string &text);

// Parses a scalar or flow value as a param value, exactly as the loader reads YAML params
// (for --set overrides and the editor's text fields).
std::optional<Value> parseValueText(const std::string &text, std::string *error);

// A string as a YAML scalar: plain when it reads back as the same string, else double-quoted.
std::string yamlScalar(const std::string &text);

// A value as one line of flow YAML, exactly as the canonical save writes it.
std::string toFlowYaml(const Value &value);

} // namespace grove
