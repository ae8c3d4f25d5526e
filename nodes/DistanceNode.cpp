// distance: how far each spot is from the nearest point of a layer (exact), or from the nearest
// true cell of a mask sampled on a raster (an exact distance transform, then bilinear lookup).
#include "ParamBuilders.h"

#include "core/geometry/DistanceTransform.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace grove {

namespace {

class PointsDistanceField final : public Field
{
public:
    PointsDistanceField(std::shared_ptr<const NearestPoints> nearest, double maxDistance)
        : m_nearest(std::move(nearest)), m_max(maxDistance)
    {
    }
    double at(double x, double y) const override { return std::min(m_nearest->distance(x, y), m_max); }
    double upperBound() const override { return m_max; }

private:
    std::shared_ptr<const NearestPoints> m_nearest;
    double m_max;
};

// Distances at the centres of a cols x rows raster of square cells, ((i + 0.5) * cell, (j + 0.5) * cell),
// read back by bilinear interpolation between the four nearest centres (clamped at the edges).
class RasterDistanceField final : public Field
{
public:
    RasterDistanceField(std::vector<double> distances, int cols, int rows, double cell, double maxDistance)
        : m_d(std::move(distances)), m_cols(cols), m_rows(rows), m_cell(cell), m_max(maxDistance)
    {
    }

    double at(double x, double y) const override
    {
        int i0, i1, j0, j1;
        double tx, ty;
        locate(x / m_cell - 0.5, m_cols, i0, i1, tx);
        locate(y / m_cell - 0.5, m_rows, j0, j1, ty);
        const auto cell = [&](int i, int j) {
            return m_d[static_cast<std::size_t>(j) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(i)];
        };
        const double a = cell(i0, j0), b = cell(i1, j0), c = cell(i0, j1), d = cell(i1, j1);
        const double top = a + (b - a) * tx;
        const double bottom = c + (d - c) * tx;
        return top + (bottom - top) * ty;
    }
    double upperBound() const override { return m_max; }

private:
    // the two centres either side of f (in cells) and how far along between them
    static void locate(double f, int n, int &k0, int &k1, double &t)
    {
        if (!(f > 0))  // also NaN
            f = 0;
        if (f > n - 1)
            f = n - 1;
        const double k = std::floor(f);
        k0 = static_cast<int>(k);
        k1 = std::min(k0 + 1, n - 1);
        t = f - k;
    }

    std::vector<double> m_d;
    int m_cols, m_rows;
    double m_cell, m_max;
};

void evaluateOnMask(EvalContext &ctx, const Mask &mask, double maxDistance)
{
    const World &w = ctx.world();
    const double cell = ctx.number("resolution");
    const bool inside = ctx.flag("inside");
    // Refuse before allocating: the raster holds one double per cell.
    const double colsD = std::ceil(w.width / cell), rowsD = std::ceil(w.height / cell);
    const double cellsD = colsD * rowsD;
    const double side = static_cast<double>(kMaxDistanceRasterSide);
    if (!(cellsD <= static_cast<double>(kMaxDistanceRasterCells)) || !(colsD <= side) || !(rowsD <= side)) {
        ctx.fail("at resolution " + formatNumber(cell) + " on a " + formatNumber(w.width) + " x "
                 + formatNumber(w.height) + " world, the distance raster would hold " + formatNumber(colsD) + " x "
                 + formatNumber(rowsD) + " cells, over the limit of " + std::to_string(kMaxDistanceRasterCells)
                 + " cells and " + std::to_string(kMaxDistanceRasterSide) + " a side; raise resolution");
        return;
    }
    const int cols = static_cast<int>(colsD), rows = static_cast<int>(rowsD);
    std::vector<double> cells(static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows));
    constexpr double kInf = std::numeric_limits<double>::infinity();
    // the targets: true cells (or false cells, inside), sampled at their centres
    for (int j = 0; j < rows; ++j) {
        if ((j & 15) == 0) {
            if (ctx.cancelled())
                return;
            ctx.progress(0.6 * j / rows);
        }
        const double y = (j + 0.5) * cell;
        double *row = cells.data() + static_cast<std::size_t>(j) * static_cast<std::size_t>(cols);
        for (int i = 0; i < cols; ++i)
            row[i] = mask.at((i + 0.5) * cell, y) != inside ? 0 : kInf;
    }
    const std::function<void(double)> progress = [&ctx](double f) { ctx.progress(0.6 + 0.35 * f); };
    if (!squaredDistanceTransform(cells, cols, rows, ctx.cancelFlag(), progress))
        return;
    for (double &d : cells)
        d = std::min(std::sqrt(d) * cell, maxDistance);
    ctx.progress(1);
    ctx.setOutput("field", std::make_shared<RasterDistanceField>(std::move(cells), cols, rows, cell, maxDistance));
}

} // namespace

void registerDistance(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "distance";
    d.displayName = "Distance";
    d.category = "Fields";
    d.needsWorldSize = true;  // a raster over, or a centre of, the whole world
    d.description =
        "How far each spot is, in world units, from the nearest point of a layer or the nearest true spot of a mask "
        "(wire exactly one). Then allowed_rule with max 30 keeps \"rocks within 30 of water\", min 15 \"flowers at "
        "least 15 from trees\". Points: exact, to the nearest point's centre, from every layer on the wire. Mask: "
        "sampled at the centres of square cells `resolution` wide, an exact distance transform of those, read back "
        "bilinearly: within resolution * 0.71 of the distance to the nearest true cell centre (a true part of the "
        "mask narrower than a cell can be missed; beyond the world's edge the edge's values). Where nothing is near, "
        "max_distance.";
    d.inputs = {
        port("points", DataType::Points).optional().describe("distance to the nearest of these points' centres"),
        port("mask", DataType::Mask).optional().describe("distance to the nearest spot where this mask is true"),
    };
    d.outputs = {port("field", DataType::Field)
        .describe("the distance in world units, in [0, max_distance]: 0 on a point, in the mask (inside: outside it)")};
    d.params = {
        number("max_distance").defaultValue(1e6).above(0).max(1e12).soft(1, 1000)
            .describe("the cap: the distance where nothing is near (no points, an empty mask) and the largest "
                      "value the field gives"),
        number("resolution").defaultValue(1).above(0).max(1e7).soft(0.25, 16)
            .describe("masks only: the raster's cell size in world units; the distances are within resolution * "
                      "0.71 of the raster's. At most 67108864 cells (8192 x 8192) and 1048576 a side"),
        flag("inside").defaultValue(false)
            .describe("masks only: the distance from a spot inside the mask to the nearest spot outside it (its "
                      "edge), 0 outside; off: the distance to the mask, 0 inside"),
    };
    d.evaluate = [](EvalContext &ctx) {
        const PointSetPtr points = ctx.points("points");
        const MaskPtr mask = ctx.mask("mask");
        if (!points == !mask) {
            ctx.fail(points ? "both points and mask are wired: wire exactly one, the distance is to one of them"
                            : "wire points or mask: the distance is to the nearest point or to the mask");
            return;
        }
        const double maxDistance = ctx.number("max_distance");
        if (mask) {
            evaluateOnMask(ctx, *mask, maxDistance);
            return;
        }
        std::vector<const std::vector<PointXYR> *> layers;
        for (const auto &layer : points->layers)
            layers.push_back(&layer->points);
        // the world widened by its size each side: points beyond are few and tested at every query,
        // so one far-off point does not stretch the grid (the distances are the same either way)
        const World &w = ctx.world();
        const Region core{-w.width, -w.height, 2 * w.width, 2 * w.height};
        const bool sized = !w.endless && w.width > 0 && w.height > 0;
        ctx.setOutput("field", std::make_shared<PointsDistanceField>(
                                   std::make_shared<NearestPoints>(layers, sized ? &core : nullptr), maxDistance));
    };
    registry.add(std::move(d));
}

} // namespace grove
