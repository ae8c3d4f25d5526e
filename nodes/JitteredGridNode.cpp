// jittered_grid: one point at a random spot in each grid cell (seed 000 step 1, exact).
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/math/SeededRandom.h"

#include <cmath>

namespace grove {

void registerJitteredGrid(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = scatterDescriptor("jittered_grid", "Jittered Grid",
                                         "One point per grid cell at a random spot inside it: even, with faint rows (seed 000 step 1).");
    d.params = {
        number("spacing").defaultValue(26).above(0).max(1e7).soft(2, 100).describe("grid cell size"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Dot, "#969ca4");
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

} // namespace grove
