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
}

void OccupancyGrid::add(double x, double y, double r)
{
    if ((m_size & kBlockMask) == 0)
        m_blocks.push_back(std::make_unique<LargeArray<PointXYR>>(kBlockSize, PointXYR{0, 0, 0}));
    const size_t cell = static_cast<size_t>(rowOf(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(colOf(x));
    // head: -1 empty, i >= 0 the cell's only point, -(i + 2) newest of a chain through m_next
    const std::int32_t index = static_cast<std::int32_t>(m_size);
    const std::int32_t head = m_head[cell];
    m_next.push_back(head == -1 ? -1 : head >= 0 ? head : -(head + 2));
    m_head[cell] = head == -1 ? index : -(index + 2);
    (*m_blocks[m_size >> kBlockShift])[m_size & kBlockMask] = {x, y, r};
    ++m_size;
}

std::vector<PointXYR> OccupancyGrid::takePoints(std::size_t from)
{
    m_head.release();
    std::vector<std::int32_t>().swap(m_next);
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
