// Bridson placement on a shared occupancy, bit-exact with the seed tutorial (steps 4-6).
#pragma once

#include "core/base/DataTypes.h"
#include "core/sampling/OccupancyGrid.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace grove {

enum class StartMode { Patches, Random, Point };

// Tutorial (`method: exact` in a graph): the seed tutorial's Bridson, bit for bit. Fast: candidates
// on the circle just outside the radius (Martin Roberts): denser, quicker, deterministic, not the
// tutorial's points.
enum class PlacementMethod { Tutorial, Fast };

struct PlacementSettings
{
    double width = 0, height = 0;
    double x0 = 0, y0 = 0;       // the placement area's corner: [x0, x0 + width) x [y0, y0 + height)
    double radius = 20;          // the layer's minimum radius
    int k = 30;
    std::int32_t seed = 0;       // effective seed
    StartMode start = StartMode::Patches;
    PlacementMethod method = PlacementMethod::Tutorial;
    double startX = 0, startY = 0;
    const Mask *allowed = nullptr;      // optional biome rule
    const Field *radiusField = nullptr; // optional: a point's radius is max(radius, field(x, y))
    double radiusFieldMax = 0;          // radiusField's upper bound (+inf when unknown)
    std::uint64_t maxPoints = UINT64_MAX;
    // A wrapped world: the area is a torus along x and/or y. Candidates beyond an edge come in at
    // the opposite one, and the occupancy (OccupancyGrid::setWrap, set by the caller) measures the
    // shortest way round. Off: the seed tutorial's placement, unchanged.
    bool wrapX = false, wrapY = false;
    // After Bridson, fill every gap where one more point still fits (MaximalFill.h). Off: the
    // layer is Bridson's alone, byte for byte.
    bool maximal = false;
};

struct PlacementControl
{
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(double)> progress;  // fraction in [0, 1], throttled
    PlacementTally *tally = nullptr;       // filled with the rejection counts when given
};

enum class PlacementStatus { Done, Cancelled, TooManyPoints };

// An upper bound on a layer's points: hexagonal packing at the layer's minimum radius.
double maxPointsEstimate(double width, double height, double radius);

// Places one layer, testing against and adding to `occupancy`; on success the layer's points
// move into `out` and the occupancy is used up (its cells freed to keep the peak low).
PlacementStatus placePoisson(const PlacementSettings &settings, OccupancyGrid &occupancy,
                             std::vector<PointXYR> &out, const PlacementControl &control = {});

// One chunk of a chunked world (ChunkedLayer): Bridson inside the settings' area on an occupancy
// that already holds every point it must keep clear of. `adopted` (already on the occupancy, and
// this layer's own) and the frontier (points of chunks placed before, near this one, each with
// `frontierTries` candidates in its ring) start in the active list; then the start mode, growth,
// and a patches pass over the whole area that re-seeds whatever the neighbours cut off. On
// success the chunk's points stay on the occupancy, in the order they were placed, from
// `firstPlaced` on (read them with point(i): the caller splits them into its lists, with no copy
// between). The occupancy must not wrap.
PlacementStatus placeChunk(const PlacementSettings &settings, OccupancyGrid &occupancy, const std::vector<PointXYR> &adopted,
                           const std::vector<PointXYR> &frontier, int frontierTries, std::size_t &firstPlaced,
                           const PlacementControl &control = {});

} // namespace grove
