// Perlin's improved gradient noise in 2D on an integer-hashed lattice, remapped to [0, 1].
#pragma once

#include "core/fields/NoiseLattice.h"

#include <cstdint>

namespace grove {

// Samples one row (fixed y and seed) of gradient noise; consecutive x in the same lattice cell
// reuse its corner gradients. The value depends only on (x, y, seed), never on what came before.
class GradientNoiseRow
{
public:
    // period: the lattice repeats every period.x cells along x and period.y along y (0: never)
    GradientNoiseRow(double y, std::int32_t seed, LatticePeriod period = {});
    double operator()(double x);  // in [0, 1]

private:
    void loadCell(std::uint32_t ix);

    std::int32_t m_seed;
    double m_shiftX;
    std::uint32_t m_iy, m_iy1;
    double m_periodX;
    double m_fy, m_fadeY;
    bool m_haveCell = false;
    std::uint32_t m_ix = 0;
    const double *m_g00 = nullptr, *m_g10 = nullptr, *m_g01 = nullptr, *m_g11 = nullptr;
};

// One sample of gradient noise in [0, 1].
double gradientNoise(double x, double y, std::int32_t seed);

} // namespace grove
