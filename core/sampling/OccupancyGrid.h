// The shared occupancy of one placement: every point so far (obstacles and own) with its radius.
#pragma once

#include "core/base/CpuFeatures.h"
#include "core/base/DataTypes.h"
#include "core/base/LargeArray.h"
#include "core/sampling/CodeBounds.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace grove {

// A uniform grid of singly linked cell lists over points kept in blocks (the first doubles from
// a small size; the rest are whole, never moved). Any cell size gives the same answers: a query
// tests every point whose cell could hold a conflict, with the exact `dx*dx + dy*dy < m*m`.
// Pre-fill it with obstacle points from anywhere (other layers, neighbouring chunks).
//
// Beside each cell's list head sits a 4-byte code: the cell's only point, quantised to 1/32768
// of the cell. A query decides from the code alone whenever the point is clearly farther than
// the radius or clearly closer than the smallest radius stored, and reads the exact point only in
// the thin band between (or for a cell holding several points). Points are stored in insertion
// order, which for Bridson is spatially random, so this keeps a query on a few contiguous rows of
// codes instead of one cache miss per neighbour on large maps. The answers stay exact.
class OccupancyGrid
{
public:
    // Covers [originX, originX + width) x [originY, originY + height); points beyond are kept
    // in the edge cells. A chunk's grid sits where its chunk is; the world's starts at 0.
    OccupancyGrid(double width, double height, double cellSize, double originX = 0, double originY = 0);

    // Points one grid can hold: its lists number them in 31 bits.
    static constexpr std::size_t kMaxPoints = 2147483647;

    void add(double x, double y, double r);  // at most kMaxPoints in all
    // A wrapped world (a torus of periodX x periodY from the grid's origin; 0: that axis does not
    // wrap): from now on add() also stores an image of each point near an edge, one period beyond
    // the opposite edge, so every query measures the shortest way round. Images are no one's
    // points: takePoints leaves them out. For radii up to the period.
    void setWrap(double periodX, double periodY);
    // How many images add() has stored (part of size()).
    std::size_t imageCount() const { return m_images.size(); }
    // add() for many points (obstacles): each point's cell is asked for a few points ahead, so the
    // random writes of a big grid overlap instead of waiting one by one.
    void addAll(const std::vector<PointXYR> &points);
    // Asks for the memory add(x, y, ...) will write, ahead of a costly check (noise) before it.
    void prefetchForAdd(double x, double y) const;
    // True when no stored point p has (p.x - x)^2 + (p.y - y)^2 < min(r, p.r)^2.
    bool isFree(double x, double y, double r) const;

    std::size_t size() const { return m_size; }
    // Appends every stored point within `reach` of (x, y) (and possibly a few beyond) to `out`.
    void gatherNear(double x, double y, double reach, std::vector<PointXYR> &out) const;

    // A query at radius r, with the bounds that let a quantised point decide alone.
    struct Query
    {
        double x, y, r;
        double free2;      // squared distances from a quantised centre >= this: clearly no conflict
        double conflict2;  // < this: clearly a conflict
    };
    Query query(double x, double y, double r) const;
    // isFree against a list that holds every point a conflict could come from, moving a
    // conflicting point to the front (it usually blocks the caller's next query too).
    static bool isFreeAmong(double x, double y, double r, std::vector<PointXYR> &points);
    // Asks the memory system for the code rows around (x, y) ahead of the queries.
    void prefetchAround(double x, double y, double reach) const;

    // The stored points near a spot, gathered once for many queries: quantised centres as
    // arrays (x, y, cell), so a batch of queries runs across them in vector lanes, and the
    // points no code stands for in full.
    struct NearSet
    {
        std::vector<double> x, y;
        std::vector<std::size_t> cell;
        std::size_t count = 0;
        std::vector<PointXYR> uncoded;
    };
    // Every stored point within `reach` of (x, y) (and possibly a few beyond) into `out`, which
    // it clears.
    void gatherNearSet(double x, double y, double reach, NearSet &out) const;
    // Bounds that hold for a query at radius r anywhere within `spread` of (x, y) on each axis.
    Query queryAround(double x, double y, double spread, double r) const { return query(std::fabs(x) + spread, std::fabs(y) + spread, r); }
    // For up to 8 queries at q's radius (xs[i], ys[i]; n of them), against the coded centres of
    // `set`: bit i of `conflict` when a centre is clearly closer than the radius, bit i of `near`
    // when one is too close to call or closer (then isFreeInSet decides). Bits at and past n are
    // set in `conflict`. Vector lanes, AVX-512 or AVX2 where the CPU has them; the same answers
    // every way.
    static void batchMasks(const NearSet &set, const double *xs, const double *ys, int n, const Query &q,
                           unsigned &conflict, unsigned &near);
    // Chooses the widest batchMasks lanes and gather up to `widest` that the CPU has (default: the
    // widest), to test each.
    static void setBatchSimd(VectorWidth widest);
    // isFree against a gathered set that holds every point a conflict could come from.
    bool isFreeInSet(const NearSet &set, double x, double y, double r) const;

    const PointXYR &point(std::size_t i) const { return (*m_blocks[i >> kBlockShift])[i & kBlockMask]; }
    // cells a grid of this shape would need, before allocating it
    static double cellsFor(double width, double height, double cellSize);

    // Ends the grid's life: frees the cells, then moves points [from, size) into an exact-size
    // vector block by block, so the peak stays near one copy of the points.
    std::vector<PointXYR> takePoints(std::size_t from);

private:
    static constexpr unsigned kBlockShift = 18;  // 262144 points: 6 MiB, three huge pages
    static constexpr std::size_t kBlockSize = std::size_t(1) << kBlockShift;
    static constexpr std::size_t kBlockMask = kBlockSize - 1;
    static constexpr std::size_t kFirstBlock = 4096;  // the smallest first block (96 KiB)
    static constexpr unsigned kQuantBits = 15;
    static constexpr std::uint32_t kQuantMask = (1u << kQuantBits) - 1;
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;    // no point
    static constexpr std::uint32_t kSpecial = 0x80000000u;  // set: no single quantised point

    int colOf(double x) const;
    int rowOf(double y) const;
    bool cellIsFree(std::size_t cell, double x, double y, double r) const;
    bool codedCellIsFree(std::size_t cell, double left, double top, const Query &q) const;
    void appendCellPoints(std::int32_t head, std::vector<PointXYR> &out) const;
    void store(double x, double y, double r);
    void grow();  // room for the next point: the first block doubled, or one more block
    // gatherNearSet's coded centres over the cells [c0, c1] x [r0, r1] into xs, ys, cells (which
    // hold 4 more than the cells): their count; `special` when a cell holds no single code
    std::size_t gatherCoded(int c0, int c1, int r0, int r1, double *xs, double *ys, std::size_t *cells, bool &special) const;
    // the centre of a code's quantised square, in a cell whose corner is (left, top)
    double codeX(std::uint32_t code, double left) const { return left + ((code >> kQuantBits) + 0.5) * m_quantStep; }
    double codeY(std::uint32_t code, double top) const { return top + ((code & kQuantMask) + 0.5) * m_quantStep; }

    double m_cellSize, m_inverse;
    double m_originX = 0, m_originY = 0;
    double cellLeft(int col) const { return m_originX + col * m_cellSize; }
    double cellTop(int row) const { return m_originY + row * m_cellSize; }
    double m_quantStep;         // cell size / 32768
    double m_quantError;        // how far a point can be from its quantised centre
    double m_extent;            // the grid's larger side, for the rounding allowance
    double m_minRadius = HUGE_VAL;  // the smallest radius stored
    int m_cols, m_rows;
    LargeArray<std::int32_t> m_head;   // per cell: -1 empty, i its one point, -(i + 2) a chain from i
    LargeArray<std::uint32_t> m_code;  // per cell: kEmpty, the point's quantised offset, or kSpecial
    std::int32_t next(std::size_t i) const { return (*m_nextBlocks[i >> kBlockShift])[i & kBlockMask]; }

    // Points and their chain links live in blocks: the first doubles up to kBlockSize, the rest are
    // whole from the start.
    std::vector<std::unique_ptr<LargeArray<PointXYR>>> m_blocks;
    std::vector<std::unique_ptr<LargeArray<std::int32_t>>> m_nextBlocks;  // per point: the next older point in its cell
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;  // points the blocks hold room for
    double m_periodX = 0, m_periodY = 0;  // setWrap's
    std::vector<std::size_t> m_images;    // the indices of the images, ascending
};

// Inline: the placement loop calls these millions of times per layer.

inline void OccupancyGrid::gatherNear(double x, double y, double reach, std::vector<PointXYR> &out) const
{
    reach += (std::fabs(x) + std::fabs(y) + reach) * 1e-12;
    const int c0 = colOf(x - reach), c1 = colOf(x + reach);
    const int r0 = rowOf(y - reach), r1 = rowOf(y + reach);
    for (int row = r0; row <= r1; ++row)
        for (int col = c0; col <= c1; ++col) {
            const std::int32_t head = m_head[static_cast<size_t>(row) * static_cast<size_t>(m_cols) + static_cast<size_t>(col)];
            if (head != -1)
                appendCellPoints(head, out);
        }
}

// a non-empty cell's points, by its head
inline void OccupancyGrid::appendCellPoints(std::int32_t head, std::vector<PointXYR> &out) const
{
    if (head >= 0) {  // the usual case: one point, no chain to follow
        out.push_back(point(static_cast<size_t>(head)));
        return;
    }
    for (std::int32_t i = -(head + 2); i >= 0; i = next(static_cast<size_t>(i)))
        out.push_back(point(static_cast<size_t>(i)));
}

// Cell lookups multiply by the inverse size: any monotonic mapping works, because insertion and
// queries use the same one and a query covers every cell its reach touches.
inline int OccupancyGrid::colOf(double x) const
{
    double c = std::floor((x - m_originX) * m_inverse);
    return c < 0 ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
}

inline int OccupancyGrid::rowOf(double y) const
{
    double r = std::floor((y - m_originY) * m_inverse);
    return r < 0 ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
}

inline bool OccupancyGrid::cellIsFree(std::size_t cell, double x, double y, double r) const
{
    const std::int32_t head = m_head[cell];
    if (head == -1)
        return true;
    if (head >= 0) {  // the usual case: one point, no chain to follow
        const PointXYR &p = point(static_cast<size_t>(head));
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        return !(dx * dx + dy * dy < m * m);
    }
    for (std::int32_t i = -(head + 2); i >= 0; i = next(static_cast<size_t>(i))) {
        const PointXYR &p = point(static_cast<size_t>(i));
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        if (dx * dx + dy * dy < m * m)
            return false;
    }
    return true;
}

inline OccupancyGrid::Query OccupancyGrid::query(double x, double y, double r) const
{
    const CodeBounds b = codeBounds(m_quantError, std::fabs(x) + std::fabs(y) + m_extent + r, r, m_minRadius);
    return {x, y, r, b.free2, b.conflict2};
}

inline bool OccupancyGrid::codedCellIsFree(std::size_t cell, double left, double top, const Query &q) const
{
    const std::uint32_t code = m_code[cell];
    if (code == kEmpty)
        return true;
    if (!(code & kSpecial)) {
        const double dx = codeX(code, left) - q.x;
        const double dy = codeY(code, top) - q.y;
        const double d2 = dx * dx + dy * dy;
        if (d2 >= q.free2)
            return true;
        if (d2 < q.conflict2)
            return false;
    }
    return cellIsFree(cell, q.x, q.y, q.r);  // several points, or too close to call: exact
}

inline bool OccupancyGrid::isFreeAmong(double x, double y, double r, std::vector<PointXYR> &points)
{
    for (size_t j = 0; j < points.size(); ++j) {
        const PointXYR &p = points[j];
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        if (dx * dx + dy * dy < m * m) {
            std::swap(points[j], points[0]);
            return false;
        }
    }
    return true;
}

inline bool OccupancyGrid::isFreeInSet(const NearSet &set, double x, double y, double r) const
{
    const Query q = query(x, y, r);
    for (size_t j = 0; j < set.count; ++j) {
        const double dx = set.x[j] - x;
        const double dy = set.y[j] - y;
        const double d2 = dx * dx + dy * dy;
        if (d2 >= q.free2)
            continue;
        if (d2 < q.conflict2)
            return false;
        const PointXYR &p = point(static_cast<size_t>(m_head[set.cell[j]]));  // too close to call
        const double m = std::min(r, p.r);
        const double ex = p.x - x;
        const double ey = p.y - y;
        if (ex * ex + ey * ey < m * m)
            return false;
    }
    for (const PointXYR &p : set.uncoded) {
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        if (dx * dx + dy * dy < m * m)
            return false;
    }
    return true;
}

inline void OccupancyGrid::prefetchForAdd(double x, double y) const
{
    const size_t cell = static_cast<size_t>(rowOf(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(colOf(x));
    __builtin_prefetch(m_head.data() + cell, 1);
}

inline void OccupancyGrid::prefetchAround(double x, double y, double reach) const
{
    const int c0 = colOf(x - reach), c1 = colOf(x + reach);
    const int r0 = rowOf(y - reach), r1 = rowOf(y + reach);
    for (int row = r0; row <= r1; ++row) {
        const std::uint32_t *line = m_code.data() + static_cast<size_t>(row) * static_cast<size_t>(m_cols);
        for (int col = c0; col <= c1 + 15; col += 16) {  // 16 codes per 64-byte line
            const std::uint32_t *address = line + std::min(col, c1);
            __builtin_prefetch(address);
            asm volatile("" : : "r"(address));  // GCC drops a loop of bare prefetches as dead
        }
    }
}

inline bool OccupancyGrid::isFree(double x, double y, double r) const
{
    // Any conflict lies within r of (x, y). The margin covers rounding in the cell arithmetic.
    const double reach = r + (std::fabs(x) + std::fabs(y) + r) * 1e-12;
    const int c0 = colOf(x - reach), c1 = colOf(x + reach);
    const int r0 = rowOf(y - reach), r1 = rowOf(y + reach);
    const int cc = colOf(x), cr = rowOf(y);
    const size_t cols = static_cast<size_t>(m_cols);
    const Query q = query(x, y, r);
    // The answer is a pure yes/no, so test the likeliest conflicts first: the candidate's own
    // cell and its eight neighbours, then the rest of the block.
    const int n0 = std::max(c0, cc - 1), n1 = std::min(c1, cc + 1);
    const int m0 = std::max(r0, cr - 1), m1 = std::min(r1, cr + 1);
    for (int row = m0; row <= m1; ++row)
        for (int col = n0; col <= n1; ++col)
            if (!codedCellIsFree(static_cast<size_t>(row) * cols + static_cast<size_t>(col), cellLeft(col), cellTop(row), q))
                return false;
    const double r2 = reach * reach;
    for (int row = r0; row <= r1; ++row) {
        // distance from (x, y) to this row of cells, to skip the block's far corners
        const double top = cellTop(row), bottom = top + m_cellSize;
        const double dy = y < top ? top - y : y > bottom ? y - bottom : 0;
        for (int col = c0; col <= c1; ++col) {
            if (row >= m0 && row <= m1 && col >= n0 && col <= n1)
                continue;  // tested above
            const double left = cellLeft(col), right = left + m_cellSize;
            const double dx = x < left ? left - x : x > right ? x - right : 0;
            if (dx * dx + dy * dy > r2)
                continue;
            if (!codedCellIsFree(static_cast<size_t>(row) * cols + static_cast<size_t>(col), left, top, q))
                return false;
        }
    }
    return true;
}

} // namespace grove
