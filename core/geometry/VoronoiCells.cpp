// Voronoi cells through Boost.Polygon's builder, clipped to the world rectangle.
#include "core/geometry/VoronoiCells.h"

#include <boost/polygon/voronoi.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>

namespace grove {

namespace {

struct IntPoint
{
    std::int32_t x, y;
};

} // namespace

} // namespace grove

namespace boost::polygon {

template <>
struct geometry_concept<grove::IntPoint>
{
    typedef point_concept type;
};

template <>
struct point_traits<grove::IntPoint>
{
    typedef std::int32_t coordinate_type;
    static inline coordinate_type get(const grove::IntPoint &p, orientation_2d o) { return o == HORIZONTAL ? p.x : p.y; }
};

} // namespace boost::polygon

namespace grove {

double voronoiScale(double width, double height)
{
    const double side = std::max(width, height);
    constexpr double top = 1073741824.0;  // 2^30
    double s = 1;
    if (!(side > 0) || !std::isfinite(side))
        return s;
    while (side * s * 2 <= top && s < 1099511627776.0)  // at most 2^40 steps a unit
        s *= 2;
    while (side * s > top)
        s /= 2;
    return s;
}

double polygonArea(const std::vector<Vec2> &polygon)
{
    const std::size_t n = polygon.size();
    double twice = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 &a = polygon[i], &b = polygon[(i + 1) % n];
        twice += a.x * b.y - b.x * a.y;
    }
    return twice / 2;
}

Vec2 polygonCentroid(const std::vector<Vec2> &polygon)
{
    const std::size_t n = polygon.size();
    if (n == 0)
        return {};
    // relative to the first vertex, so large coordinates lose no digits
    const Vec2 o = polygon[0];
    double twice = 0, cx = 0, cy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double ax = polygon[i].x - o.x, ay = polygon[i].y - o.y;
        const double bx = polygon[(i + 1) % n].x - o.x, by = polygon[(i + 1) % n].y - o.y;
        const double cross = ax * by - bx * ay;
        twice += cross;
        cx += (ax + bx) * cross;
        cy += (ay + by) * cross;
    }
    if (twice == 0 || !std::isfinite(twice)) {
        double sx = 0, sy = 0;
        for (const Vec2 &p : polygon) {
            sx += p.x;
            sy += p.y;
        }
        return {sx / static_cast<double>(n), sy / static_cast<double>(n)};
    }
    return {o.x + cx / (3 * twice), o.y + cy / (3 * twice)};
}

void clipToHalfPlane(std::vector<Vec2> &polygon, Vec2 m, Vec2 n, std::vector<Vec2> &scratch)
{
    scratch.clear();
    const std::size_t count = polygon.size();
    const auto side = [&](const Vec2 &q) { return (q.x - m.x) * n.x + (q.y - m.y) * n.y; };
    for (std::size_t i = 0; i < count; ++i) {
        const Vec2 &a = polygon[i], &b = polygon[(i + 1) % count];
        const double fa = side(a), fb = side(b);
        if (fa <= 0)
            scratch.push_back(a);
        if ((fa < 0 && fb > 0) || (fa > 0 && fb < 0)) {
            const double t = fa / (fa - fb);
            scratch.push_back({a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t});
        }
    }
    polygon.swap(scratch);
}

bool forEachVoronoiCell(const std::vector<Vec2> &sites, double width, double height,
                        const std::function<void(std::size_t, const std::vector<Vec2> &)> &cell,
                        const std::function<bool()> &cancel)
{
    const double s = voronoiScale(width, height);
    // the quantised sites, each spot once (the lowest index keeps it), in (x, y) order
    std::vector<std::tuple<std::int32_t, std::int32_t, std::size_t>> keyed;
    keyed.reserve(sites.size());
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const Vec2 &p = sites[i];
        if (!(p.x >= 0 && p.x <= width && p.y >= 0 && p.y <= height))  // also NaN
            continue;
        keyed.emplace_back(static_cast<std::int32_t>(std::floor(p.x * s + 0.5)),
                           static_cast<std::int32_t>(std::floor(p.y * s + 0.5)), i);
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<IntPoint> input;
    std::vector<std::size_t> siteOf;
    input.reserve(keyed.size());
    siteOf.reserve(keyed.size());
    for (std::size_t k = 0; k < keyed.size(); ++k) {
        if (k > 0 && std::get<0>(keyed[k]) == std::get<0>(keyed[k - 1]) && std::get<1>(keyed[k]) == std::get<1>(keyed[k - 1]))
            continue;
        input.push_back({std::get<0>(keyed[k]), std::get<1>(keyed[k])});
        siteOf.push_back(std::get<2>(keyed[k]));
    }
    keyed = {};
    // in site order, so the caller sees cells the same way whatever Boost's internal order
    std::vector<std::size_t> order(input.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return siteOf[a] < siteOf[b]; });

    const auto world = [&](std::size_t k) {
        return Vec2{static_cast<double>(input[k].x) / s, static_cast<double>(input[k].y) / s};
    };
    const std::vector<Vec2> rectangle = {{0, 0}, {width, 0}, {width, height}, {0, height}};
    std::vector<Vec2> polygon, scratch;
    if (input.size() == 1) {
        cell(siteOf[0], rectangle);
        return true;
    }
    boost::polygon::voronoi_diagram<double> diagram;
    boost::polygon::construct_voronoi(input.begin(), input.end(), &diagram);
    // the cell of each input index
    std::vector<const boost::polygon::voronoi_diagram<double>::cell_type *> cellOf(input.size(), nullptr);
    for (const auto &c : diagram.cells())
        cellOf[c.source_index()] = &c;
    for (std::size_t step = 0; step < order.size(); ++step) {
        if ((step & 1023) == 1023 && cancel && cancel())
            return false;
        const std::size_t k = order[step];
        const auto *c = cellOf[k];
        bool closed = c && c->incident_edge();
        if (closed) {
            const auto *edge = c->incident_edge();
            do {
                closed = edge->is_finite();
                edge = edge->next();
            } while (closed && edge != c->incident_edge());
        }
        if (closed) {
            // a closed cell: Boost's own vertices, counter-clockwise, cut to the world rectangle
            polygon.clear();
            const auto *edge = c->incident_edge();
            do {
                polygon.push_back({edge->vertex0()->x() / s, edge->vertex0()->y() / s});
                edge = edge->next();
            } while (edge != c->incident_edge());
            clipToHalfPlane(polygon, {0, 0}, {-1, 0}, scratch);
            clipToHalfPlane(polygon, {width, 0}, {1, 0}, scratch);
            clipToHalfPlane(polygon, {0, 0}, {0, -1}, scratch);
            clipToHalfPlane(polygon, {0, height}, {0, 1}, scratch);
        } else {
            // an open cell (a site on the hull): the rectangle cut by the bisector with the site
            // across each of its Boost edges, which bounds the infinite edges exactly
            polygon = rectangle;
            if (c && c->incident_edge()) {
                const Vec2 a = world(k);
                const auto *edge = c->incident_edge();
                do {
                    const Vec2 b = world(edge->twin()->cell()->source_index());
                    clipToHalfPlane(polygon, {(a.x + b.x) / 2, (a.y + b.y) / 2}, {b.x - a.x, b.y - a.y}, scratch);
                    edge = edge->next();
                } while (edge != c->incident_edge() && !polygon.empty());
            }
        }
        cell(siteOf[k], polygon);
    }
    return true;
}

} // namespace grove
