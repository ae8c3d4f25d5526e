// The budget Grove works within: checked before allocating, so absurd input is refused, not run.
#pragma once

#include <cstddef>
#include <cstdint>

namespace grove::limits {

inline constexpr double maxWorldSize = 1e7;          // world units per side
inline constexpr std::size_t maxNodes = 100000;      // nodes in one graph
inline constexpr std::int64_t maxK = 1000;           // place_layer candidates per step
inline constexpr std::int64_t maxOctaves = 24;       // fBm octaves
inline constexpr std::size_t maxYamlBytes = 64u << 20;  // a graph file larger than this is refused
inline constexpr int maxYamlDepth = 64;              // nesting of YAML collections
inline constexpr std::size_t maxYamlValues = 1'000'000;  // values one file may expand to (aliases count each time)

// Points a single layer may hold unless the caller raises it (grove-cli --max-points).
inline constexpr std::uint64_t defaultMaxPointsPerLayer = 20'000'000;

// Images a graph reads (image node): checked from the header before any pixel is decoded.
// 16384 x 16384 at 2 bytes a sample is 512 MiB, the most one image may take.
inline constexpr int maxImageSide = 65536;
inline constexpr std::uint64_t maxImagePixels = std::uint64_t(1) << 28;

// Shapes and placements a graph reads (shapes, points_file): the file's size is checked before it
// is read, the vertex count before geometry is kept. A polygon's rings are checked for crossings
// pairwise after a sweep, so one polygon is held to fewer vertices than a whole file.
inline constexpr std::uint64_t maxInputFileBytes = 64u << 20;
// An export grove-cli diff reads (a million points is about 110 MB of JSON); a graph it reads is
// held to maxYamlBytes.
inline constexpr std::uint64_t maxDiffExportBytes = std::uint64_t(4) << 30;
inline constexpr int maxJsonDepth = 256;
inline constexpr std::size_t maxShapeVertices = 4'000'000;
inline constexpr std::size_t maxShapePolygonVertices = 50'000;
// Paths drawn in the editor and kept in a graph (place_path's `paths`): per node, and vertices per path.
inline constexpr std::size_t maxDrawnPaths = 10'000;
inline constexpr std::size_t maxDrawnPathVertices = 50'000;
// edge pairs the self-intersection sweep may look at in one file (about 2 s at worst)
inline constexpr std::uint64_t maxShapeEdgePairChecks = 400'000'000;

// The budgets above as the catalog lists them (grove-cli nodes --json, and so the manual's Limits
// chapter): each names its constant, so a value is written once.
struct Budget
{
    const char *name;
    double value;
    const char *what;
};
inline constexpr Budget budgets[] = {
    {"world size", maxWorldSize, "world units per side of a world"},
    {"nodes", static_cast<double>(maxNodes), "nodes in one graph, groups expanded"},
    {"k", static_cast<double>(maxK), "place_layer candidates per step"},
    {"octaves", static_cast<double>(maxOctaves), "fBm octaves of a noise"},
    {"graph file bytes", static_cast<double>(maxYamlBytes), "a graph or group file larger than this is refused"},
    {"YAML depth", maxYamlDepth, "nesting of YAML collections"},
    {"YAML values", static_cast<double>(maxYamlValues), "values one graph file may expand to"},
    {"points per layer", static_cast<double>(defaultMaxPointsPerLayer),
     "points one layer may hold (grove-cli --max-points changes it), checked against the packing bound before placing"},
    {"image side", maxImageSide, "pixels on an image input's side"},
    {"image pixels", static_cast<double>(maxImagePixels), "pixels in an image input"},
    {"input file bytes", static_cast<double>(maxInputFileBytes), "a shapes or points_file input larger than this is refused"},
    {"diff export bytes", static_cast<double>(maxDiffExportBytes), "an export grove-cli diff reads"},
    {"JSON depth", maxJsonDepth, "nesting of JSON Grove reads"},
    {"shape vertices", static_cast<double>(maxShapeVertices), "vertices in one shapes file"},
    {"polygon vertices", static_cast<double>(maxShapePolygonVertices), "vertices in one polygon"},
    {"drawn paths", static_cast<double>(maxDrawnPaths), "paths drawn in the editor that one node keeps"},
    {"drawn path vertices", static_cast<double>(maxDrawnPathVertices), "vertices in one drawn path"},
    {"edge pair checks", static_cast<double>(maxShapeEdgePairChecks), "edge pairs one shapes file's self-intersection check may look at"},
};

} // namespace grove::limits
