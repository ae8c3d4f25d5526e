// The integer lattice the gradient, simplex and Worley noises share: cell hash, gradient table, helpers.
#pragma once

#include <cmath>
#include <cstdint>

namespace grove {

// A 32-bit finaliser with full avalanche (every input bit flips about half the output bits).
inline std::uint32_t mixBits32(std::uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// Chained rather than a linear combination, so no shift of the lattice maps one seed onto another.
inline std::uint32_t cellHash(std::uint32_t ix, std::uint32_t iy, std::int32_t seed)
{
    std::uint32_t h = mixBits32(static_cast<std::uint32_t>(seed) + 0x9e3779b9u);
    h = mixBits32(h + ix);
    return mixBits32(h ^ (iy * 0x85ebca6bu));
}

// floor(v) wrapped to 32 bits: the lattice repeats every 2^32 cells, far beyond any world.
inline std::uint32_t latticeCell(double floored)
{
    if (std::fabs(floored) < 2147483648.0)
        return static_cast<std::uint32_t>(static_cast<std::int32_t>(floored));
    if (!std::isfinite(floored))
        return 0;
    double m = std::fmod(floored, 4294967296.0);  // exact for doubles
    if (m < 0)
        m += 4294967296.0;
    return static_cast<std::uint32_t>(m);
}

// Octave o of a fractal sum uses seed + o * 1013 (seed 002's fbm), wrapped to int32.
inline std::int32_t octaveSeed(std::int32_t seed, int octave)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(seed) + static_cast<std::uint32_t>(octave) * 1013u);
}

// Sixteen unit directions, 22.5 degrees apart, as literals: picked by the top 4 bits of cellHash.
inline constexpr double kUnitGradients[16][2] = {
    {1, 0},
    {0.9238795325112867, 0.3826834323650898},
    {0.7071067811865476, 0.7071067811865476},
    {0.3826834323650898, 0.9238795325112867},
    {0, 1},
    {-0.3826834323650898, 0.9238795325112867},
    {-0.7071067811865476, 0.7071067811865476},
    {-0.9238795325112867, 0.3826834323650898},
    {-1, 0},
    {-0.9238795325112867, -0.3826834323650898},
    {-0.7071067811865476, -0.7071067811865476},
    {-0.3826834323650898, -0.9238795325112867},
    {0, -1},
    {0.3826834323650898, -0.9238795325112867},
    {0.7071067811865476, -0.7071067811865476},
    {0.9238795325112867, -0.3826834323650898},
};

// A periodic lattice's period along x and y, in whole cells (0: that axis does not repeat).
struct LatticePeriod
{
    double x = 0, y = 0;
};

struct SubCellShift
{
    double x, y;  // each in [0, 1) cells
};

// Gradient and simplex noise are 0.5 on every lattice point whatever the seed, so each seed shifts
// its lattice by a hashed fraction of a cell: otherwise every seed and octave shares those points,
// and ridged or billow sums of two seeds correlate (and show the grid).
inline SubCellShift subCellShift(std::int32_t seed)
{
    const std::uint32_t h = cellHash(0x5bd1e995u, 0x1b873593u, seed);
    return {(h & 0xffffu) * (1.0 / 65536.0), (h >> 16) * (1.0 / 65536.0)};
}

// Clamps to [0, 1]; NaN gives 0, so a bad coordinate never leaves the range.
inline double clampUnit(double v)
{
    return v > 0 ? (v < 1 ? v : 1) : 0;
}

// The gradient of lattice point (ix, iy): one of kUnitGradients, by the top 4 bits of cellHash.
inline const double *latticeGradient(std::uint32_t ix, std::uint32_t iy, std::int32_t seed)
{
    return kUnitGradients[cellHash(ix, iy, seed) >> 28];
}

// a + (b - a) t, in that order (the references' rounding)
inline double lerp(double a, double b, double t) { return a + (b - a) * t; }

} // namespace grove
