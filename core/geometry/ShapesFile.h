// Files of shapes a graph reads: Tiled JSON maps (an object layer) and GeoJSON. Parsed with
// nlohmann-json after the file's size and nesting are checked (core/base/Limits.h); every problem names where in the file it is.
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

} // namespace grove
