// What changed between two versions of a world's layers: points kept, moved, added and removed.
#pragma once

#include "core/base/DataTypes.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grove {

// A point as a diff sees it: position, radius and id (the export's `id`, PointLayer::idOf).
struct DiffPoint
{
    double x = 0, y = 0, r = 0;
    std::uint64_t id = 0;
};

// One side's layer: its export name and points in export order.
struct DiffLayer
{
    std::string name;
    std::vector<DiffPoint> points;
};

// A point of the old side and the one it became on the new side (kept: the same x and y).
struct DiffPair
{
    DiffPoint from, to;
};

struct PointDiffOptions
{
    // Moved means matched within this many world units; nothing: each layer's largest radius
    // (over both sides), so a point that moved less than its own size counts as moved.
    std::optional<double> tolerance;
    // false: kept points are only counted (kept, keptSameId), not listed: saves 48 bytes a
    // point when the caller draws no kept points.
    bool listKept = true;
    const std::atomic<bool> *cancel = nullptr;
    // When given, gets how many new points the matching looked at (a measure of its work, which
    // stays near linear in the points however they crowd or spread).
    std::uint64_t *looked = nullptr;
};

struct LayerDiff
{
    std::string name;
    bool inOld = true, inNew = true;  // a layer on one side only: all removed, or all added
    std::size_t oldCount = 0, newCount = 0;
    double tolerance = 0;             // what `moved` used for this layer
    std::size_t kept = 0;             // same x and y, bit for bit
    std::size_t keptSameId = 0;       // of those, how many kept their id (the rest were renumbered)
    std::vector<DiffPair> keptPoints; // in old order; empty unless options.listKept
    std::vector<DiffPair> renumberedPoints;  // kept points whose id changed, in old order (always listed)
    std::vector<DiffPair> moved;      // in old order
    std::vector<DiffPoint> added;     // in new order
    std::vector<DiffPoint> removed;   // in old order

    std::size_t renumbered() const { return kept - keptSameId; }
    bool same() const { return inOld && inNew && moved.empty() && added.empty() && removed.empty() && kept == keptSameId; }
};

struct PointDiff
{
    // Layers in the old side's order, then the layers only the new side has, in its order. Two
    // layers of one name on a side are paired by their order among that name.
    std::vector<LayerDiff> layers;
    std::string error;      // why there is no diff (cancelled, a layer without points in memory)
    bool ok() const { return error.empty(); }
    // No layer added, removed or changed, and every kept point kept its id.
    bool same() const;
};

// The matching, deterministic for any input order of equal work: per layer (paired by name),
// kept = same x and y bits (same ids paired first); of the rest, pairs within the tolerance are
// taken nearest first (ties: old index, then new index), each point in at most one pair;
// what is left is removed (old) or added (new). A spatial grid keeps it near O(n log n): its
// buckets follow the bulk of the new points, not a far outlier, and new points at one spot are
// visited as one, so a crowd at one spot does not pair up all-to-all. A point
// whose x or y is not finite can only be kept (same bits) or else removed / added, never moved.
PointDiff diffPoints(const std::vector<DiffLayer> &oldLayers, const std::vector<DiffLayer> &newLayers,
                     const PointDiffOptions &options = {});

// An evaluation's exported layers as the diff reads them (layersOf(result, exportedLayers(...))).
// With `region`, only points inside it, computed chunk by chunk for chunked layers (layerInRegion);
// without it, a lazy layer (an endless world) gives an error instead of an empty layer.
struct DiffLayersLoad
{
    std::vector<DiffLayer> layers;
    std::string error;
    bool ok() const { return error.empty(); }
};
DiffLayersLoad diffLayersOf(const std::vector<PointLayerPtr> &layers, const std::optional<Region> &region = {},
                            int threads = 0, const std::atomic<bool> *cancel = nullptr);

// Two in-memory evaluations (the editor's "compare with saved"): diffLayersOf both, then diffPoints.
PointDiff diffPointLayers(const std::vector<PointLayerPtr> &oldLayers, const std::vector<PointLayerPtr> &newLayers,
                          const PointDiffOptions &options = {}, const std::optional<Region> &region = {}, int threads = 0);

} // namespace grove
