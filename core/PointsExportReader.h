// Reading Grove's own points exports back (grove.points JSON and CSV) for grove-cli diff: layers,
// positions, radii and ids as the exact doubles the text holds.
#pragma once

#include "DataTypes.h"
#include "PointDiff.h"

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

PointsTextKind pointsTextKind(const std::string &text);
// "a grove.points JSON export", "a CSV export", ... for messages.
const char *pointsTextKindName(PointsTextKind kind);

struct PointsExportRead
{
    PointsTextKind kind = PointsTextKind::Other;
    std::vector<DiffLayer> layers;  // in file order (CSV: in order of each layer's first row)
    std::optional<Region> bounds;   // the JSON's bounds; CSV has none
    // "LINE:COL: what" (1-based) when the text is not a readable export; empty when read
    std::string error;
    bool ok() const { return error.empty(); }
};

// Reads a grove.points JSON or Grove CSV export (any other kind is an error). Streams the JSON
// (no document tree), so a million-point layer costs its points, not a DOM.
PointsExportRead readPointsExport(const std::string &text);

} // namespace grove
