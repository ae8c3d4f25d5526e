// Simplex noise: skew to a triangular lattice, sum three radial kernels (0.5 - d^2)^4 times a gradient.
#include "core/fields/SimplexNoise.h"

#include "core/fields/NoiseLattice.h"

#include <cmath>

namespace grove {

namespace {

constexpr double kSkew = 0.36602540378443864676;    // (sqrt(3) - 1) / 2
constexpr double kUnskew = 0.21132486540518711775;  // (3 - sqrt(3)) / 6
// With these sixteen unit gradients the kernel sum stays within +-0.01008 (searched numerically:
// the best of 40 million samples, refined); this maps +-0.01009 onto [0, 1].
constexpr double kSimplexScale = 0.5 / 0.01009;


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
    m_g00 = latticeGradient(i, j, m_seed);
    m_g10 = latticeGradient(i + 1, j, m_seed);
    m_g01 = latticeGradient(i, j + 1, m_seed);
    m_g11 = latticeGradient(i + 1, j + 1, m_seed);
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
    return clampUnit(0.5 + n * kSimplexScale);
}

double simplexNoise(double x, double y, std::int32_t seed)
{
    return SimplexNoiseRow(y, seed)(x);
}

namespace {

constexpr double kSkew3 = 1.0 / 3.0;
constexpr double kUnskew3 = 1.0 / 6.0;
constexpr double kEdges[12][3] = {{1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, 1},
                                  {1, 0, -1}, {-1, 0, -1}, {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1}};

inline double corner3(std::uint32_t i, std::uint32_t j, std::uint32_t k, std::int32_t seed, double dx, double dy, double dz)
{
    double t = 0.6 - dx * dx - dy * dy - dz * dz;
    if (t <= 0)
        return 0;
    const double *g = kEdges[(mixBits32(cellHash(i, j, seed) ^ (k * 0xc2b2ae35u)) >> 28) % 12];
    t *= t;
    return t * t * (g[0] * dx + g[1] * dy + g[2] * dz);
}

} // namespace

double simplexNoise3(double x, double y, double z, std::int32_t seed)
{
    const SubCellShift shift = subCellShift(seed);
    x += shift.x;
    y += shift.y;
    z += shift.x * 0.5 + shift.y * 0.25;
    const double s = (x + y + z) * kSkew3;
    const double fi = std::floor(x + s), fj = std::floor(y + s), fk = std::floor(z + s);
    const double t = (fi + fj + fk) * kUnskew3;
    const double x0 = x - (fi - t), y0 = y - (fj - t), z0 = z - (fk - t);
    // which of the six tetrahedra of the skewed cube
    int i1, j1, k1, i2, j2, k2;
    if (x0 >= y0) {
        if (y0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
        else if (x0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 0; k2 = 1; }
        else { i1 = 0; j1 = 0; k1 = 1; i2 = 1; j2 = 0; k2 = 1; }
    } else {
        if (y0 < z0) { i1 = 0; j1 = 0; k1 = 1; i2 = 0; j2 = 1; k2 = 1; }
        else if (x0 < z0) { i1 = 0; j1 = 1; k1 = 0; i2 = 0; j2 = 1; k2 = 1; }
        else { i1 = 0; j1 = 1; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
    }
    const std::uint32_t i = latticeCell(fi), j = latticeCell(fj), k = latticeCell(fk);
    const double x1 = x0 - i1 + kUnskew3, y1 = y0 - j1 + kUnskew3, z1 = z0 - k1 + kUnskew3;
    const double x2 = x0 - i2 + 2 * kUnskew3, y2 = y0 - j2 + 2 * kUnskew3, z2 = z0 - k2 + 2 * kUnskew3;
    const double x3 = x0 - 1 + 3 * kUnskew3, y3 = y0 - 1 + 3 * kUnskew3, z3 = z0 - 1 + 3 * kUnskew3;
    const auto u = [](int v) { return static_cast<std::uint32_t>(v); };
    const double n = corner3(i, j, k, seed, x0, y0, z0) + corner3(i + u(i1), j + u(j1), k + u(k1), seed, x1, y1, z1)
                     + corner3(i + u(i2), j + u(j2), k + u(k2), seed, x2, y2, z2)
                     + corner3(i + 1, j + 1, k + 1, seed, x3, y3, z3);
    return clampUnit(0.5 + n * 16);
}

} // namespace grove
