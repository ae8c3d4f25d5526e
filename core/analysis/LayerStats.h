// Per-layer statistics a designer compares methods by: count, tightest pair, pairs too close,
// widest clearing (the largest empty circle).
#pragma once

#include "core/analysis/Crowding.h"
#include "core/base/DataTypes.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace grove {

struct EvalResult;
struct World;

struct LayerStats
{
    std::size_t count = 0;
    double tightest = 0;         // smallest distance between two of the layer's points (0 with < 2 points)
    std::size_t tooClose = 0;    // pairs closer than min(ri, rj): within the layer and against the earlier layers
    std::vector<TooClosePair> tightestTooClose;  // a few of those pairs, tightest first (not for a volume)
    double clearingX = 0, clearingY = 0;
    double clearingDiameter = 0; // the widest empty circle inside the allowed area (the world without one)
    std::string why;             // why the layer holds far fewer points than its area could, or empty
    bool cancelled = false;      // stopped by StatsControl::cancel: the numbers are incomplete
    // A volume layer (place_volume): tightest and tooClose are measured in 3D (x, y and depth z),
    // there is no clearing, and density = count r^3 / (width height depth) at the layer's radius.
    bool volume = false;
    double density = 0;
};

// Stats are work too: a 2.5M-point layer takes seconds, so they report progress and can stop.
struct StatsControl
{
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double)> progress;  // fraction in [0, 1]
    // The work is polled for cancellation between rows and batches.
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// Where a layer may grow, sampled at the centres of square cells `step` wide from the region's
// corner (the last column and row at its far edges): one sampler for the stats' clearing and
// explanation and for grove-cli check's density and coverage.
struct AllowedRaster
{
    Region region;
    double step = 1;
    int nx = 1, ny = 1;
    std::vector<char> allowed;  // row-major; empty: everywhere
    std::size_t allowedCells = 0;

    bool at(int i, int j) const
    {
        return allowed.empty() || allowed[static_cast<size_t>(j) * static_cast<size_t>(nx) + static_cast<size_t>(i)];
    }
    double x(int i) const { return std::min(region.x1, region.x0 + (i + 0.5) * step); }
    double y(int j) const { return std::min(region.y1, region.y0 + (j + 0.5) * step); }
    double area() const { return static_cast<double>(allowedCells) * step * step; }
};

// Every cell allowed without a mask (none stored). An empty region has at least one cell.
AllowedRaster sampleAllowed(const Mask *mask, const Region &region, double step, const StatsControl &control = {});

// Which sides of the world wrap (world.wrap): there pairs and clearings are measured on the torus,
// as the output tiles (a pair across a seam is as close as its nearest copies).
struct StatsTorus
{
    bool x = false, y = false;
    bool wraps() const { return x || y; }
};

// `earlier` are the layers placed before this one (their points count for tooClose only);
// `allowed`, when given, bounds the widest clearing.
LayerStats computeLayerStats(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double worldWidth,
                             double worldHeight, const Mask *allowed = nullptr, const StatsControl &control = {},
                             StatsTorus torus = {});

// A volume layer's stats in 3D against the earlier volume layers (their points count for tooClose).
LayerStats computeVolumeStats(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double width,
                              double height, double depth);

// What an evaluated node's layer was placed among: the other layers on its chain output.
std::vector<PointLayerPtr> obstaclesOf(const EvalResult &result, const std::string &nodeId, const PointLayerPtr &layer);

// The stats of an evaluated node's layer against its own obstacles: the other layers on its
// chain output, its clearing within the mask wired into its allowed-area input (grove-cli --stats
// and the preview's layer table alike).
LayerStats computeLayerStats(const EvalResult &result, const std::string &nodeId, const PointLayerPtr &layer,
                             const World &world, const StatsControl &control = {});

} // namespace grove
