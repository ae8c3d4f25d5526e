// Files of placements a graph reads: the grove.points JSON export, Tiled maps, GeoJSON points and
// CSV. JSON is parsed with nlohmann-json after the file's size and nesting are checked
// (core/base/Limits.h), CSV by the shared CsvReader; every problem names where in the file it is.
#pragma once

#include "core/base/DataTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace grove {

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
