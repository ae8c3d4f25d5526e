// Distances for the `distance` node: the exact squared Euclidean distance transform of a raster
// (Felzenszwalb & Huttenlocher), and the exact nearest of a set of points by a bucket grid (the
// voronoi node's SiteIndex searches the same grid).
#pragma once

#include "core/base/DataTypes.h"
#include "core/geometry/Polygon.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
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

// The exact nearest of a set of points: a uniform grid of buckets over the points' bounding box
// (about two points a bucket), searched in rings outward from the query's bucket until no
// unvisited bucket can hold anything nearer. Behind the `distance` node (the distance to the
// nearest point, bit for bit what testing every point gives) and the voronoi node's SiteIndex
// (the nearest point's index, and the border test's walk over the sites near a spot).
class NearestPoints
{
public:
    // Non-finite points are left out; indices stay those of the input (layer after layer). With
    // `core` given, only points inside it (edges included) go in the grid and the few outside are
    // tested at every query, so one far-off point cannot stretch the grid until every point
    // shares a bucket.
    explicit NearestPoints(const std::vector<PointXYR> &points, const Region *core = nullptr);
    explicit NearestPoints(const std::vector<const std::vector<PointXYR> *> &layers, const Region *core = nullptr);
    explicit NearestPoints(const std::vector<Vec2> &points, const Region *core = nullptr);

    // The finite points.
    std::size_t size() const { return m_x.size() + m_farX.size(); }
    // min over the points of dx*dx + dy*dy; +infinity with no points, NaN for a NaN spot.
    double nearestSquared(double x, double y) const;
    double distance(double x, double y) const;
    // The index of the point nearest (x, y) by dx*dx + dy*dy, the lower index on a tie; -1 with no
    // points or a NaN spot. `squared` gets that dx*dx + dy*dy (+infinity with none).
    long long nearestIndex(double x, double y, double *squared = nullptr) const;

    // The walk behind the queries above. visit(px, py, d2, index) is called for the points
    // outside the core, then for those in the grid bucket by bucket, in rings outward from
    // (x, y)'s bucket, d2 = dx*dx + dy*dy from (x, y); it returns true to stop the walk (walk then
    // returns true). Only buckets that may hold points within `reach` of (x, y) are visited
    // (+infinity: every bucket). After each ring, more(bound) is told that every point not yet
    // visited has d2 >= bound * (1 - 1e-12) (the factor covers rounding), and returns false to
    // stop. (x, y) must not be NaN.
    template <class Visit, class More>
    bool walk(double x, double y, double reach, Visit &&visit, More &&more) const;
    // How far a point may sit outside its bucket through rounding.
    double margin() const { return m_margin; }

private:
    template <class EachPoint>
    void build(const EachPoint &each, const Region *core);
    int colOf(double x) const
    {
        const double c = std::floor((x - m_minX) * m_inverse);
        return !(c > 0) ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
    }
    int rowOf(double y) const
    {
        const double r = std::floor((y - m_minY) * m_inverse);
        return !(r > 0) ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
    }

    double m_minX = 0, m_minY = 0, m_maxX = 0, m_maxY = 0, m_cell = 1, m_inverse = 1, m_margin = 0;
    int m_cols = 1, m_rows = 1;
    std::vector<std::size_t> m_start;     // per bucket: its first point in m_x/m_y; one past the end last
    std::vector<double> m_x, m_y;        // the points, bucket by bucket
    std::vector<std::size_t> m_index;    // their indices in the input, ascending in each bucket
    std::vector<double> m_farX, m_farY;  // the points outside the core
    std::vector<std::size_t> m_farIndex;
};

// Inlined into each query, so that what the visitor keeps (the best so far) stays in registers.
template <class Visit, class More>
inline __attribute__((always_inline)) bool NearestPoints::walk(double x, double y, double reach, Visit &&visit, More &&more) const
{
    const auto test = [&](double px, double py, std::size_t index) __attribute__((always_inline)) {
        const double dx = px - x;
        const double dy = py - y;
        return visit(px, py, dx * dx + dy * dy, index);
    };
    for (std::size_t i = 0; i < m_farX.size(); ++i)
        if (test(m_farX[i], m_farY[i], m_farIndex[i]))
            return true;
    if (m_x.empty())
        return false;
    // the buckets that may hold points within reach: a window of columns and rows
    int wc0 = 0, wc1 = m_cols - 1, wr0 = 0, wr1 = m_rows - 1;
    if (reach < std::numeric_limits<double>::infinity()) {
        wc0 = colOf(x - reach - m_margin);
        wc1 = colOf(x + reach + m_margin);
        wr0 = rowOf(y - reach - m_margin);
        wr1 = rowOf(y + reach + m_margin);
    }
    // the buckets from column col0 to col1 of a row: their points lie one after another
    const auto buckets = [&](int col0, int col1, int row) __attribute__((always_inline)) {
        const std::size_t b = static_cast<std::size_t>(row) * static_cast<std::size_t>(m_cols);
        for (std::size_t i = m_start[b + static_cast<std::size_t>(col0)], end = m_start[b + static_cast<std::size_t>(col1) + 1]; i < end; ++i)
            if (test(m_x[i], m_y[i], m_index[i]))
                return true;
        return false;
    };
    // squared distance from the spot to a rectangle
    const auto toRect = [&](double x0, double x1, double y0, double y1) {
        const double dx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
        const double dy = y < y0 ? y0 - y : y > y1 ? y - y1 : 0;
        return dx * dx + dy * dy;
    };
    const double left = m_minX - m_margin, right = m_maxX + m_margin;
    const double top = m_minY - m_margin, bottom = m_maxY + m_margin;
    const int cx = colOf(x), cy = rowOf(y);
    for (int k = 0;; ++k) {
        // ring k: the buckets k columns or rows away from (cx, cy), within the window
        const int c0 = cx - k, c1 = cx + k, r0 = cy - k, r1 = cy + k;
        const int cc0 = std::max(c0, wc0), cc1 = std::min(c1, wc1);
        if (r0 >= wr0 && buckets(cc0, cc1, r0))
            return true;
        if (k > 0 && r1 <= wr1 && buckets(cc0, cc1, r1))
            return true;
        const int rr0 = std::max(r0 + 1, wr0), rr1 = std::min(r1 - 1, wr1);
        if (k > 0 && c0 >= wc0)
            for (int r = rr0; r <= rr1; ++r)
                if (buckets(c0, c0, r))
                    return true;
        if (k > 0 && c1 <= wc1)
            for (int r = rr0; r <= rr1; ++r)
                if (buckets(c1, c1, r))
                    return true;
        if (c0 <= wc0 && c1 >= wc1 && r0 <= wr0 && r1 >= wr1)
            return false;  // the whole window visited
        // every bucket not yet visited lies in one of these slabs
        double bound = std::numeric_limits<double>::infinity();
        if (c0 > 0)
            bound = std::min(bound, toRect(left, m_minX + c0 * m_cell + m_margin, top, bottom));
        if (c1 < m_cols - 1)
            bound = std::min(bound, toRect(m_minX + (c1 + 1) * m_cell - m_margin, right, top, bottom));
        if (r0 > 0)
            bound = std::min(bound, toRect(left, right, top, m_minY + r0 * m_cell + m_margin));
        if (r1 < m_rows - 1)
            bound = std::min(bound, toRect(left, right, m_minY + (r1 + 1) * m_cell - m_margin, bottom));
        if (!more(bound))
            return false;
    }
}

} // namespace grove
