// OccupancyGrid: cell lists sized for the layer, exact distance tests independent of the cell size.
#include "OccupancyGrid.h"

#include <algorithm>

namespace grove {

double OccupancyGrid::cellsFor(double width, double height, double cellSize)
{
    return std::ceil(width / cellSize) * std::ceil(height / cellSize);
}

OccupancyGrid::OccupancyGrid(double width, double height, double cellSize)
    : m_width(width), m_height(height), m_cellSize(cellSize), m_inverse(1.0 / cellSize)
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
    const size_t cell = static_cast<size_t>(rowOf(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(colOf(x));
    m_next.push_back(m_head[cell]);
    m_head[cell] = static_cast<std::int32_t>(m_points.size());
    m_points.push_back({x, y, r});
}

bool OccupancyGrid::isFree(double x, double y, double r) const
{
    // Any conflict lies within r of (x, y). The margin covers rounding in the cell arithmetic.
    const double reach = r + (std::fabs(x) + std::fabs(y) + r) * 1e-12;
    const int c0 = colOf(x - reach), c1 = colOf(x + reach);
    const int r0 = rowOf(y - reach), r1 = rowOf(y + reach);
    for (int row = r0; row <= r1; ++row) {
        const std::int32_t *head = m_head.data() + static_cast<size_t>(row) * static_cast<size_t>(m_cols);
        for (int col = c0; col <= c1; ++col) {
            for (std::int32_t i = head[col]; i >= 0; i = m_next[static_cast<size_t>(i)]) {
                const PointXYR &p = m_points[static_cast<size_t>(i)];
                const double m = std::min(r, p.r);
                const double dx = p.x - x;
                const double dy = p.y - y;
                if (dx * dx + dy * dy < m * m)
                    return false;
            }
        }
    }
    return true;
}

} // namespace grove
