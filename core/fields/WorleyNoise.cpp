// Worley noise: the two nearest hashed feature points over the 5 x 5 cells around the query.
#include "core/fields/WorleyNoise.h"

#include "core/fields/NoiseLattice.h"

#include <cmath>

namespace grove {

WorleyNoiseRow::WorleyNoiseRow(double y, std::int32_t seed, WorleyMode mode) : m_seed(seed), m_mode(mode)
{
    const double fy0 = std::floor(y);
    m_iy = latticeCell(fy0);
    m_fy = y - fy0;
}

void WorleyNoiseRow::loadCell(std::uint32_t ix)
{
    m_ix = ix;
    m_haveCell = true;
    int k = 0;
    for (int dy = -kReach; dy <= kReach; ++dy)
        for (int dx = -kReach; dx <= kReach; ++dx, ++k) {
            const std::uint32_t h = cellHash(ix + static_cast<std::uint32_t>(dx), m_iy + static_cast<std::uint32_t>(dy), m_seed);
            m_px[k] = dx + (h & 0xffffu) * (1.0 / 65536.0);
            m_py[k] = dy + (h >> 16) * (1.0 / 65536.0);
        }
}

double WorleyNoiseRow::operator()(double x)
{
    const double fx0 = std::floor(x);
    const std::uint32_t ix = latticeCell(fx0);
    if (!m_haveCell || ix != m_ix)
        loadCell(ix);
    const double fx = x - fx0, fy = m_fy;
    double d1 = INFINITY, d2 = INFINITY;  // squared distances, nearest first
    for (int k = 0; k < kSide * kSide; ++k) {
        const double dx = m_px[k] - fx, dy = m_py[k] - fy;
        const double d = dx * dx + dy * dy;
        if (d < d1) {
            d2 = d1;
            d1 = d;
        } else if (d < d2) {
            d2 = d;
        }
    }
    // Distances in cells: F1 and F2 - F1 are below one cell at 99.9 % of spots, so the value is the
    // distance itself, clamped at 1. sqrt is correctly rounded (IEEE 754): the same on every machine.
    const double f1 = std::sqrt(d1);
    if (m_mode == WorleyMode::F1)
        return clampUnit(f1);
    return clampUnit(std::sqrt(d2) - f1);
}

double worleyNoise(double x, double y, std::int32_t seed, WorleyMode mode)
{
    return WorleyNoiseRow(y, seed, mode)(x);
}

} // namespace grove
