// The tutorial's simple scatterers, for comparison and quick props: random_points, jittered_grid,
// dart_throwing (all exact).
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/EvalContext.h"
#include "core/NodeRegistry.h"
#include "core/PoissonPlacement.h"
#include "core/SeededRandom.h"

#include <cmath>

namespace grove {

namespace {

void setLayerOutput(EvalContext &ctx, std::vector<PointXYR> points)
{
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(makeLayer(ctx, std::move(points)));
    ctx.setOutput("points", PointSetPtr(set));
}

NodeDescriptor samplerDescriptor(std::string typeId, std::string displayName, std::string description)
{
    NodeDescriptor d;
    d.typeId = std::move(typeId);
    d.displayName = std::move(displayName);
    d.category = "Points";
    d.description = std::move(description);
    d.exact = true;
    d.outputs = {build::port("points", DataType::Points, "the scattered points")};
    d.checkParams = checkLayerParams;
    return d;
}

void appendLayerParams(NodeDescriptor &d, const std::string &sprite)
{
    for (auto &p : layerParams(sprite, "#969ca4"))
        d.params.push_back(std::move(p));
}

} // namespace

void registerRandomPoints(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = samplerDescriptor("random_points", "Random Points",
                                         "Uniform random points: clumps and bald spots (seed 000 step 1).");
    d.params = {
        integer("count", 100, 0, 1e9, 0, 2000, "how many points"),
        number("radius", 10, 0, 1e7, 1, 100, "the spacing these points are judged and drawn by (not enforced)"),
        seed(),
    };
    appendLayerParams(d, "dot");
    d.evaluate = [](EvalContext &ctx) {
        const double count = ctx.number("count");
        if (!withinPointBudget(ctx, count, "count"))
            return;
        SeededRandom random(ctx.seed());
        const World &w = ctx.world();
        const double r = ctx.number("radius");
        std::vector<PointXYR> points;
        points.reserve(static_cast<size_t>(count));
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
            const double x = random.nextFloat() * w.width;
            const double y = random.nextFloat() * w.height;
            points.push_back({x, y, r});
        }
        setLayerOutput(ctx, std::move(points));
    };
    registry.add(std::move(d));
}

void registerJitteredGrid(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = samplerDescriptor("jittered_grid", "Jittered Grid",
                                         "One point per grid cell at a random spot inside it: even, with faint rows (seed 000 step 1).");
    d.params = {
        number("spacing", 26, 0, 1e7, 2, 100, "grid cell size", true),
        seed(),
    };
    appendLayerParams(d, "dot");
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        const double spacing = ctx.number("spacing");
        const double cols = std::floor(w.width / spacing);
        const double rows = std::floor(w.height / spacing);
        if (!withinPointBudget(ctx, cols * rows, "at spacing " + formatNumber(spacing) + ", the grid"))
            return;
        SeededRandom random(ctx.seed());
        std::vector<PointXYR> points;
        points.reserve(static_cast<size_t>(cols * rows));
        for (std::int64_t row = 0; row < static_cast<std::int64_t>(rows); ++row) {
            for (std::int64_t col = 0; col < static_cast<std::int64_t>(cols); ++col) {
                const double x = (static_cast<double>(col) + random.nextFloat()) * spacing;
                const double y = (static_cast<double>(row) + random.nextFloat()) * spacing;
                points.push_back({x, y, spacing});
            }
            if (ctx.cancelled())
                return;
        }
        setLayerOutput(ctx, std::move(points));
    };
    registry.add(std::move(d));
}

void registerDartThrowing(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = samplerDescriptor("dart_throwing", "Dart Throwing",
                                         "Random darts kept only when at least radius from every kept one; stops after max_misses misses in a row (seed 000 step 2).");
    d.params = {
        number("radius", 26, 0, 1e7, 2, 100, "minimum distance between points", true),
        integer("max_misses", 500, 1, 1e6, 10, 5000, "misses in a row that count as full"),
        seed(),
    };
    appendLayerParams(d, "dot");
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        const double radius = ctx.number("radius");
        // every dart checks every kept point, so the work grows with the square of the points
        const double estimate = maxPointsEstimate(w.width, w.height, radius);
        if (!withinPointBudget(ctx, estimate, "at radius " + formatNumber(radius) + ", this layer"))
            return;
        if (estimate > 100000) {
            ctx.fail("at radius " + formatNumber(radius) + " this world holds up to " + formatNumber(std::floor(estimate))
                     + " darts, and dart throwing checks each against all the others; use place_layer "
                       "(Bridson) for layers of more than 100000 points");
            return;
        }
        SeededRandom random(ctx.seed());
        const std::int64_t maxMisses = ctx.integer("max_misses");
        std::vector<PointXYR> points;
        std::int64_t misses = 0;
        std::uint64_t darts = 0;
        while (misses < maxMisses) {
            const double x = random.nextFloat() * w.width;
            const double y = random.nextFloat() * w.height;
            bool far = true;
            for (const auto &p : points) {
                const double dx = p.x - x;
                const double dy = p.y - y;
                if (dx * dx + dy * dy < radius * radius) {
                    far = false;
                    break;
                }
            }
            if (far) {
                points.push_back({x, y, radius});
                misses = 0;
            } else {
                ++misses;
            }
            if ((++darts & 1023) == 0 && ctx.cancelled())
                return;
        }
        setLayerOutput(ctx, std::move(points));
    };
    registry.add(std::move(d));
}

} // namespace grove
