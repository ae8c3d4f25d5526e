// Helpers shared by tst_scatter_extensions.cpp and tst_scatter_around.cpp.
#pragma once

#include "TestSupport.h"
#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/base/Limits.h"
#include "core/math/SeededRandom.h"
#include "nodes/CaveAutomaton.h"
#include <cmath>
#include <cstring>
#include <map>
#include <vector>

using namespace grove;
using namespace grove::test;

namespace scatter_extensions_support {
inline bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline std::string graphText(const std::string &nodes, double width = 400, double height = 300, int seed = 7)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

inline std::vector<PointXYR> pointsOf(const EvalResult &r, const std::string &node)
{
    const PortValue v = r.outputWithRole(node, PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    if (!set || !*set || (*set)->layers.empty())
        return {};
    return (*set)->layers.back()->points;
}

inline MaskPtr maskOf(const EvalResult &r, const std::string &node)
{
    const PortValue v = r.output(node);
    const auto *m = std::get_if<MaskPtr>(&v);
    return m ? *m : nullptr;
}

inline World world(double width, double height, int seed)
{
    World w;
    w.width = width;
    w.height = height;
    w.seed = seed;
    return w;
}

inline PointSetPtr pointSet(std::vector<PointXYR> points)
{
    auto layer = std::make_shared<PointLayer>();
    layer->info.name = "parents";
    layer->points = std::move(points);
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(layer);
    return set;
}

inline std::vector<PointXYR> layerPoints(const PortValue &v)
{
    const auto *set = std::get_if<PointSetPtr>(&v);
    return set && *set && !(*set)->layers.empty() ? (*set)->layers.back()->points : std::vector<PointXYR>{};
}

// The mask at every cell centre of a cols x rows grid of `cell` (1 = true).
inline std::vector<std::uint8_t> sampleCells(const Mask &mask, int cols, int rows, double cell)
{
    std::vector<std::uint8_t> out;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            out.push_back(mask.at((c + 0.5) * cell, (r + 0.5) * cell));
    return out;
}

// Mitchell's best-candidate, brute force: every candidate against every kept point.
inline std::vector<PointXYR> bruteMitchell(int count, int m, double width, double height, std::int32_t seed, double r)
{
    SeededRandom random(seed);
    std::vector<PointXYR> kept;
    for (int i = 0; i < count; ++i) {
        double bx = 0, by = 0, best = -1;
        for (int j = 0; j < m; ++j) {
            const double x = random.nextFloat() * width, y = random.nextFloat() * height;
            double nearest = HUGE_VAL;
            for (const PointXYR &p : kept)
                nearest = std::min(nearest, (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y));
            if (nearest > best) {
                best = nearest;
                bx = x;
                by = y;
            }
        }
        kept.push_back({bx, by, r});
    }
    return kept;
}

inline double tightest(const std::vector<PointXYR> &points)
{
    double best = HUGE_VAL;
    for (size_t i = 0; i < points.size(); ++i)
        for (size_t j = i + 1; j < points.size(); ++j) {
            const double dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
            best = std::min(best, dx * dx + dy * dy);
        }
    return std::sqrt(best);
}

inline int pairsCloserThan(const std::vector<PointXYR> &points, double d)
{
    int n = 0;
    for (size_t i = 0; i < points.size(); ++i)
        for (size_t j = i + 1; j < points.size(); ++j) {
            const double dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
            n += dx * dx + dy * dy < d * d;
        }
    return n;
}

// The parent (index) nearest each child.
inline std::vector<size_t> nearestParent(const std::vector<PointXYR> &children, const std::vector<PointXYR> &parents)
{
    std::vector<size_t> out;
    for (const PointXYR &c : children) {
        size_t best = 0;
        double bestD = HUGE_VAL;
        for (size_t i = 0; i < parents.size(); ++i) {
            const double d = (parents[i].x - c.x) * (parents[i].x - c.x) + (parents[i].y - c.y) * (parents[i].y - c.y);
            if (d < bestD) {
                bestD = d;
                best = i;
            }
        }
        out.push_back(best);
    }
    return out;
}

// Parents on a grid `gap` apart, starting at (gap/2, gap/2).
inline std::vector<PointXYR> gridParents(int cols, int rows, double gap, double r)
{
    std::vector<PointXYR> out;
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < cols; ++i)
            out.push_back({gap / 2 + i * gap, gap / 2 + j * gap, r});
    return out;
}

inline ValueMap aroundParams(double rMin, double rMax, double low, double high, double radius, int seed = 0)
{
    return {{"r_min", Value(rMin)}, {"r_max", Value(rMax)}, {"count", Value(ValueList{Value(low), Value(high)})},
            {"radius", Value(radius)}, {"seed", Value(static_cast<double>(seed))}};
}

} // namespace scatter_extensions_support
