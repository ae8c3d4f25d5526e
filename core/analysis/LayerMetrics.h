// A layer's metrics for grove-cli check: what LayerStats measures (count, tightest, too_close,
// clearing) plus density, coverage and the spectrum's low_freq and anisotropy, within a region.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/Expectation.h"
#include "core/analysis/LayerStats.h"

#include <map>
#include <optional>
#include <set>

namespace grove {

struct PointSpectrum;

// One layer as measured: its points and its obstacles' (world coordinates, the region's alone),
// where it may grow, and its spacing.
struct MetricSubject
{
    PointLayerPtr layer;
    std::vector<PointLayerPtr> earlier;  // the layers placed before it on its occupancy
    const Mask *allowed = nullptr;       // null: everywhere
    Region region;                       // what is measured: the world, or a rectangle of it
    double radius = 0;                   // the layer's minimum radius (see layerRadius)
    double depth = 0;                    // world.depth: a volume layer's density is N r^3 / (area depth)
    // The world's wrapped sides when the region is the whole world (world.wrap): pairs, clearings
    // and coverage are measured on the torus, across the seams, as the layer was placed.
    StatsTorus torus;
};

// The layer's spacing: its sampler's minimum radius, or its points' smallest r (0 when empty).
// Read from the placed layer, so no node's param names are spelt here.
double layerRadius(const PointLayer &layer);

// Where a layer may grow, LayerStats' raster of the region in cells of radius / 4, grown (the same
// for every layer of a size) so at most kMaxAreaSamples cells are read. No cells for an empty
// region. Not through LayerStats' cache: its cells are the world's, never r / 4, so it would only
// copy each raster in and evict the editor's.
constexpr double kMaxAreaSamples = 1 << 20;
AllowedRaster sampleArea(const MetricSubject &subject);

// The share of the allowed cells within a point's own r of one of the layer's points, or within
// min(r, the layer's radius) of an obstacle's (its own r when it keeps its radius): 1 for a
// maximal sample, where no further point would fit. 1 when nothing is allowed. On the torus a
// point also covers the cells across the seams.
double coverage(const MetricSubject &subject, const AllowedRaster &area);

// The wanted metrics of the subject (only those: the spectrum and the clearing cost time).
// `spectrum`, when given, receives the spectrum if one was computed (or is computed for it).
std::map<Metric, double> measureLayer(const MetricSubject &subject, const std::set<Metric> &wanted,
                                      PointSpectrum *spectrum = nullptr);

} // namespace grove
