// Reading Grove's own points exports back (grove.points JSON and CSV): layers, positions, radii and
// ids as the exact doubles the text holds. The one reader of grove.points JSON: grove-cli diff and
// the points_file node's placements (core/formats/PointsFile) both read through it.
#pragma once

#include "core/base/DataTypes.h"
#include "core/analysis/PointDiff.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace grove {

// What a file holds, told by its content (not its name).
enum class PointsTextKind
{
    GrovePointsJson,  // JSON whose "format" is "grove.points"
    OtherJson,        // JSON of another kind (a Tiled map, an Unreal or glTF export...)
    GroveCsv,         // a first line "layer,id,x,y,r,..."
    Other             // anything else: a graph, perhaps
};

// "a grove.points JSON export", "a CSV export", ... for messages.
const char *pointsTextKindName(PointsTextKind kind);

struct PointsExportRead
{
    PointsTextKind kind = PointsTextKind::Other;
    std::vector<DiffLayer> layers;  // in file order (CSV: in order of each layer's first row)
    std::optional<Region> bounds;   // the JSON's bounds; CSV has none
    // "LINE:COL: what" (1-based) when the text is not a readable export; empty when read
    std::string error;
    bool tooLarge = false;          // the error is a size bound ("larger than ..."), without a place
    bool ok() const { return error.empty(); }
};

// Reads a grove.points JSON or Grove CSV export from `in` as it parses it, so a file that goes
// wrong early fails there, at its first bad byte, having read no further: at most maxBytes
// bytes, and no single JSON string, number or CSV field longer than 64 MiB (a longer one is
// refused where it grows past that). Streams the JSON through nlohmann's SAX interface (no
// document tree), so a million-point layer costs its points, not a DOM. The kind is told by the
// content: JSON whose root "format" is not grove.points (kind OtherJson) stops at that member;
// anything else (kind Other: a graph, perhaps, YAML in flow style included) is read whole into
// `other` when given, up to maxOtherBytes (beyond: tooLarge, or for text that starts like JSON,
// an error at the place where it stopped being JSON).
// What a JSON point must hold: grove-cli diff matches by id and radius; a placements file
// (points_file) needs only x and y, and a point without r reads with r NaN.
enum class PointsExportNeeds
{
    IdAndRadius,
    Position
};

PointsExportRead readPointsExport(std::istream &in, std::uint64_t maxBytes, std::string *other = nullptr,
                                  std::uint64_t maxOtherBytes = 0, PointsExportNeeds needs = PointsExportNeeds::IdAndRadius);

} // namespace grove
