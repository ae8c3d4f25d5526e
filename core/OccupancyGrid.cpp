// OccupancyGrid: cell lists sized for the layer, exact distance tests independent of the cell size.
#include "OccupancyGrid.h"

#include <algorithm>

namespace grove {

double OccupancyGrid::cellsFor(double width, double height, double cellSize)
{
    return std::ceil(width / cellSize) * std::ceil(height / cellSize);
}

OccupancyGrid::OccupancyGrid(double width, double height, double cellSize)
    : m_width(width), m_height(height), m_cellSize(cellSize)
{
    m_cols = std::max(1, static_cast<int>(std::ceil(width / cellSize)));
    m_rows = std::max(1, static_cast<int>(std::ceil(height / cellSize)));
    m_head.assign(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), -1);
}

int OccupancyGrid::colOf(double x) const
{
    double c = std::floor(x / m_cellSize);
    return c < 0 ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
}

int OccupancyGrid::rowOf(double y) const
{
    double r = std::floor(y / m_cellSize);
    return r < 0 ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
}

void OccupancyGrid::add(double x, double y, double r)
{
    if ((m_size & kBlockMask) == 0)
        m_blocks.push_back(std::make_unique_for_overwrite<PointXYR[]>(kBlockSize));
    const size_t cell = static_cast<size_t>(rowOf(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(colOf(x));
    m_next.push_back(m_head[cell]);
    m_head[cell] = static_cast<std::int32_t>(m_size);
    m_blocks[m_size >> kBlockShift][m_size & kBlockMask] = {x, y, r};
    ++m_size;
}

inline bool OccupancyGrid::cellIsFree(std::size_t cell, double x, double y, double r) const
{
    for (std::int32_t i = m_head[cell]; i >= 0; i = m_next[static_cast<size_t>(i)]) {
        const PointXYR &p = point(static_cast<size_t>(i));
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        if (dx * dx + dy * dy < m * m)
            return false;
    }
    return true;
}

bool OccupancyGrid::isFree(double x, double y, double r) const
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

std::vector<PointXYR> OccupancyGrid::takePoints(std::size_t from)
{
    std::vector<std::int32_t>().swap(m_head);
    std::vector<std::int32_t>().swap(m_next);
    std::vector<PointXYR> out;
    if (from >= m_size)
        return out;
    out.reserve(m_size - from);
    for (size_t b = 0; b < m_blocks.size(); ++b) {
        const size_t begin = b << kBlockShift, end = std::min(m_size, begin + kBlockSize);
        for (size_t i = std::max(begin, from); i < end; ++i)
            out.push_back(m_blocks[b][i - begin]);
        m_blocks[b].reset();  // free each block as soon as it is copied
    }
    m_blocks.clear();
    m_size = 0;
    return out;
}

} // namespace grove
