// Helpers shared by tst_terrain_nodes.cpp and tst_distance_nodes.cpp.
#pragma once

#include "TestSupport.h"
#include "core/geometry/DistanceTransform.h"
#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/math/ExactAtan.h"
#include "core/base/Limits.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace grove;
using namespace grove::test;

namespace terrain_nodes_support {
inline constexpr double kPi = 3.14159265358979323846;

inline bool same(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

inline std::string graphText(const std::string &nodes, double width = 200, double height = 150, int seed = 3)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

inline FieldPtr slopeOf(FieldPtr height, const ValueMap &params)
{
    const NodeRun d = evaluateNode("slope", params, {{"field", height}});
    const auto *f = std::get_if<FieldPtr>(&d.output);
    return f ? *f : nullptr;
}

class PlaneField final : public Field
{
public:
    PlaneField(double a, double b, double c) : m_a(a), m_b(b), m_c(c) {}
    double at(double x, double y) const override { return m_a * x + m_b * y + m_c; }

private:
    double m_a, m_b, m_c;
};

// A hill: height `top` at (cx, cy), falling by `fall` per world unit in every direction.
class ConeField final : public Field
{
public:
    ConeField(double cx, double cy, double top, double fall) : m_cx(cx), m_cy(cy), m_top(top), m_fall(fall) {}
    double at(double x, double y) const override
    {
        return m_top - m_fall * std::sqrt((x - m_cx) * (x - m_cx) + (y - m_cy) * (y - m_cy));
    }

private:
    double m_cx, m_cy, m_top, m_fall;
};

class FixedMask final : public Mask
{
public:
    explicit FixedMask(bool value) : m_value(value) {}
    bool at(double, double) const override { return m_value; }

private:
    bool m_value;
};

// The slope a designer would compute by hand, with libm.
inline double bruteSlope(const Field &h, double x, double y, double scale, double step)
{
    const double gx = (h.at(x + step, y) - h.at(x - step, y)) / (2 * step);
    const double gy = (h.at(x, y + step) - h.at(x, y - step)) / (2 * step);
    return std::atan(scale * std::sqrt(gx * gx + gy * gy)) * 180 / kPi;
}

inline double angleDifference(double a, double b)
{
    double d = std::fmod(std::fabs(a - b), 360.0);
    return d > 180 ? 360 - d : d;
}

// Centres of true (or, with `value` false, false) cells of a cols x rows raster of `cell` units.
inline std::vector<PointXYR> cellCentres(const Mask &mask, int cols, int rows, double cell, bool value = true)
{
    std::vector<PointXYR> out;
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < cols; ++i) {
            const double x = (i + 0.5) * cell, y = (j + 0.5) * cell;
            if (mask.at(x, y) == value)
                out.push_back({x, y, 0});
        }
    return out;
}

inline double bruteNearest(const std::vector<PointXYR> &points, double x, double y)
{
    double best = std::numeric_limits<double>::infinity();
    for (const PointXYR &p : points) {
        const double dx = p.x - x, dy = p.y - y;
        best = std::min(best, dx * dx + dy * dy);
    }
    return std::sqrt(best);
}

// The index of the nearest finite point, the lower on a tie (-1 with none), and its dx*dx + dy*dy.
inline long long bruteNearestIndex(const std::vector<PointXYR> &points, double x, double y, double &best)
{
    long long found = -1;
    best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y))
            continue;
        const double dx = points[i].x - x, dy = points[i].y - y;
        const double d2 = dx * dx + dy * dy;
        if (d2 < best) {
            best = d2;
            found = static_cast<long long>(i);
        }
    }
    return found;
}

} // namespace terrain_nodes_support
