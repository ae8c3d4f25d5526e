// The shared occupancy of one placement: every point so far (obstacles and own) with its radius.
#pragma once

#include "DataTypes.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace grove {

// A uniform grid of singly linked cell lists. Any cell size gives the same answers: a query
// tests every point whose cell could hold a conflict, with the exact `dx*dx + dy*dy < m*m`.
// Pre-fill it with obstacle points from anywhere (other layers, neighbouring chunks).
class OccupancyGrid
{
public:
    OccupancyGrid(double width, double height, double cellSize);

    void add(double x, double y, double r);
    // True when no stored point p has (p.x - x)^2 + (p.y - y)^2 < min(r, p.r)^2.
    bool isFree(double x, double y, double r) const;

    std::size_t size() const { return m_points.size(); }
    std::size_t cellCount() const { return m_head.size(); }
    // cells a grid of this shape would need, before allocating it
    static double cellsFor(double width, double height, double cellSize);

private:
    int colOf(double x) const;
    int rowOf(double y) const;

    double m_width, m_height, m_cellSize, m_inverse;
    int m_cols, m_rows;
    std::vector<std::int32_t> m_head;  // per cell: newest point index, -1 empty
    std::vector<std::int32_t> m_next;  // per point: the next older point in its cell
    std::vector<PointXYR> m_points;
};

} // namespace grove
