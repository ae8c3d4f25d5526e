// The shared occupancy of one placement: every point so far (obstacles and own) with its radius.
#pragma once

#include "DataTypes.h"
#include "LargeArray.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace grove {

// A uniform grid of singly linked cell lists over points kept in fixed-size blocks (no
// reallocation, no copy while growing). Any cell size gives the same answers: a query tests
// every point whose cell could hold a conflict, with the exact `dx*dx + dy*dy < m*m`.
// Pre-fill it with obstacle points from anywhere (other layers, neighbouring chunks).
class OccupancyGrid
{
public:
    OccupancyGrid(double width, double height, double cellSize);

    void add(double x, double y, double r);
    // True when no stored point p has (p.x - x)^2 + (p.y - y)^2 < min(r, p.r)^2.
    bool isFree(double x, double y, double r) const;

    std::size_t size() const { return m_size; }
    // Appends every stored point within `reach` of (x, y) (and possibly a few beyond) to `out`.
    void gatherNear(double x, double y, double reach, std::vector<PointXYR> &out) const;
    const PointXYR &point(std::size_t i) const { return (*m_blocks[i >> kBlockShift])[i & kBlockMask]; }
    std::size_t cellCount() const { return m_head.size(); }
    // cells a grid of this shape would need, before allocating it
    static double cellsFor(double width, double height, double cellSize);

    // Ends the grid's life: frees the cells, then moves points [from, size) into an exact-size
    // vector block by block, so the peak stays near one copy of the points.
    std::vector<PointXYR> takePoints(std::size_t from);

private:
    static constexpr unsigned kBlockShift = 16;  // 65536 points: 1.5 MiB, one huge page
    static constexpr std::size_t kBlockSize = std::size_t(1) << kBlockShift;
    static constexpr std::size_t kBlockMask = kBlockSize - 1;

    int colOf(double x) const;
    int rowOf(double y) const;
    bool cellIsFree(std::size_t cell, double x, double y, double r) const;

    double m_cellSize, m_inverse;
    int m_cols, m_rows;
    LargeArray<std::int32_t> m_head;   // per cell: -1 empty, i its one point, -(i + 2) a chain from i
    std::vector<std::int32_t> m_next;  // per point: the next older point in its cell
    std::vector<std::unique_ptr<LargeArray<PointXYR>>> m_blocks;
    std::size_t m_size = 0;
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
            if (head == -1)
                continue;
            if (head >= 0) {
                out.push_back(point(static_cast<size_t>(head)));
                continue;
            }
            for (std::int32_t i = -(head + 2); i >= 0; i = m_next[static_cast<size_t>(i)])
                out.push_back(point(static_cast<size_t>(i)));
        }
}

// Cell lookups multiply by the inverse size: any monotonic mapping works, because insertion and
// queries use the same one and a query covers every cell its reach touches.
inline int OccupancyGrid::colOf(double x) const
{
    double c = std::floor(x * m_inverse);
    return c < 0 ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
}

inline int OccupancyGrid::rowOf(double y) const
{
    double r = std::floor(y * m_inverse);
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
    for (std::int32_t i = -(head + 2); i >= 0; i = m_next[static_cast<size_t>(i)]) {
        const PointXYR &p = point(static_cast<size_t>(i));
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        if (dx * dx + dy * dy < m * m)
            return false;
    }
    return true;
}

inline bool OccupancyGrid::isFree(double x, double y, double r) const
{
    // Any conflict lies within r of (x, y). The margin covers rounding in the cell arithmetic.
    const double reach = r + (std::fabs(x) + std::fabs(y) + r) * 1e-12;
    const int c0 = colOf(x - reach), c1 = colOf(x + reach);
    const int r0 = rowOf(y - reach), r1 = rowOf(y + reach);
    const int cc = colOf(x), cr = rowOf(y);
    const size_t cols = static_cast<size_t>(m_cols);
    // The answer is a pure yes/no, so test the likeliest conflicts first: the candidate's own
    // cell and its eight neighbours, then the rest of the block.
    const int n0 = std::max(c0, cc - 1), n1 = std::min(c1, cc + 1);
    const int m0 = std::max(r0, cr - 1), m1 = std::min(r1, cr + 1);
    for (int row = m0; row <= m1; ++row)
        for (int col = n0; col <= n1; ++col)
            if (!cellIsFree(static_cast<size_t>(row) * cols + static_cast<size_t>(col), x, y, r))
                return false;
    const double r2 = reach * reach;
    for (int row = r0; row <= r1; ++row) {
        // distance from (x, y) to this row of cells, to skip the block's far corners
        const double top = row * m_cellSize, bottom = top + m_cellSize;
        const double dy = y < top ? top - y : y > bottom ? y - bottom : 0;
        for (int col = c0; col <= c1; ++col) {
            if (row >= m0 && row <= m1 && col >= n0 && col <= n1)
                continue;  // tested above
            const double left = col * m_cellSize, right = left + m_cellSize;
            const double dx = x < left ? left - x : x > right ? x - right : 0;
            if (dx * dx + dy * dy > r2)
                continue;
            if (!cellIsFree(static_cast<size_t>(row) * cols + static_cast<size_t>(col), x, y, r))
                return false;
        }
    }
    return true;
}

} // namespace grove
