// OccupancyGrid: cell lists sized for the layer, exact distance tests independent of the cell size.
#include "core/sampling/OccupancyGrid.h"

#include "core/base/CpuFeatures.h"
#include "core/sampling/PackLanes.h"

#include <algorithm>
#include <atomic>
#include <bit>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace grove {

namespace {

typedef double V4d __attribute__((vector_size(32)));
typedef long long V4l __attribute__((vector_size(32)));

// Eight queries in two 4-lane vectors against every gathered centre, stopping once every lane
// has met a clear conflict. Compiled twice: plain (SSE2 pairs) and AVX2. Each lane does the
// scalar test's operations in the same order (no fused multiply-adds: -ffp-contract=off), so the
// masks are the scalar answers. Off x86-64 only the plain one exists (on aarch64: NEON pairs).
template<int Dummy>
inline __attribute__((always_inline)) void batchMasksKernel(const double *nx, const double *ny, std::size_t count,
                                                            const double *xs, const double *ys, int n, double conflict2,
                                                            double free2, unsigned &conflictOut, unsigned &nearOut)
{
    const V4d ax = {xs[0], xs[1], xs[2], xs[3]}, bx = {xs[4], xs[5], xs[6], xs[7]};
    const V4d ay = {ys[0], ys[1], ys[2], ys[3]}, by = {ys[4], ys[5], ys[6], ys[7]};
    // lanes past n start as conflicts, so "every lane blocked" can end the scan early
    V4l ca = {n <= 0 ? -1LL : 0, n <= 1 ? -1LL : 0, n <= 2 ? -1LL : 0, n <= 3 ? -1LL : 0};
    V4l cb = {n <= 4 ? -1LL : 0, n <= 5 ? -1LL : 0, n <= 6 ? -1LL : 0, n <= 7 ? -1LL : 0};
    V4l na = {0, 0, 0, 0}, nb = {0, 0, 0, 0};
    const V4d c2 = {conflict2, conflict2, conflict2, conflict2}, f2 = {free2, free2, free2, free2};
    std::size_t j = 0;
    while (j < count) {
        const std::size_t end = std::min(count, j + 4);
        for (; j < end; ++j) {
            const V4d px = {nx[j], nx[j], nx[j], nx[j]}, py = {ny[j], ny[j], ny[j], ny[j]};
            const V4d dxa = px - ax, dya = py - ay, dxb = px - bx, dyb = py - by;
            const V4d da = dxa * dxa + dya * dya, db = dxb * dxb + dyb * dyb;
            ca |= da < c2;
            cb |= db < c2;
            na |= da < f2;
            nb |= db < f2;
        }
        const V4l all = ca & cb;
        if ((all[0] & all[1] & all[2] & all[3]) == -1LL)
            break;
    }
    unsigned c = 0, m = 0;
    for (int i = 0; i < 4; ++i) {
        c |= static_cast<unsigned>(ca[i] & 1) << i;
        c |= static_cast<unsigned>(cb[i] & 1) << (i + 4);
        m |= static_cast<unsigned>(na[i] & 1) << i;
        m |= static_cast<unsigned>(nb[i] & 1) << (i + 4);
    }
    conflictOut = c;
    nearOut = m | c;
}

void batchMasksPlain(const double *nx, const double *ny, std::size_t count, const double *xs, const double *ys, int n,
                     double conflict2, double free2, unsigned &conflict, unsigned &near)
{
    batchMasksKernel<0>(nx, ny, count, xs, ys, n, conflict2, free2, conflict, near);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) void batchMasksAvx2(const double *nx, const double *ny, std::size_t count, const double *xs,
                                                     const double *ys, int n, double conflict2, double free2,
                                                     unsigned &conflict, unsigned &near)
{
    batchMasksKernel<1>(nx, ny, count, xs, ys, n, conflict2, free2, conflict, near);
}

// The eight queries in one 512-bit vector, the comparisons straight into mask registers: half the
// AVX2 kernel's instructions per centre, and per lane the same operations in the same order.
__attribute__((target("avx512f"))) void batchMasksAvx512(const double *nx, const double *ny, std::size_t count,
                                                          const double *xs, const double *ys, int n, double conflict2,
                                                          double free2, unsigned &conflictOut, unsigned &nearOut)
{
    const __m512d ax = _mm512_loadu_pd(xs), ay = _mm512_loadu_pd(ys);
    const __m512d c2 = _mm512_set1_pd(conflict2), f2 = _mm512_set1_pd(free2);
    unsigned conflict = (0xFFu << n) & 0xFFu;  // lanes past n start as conflicts, as in the kernel above
    unsigned near = 0;
    std::size_t j = 0;
    while (j < count) {
        const std::size_t end = std::min(count, j + 4);
        for (; j < end; ++j) {
            const __m512d dx = _mm512_sub_pd(_mm512_set1_pd(nx[j]), ax), dy = _mm512_sub_pd(_mm512_set1_pd(ny[j]), ay);
            const __m512d d = _mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy));
            conflict |= _mm512_cmp_pd_mask(d, c2, _CMP_LT_OQ);
            near |= _mm512_cmp_pd_mask(d, f2, _CMP_LT_OQ);
        }
        if (conflict == 0xFFu)
            break;
    }
    conflictOut = conflict;
    nearOut = near | conflict;
}
#else
constexpr auto batchMasksAvx2 = batchMasksPlain;  // never chosen: cpuHasAvx2() is false
constexpr auto batchMasksAvx512 = batchMasksPlain;  // never chosen: cpuHasAvx512() is false
#endif

using BatchMasksFn = void (*)(const double *, const double *, std::size_t, const double *, const double *, int, double,
                              double, unsigned &, unsigned &);
// the widest batch kernel the CPU runs, up to `widest`
BatchMasksFn batchMasksFor(VectorWidth widest)
{
    if (widest == VectorWidth::Avx512 && cpuHasAvx512())
        return batchMasksAvx512;
    return widest != VectorWidth::Sse2 && cpuHasAvx2() ? batchMasksAvx2 : batchMasksPlain;
}
std::atomic<BatchMasksFn> g_batchMasks{batchMasksFor(VectorWidth::Avx512)};
std::atomic<bool> g_gatherAvx2{cpuHasAvx2()};

// A square of cells for gatherNearSet: the codes and where the cells lie.
struct CodeSquare
{
    const std::uint32_t *codes;
    std::size_t cols;  // codes a row
    int c0, c1, r0, r1;
    double originX, originY, cellSize, quantStep;
    unsigned quantBits;
    std::uint32_t quantMask, special;
};

// One cell's centre, kept (the count grows) when its code stands for a single point. Every cell
// is written, the count decides: whether a cell is empty is a coin toss, so a branch would miss.
inline std::size_t gatherCell(const CodeSquare &s, int col, double top, std::size_t cell, double *xs, double *ys,
                              std::size_t *cells, std::size_t n, bool &special)
{
    const std::uint32_t code = s.codes[cell];
    xs[n] = (s.originX + col * s.cellSize) + ((code >> s.quantBits) + 0.5) * s.quantStep;
    ys[n] = top + ((code & s.quantMask) + 0.5) * s.quantStep;
    cells[n] = cell;
    special = special || code == s.special;
    return n + !(code & s.special);
}

std::size_t gatherPlain(const CodeSquare &s, double *xs, double *ys, std::size_t *cells, bool &special)
{
    std::size_t n = 0;
    for (int row = s.r0; row <= s.r1; ++row) {
        const double top = s.originY + row * s.cellSize;
        const std::size_t base = static_cast<std::size_t>(row) * s.cols;
        for (int col = s.c0; col <= s.c1; ++col)
            n = gatherCell(s, col, top, base + static_cast<std::size_t>(col), xs, ys, cells, n, special);
    }
    return n;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Four cells at a time: the same operations as gatherCell in each lane (no fused multiply-adds),
// the kept lanes packed to the front by a table, so the same centres in the same order.
__attribute__((target("avx2"))) std::size_t gatherAvx2(const CodeSquare &s, double *xs, double *ys, std::size_t *cells, bool &special)
{
    const __m256d half = _mm256_set1_pd(0.5), step = _mm256_set1_pd(s.quantStep);
    const __m256d originX = _mm256_set1_pd(s.originX), cellSize = _mm256_set1_pd(s.cellSize);
    const __m128i specialBit = _mm_set1_epi32(static_cast<int>(s.special)), low = _mm_set1_epi32(static_cast<int>(s.quantMask));
    const __m128i lanes = _mm_setr_epi32(0, 1, 2, 3);
    const __m256i lanes64 = _mm256_setr_epi64x(0, 1, 2, 3);
    const __m128i shift = _mm_cvtsi32_si128(static_cast<int>(s.quantBits));
    int anySpecial = 0;
    std::size_t n = 0;
    for (int row = s.r0; row <= s.r1; ++row) {
        const double top = s.originY + row * s.cellSize;
        const __m256d topV = _mm256_set1_pd(top);
        const std::size_t base = static_cast<std::size_t>(row) * s.cols;
        int col = s.c0;
        for (; col + 3 <= s.c1; col += 4) {
            const std::size_t cell = base + static_cast<std::size_t>(col);
            const __m128i code = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s.codes + cell));
            const int keep = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(code, specialBit), _mm_setzero_si128())));
            anySpecial |= _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(code, specialBit)));
            const __m256d colV = _mm256_cvtepi32_pd(_mm_add_epi32(_mm_set1_epi32(col), lanes));
            const __m256d qx = _mm256_cvtepi32_pd(_mm_srl_epi32(code, shift));
            const __m256d qy = _mm256_cvtepi32_pd(_mm_and_si128(code, low));
            const __m256d x = _mm256_add_pd(_mm256_add_pd(originX, _mm256_mul_pd(colV, cellSize)), _mm256_mul_pd(_mm256_add_pd(qx, half), step));
            const __m256d y = _mm256_add_pd(topV, _mm256_mul_pd(_mm256_add_pd(qy, half), step));
            const __m256i at = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(cell)), lanes64);
            const __m256i pack = _mm256_load_si256(reinterpret_cast<const __m256i *>(kPackLanes[static_cast<std::size_t>(keep)].data()));
            _mm256_storeu_pd(xs + n, _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(x), pack)));
            _mm256_storeu_pd(ys + n, _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(y), pack)));
            _mm256_storeu_si256(reinterpret_cast<__m256i *>(cells + n), _mm256_permutevar8x32_epi32(at, pack));
            n += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(keep)));
        }
        for (; col <= s.c1; ++col)
            n = gatherCell(s, col, top, base + static_cast<std::size_t>(col), xs, ys, cells, n, special);
    }
    special = special || anySpecial != 0;
    return n;
}
#else
constexpr auto gatherAvx2 = gatherPlain;  // never chosen: cpuHasAvx2() is false
#endif

} // namespace

void OccupancyGrid::setBatchSimd(VectorWidth widest)
{
    g_batchMasks.store(batchMasksFor(widest));
    g_gatherAvx2.store(widest != VectorWidth::Sse2 && cpuHasAvx2());
}

std::size_t OccupancyGrid::gatherCoded(int c0, int c1, int r0, int r1, double *xs, double *ys, std::size_t *cells, bool &special) const
{
    const CodeSquare s{m_code.data(), static_cast<std::size_t>(m_cols), c0, c1, r0, r1, m_originX, m_originY, m_cellSize, m_quantStep, kQuantBits, kQuantMask, kSpecial};
    return g_gatherAvx2.load(std::memory_order_relaxed) ? gatherAvx2(s, xs, ys, cells, special) : gatherPlain(s, xs, ys, cells, special);
}

void OccupancyGrid::gatherNearSet(double x, double y, double reach, NearSet &out) const
{
    reach += (std::fabs(x) + std::fabs(y) + reach) * 1e-12;
    const int c0 = colOf(x - reach), c1 = colOf(x + reach);
    const int r0 = rowOf(y - reach), r1 = rowOf(y + reach);
    // the whole square of cells: trimming each row to the circle (a square root and two floors a
    // row, and rows of varying length) cost more than the third of the cells it skipped
    const size_t most = static_cast<size_t>(c1 - c0 + 1) * static_cast<size_t>(r1 - r0 + 1) + 4;
    if (out.x.size() < most) {
        out.x.resize(most);
        out.y.resize(most);
        out.cell.resize(most);
    }
    out.uncoded.clear();
    bool special = false;
    out.count = gatherCoded(c0, c1, r0, r1, out.x.data(), out.y.data(), out.cell.data(), special);
    if (!special)
        return;
    // cells with no single code (several points, or off the map): rare; their points in full
    for (int row = r0; row <= r1; ++row)
        for (int col = c0; col <= c1; ++col) {
            const size_t cell = static_cast<size_t>(row) * static_cast<size_t>(m_cols) + static_cast<size_t>(col);
            if (m_code[cell] == kSpecial)
                appendCellPoints(m_head[cell], out.uncoded);
        }
}

void OccupancyGrid::batchMasks(const NearSet &set, const double *xs, const double *ys, int n, const Query &q,
                               unsigned &conflict, unsigned &near)
{
    g_batchMasks.load(std::memory_order_relaxed)(set.x.data(), set.y.data(), set.count, xs, ys, n, q.conflict2, q.free2, conflict, near);
}

double OccupancyGrid::cellsFor(double width, double height, double cellSize)
{
    return std::ceil(width / cellSize) * std::ceil(height / cellSize);
}

OccupancyGrid::OccupancyGrid(double width, double height, double cellSize, double originX, double originY)
    : m_cellSize(cellSize), m_inverse(1.0 / cellSize), m_originX(originX), m_originY(originY)
{
    m_cols = std::max(1, static_cast<int>(std::ceil(width / cellSize)));
    m_rows = std::max(1, static_cast<int>(std::ceil(height / cellSize)));
    m_head.reset(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), -1);
    m_code.reset(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), kEmpty);
    m_quantStep = cellSize / static_cast<double>(kQuantMask + 1);
    m_quantError = m_quantStep * 0.70710678118654757;  // half the quantised square's diagonal
    m_extent = std::max(m_cols, m_rows) * cellSize;
}

void OccupancyGrid::setWrap(double periodX, double periodY)
{
    m_periodX = periodX;
    m_periodY = periodY;
}

void OccupancyGrid::add(double x, double y, double r)
{
    store(x, y, r);
    if (m_periodX <= 0 && m_periodY <= 0)
        return;
    // A point within r of an edge can conflict with a point near the opposite edge: its image one
    // period beyond that edge stands in for it there (both ways when r reaches both edges).
    double shiftsX[3] = {0}, shiftsY[3] = {0};
    int nx = 1, ny = 1;
    if (m_periodX > 0) {
        if (x - m_originX < r)
            shiftsX[nx++] = m_periodX;
        if (m_originX + m_periodX - x <= r)
            shiftsX[nx++] = -m_periodX;
    }
    if (m_periodY > 0) {
        if (y - m_originY < r)
            shiftsY[ny++] = m_periodY;
        if (m_originY + m_periodY - y <= r)
            shiftsY[ny++] = -m_periodY;
    }
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
            if (i != 0 || j != 0) {
                m_images.push_back(m_size);
                store(x + shiftsX[i], y + shiftsY[j], r);
            }
}

void OccupancyGrid::store(double x, double y, double r)
{
    if (m_size == m_capacity)
        grow();
    const int col = colOf(x), row = rowOf(y);
    const size_t cell = static_cast<size_t>(row) * static_cast<size_t>(m_cols) + static_cast<size_t>(col);
    // head: -1 empty, i >= 0 the cell's only point, -(i + 2) newest of a chain through next()
    const std::int32_t index = static_cast<std::int32_t>(m_size);
    const std::int32_t head = m_head[cell];
    (*m_nextBlocks[m_size >> kBlockShift])[m_size & kBlockMask] = head == -1 ? -1 : head >= 0 ? head : -(head + 2);
    m_head[cell] = head == -1 ? index : -(index + 2);
    // The code: the point's offset in its cell in 1/32768ths, when it is the cell's only point
    // and lies in the cell (obstacles beyond the map are clamped into edge cells).
    std::uint32_t code = kSpecial;
    const double fx = (x - m_originX) * m_inverse - col, fy = (y - m_originY) * m_inverse - row;
    if (head == -1 && fx >= 0 && fx < 1 && fy >= 0 && fy < 1 && r >= 0) {
        const double scale = kQuantMask + 1;
        const std::uint32_t qx = std::min(kQuantMask, static_cast<std::uint32_t>(fx * scale));
        const std::uint32_t qy = std::min(kQuantMask, static_cast<std::uint32_t>(fy * scale));
        code = (qx << kQuantBits) | qy;
    }
    m_code[cell] = code;
    m_minRadius = std::min(m_minRadius, r);
    (*m_blocks[m_size >> kBlockShift])[m_size & kBlockMask] = {x, y, r};
    ++m_size;
}

void OccupancyGrid::grow()
{
    // The first block is sized by the grid (a point for every four cells, at least kFirstBlock)
    // and doubles up to a whole block when it fills: a chunk's grid holds a few thousand points,
    // and the 7 MiB of a whole block cost a chunk 5% of its time. A world's grid starts whole,
    // as it always did. A grid that filled one block (a big layer) will fill the next: huge pages.
    const bool growFirst = m_blocks.size() == 1 && m_capacity < kBlockSize;
    const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    const std::size_t size = m_blocks.empty() ? std::clamp(std::bit_ceil(cells / 4), kFirstBlock, kBlockSize)
                             : growFirst      ? std::min(kBlockSize, 2 * m_capacity)
                                              : kBlockSize;
    const bool filledSoon = !growFirst && !m_blocks.empty();
    auto points = std::make_unique<LargeArray<PointXYR>>();
    points->resetUninitialized(size, filledSoon);
    auto next = std::make_unique<LargeArray<std::int32_t>>();
    next->resetUninitialized(size, filledSoon);
    if (growFirst) {
        std::copy_n(m_blocks[0]->data(), m_size, points->data());
        std::copy_n(m_nextBlocks[0]->data(), m_size, next->data());
        m_blocks[0] = std::move(points);
        m_nextBlocks[0] = std::move(next);
        m_capacity = size;
        return;
    }
    m_blocks.push_back(std::move(points));
    m_nextBlocks.push_back(std::move(next));
    m_capacity = (m_blocks.size() - 1) * kBlockSize + size;
}

void OccupancyGrid::addAll(const std::vector<PointXYR> &points)
{
    constexpr size_t kAhead = 16;
    for (size_t i = 0; i < points.size(); ++i) {
        if (i + kAhead < points.size()) {
            const PointXYR &q = points[i + kAhead];
            const size_t cell = static_cast<size_t>(rowOf(q.y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(colOf(q.x));
            __builtin_prefetch(m_head.data() + cell, 1);
            __builtin_prefetch(m_code.data() + cell, 1);
        }
        add(points[i].x, points[i].y, points[i].r);
    }
}

std::vector<PointXYR> OccupancyGrid::takePoints(std::size_t from)
{
    m_head.release();
    m_code.release();
    m_nextBlocks.clear();
    std::vector<PointXYR> out;
    if (from >= m_size)
        return out;
    auto image = std::lower_bound(m_images.begin(), m_images.end(), from);
    out.reserve(m_size - from - static_cast<std::size_t>(m_images.end() - image));
    adviseHugePages(out.data(), out.capacity() * sizeof(PointXYR));  // written whole, next
    for (size_t b = 0; b < m_blocks.size(); ++b) {
        const size_t begin = b << kBlockShift, end = std::min(m_size, begin + kBlockSize);
        for (size_t i = std::max(begin, from); i < end; ++i) {
            if (image != m_images.end() && *image == i) {  // a wrapped world's image: no one's point
                ++image;
                continue;
            }
            out.push_back((*m_blocks[b])[i - begin]);
        }
        m_blocks[b].reset();  // free each block as soon as it is copied
    }
    m_blocks.clear();
    m_size = m_capacity = 0;
    m_images.clear();
    return out;
}

} // namespace grove
