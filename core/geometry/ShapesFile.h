// Files of shapes and placements a graph reads: Tiled JSON maps (an object layer), GeoJSON, the
// grove.points JSON export and CSV. Parsed with nlohmann-json after the file's size and nesting
// are checked (core/base/Limits.h); every problem names where in the file it is.
#pragma once

#include "core/base/DataTypes.h"
#include "core/geometry/Polygon.h"

#include <cstdint>
#include <string>
#include <vector>

namespace grove {

struct ShapesLoad
{
    ShapeSet shapes;
    std::string error;  // empty when read
    bool ok() const { return error.empty(); }
};

// world = (offsetX, offsetY) + scale * file coordinates.
struct ShapesTransform
{
    double offsetX = 0, offsetY = 0, scale = 1;
};

// A Tiled map (.tmj / .json: the object layer `layer`) or GeoJSON (.geojson, or any JSON whose
// type is a FeatureCollection, Feature or geometry). Polygons are checked for self-intersection.
ShapesLoad loadShapes(const std::string &path, const std::string &layer, const ShapesTransform &transform);

struct PointsLoad
{
    std::vector<PointXYR> points;
    std::string error;
    bool ok() const { return error.empty(); }
};

struct PointsFileOptions
{
    std::string layer;          // Grove JSON / CSV layer, Tiled object layer; empty: all
    double radius = 10;         // when the file gives none (or radiusFromFile is false)
    bool radiusFromFile = true;
    std::uint64_t maxPoints = 20'000'000;
};

// grove.points JSON, a Tiled map, GeoJSON points (by content), or CSV (by the .csv extension).
PointsLoad loadPointsFile(const std::string &path, const PointsFileOptions &options);

} // namespace grove
