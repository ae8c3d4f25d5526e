// Polygon: exact point tests behind a bucket grid, and the self-intersection check.
#include "core/geometry/Polygon.h"

#include "core/base/Limits.h"
#include "core/base/NumberText.h"
#include "core/base/Value.h"  // formatNumber

#include <algorithm>
#include <cmath>
#include <numeric>

namespace grove {

std::size_t ShapeSet::vertexCount() const
{
    std::size_t n = ellipses.size();
    for (const auto &p : polygons)
        for (const auto &r : p.rings)
            n += r.size();
    for (const auto &l : lines)
        n += l.size();
    return n;
}

namespace {

double orient(Vec2 a, Vec2 b, Vec2 c)
{
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

int sign(double v) { return (v > 0) - (v < 0); }

bool onSegment(Vec2 a, Vec2 b, Vec2 p)
{
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y);
}

bool segmentsMeet(Vec2 a, Vec2 b, Vec2 c, Vec2 d)
{
    const int o1 = sign(orient(a, b, c)), o2 = sign(orient(a, b, d)), o3 = sign(orient(c, d, a)), o4 = sign(orient(c, d, b));
    if (o1 * o2 < 0 && o3 * o4 < 0)
        return true;
    return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) || (o3 == 0 && onSegment(c, d, a))
           || (o4 == 0 && onSegment(c, d, b));
}

std::string pointText(Vec2 p)
{
    return "(" + formatNumber(p.x) + ", " + formatNumber(p.y) + ")";
}

// PNPOLY's crossing test for one edge: does the ray from (x, y) along +x cross a-b?
inline bool crosses(Vec2 a, Vec2 b, double x, double y)
{
    return ((a.y > y) != (b.y > y)) && (x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x);
}

} // namespace

std::string polygonProblem(ShapePolygon &polygon, std::uint64_t &budget)
{
    for (auto &ring : polygon.rings) {
        std::vector<Vec2> clean;
        clean.reserve(ring.size());
        for (const Vec2 &v : ring)
            if (clean.empty() || clean.back().x != v.x || clean.back().y != v.y)
                clean.push_back(v);
        while (clean.size() > 1 && clean.front().x == clean.back().x && clean.front().y == clean.back().y)
            clean.pop_back();
        ring = std::move(clean);
    }
    for (std::size_t r = 0; r < polygon.rings.size(); ++r)
        if (polygon.rings[r].size() < 3)
            return (r == 0 ? std::string("its outline") : "its hole " + std::to_string(r)) + " has "
                   + std::to_string(polygon.rings[r].size()) + " distinct vertices; a polygon needs 3 or more";
    struct Edge
    {
        std::size_t ring, index, n;
        Vec2 a, b;
        double xmin, xmax;
    };
    std::vector<Edge> edges;
    for (std::size_t r = 0; r < polygon.rings.size(); ++r) {
        const auto &ring = polygon.rings[r];
        for (std::size_t i = 0; i < ring.size(); ++i) {
            const Vec2 a = ring[i], b = ring[(i + 1) % ring.size()];
            edges.push_back({r, i, ring.size(), a, b, std::min(a.x, b.x), std::max(a.x, b.x)});
        }
    }
    auto edgeName = [&](const Edge &e) {
        const std::string ring = polygon.rings.size() == 1 ? "its edge "
                                 : e.ring == 0             ? "its outline's edge "
                                                           : "its hole " + std::to_string(e.ring) + "'s edge ";
        return ring + pointText(e.a) + " to " + pointText(e.b);
    };
    auto describe = [&](const Edge &e, const Edge &f) {
        const Edge &first = e.ring <= f.ring ? e : f, &second = e.ring <= f.ring ? f : e;
        return edgeName(first) + " meets " + edgeName(second) + ": the polygon intersects itself";
    };
    // neighbours in one ring share a vertex; they must not fold back over each other
    for (const Edge &e : edges) {
        const auto &ring = polygon.rings[e.ring];
        const Vec2 p = e.a, q = e.b, s = ring[(e.index + 2) % e.n];
        if (orient(p, q, s) == 0 && (p.x - q.x) * (s.x - q.x) + (p.y - q.y) * (s.y - q.y) > 0)
            return "it turns back on itself at " + pointText(q) + ": the polygon intersects itself";
    }
    // every other pair: a sweep along x, then the exact test
    std::vector<std::size_t> order(edges.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return edges[i].xmin < edges[j].xmin; });
    for (std::size_t oi = 0; oi < order.size(); ++oi) {
        const Edge &e = edges[order[oi]];
        const double eymin = std::min(e.a.y, e.b.y), eymax = std::max(e.a.y, e.b.y);
        for (std::size_t oj = oi + 1; oj < order.size() && edges[order[oj]].xmin <= e.xmax; ++oj) {
            if (budget == 0)
                return "its edges overlap too much to check for self-intersection within the limit of "
                       + std::to_string(limits::maxShapeEdgePairChecks) + " edge pairs a file; simplify or split it";
            --budget;
            const Edge &f = edges[order[oj]];
            if (std::max(f.a.y, f.b.y) < eymin || std::min(f.a.y, f.b.y) > eymax)
                continue;
            if (e.ring == f.ring) {
                const std::size_t d = e.index > f.index ? e.index - f.index : f.index - e.index;
                if (d == 1 || d == e.n - 1)
                    continue;  // neighbours: they share a vertex
            }
            if (segmentsMeet(e.a, e.b, f.a, f.b))
                return describe(e, f);
        }
    }
    return {};
}

bool insideRings(const ShapePolygon &polygon, double x, double y)
{
    bool inside = false;
    for (const auto &ring : polygon.rings)
        for (std::size_t i = 0, j = ring.size() - 1; i < ring.size(); j = i++)
            if (crosses(ring[i], ring[j], x, y))
                inside = !inside;
    return inside;
}

double squaredDistanceToSegment(Vec2 p, Vec2 a, Vec2 b)
{
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    const double qx = a.x + t * dx, qy = a.y + t * dy;
    return (p.x - qx) * (p.x - qx) + (p.y - qy) * (p.y - qy);
}

bool insideEllipse(const ShapeEllipse &e, double x, double y)
{
    const double dx = x - e.c.x, dy = y - e.c.y;
    const double u = (dx * e.cos + dy * e.sin) / e.a, v = (dy * e.cos - dx * e.sin) / e.b;
    return u * u + v * v < 1;
}

ShapeIndex::ShapeIndex(ShapeSet shapes, double width) : m_shapes(std::move(shapes)), m_width2(width * width)
{
    // the extent: everything a query can be covered by
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    auto grow = [&](double ax, double ay, double bx, double by) {
        x0 = std::min(x0, ax);
        y0 = std::min(y0, ay);
        x1 = std::max(x1, bx);
        y1 = std::max(y1, by);
    };
    std::size_t segments = 0, polygonEdges = 0;
    for (const auto &p : m_shapes.polygons)
        for (const auto &r : p.rings) {
            polygonEdges += r.size();
            for (const Vec2 &v : r)
                grow(v.x, v.y, v.x, v.y);
        }
    for (const auto &l : m_shapes.lines) {
        segments += std::max<std::size_t>(1, l.size() - 1);
        for (const Vec2 &v : l)
            grow(v.x - width, v.y - width, v.x + width, v.y + width);
    }
    std::vector<Vec2> ellipseHalf;
    for (const auto &e : m_shapes.ellipses) {
        const Vec2 h{std::sqrt(e.a * e.a * e.cos * e.cos + e.b * e.b * e.sin * e.sin),
                     std::sqrt(e.a * e.a * e.sin * e.sin + e.b * e.b * e.cos * e.cos)};
        ellipseHalf.push_back(h);
        grow(e.c.x - h.x, e.c.y - h.y, e.c.x + h.x, e.c.y + h.y);
    }
    if (!(x0 <= x1 && y0 <= y1)) {  // nothing at all
        m_x0 = m_y0 = 1;
        m_x1 = m_y1 = 0;
        return;
    }
    m_x0 = x0;
    m_y0 = y0;
    m_x1 = x1;
    m_y1 = y1;
    const double spanX = std::max(x1 - x0, 1e-9), spanY = std::max(y1 - y0, 1e-9);
    const double items = static_cast<double>(segments + polygonEdges + m_shapes.ellipses.size());
    const double target = std::clamp(2 * items, 64.0, double(1 << 20));
    double cell = std::sqrt(spanX * spanY / target);
    cell = std::max({cell, std::max(spanX, spanY) / 2048, width});
    const double cap = 8 * items + 4e6;

    // Visits the cells a segment with clearance w may touch, row by row (a cell of margin
    // either side keeps rounding out of it). Returns how many it visits.
    auto raster = [&](Vec2 a, Vec2 b, double w, auto &&visit) -> double {
        double n = 0;
        const int r0 = rowOf(std::min(a.y, b.y) - w), r1 = rowOf(std::max(a.y, b.y) + w);
        for (int r = r0; r <= r1; ++r) {
            const double lo = m_y0 + r / m_inv - w, hi = m_y0 + (r + 1) / m_inv + w;
            double xa, xb;
            if (a.y == b.y) {
                xa = std::min(a.x, b.x);
                xb = std::max(a.x, b.x);
            } else {
                double t0 = (lo - a.y) / (b.y - a.y), t1 = (hi - a.y) / (b.y - a.y);
                if (t0 > t1)
                    std::swap(t0, t1);
                t0 = std::clamp(t0, 0.0, 1.0);
                t1 = std::clamp(t1, 0.0, 1.0);
                const double p = a.x + (b.x - a.x) * t0, q = a.x + (b.x - a.x) * t1;
                xa = std::min(p, q);
                xb = std::max(p, q);
            }
            const int c0 = std::max(0, colOf(xa - w) - 1), c1 = std::min(m_cols - 1, colOf(xb + w) + 1);
            n += c1 - c0 + 1;
            visit(r, c0, c1);
        }
        return n;
    };
    auto noVisit = [](int, int, int) {};
    auto forEachSegment = [&](auto &&fn) {
        for (std::uint32_t li = 0; li < m_shapes.lines.size(); ++li) {
            const auto &l = m_shapes.lines[li];
            if (l.size() == 1)
                fn(li, 0u, l[0], l[0]);
            for (std::uint32_t i = 0; i + 1 < l.size(); ++i)
                fn(li, i, l[i], l[i + 1]);
        }
    };
    auto forEachEdge = [&](auto &&fn) {
        for (std::uint32_t pi = 0; pi < m_shapes.polygons.size(); ++pi)
            for (std::uint32_t ri = 0; ri < m_shapes.polygons[pi].rings.size(); ++ri) {
                const auto &ring = m_shapes.polygons[pi].rings[ri];
                for (std::uint32_t i = 0; i < ring.size(); ++i)
                    fn(pi, ri, i, ring[i], ring[(i + 1) % ring.size()]);
            }
    };
    // a grid whose bucket lists stay within the cap: coarser until they do
    for (;;) {
        m_inv = 1 / cell;
        m_cols = std::max(1, static_cast<int>(std::ceil(spanX * m_inv)) + 1);
        m_rows = std::max(1, static_cast<int>(std::ceil(spanY * m_inv)) + 1);
        double rowsSpanned = 0;
        forEachSegment([&](std::uint32_t, std::uint32_t, Vec2 a, Vec2 b) {
            rowsSpanned += (std::abs(b.y - a.y) + 2 * width) * m_inv + 3;
        });
        forEachEdge([&](std::uint32_t, std::uint32_t, std::uint32_t, Vec2 a, Vec2 b) { rowsSpanned += std::abs(b.y - a.y) * m_inv + 3; });
        double entries = rowsSpanned;
        if (rowsSpanned <= cap) {
            forEachSegment([&](std::uint32_t, std::uint32_t, Vec2 a, Vec2 b) { entries += raster(a, b, width, noVisit); });
            forEachEdge([&](std::uint32_t, std::uint32_t, std::uint32_t, Vec2 a, Vec2 b) { entries += raster(a, b, 0, noVisit); });
            for (std::size_t i = 0; i < m_shapes.ellipses.size(); ++i)
                entries += (2 * ellipseHalf[i].x * m_inv + 3) * (2 * ellipseHalf[i].y * m_inv + 3);
        }
        if (entries <= cap || (m_cols == 1 && m_rows == 1))
            break;
        cell *= 2;
    }
    const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);

    // polygon edges by row, grouped by polygon (they are visited in polygon order)
    std::vector<std::uint32_t> rowCount(static_cast<std::size_t>(m_rows) + 1, 0);
    forEachEdge([&](std::uint32_t, std::uint32_t, std::uint32_t, Vec2 a, Vec2 b) {
        for (int r = rowOf(std::min(a.y, b.y)); r <= rowOf(std::max(a.y, b.y)); ++r)
            ++rowCount[static_cast<std::size_t>(r)];
    });
    m_rowStart.assign(static_cast<std::size_t>(m_rows) + 1, 0);
    for (int r = 0; r < m_rows; ++r)
        m_rowStart[static_cast<std::size_t>(r) + 1] = m_rowStart[static_cast<std::size_t>(r)] + rowCount[static_cast<std::size_t>(r)];
    m_rowEdges.resize(m_rowStart.back());
    {
        std::vector<std::size_t> fill(m_rowStart.begin(), m_rowStart.end() - 1);
        forEachEdge([&](std::uint32_t pi, std::uint32_t ri, std::uint32_t i, Vec2 a, Vec2 b) {
            for (int r = rowOf(std::min(a.y, b.y)); r <= rowOf(std::max(a.y, b.y)); ++r)
                m_rowEdges[fill[static_cast<std::size_t>(r)]++] = {pi, ri, i};
        });
    }
    // cells an edge touches ask the row; the others are wholly in or out, as their centre is
    m_polygonState.assign(cells, 0);
    forEachEdge([&](std::uint32_t, std::uint32_t, std::uint32_t, Vec2 a, Vec2 b) {
        raster(a, b, 0, [&](int r, int c0, int c1) {
            for (int c = c0; c <= c1; ++c)
                m_polygonState[static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c)] = 2;
        });
    });
    if (!m_shapes.polygons.empty())
        for (int r = 0; r < m_rows; ++r)
            for (int c = 0; c < m_cols; ++c) {
                auto &s = m_polygonState[static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c)];
                if (s == 0) {
                    const double cx = std::min(m_x0 + (c + 0.5) / m_inv, m_x1), cy = std::min(m_y0 + (r + 0.5) / m_inv, m_y1);
                    if (colOf(cx) == c && rowOf(cy) == r)
                        s = insidePolygonsByRow(r, cx, cy) ? 1 : 0;
                    else
                        s = 2;
                }
            }
    // line segments and ellipses by cell
    std::vector<std::uint32_t> cellCount(cells + 1, 0);
    std::vector<std::pair<std::size_t, Item>> pairs;
    forEachSegment([&](std::uint32_t li, std::uint32_t i, Vec2 a, Vec2 b) {
        raster(a, b, width, [&](int r, int c0, int c1) {
            for (int c = c0; c <= c1; ++c)
                pairs.push_back({static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c), Item{0, li, i}});
        });
    });
    for (std::uint32_t ei = 0; ei < m_shapes.ellipses.size(); ++ei) {
        const auto &e = m_shapes.ellipses[ei];
        const int c0 = std::max(0, colOf(e.c.x - ellipseHalf[ei].x) - 1), c1 = std::min(m_cols - 1, colOf(e.c.x + ellipseHalf[ei].x) + 1);
        const int r0 = std::max(0, rowOf(e.c.y - ellipseHalf[ei].y) - 1), r1 = std::min(m_rows - 1, rowOf(e.c.y + ellipseHalf[ei].y) + 1);
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c)
                pairs.push_back({static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c), Item{1, ei, 0}});
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto &p, const auto &q) { return p.first < q.first; });
    m_cellStart.assign(cells + 1, 0);
    for (const auto &p : pairs)
        ++m_cellStart[p.first + 1];
    for (std::size_t i = 0; i < cells; ++i)
        m_cellStart[i + 1] += m_cellStart[i];
    m_cellItems.reserve(pairs.size());
    for (const auto &p : pairs)
        m_cellItems.push_back(p.second);
}

int ShapeIndex::colOf(double x) const
{
    const double c = std::floor((x - m_x0) * m_inv);
    return c < 0 ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
}

int ShapeIndex::rowOf(double y) const
{
    const double r = std::floor((y - m_y0) * m_inv);
    return r < 0 ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
}

bool ShapeIndex::insidePolygonsByRow(int row, double x, double y) const
{
    const std::size_t begin = m_rowStart[static_cast<std::size_t>(row)], end = m_rowStart[static_cast<std::size_t>(row) + 1];
    bool inside = false;
    std::uint32_t current = begin < end ? m_rowEdges[begin].polygon : 0;
    for (std::size_t i = begin; i < end; ++i) {
        const EdgeRef &e = m_rowEdges[i];
        if (e.polygon != current) {
            if (inside)
                return true;
            current = e.polygon;
        }
        const auto &ring = m_shapes.polygons[e.polygon].rings[e.ring];
        if (crosses(ring[(e.edge + 1) % ring.size()], ring[e.edge], x, y))
            inside = !inside;
    }
    return inside;
}

bool ShapeIndex::covered(double x, double y) const
{
    if (!(x >= m_x0 && x <= m_x1 && y >= m_y0 && y <= m_y1))
        return false;
    const int r = rowOf(y), c = colOf(x);
    const std::size_t cell = static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c);
    if (!m_polygonState.empty()) {
        const std::uint8_t s = m_polygonState[cell];
        if (s == 1 || (s == 2 && insidePolygonsByRow(r, x, y)))
            return true;
    }
    const Vec2 p{x, y};
    for (std::size_t i = m_cellStart[cell]; i < m_cellStart[cell + 1]; ++i) {
        const Item &it = m_cellItems[i];
        if (it.kind == 0) {
            const auto &l = m_shapes.lines[it.a];
            const Vec2 a = l[it.b], b = l.size() == 1 ? l[0] : l[it.b + 1];
            if (squaredDistanceToSegment(p, a, b) < m_width2)
                return true;
        } else if (insideEllipse(m_shapes.ellipses[it.a], x, y)) {
            return true;
        }
    }
    return false;
}

} // namespace grove
