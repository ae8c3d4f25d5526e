// place_layer: Bridson placement of one layer on the occupancy its obstacles chain shares (exact).
#include "ChunkedPlaceLayer.h"
#include "HandEdits.h"
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/math/Torus.h"
#include "core/graph/EvalContext.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/sampling/PoissonPlacement.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace grove {

namespace {

constexpr ChoiceTable<PlacementMethod, 2> kMethods{{{PlacementMethod::Tutorial, "exact"}, {PlacementMethod::Fast, "fast"}}};

// The grid's cell size only changes speed, never a point. With one radius, r / sqrt(2) (one
// point per cell). With a radius field, the typical radius: cells then hold a few points, but a
// query at the largest radius scans far fewer cells than a grid sized for the smallest.
double occupancyCellSize(const PlacementSettings &s, const Field *radiusField)
{
    double cell = s.radius / std::sqrt(2.0);
    if (!radiusField)
        return cell;
    constexpr int n = 32;
    std::vector<double> radii;
    radii.reserve(n * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double r = std::max(s.radius, radiusField->at((i + 0.5) * s.width / n, (j + 0.5) * s.height / n));
            if (std::isfinite(r))
                radii.push_back(r);
        }
    if (radii.empty())
        return cell;
    std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2), radii.end());
    const double typical = radii[radii.size() / 2];
    // never coarser than the world allows, never so fine the grid outgrows the point budget
    return std::clamp(typical / std::sqrt(2.0), cell, std::max(cell, std::max(s.width, s.height)));
}

// Where a candidate is not within the own radius of an obstacle that keeps it (points_file's
// hand-placed houses), and the layer's allowed area holds. Pure, so it only joins the checks.
class KeepOutMask final : public Mask
{
public:
    // periodX, periodY: a wrapped world's sides (0: that axis does not wrap): a house by one edge
    // keeps its radius across the other too
    KeepOutMask(MaskPtr allowed, std::vector<PointXYR> points, double periodX, double periodY)
        : m_allowed(std::move(allowed)), m_points(std::move(points)), m_periodX(periodX), m_periodY(periodY)
    {
        double largest = 0;
        m_x0 = m_y0 = HUGE_VAL;
        double x1 = -HUGE_VAL, y1 = -HUGE_VAL;
        for (const PointXYR &p : m_points) {
            largest = std::max(largest, p.r);
            m_x0 = std::min(m_x0, p.x);
            m_y0 = std::min(m_y0, p.y);
            x1 = std::max(x1, p.x);
            y1 = std::max(y1, p.y);
        }
        // cells of the largest radius, at most 1024 a side: a point's circle spans its cell's 3 x 3
        m_largest = largest;
        m_x1 = x1;
        m_y1 = y1;
        m_cell = std::max({largest, (x1 - m_x0) / 1024, (y1 - m_y0) / 1024, 1e-9});
        m_cols = static_cast<int>((x1 - m_x0) / m_cell) + 1;
        m_rows = static_cast<int>((y1 - m_y0) / m_cell) + 1;
        m_cells.assign(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows), {});
        for (std::size_t i = 0; i < m_points.size(); ++i)
            m_cells[cellOf(m_points[i].x, m_points[i].y)].push_back(static_cast<std::uint32_t>(i));
    }

    // Away from every kept point's circle, the allowed area's own answer.
    MaskOver over(const Region &area) const override
    {
        const MaskOver allowed = m_allowed ? m_allowed->over(area) : MaskOver::AllTrue;
        const double reach = m_largest * (1 + 1e-9) + 1e-9 * (1 + std::fabs(area.x0) + std::fabs(area.y0));
        const bool apart = m_periodX <= 0 && m_periodY <= 0
                           && (area.x1 < m_x0 - reach || area.x0 > m_x1 + reach || area.y1 < m_y0 - reach || area.y0 > m_y1 + reach);
        return apart || allowed == MaskOver::AllFalse ? allowed : MaskOver::Mixed;
    }

    bool at(double x, double y) const override
    {
        const bool kept = m_periodX > 0 || m_periodY > 0
                              ? onTorus(x, y, m_periodX, m_periodY, [this](double u, double v) { return keptOut(u, v); })
                              : keptOut(x, y);
        return !kept && (!m_allowed || m_allowed->at(x, y));
    }

private:
    // Within a kept point's own radius of (x, y), in the plane.
    bool keptOut(double x, double y) const
    {
        const double fx = (x - m_x0) / m_cell, fy = (y - m_y0) / m_cell;
        if (!(fx > -2 && fy > -2 && fx < m_cols + 1 && fy < m_rows + 1))
            return false;  // far from every point
        const int cx = static_cast<int>(std::floor(fx)), cy = static_cast<int>(std::floor(fy));
        for (int r = std::max(0, cy - 1); r <= std::min(m_rows - 1, cy + 1); ++r)
            for (int c = std::max(0, cx - 1); c <= std::min(m_cols - 1, cx + 1); ++c)
                for (std::uint32_t i : m_cells[static_cast<size_t>(r) * static_cast<size_t>(m_cols) + static_cast<size_t>(c)]) {
                    const PointXYR &p = m_points[i];
                    const double dx = p.x - x, dy = p.y - y;
                    if (dx * dx + dy * dy < p.r * p.r)
                        return true;
                }
        return false;
    }

    std::size_t cellOf(double x, double y) const
    {
        const int c = std::clamp(static_cast<int>((x - m_x0) / m_cell), 0, m_cols - 1);
        const int r = std::clamp(static_cast<int>((y - m_y0) / m_cell), 0, m_rows - 1);
        return static_cast<size_t>(r) * static_cast<size_t>(m_cols) + static_cast<size_t>(c);
    }

    MaskPtr m_allowed;
    std::vector<PointXYR> m_points;
    double m_x0, m_y0, m_cell;
    double m_x1 = 0, m_y1 = 0, m_largest = 0;  // the points' box and largest radius
    int m_cols = 1, m_rows = 1;
    std::vector<std::vector<std::uint32_t>> m_cells;
    double m_periodX, m_periodY;
};

} // namespace

void registerPlaceLayer(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "place_layer";
    d.displayName = "Place Layer";
    d.category = "Points";
    d.description = "Poisson-disk placement (Bridson): random, but no two objects closer than the smaller of their "
                    "radii. Wire obstacles from the previous layer's `all` to share one occupancy. In a chunked world "
                    "(world.chunk) it places chunk by chunk, each chunk the same whatever else is asked.";
    d.matchesSeedJs = true;
    d.chunked = true;
    d.spacing = Spacing::Plane;
    d.inputs = {
        port("obstacles", DataType::Points).optional()
            .describe("points already placed: this layer keeps clear of them"),
        port("allowed", DataType::Mask).optional().role(PortRole::AllowedArea)
            .describe("where this layer may grow (biome rule)"),
        port("radius", DataType::Field).optional()
            .describe("per-spot radius (density); the layer uses max(radius param, this)"),
        port("height", DataType::Field).optional()
            .describe("terrain height: each exported point carries z = height there x height_scale (placement does not change)"),
    };
    d.outputs = {
        port("points", DataType::Points).role(PortRole::LayerPoints).describe("this layer's points"),
        port("all", DataType::Points).role(PortRole::LayerChain)
            .describe("the obstacles followed by this layer: wire it into the next layer"),
    };
    d.params = {
        number("radius").defaultValue(20).above(0).max(1e7).soft(1, 200)
            .describe("minimum distance between this layer's points (world units)"),
        integer("k").defaultValue(30).min(1).max(static_cast<double>(limits::maxK)).soft(1, 50)
            .describe("candidates tried around a point before it retires"),
        seed(),
        choice("start", kStartModes, StartMode::Patches)
            .role(ParamRole::PositionMode, choiceName(kStartModes, StartMode::Point))
            .describe("patches: every 2r x 2r square gets a chance to start; random: one random first point; "
                      "point: grow from start_x, start_y"),
        choice("method", kMethods, PlacementMethod::Tutorial)
            .describe("exact: the tutorial's Bridson, bit for bit; fast: candidates on the circle just outside the radius, "
                      "denser (about 0.87 points per r^2 against 0.62) and quicker, the same on every machine"),
        number("start_x").defaultValue(0).min(-1e9).max(1e9).soft(0, 1000).role(ParamRole::PositionX)
            .describe("first point's x with start: point"),
        number("start_y").defaultValue(0).min(-1e9).max(1e9).soft(0, 1000).role(ParamRole::PositionY)
            .describe("first point's y with start: point"),
        flag("maximal").defaultValue(false)
            .describe("after Bridson, fill every gap where one more point still fits (maximal Poisson-disk "
                      "sampling): no bald patches; a little denser and slower. Not in chunked worlds"),
        number("height_scale").defaultValue(1).min(-1e9).max(1e9).soft(0, 500)
            .describe("world units of z per unit of the height input (a heightmap in [0, 1] times the terrain's height)"),
    };
    appendLayerParams(d, SpriteShape::Tree, "#34884a");
    d.params.push_back(pinsParam());
    d.params.push_back(eraseParam());
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        checkLayerParams(params, issues);
        checkPins(params, issues);
    };
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        PlacementSettings s;
        s.width = w.width;
        s.height = w.height;
        s.radius = ctx.number("radius");
        s.k = static_cast<int>(ctx.integer("k"));
        s.seed = ctx.seed();
        s.start = ctx.choice("start", kStartModes);
        s.startX = ctx.number("start_x");
        s.method = ctx.choice("method", kMethods);
        s.startY = ctx.number("start_y");
        s.wrapX = w.wrapX;
        s.wrapY = w.wrapY;
        s.maximal = ctx.flag("maximal");
        MaskPtr allowed = ctx.mask("allowed");
        const double periodX = w.wrapX ? w.width : 0, periodY = w.wrapY ? w.height : 0;
        // obstacles that keep their own radius (hand-placed houses) join the allowed area
        if (PointSetPtr keep = ctx.points("obstacles")) {
            std::vector<PointXYR> kept;
            for (const auto &layer : keep->layers)
                if (layer->info.keepsRadius)
                    for (const PointXYR &p : layer->points)
                        if (std::isfinite(p.x) && std::isfinite(p.y) && p.r > 0)
                            kept.push_back(p);
            if (!kept.empty())
                allowed = std::make_shared<KeepOutMask>(allowed, std::move(kept), periodX, periodY);
        }
        FieldPtr radius = ctx.field("radius");
        // hand edits: the erased areas leave the allowed area; the pins go first, at their radius there
        allowed = withoutErased(allowed, ctx.param("erase"), periodX, periodY);
        const std::vector<Pin> pins = readPins(ctx.param("pins"), layerInfo(ctx).types);
        std::vector<PointXYR> pinned;
        std::vector<double> pinRadii;
        for (const Pin &p : pins) {
            const double field = radius ? radius->at(p.x, p.y) : 0;
            pinRadii.push_back(std::isfinite(field) ? std::max(s.radius, field) : s.radius);
            pinned.push_back({p.x, p.y, pinRadii.back()});
        }
        if (!checkPinsInWorld(ctx, pins, pinRadii))
            return;
        if (w.chunk > 0 && ctx.flag("maximal")) {
            ctx.failAt("maximal", "maximal is not available in a chunked world (world.chunk): chunks are placed one by one, "
                                  "and a gap on a chunk's border is not yet filled the same way from both sides; "
                                  "turn maximal off or remove world.chunk");
            return;
        }
        if (w.chunk > 0) {
            placeLayerChunked(ctx, s, allowed, radius, ctx.points("obstacles"), pins, std::move(pinned));
            return;
        }
        s.allowed = allowed.get();
        s.radiusField = radius.get();
        s.radiusFieldMax = radius ? radius->upperBound() : 0;
        s.maxPoints = ctx.limits().maxPointsPerLayer;

        // Refuse before allocating: the grid and the layer are bounded by the packing limit.
        const double estimate = maxPointsEstimate(s.width, s.height, s.radius);
        if (!withinPointBudget(ctx, estimate, "at radius " + formatNumber(s.radius) + " on a " + formatNumber(w.width)
                                                  + " x " + formatNumber(w.height) + " world, this layer"))
            return;
        PointSetPtr obstacles = ctx.points("obstacles");
        const double cellSize = occupancyCellSize(s, radius.get());
        if (OccupancyGrid::cellsFor(w.width, w.height, cellSize) > 4.0 * static_cast<double>(s.maxPoints) + 1e6) {
            ctx.fail("the occupancy grid for radius " + formatNumber(s.radius) + " would be too large");
            return;
        }
        // One occupancy holds the obstacles and this layer: keep the layer within what is left.
        const std::size_t obstacleCount = obstacles ? obstacles->size() : 0;
        if (obstacleCount >= OccupancyGrid::kMaxPoints) {
            ctx.fail("the obstacles already hold " + std::to_string(obstacleCount) + " points, as many as one occupancy can");
            return;
        }
        const bool cappedByOccupancy = s.maxPoints > OccupancyGrid::kMaxPoints - obstacleCount;
        if (cappedByOccupancy)
            s.maxPoints = OccupancyGrid::kMaxPoints - obstacleCount;
        if (pinned.size() >= s.maxPoints) {
            ctx.failAt("pins", "the layer holds " + std::to_string(pinned.size()) + " pins, more than its limit of "
                                   + std::to_string(s.maxPoints) + " points");
            return;
        }
        const std::uint64_t limit = s.maxPoints;
        s.maxPoints -= pinned.size();
        if ((w.wrapX && s.radius > w.width) || (w.wrapY && s.radius > w.height)) {
            ctx.failAt("radius", "radius " + formatNumber(s.radius) + " is larger than the wrapped world (" + formatNumber(w.width)
                                     + " x " + formatNumber(w.height) + "): a point would crowd its own copy across the edge");
            return;
        }
        OccupancyGrid grid(w.width, w.height, cellSize);
        grid.setWrap(w.wrapX ? w.width : 0, w.wrapY ? w.height : 0);
        if (obstacles)
            for (const auto &layer : obstacles->layers)
                grid.addAll(layer->points);
        grid.addAll(pinned);

        std::vector<PointXYR> points;
        PlacementTally tally;
        PlacementControl control{ctx.cancelFlag(), ctx.progressCallback(), &tally};
        switch (placePoisson(s, grid, points, control)) {
        case PlacementStatus::Cancelled: return;
        case PlacementStatus::TooManyPoints:
            if (cappedByOccupancy)
                ctx.fail("the layer and its obstacles reached the " + std::to_string(OccupancyGrid::kMaxPoints)
                         + " points one occupancy can hold; raise the radius");
            else
                ctx.fail("the layer reached the limit of " + std::to_string(limit)
                         + " points; raise the radius or the limit (grove-cli --max-points)");
            return;
        case PlacementStatus::Done: break;
        }
        // the pins lead the layer: ids 0 to pins - 1, in list order
        std::vector<std::uint64_t> pinIds(pinned.size());
        std::iota(pinIds.begin(), pinIds.end(), std::uint64_t(0));
        if (pinned.empty())
            pinned = std::move(points);  // no pins (most layers): no copy of what may be millions of points
        else
            pinned.insert(pinned.end(), points.begin(), points.end());
        auto layer = makeLayer(ctx, std::move(pinned));
        layer->info.pinned = pinnedAttributes(pins, pinIds);
        if (!ctx.param("erase").toList().empty())
            layer->grownIn = allowed;
        layer->tally = tally;
        if (FieldPtr height = ctx.field("height")) {
            const double scale = ctx.number("height_scale");
            layer->z.reserve(layer->points.size());
            for (const PointXYR &p : layer->points) {
                const double z = height->at(p.x, p.y) * scale;
                layer->z.push_back(std::isfinite(z) ? z : 0.0);
            }
        }
        setChainOutputs(ctx, layer, obstacles);
    };
    registry.add(std::move(d));
}

} // namespace grove
