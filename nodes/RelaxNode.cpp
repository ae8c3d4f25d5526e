// relax: a few rounds of Lloyd relaxation of a points input (each point to the centroid of its
// Voronoi cell from Boost.Polygon), inside the world or an allowed mask, spacing kept on request.
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/geometry/VoronoiCells.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace grove {

namespace {

// Points relax takes at most: Boost's diagram holds about 400 bytes a site.
constexpr std::size_t kMaxRelaxPoints = std::size_t(1) << 20;
// The allowed mask's raster: at most this many cells (one byte each).
constexpr double kMaxMaskCells = 16777216.0;  // 4096 x 4096
constexpr int kHalvings = 20;

// The points in buckets a radius wide (or wider, so there are about as many buckets as points),
// moved along as the points move: who a move could come too close to.
class MovingGrid
{
public:
    MovingGrid(const std::vector<PointXYR> &points, double width, double height, double maxRadius)
    {
        const double n = std::max<double>(1, static_cast<double>(points.size()));
        double cell = std::max(maxRadius, std::sqrt(width * height / n));
        if (!(cell > 0) || !std::isfinite(cell))
            cell = std::max(width, height);
        m_cell = cell;
        m_cols = static_cast<int>(std::min(std::ceil(width / cell), 65536.0));
        m_rows = static_cast<int>(std::min(std::ceil(height / cell), 65536.0));
        m_cols = std::max(m_cols, 1);
        m_rows = std::max(m_rows, 1);
        m_buckets.resize(static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows));
        for (std::size_t i = 0; i < points.size(); ++i)
            m_buckets[bucketOf(points[i].x, points[i].y)].push_back(static_cast<std::uint32_t>(i));
    }

    void move(std::uint32_t i, double x0, double y0, double x1, double y1)
    {
        auto &from = m_buckets[bucketOf(x0, y0)];
        from.erase(std::find(from.begin(), from.end(), i));
        m_buckets[bucketOf(x1, y1)].push_back(i);
    }

    template <class Visit>
    void near(double x, double y, double reach, Visit visit) const
    {
        const int c0 = col(x - reach), c1 = col(x + reach), r0 = row(y - reach), r1 = row(y + reach);
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c)
                for (std::uint32_t j : m_buckets[static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c)])
                    if (!visit(j))
                        return;
    }

private:
    int col(double x) const
    {
        const double c = std::floor(x / m_cell);
        return !(c > 0) ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
    }
    int row(double y) const
    {
        const double r = std::floor(y / m_cell);
        return !(r > 0) ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
    }
    std::size_t bucketOf(double x, double y) const
    {
        return static_cast<std::size_t>(row(y)) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(col(x));
    }

    double m_cell = 1;
    int m_cols = 1, m_rows = 1;
    std::vector<std::vector<std::uint32_t>> m_buckets;
};

// The allowed mask sampled at the centres of square cells `cell` wide; a cell's allowed part is
// the samples inside its polygon.
struct MaskRaster
{
    double cell = 1;
    int cols = 0, rows = 0;
    std::vector<char> allowed;

    // The mean of the allowed sample centres inside the convex polygon (centre y in [ymin, ymax),
    // x in [xl, xr) of the polygon's span on that row); false when there is none.
    bool centroid(const std::vector<Vec2> &polygon, Vec2 &out) const
    {
        if (polygon.size() < 3)
            return false;
        double ymin = polygon[0].y, ymax = polygon[0].y;
        for (const Vec2 &p : polygon) {
            ymin = std::min(ymin, p.y);
            ymax = std::max(ymax, p.y);
        }
        const int j0 = std::max(0, static_cast<int>(std::ceil(ymin / cell - 0.5)));
        const int j1 = std::min(rows - 1, static_cast<int>(std::ceil(ymax / cell - 0.5)) - 1);
        double sx = 0, sy = 0;
        std::uint64_t count = 0;
        const std::size_t n = polygon.size();
        for (int j = j0; j <= j1; ++j) {
            const double yc = (j + 0.5) * cell;
            double xl = 0, xr = 0;
            bool any = false;
            for (std::size_t k = 0; k < n; ++k) {
                const Vec2 &a = polygon[k], &b = polygon[(k + 1) % n];
                if ((a.y <= yc && yc < b.y) || (b.y <= yc && yc < a.y)) {
                    const double x = a.x + (b.x - a.x) * ((yc - a.y) / (b.y - a.y));
                    xl = any ? std::min(xl, x) : x;
                    xr = any ? std::max(xr, x) : x;
                    any = true;
                }
            }
            if (!any)
                continue;
            const int i0 = std::max(0, static_cast<int>(std::ceil(xl / cell - 0.5)));
            const int i1 = std::min(cols - 1, static_cast<int>(std::ceil(xr / cell - 0.5)) - 1);
            const char *line = allowed.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(cols);
            for (int i = i0; i <= i1; ++i)
                if (line[i]) {
                    sx += (i + 0.5) * cell;
                    sy += yc;
                    ++count;
                }
        }
        if (count == 0)
            return false;
        out = {sx / static_cast<double>(count), sy / static_cast<double>(count)};
        return true;
    }
};

} // namespace

void registerRelax(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "relax";
    d.displayName = "Relax";
    d.category = "Points";
    d.needsWorldSize = true;  // cells are clipped to the world
    d.description =
        "Lloyd relaxation: each round moves every point to the centroid of its Voronoi cell (Boost.Polygon's "
        "Voronoi builder on coordinates quantised to a power-of-two grid, 2^20 steps a unit on a 1024 world), "
        "clipped to the world, so the points spread out evenly, closer to a honeycomb. With allowed wired, the "
        "centroid is that of the cell's allowed part: the mean of the allowed mask's samples (at the centres of "
        "square cells `resolution` wide) inside the cell; a cell with no allowed sample leaves its point where it "
        "is. keep_spacing shortens a move that would bring a point closer than min(its radius, the other's) to any "
        "other point, moved already or not. A point whose end place is off the world or outside allowed stays at "
        "its last place. The layer's ids and radii are the input's.";
    d.inputs = {
        port("points", DataType::Points)
            .describe("the points to relax: every layer on the wire, in order (ids kept when it carries one layer)"),
        port("allowed", DataType::Mask).optional().role(PortRole::AllowedArea)
            .describe("where points may go: a cell's centroid is that of its part inside the mask"),
    };
    d.outputs = {port("points", DataType::Points).role(PortRole::LayerPoints)
        .describe("the relaxed points, one for each input point, in the input's order")};
    d.params = {
        integer("rounds").defaultValue(3).min(1).max(100).soft(1, 20)
            .describe("Lloyd rounds: each moves every point to its cell's centroid (diagram rebuilt each round)"),
        flag("keep_spacing").defaultValue(true)
            .describe("never let two points come closer than the smaller of their radii: a move that would is "
                      "shortened by 20 halvings of the way to the centroid (the farthest place found that keeps "
                      "the spacing, or no move); a point already too close to another may move but not nearer it"),
        number("resolution").defaultValue(0).min(0).max(1e7).soft(0, 16)
            .describe("allowed only: the cell size of the raster the mask is sampled on, in world units "
                      "(0: the world's longer side / 1024); at most 16777216 cells"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Dot, "#5b8bd0");
    d.checkParams = checkLayerParams;
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        const PointSetPtr input = ctx.points("points");
        std::vector<PointXYR> points;
        std::vector<std::uint64_t> ids;
        if (input) {
            std::size_t total = 0;
            for (const auto &layer : input->layers)
                total += layer->points.size();
            if (total > kMaxRelaxPoints) {
                ctx.fail("the points input holds " + std::to_string(total) + " points, over relax's limit of "
                         + std::to_string(kMaxRelaxPoints) + " (its Voronoi diagram takes about 400 bytes a point)");
                return;
            }
            points.reserve(total);
            for (const auto &layer : input->layers)
                for (std::size_t k = 0; k < layer->points.size(); ++k) {
                    points.push_back(layer->points[k]);
                    if (input->layers.size() == 1 && !layer->ids.empty())
                        ids.push_back(layer->idOf(k));
                }
        }
        const MaskPtr allowed = ctx.mask("allowed");
        MaskRaster raster;
        if (allowed) {
            double cell = ctx.number("resolution");
            if (cell == 0)
                cell = std::max(w.width, w.height) / 1024;
            const double cols = std::ceil(w.width / cell), rows = std::ceil(w.height / cell);
            if (!(cols * rows <= kMaxMaskCells)) {
                ctx.failAt("resolution", "at resolution " + formatNumber(cell) + " the allowed mask's raster would hold "
                                             + formatNumber(cols) + " x " + formatNumber(rows)
                                             + " cells, over the limit of 16777216; raise resolution");
                return;
            }
            raster.cell = cell;
            raster.cols = std::max(1, static_cast<int>(cols));
            raster.rows = std::max(1, static_cast<int>(rows));
            raster.allowed.resize(static_cast<std::size_t>(raster.cols) * static_cast<std::size_t>(raster.rows));
            for (int j = 0; j < raster.rows; ++j) {
                if ((j & 63) == 0 && ctx.cancelled())
                    return;
                for (int i = 0; i < raster.cols; ++i)
                    raster.allowed[static_cast<std::size_t>(j) * static_cast<std::size_t>(raster.cols) + static_cast<std::size_t>(i)] =
                        allowed->at((i + 0.5) * cell, (j + 0.5) * cell) ? 1 : 0;
            }
        }

        const bool keepSpacing = ctx.flag("keep_spacing");
        const auto rounds = ctx.integer("rounds");
        double maxRadius = 0;
        for (const PointXYR &p : points)
            if (std::isfinite(p.r) && p.r > maxRadius)
                maxRadius = p.r;
        MovingGrid grid(points, w.width, w.height, std::min(maxRadius, std::max(w.width, w.height)));
        const auto spacingHolds = [&](std::size_t i, double qx, double qy) {
            const PointXYR &p = points[i];
            if (!(p.r > 0))
                return true;
            bool ok = true;
            grid.near(qx, qy, p.r, [&](std::uint32_t j) {
                if (j == i)
                    return true;
                const PointXYR &o = points[j];
                const double r = std::min(p.r, o.r);
                const double dx = o.x - qx, dy = o.y - qy;
                const double d2 = dx * dx + dy * dy;
                if (d2 >= r * r)
                    return true;
                // already too close before the move: it may stay so, but come no nearer
                const double ex = o.x - p.x, ey = o.y - p.y;
                if (d2 >= ex * ex + ey * ey)
                    return true;
                ok = false;
                return false;
            });
            return ok;
        };

        std::vector<Vec2> sites(points.size()), targets(points.size());
        std::vector<char> hasTarget(points.size());
        for (std::int64_t round = 0; round < rounds; ++round) {
            for (std::size_t i = 0; i < points.size(); ++i)
                sites[i] = {points[i].x, points[i].y};
            std::fill(hasTarget.begin(), hasTarget.end(), 0);
            const bool whole = forEachVoronoiCell(sites, w.width, w.height,
                [&](std::size_t site, const std::vector<Vec2> &polygon) {
                    if (allowed) {
                        hasTarget[site] = raster.centroid(polygon, targets[site]);
                    } else if (polygon.size() >= 3) {
                        targets[site] = polygonCentroid(polygon);
                        hasTarget[site] = 1;
                    }
                },
                [&] { return ctx.cancelled(); });
            if (!whole || ctx.cancelled())
                return;
            for (std::size_t i = 0; i < points.size(); ++i) {
                if (!hasTarget[i])
                    continue;
                PointXYR &p = points[i];
                double qx = targets[i].x, qy = targets[i].y;
                if (keepSpacing && !spacingHolds(i, qx, qy)) {
                    double lo = 0, hi = 1;
                    for (int h = 0; h < kHalvings; ++h) {
                        const double mid = (lo + hi) / 2;
                        if (spacingHolds(i, p.x + (qx - p.x) * mid, p.y + (qy - p.y) * mid))
                            lo = mid;
                        else
                            hi = mid;
                    }
                    if (lo == 0)
                        continue;
                    qx = p.x + (qx - p.x) * lo;
                    qy = p.y + (qy - p.y) * lo;
                }
                if (!(qx >= 0 && qx <= w.width && qy >= 0 && qy <= w.height))
                    continue;
                if (allowed && !allowed->at(qx, qy))
                    continue;
                grid.move(static_cast<std::uint32_t>(i), p.x, p.y, qx, qy);
                p.x = qx;
                p.y = qy;
            }
            ctx.progress(static_cast<double>(round + 1) / static_cast<double>(rounds));
        }
        auto layer = makeLayer(ctx, std::move(points));
        if (!ids.empty()) {
            layer->ids = std::move(ids);
            layer->assignSpecials();
        }
        auto set = std::make_shared<PointSet>();
        set->layers.push_back(layer);
        ctx.setOutput("points", PointSetPtr(set));
    };
    d.wrapProblem = "it moves points by their neighbours in the plane, not across the edges, so the seams would crowd";
    registry.add(std::move(d));
}

} // namespace grove
