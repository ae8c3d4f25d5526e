// Layer statistics with a bucket grid: nearest neighbours for the tightest pair, a distance
// field plus local refinement for the widest clearing. Linear in the points.
#include "LayerStats.h"

#include "Evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grove {

namespace {

// Points bucketed in square cells for neighbour queries.
class Buckets
{
public:
    Buckets(const std::vector<PointXYR> &points, double width, double height)
        : m_points(points)
    {
        const double area = std::max(width * height, 1e-12);
        m_cell = std::sqrt(area / std::max<double>(1, static_cast<double>(points.size())));
        m_cell = std::max(m_cell, std::max(width, height) / 4096);
        m_cols = std::max(1, static_cast<int>(std::ceil(width / m_cell)));
        m_rows = std::max(1, static_cast<int>(std::ceil(height / m_cell)));
        m_start.assign(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows) + 1, 0);
        for (const auto &p : points)
            ++m_start[cellOf(p.x, p.y) + 1];
        for (size_t i = 1; i < m_start.size(); ++i)
            m_start[i] += m_start[i - 1];
        m_items.resize(points.size());
        std::vector<std::uint32_t> fill(m_start.begin(), m_start.end() - 1);
        for (std::uint32_t i = 0; i < points.size(); ++i)
            m_items[fill[cellOf(points[i].x, points[i].y)]++] = i;
    }

    // Distance to the nearest point other than `skip`, searching rings outward.
    double nearest(double x, double y, std::int64_t skip = -1) const
    {
        const int cx = clampCol(x), cy = clampRow(y);
        double best2 = std::numeric_limits<double>::infinity();
        const int maxRing = std::max(m_cols, m_rows);
        for (int ring = 0; ring <= maxRing; ++ring) {
            // every point in rings beyond this one is at least (ring - 1) cells away
            const double ringDist = (ring - 1) * m_cell;
            if (ring > 1 && ringDist * ringDist > best2)
                break;
            for (int row = cy - ring; row <= cy + ring; ++row) {
                if (row < 0 || row >= m_rows)
                    continue;
                const bool edgeRow = row == cy - ring || row == cy + ring;
                for (int col = cx - ring; col <= cx + ring; col += edgeRow ? 1 : 2 * ring) {
                    if (col >= 0 && col < m_cols) {
                        const size_t cell = static_cast<size_t>(row) * static_cast<size_t>(m_cols) + static_cast<size_t>(col);
                        for (std::uint32_t k = m_start[cell]; k < m_start[cell + 1]; ++k) {
                            const std::uint32_t i = m_items[k];
                            if (static_cast<std::int64_t>(i) == skip)
                                continue;
                            const double dx = m_points[i].x - x, dy = m_points[i].y - y;
                            best2 = std::min(best2, dx * dx + dy * dy);
                        }
                    }
                    if (ring == 0)
                        break;
                }
            }
        }
        return std::sqrt(best2);
    }

private:
    int clampCol(double x) const { return std::clamp(static_cast<int>(std::floor(x / m_cell)), 0, m_cols - 1); }
    int clampRow(double y) const { return std::clamp(static_cast<int>(std::floor(y / m_cell)), 0, m_rows - 1); }
    size_t cellOf(double x, double y) const
    {
        return static_cast<size_t>(clampRow(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(clampCol(x));
    }

    const std::vector<PointXYR> &m_points;
    double m_cell = 1;
    int m_cols = 1, m_rows = 1;
    std::vector<std::uint32_t> m_start, m_items;
};

// Conflicts of the layer's points with everything placed before each of them.
std::size_t countTooClose(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier)
{
    std::vector<PointXYR> all;
    for (const auto &l : earlier)
        all.insert(all.end(), l->points.begin(), l->points.end());
    const size_t firstOwn = all.size();
    all.insert(all.end(), layer.points.begin(), layer.points.end());
    if (all.size() < 2)
        return 0;
    double maxR = 0;
    for (const auto &p : all)
        maxR = std::max(maxR, p.r);
    // sweep by x: a conflict needs |dx| < min(ri, rj) <= maxR
    std::vector<std::uint32_t> order(all.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return all[a].x != all[b].x ? all[a].x < all[b].x : a < b;
    });
    std::size_t count = 0;
    for (size_t a = 0; a < order.size(); ++a) {
        const PointXYR &p = all[order[a]];
        for (size_t b = a + 1; b < order.size() && all[order[b]].x - p.x < maxR; ++b) {
            if (order[a] < firstOwn && order[b] < firstOwn)
                continue;  // two earlier points: their own layers' business
            const PointXYR &q = all[order[b]];
            const double m = std::min(p.r, q.r);
            const double dx = p.x - q.x, dy = p.y - q.y;
            count += dx * dx + dy * dy < m * m;
        }
    }
    return count;
}

// Felzenszwalb and Huttenlocher's squared distance transform of a sampled function, in place.
void distanceTransform1D(double *f, int n, int stride, std::vector<double> &d, std::vector<int> &v, std::vector<double> &z)
{
    d.resize(static_cast<size_t>(n));
    v.resize(static_cast<size_t>(n));
    z.resize(static_cast<size_t>(n) + 1);
    int k = 0;
    v[0] = 0;
    z[0] = -1e300;
    z[1] = 1e300;
    auto at = [&](int q) { return f[static_cast<size_t>(q) * static_cast<size_t>(stride)]; };
    for (int q = 1; q < n; ++q) {
        double s;
        while (true) {
            const int p = v[static_cast<size_t>(k)];
            s = ((at(q) + double(q) * q) - (at(p) + double(p) * p)) / (2.0 * q - 2.0 * p);
            if (s <= z[static_cast<size_t>(k)] && k > 0)
                --k;
            else
                break;
        }
        if (s <= z[static_cast<size_t>(k)]) {  // k == 0 and the new parabola wins everywhere
            v[0] = q;
            z[1] = 1e300;
            continue;
        }
        ++k;
        v[static_cast<size_t>(k)] = q;
        z[static_cast<size_t>(k)] = s;
        z[static_cast<size_t>(k) + 1] = 1e300;
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
        while (z[static_cast<size_t>(k) + 1] < q)
            ++k;
        const int p = v[static_cast<size_t>(k)];
        d[static_cast<size_t>(q)] = double(q - p) * (q - p) + at(p);
    }
    for (int q = 0; q < n; ++q)
        f[static_cast<size_t>(q) * static_cast<size_t>(stride)] = d[static_cast<size_t>(q)];
}

// Distances (in cells) from each cell to the nearest zero cell.
void distanceTransform2D(std::vector<double> &field, int nx, int ny)
{
    std::vector<double> d, z;
    std::vector<int> v;
    for (int j = 0; j < ny; ++j)
        distanceTransform1D(field.data() + static_cast<size_t>(j) * static_cast<size_t>(nx), nx, 1, d, v, z);
    for (int i = 0; i < nx; ++i)
        distanceTransform1D(field.data() + i, ny, nx, d, v, z);
    for (auto &f : field)
        f = std::sqrt(f);
}

} // namespace

LayerStats computeLayerStats(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double width,
                             double height)
{
    LayerStats s;
    s.count = layer.points.size();
    s.tooClose = countTooClose(layer, earlier);
    if (layer.points.empty())
        return s;
    Buckets buckets(layer.points, width, height);
    if (layer.points.size() >= 2) {
        double tight = std::numeric_limits<double>::infinity();
        for (size_t i = 0; i < layer.points.size(); ++i)
            tight = std::min(tight, buckets.nearest(layer.points[i].x, layer.points[i].y, static_cast<std::int64_t>(i)));
        s.tightest = tight;
    }
    // Widest clearing: a Euclidean distance transform over a raster of about a million cells
    // finds the best few centres to within a cell; a shrinking pattern search with exact
    // nearest-point distances then refines them.
    const double step = std::max(std::sqrt(width * height / 1e6), 1e-9);
    const int nx = std::max(1, static_cast<int>(std::ceil(width / step)));
    const int ny = std::max(1, static_cast<int>(std::ceil(height / step)));
    std::vector<double> field(static_cast<size_t>(nx) * static_cast<size_t>(ny), 1e30);
    for (const auto &p : layer.points) {
        const int i = std::clamp(static_cast<int>(p.x / step), 0, nx - 1);
        const int j = std::clamp(static_cast<int>(p.y / step), 0, ny - 1);
        field[static_cast<size_t>(j) * static_cast<size_t>(nx) + static_cast<size_t>(i)] = 0;
    }
    distanceTransform2D(field, nx, ny);
    struct Candidate { double d, x, y; };
    std::vector<Candidate> best;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const double d = field[static_cast<size_t>(j) * static_cast<size_t>(nx) + static_cast<size_t>(i)];
            if (best.size() < 8 || d > best.back().d) {
                best.push_back({d, std::min(width, (i + 0.5) * step), std::min(height, (j + 0.5) * step)});
                std::sort(best.begin(), best.end(), [](const Candidate &l, const Candidate &r) { return l.d > r.d; });
                if (best.size() > 8)
                    best.pop_back();
            }
        }
    for (auto &c : best)
        c.d = buckets.nearest(c.x, c.y);
    Candidate top = best.front();
    for (Candidate c : best) {
        for (double h = step; h > step * 1e-4; h *= 0.5) {
            bool moved = true;
            while (moved) {
                moved = false;
                for (auto [ox, oy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}) {
                    const double x = std::clamp(c.x + ox * h, 0.0, width), y = std::clamp(c.y + oy * h, 0.0, height);
                    const double d = buckets.nearest(x, y);
                    if (d > c.d) {
                        c = {d, x, y};
                        moved = true;
                    }
                }
            }
        }
        if (c.d > top.d)
            top = c;
    }
    s.clearingX = top.x;
    s.clearingY = top.y;
    s.clearingDiameter = 2 * top.d;
    return s;
}

LayerStats computeLayerStats(const EvalResult &result, const std::string &nodeId, const PointLayerPtr &layer,
                             const World &world)
{
    // a layer answers for its spacing against what it was placed among: its obstacles
    std::vector<PointLayerPtr> obstacles;
    const PortValue chain = result.outputWithRole(nodeId, PortRole::LayerChain);
    if (const auto *set = std::get_if<PointSetPtr>(&chain); set && *set)
        for (const auto &l : (*set)->layers)
            if (l != layer)
                obstacles.push_back(l);
    return computeLayerStats(*layer, obstacles, world.width, world.height);
}

} // namespace grove
