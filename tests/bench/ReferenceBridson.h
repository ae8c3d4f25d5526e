// A plain, straight C++ port of the seed tutorial's SampleGrid + PoissonSampler + poissonDisk
// (steps 3-4), kept only as the side-by-side baseline the benchmarks report ratios against.
#pragma once

#include <cmath>
#include <cstdint>
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

inline std::vector<ReferencePoint> referencePoissonDisk(double width, double height, double radius, int k,
                                                        std::int32_t seed)
{
    const double cellSize = radius / std::sqrt(2.0);
    const int cols = static_cast<int>(std::ceil(width / cellSize));
    const int rows = static_cast<int>(std::ceil(height / cellSize));
    std::vector<int> cells(static_cast<size_t>(cols) * static_cast<size_t>(rows), -1);
    std::vector<ReferencePoint> points;
    std::vector<int> active;
    ReferenceRandom random(seed);
    auto isFree = [&](double x, double y, double r) {
        const int col = static_cast<int>(std::floor(x / cellSize));
        const int row = static_cast<int>(std::floor(y / cellSize));
        const int reach = static_cast<int>(std::ceil(r / cellSize));
        for (int rr = std::max(0, row - reach); rr <= std::min(rows - 1, row + reach); ++rr)
            for (int c = std::max(0, col - reach); c <= std::min(cols - 1, col + reach); ++c) {
                const int index = cells[static_cast<size_t>(rr) * static_cast<size_t>(cols) + static_cast<size_t>(c)];
                if (index < 0)
                    continue;
                const ReferencePoint &p = points[static_cast<size_t>(index)];
                const double m = std::min(r, p.r);
                const double dx = p.x - x, dy = p.y - y;
                if (dx * dx + dy * dy < m * m)
                    return false;
            }
        return true;
    };
    auto tryAdd = [&](double x, double y) {
        if (x < 0 || y < 0 || x >= width || y >= height)
            return false;
        if (!isFree(x, y, radius))
            return false;
        const int col = static_cast<int>(std::floor(x / cellSize));
        const int row = static_cast<int>(std::floor(y / cellSize));
        cells[static_cast<size_t>(row) * static_cast<size_t>(cols) + static_cast<size_t>(col)] = static_cast<int>(points.size());
        active.push_back(static_cast<int>(points.size()));
        points.push_back({x, y, radius});
        return true;
    };
    const double x0 = random.nextFloat() * width;
    const double y0 = random.nextFloat() * height;
    tryAdd(x0, y0);
    while (!active.empty()) {
        const size_t a = static_cast<size_t>(std::floor(random.nextFloat() * static_cast<double>(active.size())));
        const ReferencePoint p = points[static_cast<size_t>(active[a])];
        bool placed = false;
        for (int i = 0; i < k && !placed; ++i) {
            double dx, dy, d2;
            do {
                dx = (random.nextFloat() * 4 - 2) * p.r;
                dy = (random.nextFloat() * 4 - 2) * p.r;
                d2 = dx * dx + dy * dy;
            } while (d2 < p.r * p.r || d2 > 4 * p.r * p.r);
            placed = tryAdd(p.x + dx, p.y + dy);
        }
        if (!placed) {
            active[a] = active.back();
            active.pop_back();
        }
    }
    return points;
}

} // namespace grove::bench
