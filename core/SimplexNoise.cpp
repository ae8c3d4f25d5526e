// Simplex noise: skew to a triangular lattice, sum three radial kernels (0.5 - d^2)^4 times a gradient.
#include "SimplexNoise.h"

#include "NoiseLattice.h"

#include <cmath>

namespace grove {

namespace {

constexpr double kSkew = 0.36602540378443864676;    // (sqrt(3) - 1) / 2
constexpr double kUnskew = 0.21132486540518711775;  // (3 - sqrt(3)) / 6
// With these sixteen unit gradients the kernel sum stays within +-0.01008 (searched numerically:
// the best of 40 million samples, refined); this maps +-0.01009 onto [0, 1].
constexpr double kScale = 0.5 / 0.01009;

inline const double *gradientAt(std::uint32_t i, std::uint32_t j, std::int32_t seed)
{
    return kUnitGradients[cellHash(i, j, seed) >> 28];
}

inline double corner(const double *g, double dx, double dy)
{
    double t = 0.5 - dx * dx - dy * dy;
    if (t <= 0)
        return 0;
    t *= t;
    return t * t * (g[0] * dx + g[1] * dy);
}

} // namespace

SimplexNoiseRow::SimplexNoiseRow(double y, std::int32_t seed) : m_seed(seed)
{
    const SubCellShift shift = subCellShift(seed);
    m_shiftX = shift.x;
    m_y = y + shift.y;
}

void SimplexNoiseRow::loadCell(std::uint32_t i, std::uint32_t j)
{
    m_i = i;
    m_j = j;
    m_haveCell = true;
    m_g00 = gradientAt(i, j, m_seed);
    m_g10 = gradientAt(i + 1, j, m_seed);
    m_g01 = gradientAt(i, j + 1, m_seed);
    m_g11 = gradientAt(i + 1, j + 1, m_seed);
}

double SimplexNoiseRow::operator()(double x)
{
    x += m_shiftX;
    const double y = m_y;
    const double s = (x + y) * kSkew;
    const double fi = std::floor(x + s), fj = std::floor(y + s);
    const std::uint32_t i = latticeCell(fi), j = latticeCell(fj);
    if (!m_haveCell || i != m_i || j != m_j)
        loadCell(i, j);
    const double t = (fi + fj) * kUnskew;
    const double x0 = x - (fi - t), y0 = y - (fj - t);
    // the lower or the upper triangle of the skewed cell
    const bool lower = x0 > y0;
    const double x1 = x0 - (lower ? 1 : 0) + kUnskew, y1 = y0 - (lower ? 0 : 1) + kUnskew;
    const double x2 = x0 - 1 + 2 * kUnskew, y2 = y0 - 1 + 2 * kUnskew;
    const double n = corner(m_g00, x0, y0) + corner(lower ? m_g10 : m_g01, x1, y1) + corner(m_g11, x2, y2);
    return clampUnit(0.5 + n * kScale);
}

double simplexNoise(double x, double y, std::int32_t seed)
{
    return SimplexNoiseRow(y, seed)(x);
}

} // namespace grove
