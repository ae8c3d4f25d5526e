// Simplex noise in 2D (Perlin 2001, as Gustavson describes it) on an integer-hashed lattice, in [0, 1].
#pragma once

#include <cstdint>

namespace grove {

// Samples one row (fixed y and seed) of simplex noise; consecutive x in the same skewed cell
// reuse its corner gradients. The value depends only on (x, y, seed), never on what came before.
class SimplexNoiseRow
{
public:
    SimplexNoiseRow(double y, std::int32_t seed);
    double operator()(double x);  // in [0, 1]

private:
    void loadCell(std::uint32_t i, std::uint32_t j);

    double m_y, m_shiftX;
    std::int32_t m_seed;
    bool m_haveCell = false;
    std::uint32_t m_i = 0, m_j = 0;
    const double *m_g00 = nullptr, *m_g10 = nullptr, *m_g01 = nullptr, *m_g11 = nullptr;
};

// One sample of simplex noise in [0, 1].
double simplexNoise(double x, double y, std::int32_t seed);

// 3D simplex noise in [0, 1] (Gustavson's 3D simplex: skew (x + y + z) / 3, unskew 1/6, four
// corners with kernels (0.6 - d^2)^4 times a gradient), for volumes. The lattice is integer-hashed:
// corner (i, j, k) takes gradient h >> 28 mod 12 of the twelve cube edge directions (1, 1, 0) ...,
// where h = mixBits32(cellHash(i, j, seed) ^ (k * 0xc2b2ae35)); the sum is mapped by 0.5 + 16 n
// and clamped to [0, 1]. The seed shifts the lattice by a sub-cell offset as in 2D.
double simplexNoise3(double x, double y, double z, std::int32_t seed);

} // namespace grove
