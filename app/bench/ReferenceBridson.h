// A plain, straight C++ port of the seed tutorial's SampleGrid + PoissonSampler + poissonDisk
// (steps 3-4) and placeLayer (step 6, with allowed and radiusAt), kept only as the side-by-side
// baselines the benchmarks report ratios against.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace grove::bench {

class ReferenceRandom
{
public:
    explicit ReferenceRandom(std::int32_t seed) : m_seed(seed % 2147483647LL)
    {
        if (m_seed <= 0)
            m_seed += 2147483646;
    }
    double nextFloat()
    {
        m_seed = m_seed * 16807 % 2147483647;
        return static_cast<double>(m_seed - 1) / 2147483646.0;
    }

private:
    long long m_seed;
};

struct ReferencePoint
{
    double x, y, r;
};

// The seed's SampleGrid: one point index per cell.
class ReferenceGrid
{
public:
    ReferenceGrid(double w, double h, double cellSize)
        : width(w), height(h), m_cellSize(cellSize), m_cols(static_cast<int>(std::ceil(w / cellSize))),
          m_rows(static_cast<int>(std::ceil(h / cellSize))),
          m_cells(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), -1)
    {
    }
    void add(double x, double y, double r)
    {
        const int col = static_cast<int>(std::floor(x / m_cellSize));
        const int row = static_cast<int>(std::floor(y / m_cellSize));
        m_cells[static_cast<size_t>(row) * static_cast<size_t>(m_cols) + static_cast<size_t>(col)] = static_cast<int>(points.size());
        points.push_back({x, y, r});
    }
    bool isFree(double x, double y, double r) const
    {
        const int col = static_cast<int>(std::floor(x / m_cellSize));
        const int row = static_cast<int>(std::floor(y / m_cellSize));
        const int reach = static_cast<int>(std::ceil(r / m_cellSize));
        for (int rr = std::max(0, row - reach); rr <= std::min(m_rows - 1, row + reach); ++rr)
            for (int c = std::max(0, col - reach); c <= std::min(m_cols - 1, col + reach); ++c) {
                const int index = m_cells[static_cast<size_t>(rr) * static_cast<size_t>(m_cols) + static_cast<size_t>(c)];
                if (index < 0)
                    continue;
                const ReferencePoint &p = points[static_cast<size_t>(index)];
                const double m = std::min(r, p.r);
                const double dx = p.x - x, dy = p.y - y;
                if (dx * dx + dy * dy < m * m)
                    return false;
            }
        return true;
    }

    const double width, height;
    std::vector<ReferencePoint> points;

private:
    double m_cellSize;
    int m_cols, m_rows;
    std::vector<int> m_cells;
};

struct NoRule
{
};

// The seed's PoissonSampler. Allowed: bool(x, y) or NoRule; RadiusAt: double(x, y) or NoRule.
template<typename Allowed = NoRule, typename RadiusAt = NoRule>
class ReferenceSampler
{
public:
    ReferenceSampler(ReferenceGrid &grid, double radius, int k, std::int32_t seed, Allowed allowed = {}, RadiusAt radiusAt = {})
        : random(seed), m_grid(grid), m_radius(radius), m_k(k), m_allowed(allowed), m_radiusAt(radiusAt)
    {
    }
    bool tryAdd(double x, double y)
    {
        if (x < 0 || y < 0 || x >= m_grid.width || y >= m_grid.height)
            return false;
        if constexpr (!std::is_same_v<Allowed, NoRule>)
            if (!m_allowed(x, y))
                return false;
        double radius = m_radius;
        if constexpr (!std::is_same_v<RadiusAt, NoRule>)
            radius = std::max(m_radius, m_radiusAt(x, y));
        if (!m_grid.isFree(x, y, radius))
            return false;
        m_active.push_back(static_cast<int>(points.size()));
        points.push_back({x, y, radius});
        m_grid.add(x, y, radius);
        return true;
    }
    bool step()
    {
        if (m_active.empty())
            return false;
        const size_t a = static_cast<size_t>(std::floor(random.nextFloat() * static_cast<double>(m_active.size())));
        const ReferencePoint p = points[static_cast<size_t>(m_active[a])];
        for (int i = 0; i < m_k; ++i) {
            double dx, dy, d2;
            do {
                dx = (random.nextFloat() * 4 - 2) * p.r;
                dy = (random.nextFloat() * 4 - 2) * p.r;
                d2 = dx * dx + dy * dy;
            } while (d2 < p.r * p.r || d2 > 4 * p.r * p.r);
            if (tryAdd(p.x + dx, p.y + dy))
                return true;
        }
        m_active[a] = m_active.back();
        m_active.pop_back();
        return true;
    }

    ReferenceRandom random;
    std::vector<ReferencePoint> points;

private:
    ReferenceGrid &m_grid;
    double m_radius;
    int m_k;
    Allowed m_allowed;
    RadiusAt m_radiusAt;
    std::vector<int> m_active;
};

// The seed's poissonDisk: one random start.
inline std::vector<ReferencePoint> referencePoissonDisk(double width, double height, double radius, int k,
                                                        std::int32_t seed)
{
    ReferenceGrid grid(width, height, radius / std::sqrt(2.0));
    ReferenceSampler<> sampler(grid, radius, k, seed);
    const double x0 = sampler.random.nextFloat() * width;
    const double y0 = sampler.random.nextFloat() * height;
    sampler.tryAdd(x0, y0);
    while (sampler.step()) {
    }
    return std::move(sampler.points);
}

// The seed's placeLayer (every 2r x 2r square gets up to k tries first), with a radiusAt as
// poissonVariable gives it; the grid's cells fit the smallest radius.
template<typename Allowed, typename RadiusAt>
std::vector<ReferencePoint> referencePlaceLayer(double width, double height, double radius, int k, std::int32_t seed,
                                                Allowed allowed, RadiusAt radiusAt)
{
    ReferenceGrid grid(width, height, radius / std::sqrt(2.0));
    ReferenceSampler<Allowed, RadiusAt> sampler(grid, radius, k, seed, allowed, radiusAt);
    const double spacing = radius * 2;
    for (double y = 0; y < height; y += spacing)
        for (double x = 0; x < width; x += spacing)
            for (int i = 0; i < k; ++i) {
                const double sx = x + sampler.random.nextFloat() * std::min(spacing, width - x);
                const double sy = y + sampler.random.nextFloat() * std::min(spacing, height - y);
                if (sampler.tryAdd(sx, sy))
                    break;
            }
    while (sampler.step()) {
    }
    return std::move(sampler.points);
}

} // namespace grove::bench
