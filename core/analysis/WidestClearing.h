// The layer statistics' widest clearing (the largest empty circle inside where a layer may grow),
// in the plane or on a wrapped world's torus. Internal to core/analysis (LayerStats.cpp).
#pragma once

#include "core/analysis/LayerStats.h"
#include "core/analysis/StatsBuckets.h"

#include <functional>
#include <vector>

namespace grove {

// The grid cells the stats sample the allowed area with: a mask is evaluated per sample (noise
// upon noise), so a quarter of the cells of a maskless run.
double statsStep(bool masked, double width, double height);

// Copies of `points` one period across each wrapped side (and both, at the corners) that land
// within `band` of the world: what a query near one edge must see of the other. ghostOf[k] is
// the index in `points` of ghost k.
std::vector<PointXYR> torusGhosts(const std::vector<PointXYR> &points, double width, double height, StatsTorus torus,
                                  double band, std::vector<std::uint32_t> &ghostOf);

// Fills s.clearingX, clearingY and clearingDiameter: candidates from a distance transform of the
// layer's points on `a`'s cells (on the torus across wrapped sides), refined against the exact
// points. nearestPoints(band) gives a grid of the layer's own points plus, on the torus, their
// ghosts within `band` of the world (band covers the clearing's radius).
void widestClearing(LayerStats &s, const PointLayer &layer, const AllowedRaster &a, double width, double height,
                    StatsTorus torus, const std::function<const stats::Buckets &(double band)> &nearestPoints,
                    const StatsControl &control);

} // namespace grove
