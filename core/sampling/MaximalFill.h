// Maximal Poisson-disk sampling: after Bridson, fills every gap where one more point still fits.
#pragma once

#include "core/sampling/PoissonPlacement.h"

#include <atomic>
#include <cstdint>
#include <functional>

namespace grove {

// Adds points to `occupancy` until no spot of the settings' area is left where the placement
// would accept one more: a spot passes when it is on the area, allowed, and clear of every stored
// point p by min(its own radius, p.r), as Bridson's checks say. Every added point passes those
// same checks, so the spacing holds exactly.
//
// The search is Ebeida et al.'s: background cells of side radius / sqrt(2), each dropped once the
// discs of the stored points cover it. Coverage of a cell is decided exactly: the uncovered part
// of a square, when not empty, holds a corner, a point where a circle crosses an edge, or a point
// where two circles cross, and each of these is tested against every other disc. A cell with a
// gap takes random darts, then the gap's own vertex; a cell whose gap is not allowed splits into
// quarters, down to 1/16 of the cell side. So the guarantee is exact for the spacing, and the
// allowed area and radius field (pure functions, read at points) are read at that resolution: a
// cell with a gap is searched only where its 5 x 5 lattice meets allowed ground, so an allowed
// island narrower than that lattice's spacing (radius / 5.7 in a whole cell, finer in its
// quarters) can stay empty. A cell's discs take the radius field's smallest value at the cell's
// corners and centre (a dip between them is not seen). A gap's vertex is tried a hair (1e-9 of
// the scale) off its circles: a sliver thinner than that counts as covered.
//
// Each spot is offered to `tryAdd`: the sampler's own checks for a candidate (on the area, clear
// at the layer's radius, allowed, clear at the spot's radius, under settings.maxPoints), which add
// the point to `occupancy` when it passes. The darts draw from a stream of their own, seeded from
// settings.seed. Deterministic: one thread, cells in row order.
enum class FillTry { Added, Refused, Full };
using FillTryAdd = std::function<FillTry(double x, double y)>;
PlacementStatus fillGaps(const PlacementSettings &settings, OccupancyGrid &occupancy, const FillTryAdd &tryAdd,
                         const std::atomic<bool> *cancel = nullptr);

} // namespace grove
