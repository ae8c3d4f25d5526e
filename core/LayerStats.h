// Per-layer statistics a designer compares methods by: count, tightest pair, pairs too close,
// widest clearing (the largest empty circle).
#pragma once

#include "DataTypes.h"

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
    double clearingX = 0, clearingY = 0;
    double clearingDiameter = 0; // the widest empty circle centred in the world, touching the layer's points
};

// `earlier` are the layers placed before this one (their points count for tooClose only).
LayerStats computeLayerStats(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double worldWidth,
                             double worldHeight);

// The stats of an evaluated node's layer against its own obstacles: the other layers on its
// chain output (grove-cli --stats and the preview's layer table alike).
LayerStats computeLayerStats(const EvalResult &result, const std::string &nodeId, const PointLayerPtr &layer,
                             const World &world);

} // namespace grove
