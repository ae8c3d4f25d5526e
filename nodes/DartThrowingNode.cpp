// dart_throwing: random darts kept when clear of every kept one (seed 000 step 2, exact).
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/sampling/PoissonPlacement.h"
#include "core/math/SeededRandom.h"

#include <cmath>

namespace grove {

void registerDartThrowing(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = scatterDescriptor("dart_throwing", "Dart Throwing",
                                         "Random darts kept only when at least radius from every kept one; stops after max_misses misses in a row (seed 000 step 2).");
    d.params = {
        number("radius").defaultValue(26).above(0).max(1e7).soft(2, 100).describe("minimum distance between points"),
        integer("max_misses").defaultValue(500).min(1).max(1e6).soft(10, 5000)
            .describe("misses in a row that count as full"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Dot, "#969ca4");
    d.spacing = Spacing::Plane;
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
    d.wrapProblem = "it measures spacing only in the plane, not across the edges; use place_layer, which places on the torus";
    registry.add(std::move(d));
}

} // namespace grove
