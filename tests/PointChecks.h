// Independent checks on placed points, written apart from the placement code they check.
#pragma once

#include "core/base/DataTypes.h"

#include <cmath>
#include <map>
#include <vector>

namespace grove::test {

// Pairs closer than min(ra, rb), over a grid of buckets of side `cell` (at least the largest r).
// With `z` (one depth per point), distances are measured in 3D (a pair that close in 3D is at
// least as close in x, y, so the same buckets find it).
inline int pairsTooClose(const std::vector<PointXYR> &points, double cell, const std::vector<double> *z = nullptr)
{
    std::map<std::pair<long, long>, std::vector<std::size_t>> grid;
    const auto key = [&](const PointXYR &p) {
        return std::make_pair(std::lround(std::floor(p.x / cell)), std::lround(std::floor(p.y / cell)));
    };
    for (std::size_t i = 0; i < points.size(); ++i)
        grid[key(points[i])].push_back(i);
    int bad = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto [cx, cy] = key(points[i]);
        for (long dy = -1; dy <= 1; ++dy)
            for (long dx = -1; dx <= 1; ++dx) {
                auto it = grid.find({cx + dx, cy + dy});
                if (it == grid.end())
                    continue;
                for (std::size_t j : it->second) {
                    if (j <= i)
                        continue;
                    const double ex = points[i].x - points[j].x, ey = points[i].y - points[j].y;
                    const double ez = z ? (*z)[i] - (*z)[j] : 0.0;
                    const double r = std::min(points[i].r, points[j].r);
                    bad += ex * ex + ey * ey + ez * ez < r * r;
                }
            }
    }
    return bad;
}

} // namespace grove::test
