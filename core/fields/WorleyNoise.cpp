// Worley noise: the two nearest hashed feature points over the 5 x 5 cells around the query.
#include "core/fields/WorleyNoise.h"

#include "core/fields/NoiseLattice.h"
#include "core/math/Torus.h"

#include <cmath>

namespace grove {

WorleyNoiseRow::WorleyNoiseRow(double y, std::int32_t seed, WorleyMode mode, LatticePeriod period)
    : m_seed(seed), m_mode(mode), m_period(period)
{
    const double fy0 = std::floor(y);
    m_iy = period.y > 0 ? periodicCell(fy0, period.y) : latticeCell(fy0);
    m_fy = y - fy0;
}

std::uint32_t WorleyNoiseRow::neighbour(std::uint32_t cell, int offset, double period)
{
    if (period > 0)  // cell is already in [0, period): the offset may go round more than once
        return periodicCell(static_cast<double>(cell) + offset, period);
    return cell + static_cast<std::uint32_t>(offset);
}

void WorleyNoiseRow::loadCell(std::uint32_t ix)
{
    m_ix = ix;
    m_haveCell = true;
    int k = 0;
    for (int dy = -kReach; dy <= kReach; ++dy)
        for (int dx = -kReach; dx <= kReach; ++dx, ++k) {
            const std::uint32_t h = cellHash(neighbour(ix, dx, m_period.x), neighbour(m_iy, dy, m_period.y), m_seed);
            m_px[k] = dx + (h & 0xffffu) * (1.0 / 65536.0);
            m_py[k] = dy + (h >> 16) * (1.0 / 65536.0);
        }
}

double WorleyNoiseRow::operator()(double x)
{
    const double fx0 = std::floor(x);
    const std::uint32_t ix = m_period.x > 0 ? periodicCell(fx0, m_period.x) : latticeCell(fx0);
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
