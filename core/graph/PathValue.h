// A path of a path list param (paths drawn in the editor) as a typed value: the graph holds
// {points: [[x, y], [x, y], ...], closed: false}, and this is the one place that text is read
// (the loader's check, the node, the editor's tool and Inspector) or written.
#pragma once

#include "core/graph/AreaValue.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace grove {

struct DrawnPath
{
    std::vector<AreaPoint> points;  // 2 or more; 3 or more when closed
    bool closed = false;
};

// The fewest vertices a path keeps: an open one 2, a closed one 3.
inline std::size_t minimumVertices(bool closed) { return closed ? 3 : 2; }

// The path `v` holds, or nothing, with why in *error ("vertex 4 x must be a finite number ...")
// and where under the path in *where (".points[4]", ".closed").
std::optional<DrawnPath> readDrawnPath(const Value &v, std::string *error = nullptr, std::string *where = nullptr);

// Why `list` is no path list (with where below it, "[2].points[4]"), or nothing: the check the
// loader and the editor's edits make.
std::optional<std::string> checkPathList(const Value &list, std::string &where);

// One entry per item of `list` (a checked graph's path list), nothing for an item that is no path.
std::vector<std::optional<DrawnPath>> readPathList(const Value &list);

// The value a graph holds for `path`: its points, then closed (always written, so a reader sees
// which kind it is).
Value pathValue(const DrawnPath &path);

} // namespace grove
