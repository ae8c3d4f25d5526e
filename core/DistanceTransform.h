// Distances for the `distance` node: the exact squared Euclidean distance transform of a raster
// (Felzenszwalb & Huttenlocher), and the exact nearest of a set of points by a bucket grid.
#pragma once

#include "DataTypes.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace grove {

// The largest raster the distance transform takes: 8192 x 8192 cells, 512 MiB of doubles, and at
// most 2^20 cells a side (the envelope of one line takes 32 bytes a cell).
inline constexpr std::size_t kMaxDistanceRasterCells = std::size_t(1) << 26;
inline constexpr std::size_t kMaxDistanceRasterSide = std::size_t(1) << 20;

// In: cells[row * cols + col] is 0 for a target cell and +infinity for any other. Out: each cell's
// squared distance, in cells, to the nearest target cell (an exact integer), or +infinity when
// there is no target. Separable and linear time: rows, then columns, each the lower envelope of
// parabolas, with the envelope's breakpoints compared exactly in integers. Returns false (the
// cells then half done) when `cancel` is set part way; `progress` gets fractions in [0, 1].
bool squaredDistanceTransform(std::vector<double> &cells, int cols, int rows,
                              const std::atomic<bool> *cancel = nullptr,
                              const std::function<void(double)> &progress = {});

// The exact distance from any spot to the nearest of a set of points (their centres): a uniform
// grid of buckets over the points' bounding box (about two points a bucket), searched in rings
// outward from the query's bucket until no unvisited bucket can hold anything nearer. The
// answer is sqrt(dx*dx + dy*dy) of the nearest point, bit for bit what testing every point gives.
class NearestPoints
{
public:
    // Non-finite points are left out.
    explicit NearestPoints(const std::vector<PointXYR> &points);
    NearestPoints(const std::vector<const std::vector<PointXYR> *> &layers);

    std::size_t size() const { return m_x.size(); }
    // min over the points of dx*dx + dy*dy; +infinity with no points, NaN for a NaN spot.
    double nearestSquared(double x, double y) const;
    double distance(double x, double y) const;

private:
    void build(const std::vector<const std::vector<PointXYR> *> &layers);
    int colOf(double x) const;
    int rowOf(double y) const;

    double m_minX = 0, m_minY = 0, m_maxX = 0, m_maxY = 0, m_cell = 1, m_inverse = 1, m_margin = 0;
    int m_cols = 1, m_rows = 1;
    std::vector<std::size_t> m_start;     // per bucket: its first point in m_x/m_y; one past the end last
    std::vector<double> m_x, m_y;        // the points, bucket by bucket
};

} // namespace grove
