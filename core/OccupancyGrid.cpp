// OccupancyGrid: cell lists sized for the layer, exact distance tests independent of the cell size.
#include "OccupancyGrid.h"

#include <algorithm>

namespace grove {

double OccupancyGrid::cellsFor(double width, double height, double cellSize)
{
    return std::ceil(width / cellSize) * std::ceil(height / cellSize);
}

OccupancyGrid::OccupancyGrid(double width, double height, double cellSize)
    : m_cellSize(cellSize), m_inverse(1.0 / cellSize)
{
    m_cols = std::max(1, static_cast<int>(std::ceil(width / cellSize)));
    m_rows = std::max(1, static_cast<int>(std::ceil(height / cellSize)));
    m_head.reset(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), -1);
    m_code.reset(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), kEmpty);
    m_quantStep = cellSize / static_cast<double>(kQuantMask + 1);
    m_quantError = m_quantStep * 0.70710678118654757;  // half the quantised square's diagonal
    m_extent = std::max(m_cols, m_rows) * cellSize;
}

void OccupancyGrid::add(double x, double y, double r)
{
    if ((m_size & kBlockMask) == 0) {
        m_blocks.push_back(std::make_unique<LargeArray<PointXYR>>());
        m_blocks.back()->resetUninitialized(kBlockSize);
        m_nextBlocks.push_back(std::make_unique<LargeArray<std::int32_t>>());
        m_nextBlocks.back()->resetUninitialized(kBlockSize);
    }
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
    const double fx = x * m_inverse - col, fy = y * m_inverse - row;
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
    out.reserve(m_size - from);
    for (size_t b = 0; b < m_blocks.size(); ++b) {
        const size_t begin = b << kBlockShift, end = std::min(m_size, begin + kBlockSize);
        for (size_t i = std::max(begin, from); i < end; ++i)
            out.push_back((*m_blocks[b])[i - begin]);
        m_blocks[b].reset();  // free each block as soon as it is copied
    }
    m_blocks.clear();
    m_size = 0;
    return out;
}

} // namespace grove
