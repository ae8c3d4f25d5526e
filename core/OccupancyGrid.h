// The shared occupancy of one placement: every point so far (obstacles and own) with its radius.
#pragma once

#include "DataTypes.h"

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
    const PointXYR &point(std::size_t i) const { return m_blocks[i >> kBlockShift][i & kBlockMask]; }
    std::size_t cellCount() const { return m_head.size(); }
    // cells a grid of this shape would need, before allocating it
    static double cellsFor(double width, double height, double cellSize);

    // Ends the grid's life: frees the cells, then moves points [from, size) into an exact-size
    // vector block by block, so the peak stays near one copy of the points.
    std::vector<PointXYR> takePoints(std::size_t from);

private:
    static constexpr unsigned kBlockShift = 15;
    static constexpr std::size_t kBlockSize = std::size_t(1) << kBlockShift;
    static constexpr std::size_t kBlockMask = kBlockSize - 1;

    int colOf(double x) const;
    int rowOf(double y) const;
    bool cellIsFree(std::size_t cell, double x, double y, double r) const;

    double m_width, m_height, m_cellSize;
    int m_cols, m_rows;
    std::vector<std::int32_t> m_head;  // per cell: newest point index, -1 empty
    std::vector<std::int32_t> m_next;  // per point: the next older point in its cell
    std::vector<std::unique_ptr<PointXYR[]>> m_blocks;
    std::size_t m_size = 0;
};

} // namespace grove
