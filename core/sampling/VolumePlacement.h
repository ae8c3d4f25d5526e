// Bridson's algorithm in three dimensions (place_volume): a 3D occupancy, candidates in the
// spherical shell [r, 2r) around an active point, bit-exact with tests/oracle/volume.mjs.
#pragma once

#include "core/base/DataTypes.h"
#include "core/sampling/PoissonPlacement.h"

#include <cstdint>
#include <vector>

namespace grove {

struct PointXYZR
{
    double x, y, z, r;
};

struct VolumeSettings
{
    double width = 0, height = 0, depth = 0;  // the volume [0, width) x [0, height) x [0, depth)
    double radius = 20;
    int k = 30;
    std::int32_t seed = 0;
    StartMode start = StartMode::Patches;
    double startX = 0, startY = 0, startZ = 0;
    const Mask *allowed = nullptr;       // asked with at3
    const Field *radiusField = nullptr;  // a point's radius is max(radius, field.at3(x, y, z))
    std::uint64_t maxPoints = UINT64_MAX;
};

// An upper bound on a volume's points: no two closer than r means disjoint balls of radius r/2,
// which pack at most pi / sqrt(18) of space (Kepler): N <= sqrt(2) V / r^3, with a border of r.
double maxVolumePointsEstimate(double width, double height, double depth, double radius);
// The cells of the occupancy place_volume builds (side radius / sqrt(3)), as a double.
double volumeGridCells(double width, double height, double depth, double radius);

// Whether a step's candidates may take the AVX2 path where the CPU has it (default: yes): the
// same points either way (GROVE_SIMD, SimdPath.h, holds both to the pinned bytes).
void setVolumeSimd(bool enabled);

// Places one volume layer keeping clear of `obstacles` (points of other volumes, each at least
// min(its r, the candidate's r) away). The draw order, per step: u -> the active slot
// floor(u n); per candidate: two polar pairs (u, v) = (2 f1 - 1, 2 f2 - 1) each redrawn while
// s = u^2 + v^2 is >= 1 or 0 (Marsaglia: Gaussians u sqrt(-2 ln s / s)), of which the first pair
// gives gx, gy and the second gz (its second Gaussian unused), then x = 1/8 + f * 7/8; the
// candidate is parent + (g / |g|) * (2 r_parent cbrt(x)).
PlacementStatus placeVolume(const VolumeSettings &settings, const std::vector<PointXYZR> &obstacles,
                            std::vector<PointXYZR> &out, const PlacementControl &control = {});

} // namespace grove
