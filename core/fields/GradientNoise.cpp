// Gradient noise: improved fade 6t^5 - 15t^4 + 10t^3, unit gradients from a fixed table by cellHash.
#include "core/fields/GradientNoise.h"

#include "core/fields/NoiseLattice.h"
#include "core/math/Torus.h"

#include <cmath>

namespace grove {

namespace {

inline double fade(double t) { return t * t * t * (t * (t * 6 - 15) + 10); }

// With unit gradients 2D Perlin noise lies within [-sqrt(1/2), sqrt(1/2)]; this maps that onto [0, 1].
constexpr double kGradientScale = 0.7071067811865476;


} // namespace

GradientNoiseRow::GradientNoiseRow(double y, std::int32_t seed, LatticePeriod period)
    : m_seed(seed), m_periodX(period.x)
{
    const SubCellShift shift = subCellShift(seed);
    m_shiftX = shift.x;
    y += shift.y;
    const double fy0 = std::floor(y);
    if (period.y > 0) {  // the cell and the next, modulo the period
        m_iy = periodicCell(fy0, period.y);
        m_iy1 = m_iy + 1 == period.y ? 0 : m_iy + 1;
    } else {
        m_iy = latticeCell(fy0);
        m_iy1 = m_iy + 1;
    }
    m_fy = y - fy0;
    m_fadeY = fade(m_fy);
}

void GradientNoiseRow::loadCell(std::uint32_t ix)
{
    m_ix = ix;
    m_haveCell = true;
    const std::uint32_t ix1 = m_periodX > 0 && ix + 1 == m_periodX ? 0 : ix + 1;
    m_g00 = latticeGradient(ix, m_iy, m_seed);
    m_g10 = latticeGradient(ix1, m_iy, m_seed);
    m_g01 = latticeGradient(ix, m_iy1, m_seed);
    m_g11 = latticeGradient(ix1, m_iy1, m_seed);
}

double GradientNoiseRow::operator()(double x)
{
    x += m_shiftX;
    const double fx0 = std::floor(x);
    const std::uint32_t ix = m_periodX > 0 ? periodicCell(fx0, m_periodX) : latticeCell(fx0);
    if (!m_haveCell || ix != m_ix)
        loadCell(ix);
    const double fx = x - fx0, fy = m_fy;
    const double n00 = m_g00[0] * fx + m_g00[1] * fy;
    const double n10 = m_g10[0] * (fx - 1) + m_g10[1] * fy;
    const double n01 = m_g01[0] * fx + m_g01[1] * (fy - 1);
    const double n11 = m_g11[0] * (fx - 1) + m_g11[1] * (fy - 1);
    const double u = fade(fx);
    const double n = lerp(lerp(n00, n10, u), lerp(n01, n11, u), m_fadeY);
    return clampUnit(0.5 + n * kGradientScale);
}

double gradientNoise(double x, double y, std::int32_t seed)
{
    return GradientNoiseRow(y, seed)(x);
}

} // namespace grove
