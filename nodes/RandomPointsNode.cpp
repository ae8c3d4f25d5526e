// random_points: uniform random points, clumps and bald spots (seed 000 step 1, exact).
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/math/SeededRandom.h"

namespace grove {

void registerRandomPoints(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = scatterDescriptor("random_points", "Random Points",
                                         "Uniform random points: clumps and bald spots (seed 000 step 1).");
    d.params = {
        integer("count").defaultValue(100).min(0).max(1e9).soft(0, 2000).describe("how many points"),
        number("radius").defaultValue(10).min(0).max(1e7).soft(1, 100)
            .describe("the spacing these points are judged and drawn by (not enforced)"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Dot, "#969ca4");
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

} // namespace grove
