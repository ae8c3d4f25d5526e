// Bridson in 3D: Marsaglia Gaussians for the direction, a cube root for the shell radius, both
// from + - * / and sqrt (ExactLog.h), on a bucket grid of cells r / sqrt(3).
#include "core/sampling/VolumePlacement.h"

#include "core/base/CpuFeatures.h"
#include "core/base/HugePages.h"
#include "core/math/DrawAhead.h"
#include "core/math/ExactLog.h"
#include "core/sampling/CodeBounds.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GROVE_X86_SIMD 1
#include <immintrin.h>
#else
#define GROVE_X86_SIMD 0
#endif

namespace grove {

double maxVolumePointsEstimate(double width, double height, double depth, double radius)
{
    return 1.4142135623730951 * (width + radius) * (height + radius) * (depth + radius) / (radius * radius * radius) + 1;
}

double volumeGridCells(double width, double height, double depth, double radius)
{
    const double cell = radius / std::sqrt(3.0);
    return (std::floor(width / cell) + 1) * (std::floor(height / cell) + 1) * (std::floor(depth / cell) + 1);
}

namespace {

// Points in buckets of side `cell`: each cell heads a list threaded through `next`. Points outside
// the volume fall into the border cells; a query looks at every cell within its radius.
//
// Beside each cell's list head sits a 4-byte code: the cell's only point, quantised to 1/1024 of
// the cell on each axis (OccupancyGrid's codes, in 3D). A query decides from the code alone
// whenever the point is clearly farther than the radius or clearly closer than the smallest
// radius stored, and reads the exact point only in the thin band between (or for a cell holding
// several points). Points are stored in the order they were placed, which for Bridson is
// spatially random: without the codes a query waited on its cell's head and then on the point it
// names (61% of the scan's samples at 570^3). The answers stay exact.
class VolumeGrid
{
public:
    VolumeGrid(double width, double height, double depth, double cell)
        : m_cell(cell)
        , m_inverse(1.0 / cell)
        , m_quantStep(cell / (kQuantMask + 1))
        , m_quantError(m_quantStep * 0.8660254037844387)  // half the quantised cube's diagonal
        , m_nx(static_cast<int>(std::floor(width / cell)) + 1)
        , m_ny(static_cast<int>(std::floor(height / cell)) + 1)
        , m_nz(static_cast<int>(std::floor(depth / cell)) + 1)
        , m_extent(std::max({m_nx, m_ny, m_nz}) * cell)
        , m_head(static_cast<std::size_t>(m_nx) * static_cast<std::size_t>(m_ny) * static_cast<std::size_t>(m_nz), -1)
        , m_code(m_head.size(), kEmpty)
    {
    }

    void add(const PointXYZR &p)
    {
        const int i = coord(p.x, m_nx), j = coord(p.y, m_ny), k = coord(p.z, m_nz);
        const std::size_t c = index(i, j, k);
        const std::int32_t head = m_head[c];
        m_entries.push_back({p, head});
        m_head[c] = static_cast<std::int32_t>(m_entries.size() - 1);
        // the code: the point's offset in its cell in 1/1024ths, when it is the cell's only point
        // and lies in the cell (obstacles beyond the volume are clamped into border cells)
        std::uint32_t code = kSpecial;
        const double fx = p.x * m_inverse - i, fy = p.y * m_inverse - j, fz = p.z * m_inverse - k;
        if (head < 0 && fx >= 0 && fx < 1 && fy >= 0 && fy < 1 && fz >= 0 && fz < 1 && p.r >= 0) {
            const auto q = [](double f) { return std::min(kQuantMask, static_cast<std::uint32_t>(f * (kQuantMask + 1))); };
            code = (q(fx) << (2 * kQuantBits)) | (q(fy) << kQuantBits) | q(fz);
        }
        m_code[c] = code;
        m_minRadius = std::min(m_minRadius, p.r);
    }

    // The cells a query at radius `reach` may find a conflict in, nearest first, so a candidate
    // that fails (most do) fails after a few cells. A cell d cells away along an axis is at
    // least (|d| - 1) cells away from any point of the query's own cell; cells farther than
    // `reach` are left out. Stored points and queries lie inside the volume (off-volume
    // candidates are turned down first), so no cell needs clamping.
    void prepare(double reach)
    {
        m_reach = reach;
        m_offsets.clear();
        m_steps.clear();
        const int span = static_cast<int>(std::ceil(reach / m_cell));
        if (span > 8)  // a far larger radius (a radius field): the plain scan
            return;
        std::vector<std::pair<double, std::array<int, 3>>> all;
        for (int k = -span; k <= span; ++k)
            for (int j = -span; j <= span; ++j)
                for (int i = -span; i <= span; ++i) {
                    auto g = [&](int d) { return std::max(std::abs(d) - 1, 0) * m_cell; };
                    const double gap2 = g(i) * g(i) + g(j) * g(j) + g(k) * g(k);
                    if (gap2 < reach * reach)
                        all.push_back({gap2 + 1e-9 * m_cell * m_cell * (i * i + j * j + k * k), {i, j, k}});
                }
        std::sort(all.begin(), all.end());
        m_span = span;
        for (const auto &[d, o] : all) {
            m_offsets.push_back(o);
            m_steps.push_back({(static_cast<std::ptrdiff_t>(o[2]) * m_ny + o[1]) * m_nx + o[0], o[0] * m_cell, o[1] * m_cell,
                               o[2] * m_cell});
        }
    }

    // No stored point q with |q - (x, y, z)| < min(r, q.r).
    bool isFree(double x, double y, double z, double r) const
    {
        const int ci = coord(x, m_nx), cj = coord(y, m_ny), ck = coord(z, m_nz);
        const Query q = query(x - ci * m_cell, y - cj * m_cell, z - ck * m_cell, x, y, z, r);
        // the cell that turned the last candidate down sometimes turns this one down too (the
        // candidates of a step circle one parent; 8% of the queries at 360^3): asked first, it
        // saves those the scan
        if (m_lastCell.cell != kNoCell && !cellIsFree(m_lastCell.cell, m_lastCell.ox - ci * m_cell, m_lastCell.oy - cj * m_cell,
                                                      m_lastCell.oz - ck * m_cell, q))
            return false;
        if (r == m_reach && !m_offsets.empty() && x >= 0 && y >= 0 && z >= 0) {
            // a cell `span` or more from every face: every offset lands in the grid, no checks
            if (ci >= m_span && cj >= m_span && ck >= m_span && ci < m_nx - m_span && cj < m_ny - m_span && ck < m_nz - m_span) {
                const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(index(ci, cj, ck));
                for (const Step &s : m_steps)
                    if (!cellIsFree(static_cast<std::size_t>(base + s.step), s.ox, s.oy, s.oz, q))
                        return remember(static_cast<std::size_t>(base + s.step), ci * m_cell + s.ox, cj * m_cell + s.oy,
                                        ck * m_cell + s.oz);
                return true;
            }
            for (const auto &o : m_offsets) {
                const int i = ci + o[0], j = cj + o[1], k = ck + o[2];
                if (i < 0 || j < 0 || k < 0 || i >= m_nx || j >= m_ny || k >= m_nz)
                    continue;
                if (!cellIsFree(index(i, j, k), o[0] * m_cell, o[1] * m_cell, o[2] * m_cell, q))
                    return remember(index(i, j, k), i * m_cell, j * m_cell, k * m_cell);
            }
            return true;
        }
        const int x0 = coord(x - r, m_nx), x1 = coord(x + r, m_nx);
        const int y0 = coord(y - r, m_ny), y1 = coord(y + r, m_ny);
        const int z0 = coord(z - r, m_nz), z1 = coord(z + r, m_nz);
        // a radius far beyond the cells (a radius input's huge value): the stored points, once each
        const double cells = (x1 - x0 + 1.0) * (y1 - y0 + 1.0) * (z1 - z0 + 1.0);
        if (cells > static_cast<double>(m_entries.size())) {
            for (const Entry &e : m_entries)
                if (conflicts(e.point, x, y, z, r))
                    return false;
            return true;
        }
        for (int k = z0; k <= z1; ++k)
            for (int j = y0; j <= y1; ++j)
                for (int i = x0; i <= x1; ++i)
                    if (!cellIsFree(index(i, j, k), (i - ci) * m_cell, (j - cj) * m_cell, (k - ck) * m_cell, q))
                        return remember(index(i, j, k), i * m_cell, j * m_cell, k * m_cell);
        return true;
    }

    // the stored points from the `first`th on, in the order they were added
    void copyPoints(std::size_t first, std::vector<PointXYZR> &out) const
    {
        out.clear();
        out.reserve(m_entries.size() - std::min(first, m_entries.size()));
        for (std::size_t p = first; p < m_entries.size(); ++p)
            out.push_back(m_entries[p].point);
    }

private:
    static constexpr unsigned kQuantBits = 10;
    static constexpr std::uint32_t kQuantMask = (1u << kQuantBits) - 1;
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;    // no point
    static constexpr std::uint32_t kSpecial = 0x80000000u;  // set: no single quantised point
    static constexpr std::size_t kNoCell = ~std::size_t(0);

    // A query at (x, y, z) and radius r, with (lx, ly, lz) its place in its own cell and the
    // bounds that let a quantised point decide alone.
    struct Query
    {
        double lx, ly, lz, x, y, z, r;
        double free2;      // squared distances from a quantised centre >= this: clearly no conflict
        double conflict2;  // < this: clearly a conflict
    };
    Query query(double lx, double ly, double lz, double x, double y, double z, double r) const
    {
        const CodeBounds b = codeBounds(m_quantError, std::fabs(x) + std::fabs(y) + std::fabs(z) + m_extent + r, r, m_minRadius);
        return {lx, ly, lz, x, y, z, r, b.free2, b.conflict2};
    }

    // True when no point of the cell is too close to the query: decided from the code when it
    // can be, else from the points. (ox, oy, oz): the cell's corner less the query's cell's.
    bool cellIsFree(std::size_t cell, double ox, double oy, double oz, const Query &q) const
    {
        const std::uint32_t code = m_code[cell];
        if (code == kEmpty)
            return true;
        if (!(code & kSpecial)) {
            const auto at = [&](std::uint32_t bits) { return (static_cast<double>(bits & kQuantMask) + 0.5) * m_quantStep; };
            const double dx = ox + at(code >> (2 * kQuantBits)) - q.lx;
            const double dy = oy + at(code >> kQuantBits) - q.ly;
            const double dz = oz + at(code) - q.lz;
            const double d2 = dx * dx + dy * dy + dz * dz;
            if (d2 >= q.free2)
                return true;
            if (d2 < q.conflict2)
                return false;
        }
        for (std::int32_t p = m_head[cell]; p >= 0;) {  // several points, or too close to call: exact
            const Entry &e = m_entries[static_cast<std::size_t>(p)];
            if (conflicts(e.point, q.x, q.y, q.z, q.r))
                return false;
            p = e.next;
        }
        return true;
    }
    // keeps the cell that turned a query down (its corner in world units) for the next; false
    bool remember(std::size_t cell, double x0, double y0, double z0) const
    {
        m_lastCell = {cell, x0, y0, z0};
        return false;
    }

    // q keeps (x, y, z) clear at min(r, q.r)
    static bool conflicts(const PointXYZR &q, double x, double y, double z, double r)
    {
        const double m = std::min(r, q.r);
        const double dx = q.x - x, dy = q.y - y, dz = q.z - z;
        return dx * dx + dy * dy + dz * dz < m * m;
    }

    // the cell column of a coordinate, clamped to the grid (NaN and infinities included)
    int coord(double v, int n) const
    {
        const double c = std::floor(v / m_cell);
        if (!(c >= 0))
            return 0;
        return c >= n - 1 ? n - 1 : static_cast<int>(c);
    }
    std::size_t index(int i, int j, int k) const
    {
        return (static_cast<std::size_t>(k) * static_cast<std::size_t>(m_ny) + static_cast<std::size_t>(j))
                   * static_cast<std::size_t>(m_nx)
               + static_cast<std::size_t>(i);
    }

    // a point and the next one in its cell's list (-1: none), read together rather than from two arrays
    struct Entry
    {
        PointXYZR point;
        std::int32_t next;
    };
    // an offset in cells as a step in the cell index, and as the distances to that cell's corner
    struct Step
    {
        std::ptrdiff_t step;
        double ox, oy, oz;
    };
    struct LastCell
    {
        std::size_t cell = kNoCell;
        double ox = 0, oy = 0, oz = 0;  // its corner
    };

    double m_cell, m_inverse, m_quantStep, m_quantError;
    int m_nx, m_ny, m_nz;
    double m_extent;
    double m_reach = -1;
    double m_minRadius = HUGE_VAL;  // the smallest radius stored
    int m_span = 0;
    std::vector<std::array<int, 3>> m_offsets;
    std::vector<Step> m_steps;
    // On huge pages: a query reads cells and points all over them (570^3 at radius 10: 3.9 MB of
    // codes, as many of heads, 4.3 MB of points), which then lie on a few pages instead of
    // thousands (that volume placed 7% faster, the median of ten alternated runs)
    std::vector<std::int32_t, HugePageAllocator<std::int32_t>> m_head;
    std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> m_code;
    std::vector<Entry, HugePageAllocator<Entry>> m_entries;
    mutable LastCell m_lastCell;  // the cell the last failed query found
};

// A candidate's draws: Marsaglia's (u, v, s) twice, and the shell draw w.
struct CandidateDraws
{
    double u1, v1, s1, u2, v2, s2, w;
    std::size_t drawsAfter;  // draws read ahead once this candidate's are
};

std::atomic<bool> g_volumeSimd{true};

// The candidate around `parent`, one at a time: Gaussians u sqrt(-2 ln s / s) (gx, gy from the
// first pair, gz from the second), then parent + (g / |g|) * (2 r cbrt(1/8 + w 7/8)).
void candidatePosition(const PointXYZR &parent, const CandidateDraws &c, double *out)
{
    const double f1 = std::sqrt(-2 * exactLog(c.s1) / c.s1);
    const double gx = c.u1 * f1, gy = c.v1 * f1;
    const double f2 = std::sqrt(-2 * exactLog(c.s2) / c.s2);
    const double gz = c.u2 * f2;
    const double len = std::sqrt(gx * gx + gy * gy + gz * gz);
    const double dist = 2 * parent.r * exactCbrtUnit(0.125 + c.w * 0.875);
    out[0] = parent.x + gx / len * dist;
    out[1] = parent.y + gy / len * dist;
    out[2] = parent.z + gz / len * dist;
}

#if GROVE_X86_SIMD
// exactLog on four lanes of s in (0, 1): the same operations. The scaling into (sqrt(1/2),
// sqrt(2)] is exact, so the halvings' and doublings' m is s's own mantissa with the exponent of
// 1, and e its exponent, both read from its bits (in lanes: s >= 2^-104 here, never subnormal;
// a subnormal lane would come out wrong, so the caller takes the scalar path for it).
__attribute__((target("avx2"))) __m256d log4(__m256d s)
{
    const __m256i bits = _mm256_castpd_si256(s);
    __m256d m = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000fffffffffffffll)),
                                                    _mm256_set1_epi64x(0x3ff0000000000000ll)));
    // the biased exponent as a double: its bits under 2^52's, less 2^52, then less the bias (exact)
    const __m256i biased = _mm256_srli_epi64(bits, 52);
    __m256d de = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(biased, _mm256_set1_epi64x(0x4330000000000000ll))),
                               _mm256_set1_pd(4503599627370496.0 + 1023.0));
    const __m256d high = _mm256_cmp_pd(m, _mm256_set1_pd(1.4142135623730951), _CMP_GT_OQ);
    m = _mm256_blendv_pd(m, _mm256_mul_pd(m, _mm256_set1_pd(0.5)), high);
    de = _mm256_add_pd(de, _mm256_and_pd(high, _mm256_set1_pd(1.0)));
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d t = _mm256_div_pd(_mm256_sub_pd(m, one), _mm256_add_pd(m, one));
    const __m256d t2 = _mm256_mul_pd(t, t);
    __m256d p = _mm256_set1_pd(1.0 / 25);
    for (int k = 11; k >= 0; --k)
        p = _mm256_add_pd(_mm256_mul_pd(p, t2), _mm256_set1_pd(1.0 / (2 * k + 1)));
    const __m256d low = _mm256_add_pd(_mm256_mul_pd(de, _mm256_set1_pd(1.90821492927058770002e-10)),
                                      _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(2.0), t), p));
    return _mm256_add_pd(_mm256_mul_pd(de, _mm256_set1_pd(6.93147180369123816490e-01)), low);
}

// One field of four candidates' draws, as lanes.
__attribute__((target("avx2"))) inline __m256d fieldLanes(const CandidateDraws *c, double CandidateDraws::*field)
{
    return _mm256_set_pd(c[3].*field, c[2].*field, c[1].*field, c[0].*field);
}

// candidatePosition on four candidates at once: every lane's operations are the scalar ones in
// the same order (no fused multiply-add), so every lane is bit-identical to it.
__attribute__((target("avx2"))) void candidatePositions4(const PointXYZR &parent, const CandidateDraws *c, double (*out)[3])
{
    const __m256d minusTwo = _mm256_set1_pd(-2.0);
    const __m256d vs1 = fieldLanes(c, &CandidateDraws::s1), vs2 = fieldLanes(c, &CandidateDraws::s2);
    const __m256d f1 = _mm256_sqrt_pd(_mm256_div_pd(_mm256_mul_pd(minusTwo, log4(vs1)), vs1));
    const __m256d f2 = _mm256_sqrt_pd(_mm256_div_pd(_mm256_mul_pd(minusTwo, log4(vs2)), vs2));
    const __m256d gx = _mm256_mul_pd(fieldLanes(c, &CandidateDraws::u1), f1);
    const __m256d gy = _mm256_mul_pd(fieldLanes(c, &CandidateDraws::v1), f1);
    const __m256d gz = _mm256_mul_pd(fieldLanes(c, &CandidateDraws::u2), f2);
    const __m256d len = _mm256_sqrt_pd(
        _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(gx, gx), _mm256_mul_pd(gy, gy)), _mm256_mul_pd(gz, gz)));
    // exactCbrtUnit: a linear guess, six Newton steps
    const __m256d w = fieldLanes(c, &CandidateDraws::w);
    const __m256d x = _mm256_add_pd(_mm256_set1_pd(0.125), _mm256_mul_pd(w, _mm256_set1_pd(0.875)));
    __m256d y = _mm256_add_pd(_mm256_set1_pd(0.4), _mm256_mul_pd(_mm256_set1_pd(0.6), x));
    for (int i = 0; i < 6; ++i) {
        const __m256d yy = _mm256_mul_pd(y, y);
        y = _mm256_sub_pd(y, _mm256_div_pd(_mm256_sub_pd(_mm256_mul_pd(yy, y), x), _mm256_mul_pd(_mm256_set1_pd(3.0), yy)));
    }
    const __m256d dist = _mm256_mul_pd(_mm256_set1_pd(2 * parent.r), y);
    alignas(32) double px[4], py[4], pz[4];
    _mm256_store_pd(px, _mm256_add_pd(_mm256_set1_pd(parent.x), _mm256_mul_pd(_mm256_div_pd(gx, len), dist)));
    _mm256_store_pd(py, _mm256_add_pd(_mm256_set1_pd(parent.y), _mm256_mul_pd(_mm256_div_pd(gy, len), dist)));
    _mm256_store_pd(pz, _mm256_add_pd(_mm256_set1_pd(parent.z), _mm256_mul_pd(_mm256_div_pd(gz, len), dist)));
    for (int l = 0; l < 4; ++l) {
        out[l][0] = px[l];
        out[l][1] = py[l];
        out[l][2] = pz[l];
    }
}
#endif

// Up to four candidates' positions: in vector lanes where the CPU has AVX2 (the lanes past
// `lanes` repeat the first candidate and are not used), else one at a time.
void candidatePositions(const PointXYZR &parent, CandidateDraws *c, int lanes, double (*out)[3])
{
#if GROVE_X86_SIMD
    static const bool avx2 = cpuHasAvx2();
    // s below 2^-1022 (subnormal) cannot come from two draws; the scalar path would take it
    const auto normal = [&](int l) { return c[l].s1 >= 0x1p-1022 && c[l].s2 >= 0x1p-1022; };
    if (avx2 && g_volumeSimd.load(std::memory_order_relaxed) && normal(0) && (lanes < 2 || normal(1))
        && (lanes < 3 || normal(2)) && (lanes < 4 || normal(3))) {
        for (int l = lanes; l < 4; ++l)
            c[l] = c[0];
        candidatePositions4(parent, c, out);
        return;
    }
#endif
    for (int l = 0; l < lanes; ++l)
        candidatePosition(parent, c[l], out[l]);
}

class VolumeSampler
{
public:
    VolumeSampler(const VolumeSettings &s, VolumeGrid &grid) : m_s(s), m_grid(grid), m_draws(s.seed) {}

    double nextFloat() { return m_draws.nextFloat(); }
    bool full() const { return m_full; }
    std::uint64_t placed() const { return m_placed; }
    const PlacementTally &tally() const { return m_tally; }

    // The checks are pure, so their order changes no point: off the volume, too close at the
    // layer's radius, not allowed, too close at the spot's own radius.
    bool tryAdd(double x, double y, double z)
    {
        ++m_tally.candidates;
        if (!(x >= 0 && y >= 0 && z >= 0 && x < m_s.width && y < m_s.height && z < m_s.depth)) {
            ++m_tally.offMap;
            return false;
        }
        if (!m_grid.isFree(x, y, z, m_s.radius)) {
            ++m_tally.tooClose;
            return false;
        }
        if (m_s.allowed && !m_s.allowed->at3(x, y, z)) {
            ++m_tally.notAllowed;
            return false;
        }
        double radius = m_s.radius;
        if (m_s.radiusField) {
            const double f = m_s.radiusField->at3(x, y, z);
            radius = m_s.radius < f ? f : m_s.radius;  // NaN keeps the layer's radius
            if (radius != m_s.radius && !m_grid.isFree(x, y, z, radius)) {
                ++m_tally.tooClose;
                return false;
            }
        }
        if (m_placed >= m_s.maxPoints) {
            m_full = true;
            return false;
        }
        const PointXYZR p{x, y, z, radius};
        m_grid.add(p);
        m_active.push_back(p);
        ++m_placed;
        return true;
    }

    // A step's candidates are made four at a time from draws read ahead (their arithmetic in
    // vector lanes where the CPU has AVX2), then tried in order; the draws of a candidate after the
    // one that becomes a point are left for the next step, so the stream is the one-by-one order.
    bool step()
    {
        if (m_active.empty())
            return false;
        const std::size_t n = m_active.size();
        const auto a = static_cast<std::size_t>(std::floor(nextFloat() * static_cast<double>(n)));
        const PointXYZR parent = m_active[a];
        for (int i = 0; i < m_s.k; i += 4) {
            const int lanes = std::min(4, m_s.k - i);
            CandidateDraws c[4];
            readCandidates(c, lanes);
            double at[4][3];
            candidatePositions(parent, c, lanes, at);
            std::size_t taken = 0;
            for (int l = 0; l < lanes; ++l) {
                m_draws.skip(c[l].drawsAfter - taken);
                taken = c[l].drawsAfter;
                if (tryAdd(at[l][0], at[l][1], at[l][2]))
                    return true;
                if (m_full)
                    return false;
            }
        }
        m_active[a] = m_active.back();
        m_active.pop_back();
        return true;
    }

private:
    // `lanes` candidates' draws, read from the stream ahead (nothing taken yet): for each, two
    // polar pairs, each redrawn while s is >= 1 or 0, then the shell draw. Read in one span of
    // the buffer, without a bound check a draw; a span too short (a run of rejected pairs) is
    // read again from a longer one.
    void readCandidates(CandidateDraws *c, int lanes)
    {
        for (std::size_t span = 96;; span *= 2) {
            const std::size_t avail = m_draws.ensure(span);
            const double *d = m_draws.unread();
            std::size_t ahead = 0;
            const auto pair = [&](double &u, double &v, double &s) {
                do {
                    if (ahead + 2 > avail)
                        return false;
                    u = d[ahead] * 2 - 1;
                    v = d[ahead + 1] * 2 - 1;
                    ahead += 2;
                    s = u * u + v * v;
                } while (s >= 1 || s == 0);
                return true;
            };
            int l = 0;
            for (; l < lanes; ++l) {
                if (!pair(c[l].u1, c[l].v1, c[l].s1) || !pair(c[l].u2, c[l].v2, c[l].s2) || ahead + 1 > avail)
                    break;
                c[l].w = d[ahead++];
                c[l].drawsAfter = ahead;
            }
            if (l == lanes)
                return;
        }
    }

    const VolumeSettings &m_s;
    VolumeGrid &m_grid;
    DrawAhead m_draws;
    std::vector<PointXYZR> m_active;
    std::uint64_t m_placed = 0;
    bool m_full = false;
    PlacementTally m_tally{true, m_s.radius};
};

} // namespace

void setVolumeSimd(bool enabled) { g_volumeSimd.store(enabled); }

PlacementStatus placeVolume(const VolumeSettings &s, const std::vector<PointXYZR> &obstacles, std::vector<PointXYZR> &out,
                            const PlacementControl &control)
{
    VolumeGrid grid(s.width, s.height, s.depth, s.radius / std::sqrt(3.0));
    grid.prepare(s.radius);
    for (const PointXYZR &p : obstacles)
        grid.add(p);
    VolumeSampler sampler(s, grid);
    std::uint64_t ticks = 0;
    const double expected = std::max(1.0, maxVolumePointsEstimate(s.width, s.height, s.depth, s.radius) * 0.5);
    auto poll = [&]() {  // true: stop now
        if ((++ticks & 4095) != 0)
            return false;
        if (control.cancel && control.cancel->load(std::memory_order_relaxed))
            return true;
        if (control.progress && (ticks & 65535) == 0)
            control.progress(std::min(0.99, static_cast<double>(sampler.placed()) / expected));
        return false;
    };

    switch (s.start) {
    case StartMode::Patches: {
        // every 2r cube gets up to k tries (3 draws each: x, y, z); cubes on the far faces are cut short
        const double spacing = s.radius * 2;
        for (double z = 0; z < s.depth; z += spacing)
            for (double y = 0; y < s.height; y += spacing)
                for (double x = 0; x < s.width; x += spacing) {
                    const double w = std::min(spacing, s.width - x), h = std::min(spacing, s.height - y);
                    const double d = std::min(spacing, s.depth - z);
                    for (int i = 0; i < s.k; ++i) {
                        const double px = x + sampler.nextFloat() * w;
                        const double py = y + sampler.nextFloat() * h;
                        const double pz = z + sampler.nextFloat() * d;
                        if (sampler.tryAdd(px, py, pz) || sampler.full())
                            break;
                    }
                    if (sampler.full())
                        return PlacementStatus::TooManyPoints;
                    if (poll())
                        return PlacementStatus::Cancelled;
                }
        break;
    }
    case StartMode::Random: {
        const double x = sampler.nextFloat() * s.width;
        const double y = sampler.nextFloat() * s.height;
        const double z = sampler.nextFloat() * s.depth;
        sampler.tryAdd(x, y, z);
        break;
    }
    case StartMode::Point: sampler.tryAdd(s.startX, s.startY, s.startZ); break;
    }
    while (sampler.step())
        if (poll())
            return PlacementStatus::Cancelled;
    if (sampler.full())
        return PlacementStatus::TooManyPoints;
    if (control.tally)
        *control.tally = sampler.tally();
    grid.copyPoints(obstacles.size(), out);
    return PlacementStatus::Done;
}

} // namespace grove
