// An area of an area list param (a layer's erase areas) as a typed value: the graph holds
// {circle: [x, y, radius]} or {polygon: [[x, y], [x, y], [x, y], ...]}, and this is the one place
// that text is read (the loader's check, the erase mask, the editor's list and drawing) or written.
#pragma once

#include "core/base/Value.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace grove {

struct AreaPoint
{
    double x = 0, y = 0;
};

struct Area
{
    bool circle = true;
    AreaPoint centre;               // a circle's
    double radius = 0;              // a circle's, > 0
    std::vector<AreaPoint> polygon; // a polygon's vertices, 3 or more
};

// Every coordinate lies within +-kAreaReach; the areas of one list hold at most kAreaVertexLimit vertices.
constexpr double kAreaReach = 1e9;
constexpr std::size_t kAreaVertexLimit = std::size_t(1) << 20;

// The area `v` holds, or nothing, with why in *error ("circle radius must be > 0, got -3") and
// where under the area in *where (".circle", ".polygon[4]"). `vertices`, when given, counts the
// polygon vertices of a whole list, refused past kAreaVertexLimit.
std::optional<Area> readArea(const Value &v, std::string *error = nullptr, std::string *where = nullptr,
                             std::size_t *vertices = nullptr);

// A vertex [x, y] within +-kAreaReach into `out`; false with why in `error` ("must be [x, y], got
// 3 values", "y must be a number, got a string"). Erase polygons and drawn paths read theirs so.
bool readVertex(const Value &v, AreaPoint &out, std::string &error);

// One entry per item of `list` (a checked graph's area list), nothing for an item that is no area.
std::vector<std::optional<Area>> readAreaList(const Value &list);

// The value a graph holds for `area`.
Value areaValue(const Area &area);

// "a number", "a list", "null"...: a value's kind in the words of the param checks' messages.
std::string describeKind(const Value &v);

} // namespace grove
