// place_volume: Bridson placement in three dimensions (asteroid fields, cave crystals, particle
// starts), bit-exact with tests/oracle/volume.mjs.
#include "ChunkedPlaceLayer.h"
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/sampling/VolumePlacement.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace grove {

void registerPlaceVolume(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "place_volume";
    d.displayName = "Place Volume";
    d.category = "Points";
    d.description =
        "Poisson-disk placement in a volume (Bridson in 3D): no two points closer than the smaller of their radii, "
        "in [0, width) x [0, height) x [0, world.depth); each point's z is its depth. Needs world.depth > 0. "
        "Cells of side r/sqrt(3); around an active point k candidates in the spherical shell [r, 2r): a random unit "
        "vector (a normalised Gaussian vector) times 2r x^(1/3), x uniform in [1/8, 1). Draws (Park-Miller "
        "nextFloat f): per step f -> active slot floor(f n); per candidate two polar pairs u = 2f - 1, v = 2f - 1, "
        "each redrawn while s = u^2 + v^2 >= 1 or s = 0, Gaussians u sqrt(-2 ln s / s) (first pair: x and y, "
        "second pair: z, its other value unused), then x = 1/8 + f * 7/8; ln and the cube root are computed with "
        "+ - * / and sqrt only. A point that finds nothing in k tries retires (the last active point takes its "
        "slot). Wire obstacles from another place_volume's `all` to share one 3D occupancy; 2D layers are refused.";
    d.matchesSeedJs = true;
    d.needsWorldSize = true;
    d.needsWorldDepth = true;
    d.spacing = Spacing::Volume;
    d.inputs = {
        port("obstacles", DataType::Points).optional()
            .describe("points of other volumes (another place_volume's `all`): this volume keeps clear of them in 3D"),
        port("allowed", DataType::Mask).optional().role(PortRole::AllowedArea)
            .describe("where this volume may grow, asked in 3D (a 3D noise through allowed_rule carves caves)"),
        port("radius", DataType::Field).optional()
            .describe("per-spot radius asked in 3D (density); the volume uses max(radius param, this)"),
    };
    d.outputs = {
        port("points", DataType::Points).role(PortRole::LayerPoints)
            .describe("this volume's points; each carries its depth as z"),
        port("all", DataType::Points).role(PortRole::LayerChain)
            .describe("the obstacles followed by this volume: wire it into the next place_volume"),
    };
    d.params = {
        number("radius").defaultValue(20).above(0).max(1e7).soft(1, 200)
            .describe("minimum distance between this volume's points in 3D (world units)"),
        integer("k").defaultValue(30).min(1).max(static_cast<double>(limits::maxK)).soft(1, 50)
            .describe("candidates tried around a point before it retires"),
        seed(),
        choice("start", kStartModes, StartMode::Patches)
            .describe("patches: every 2r cube (z, then y, then x) gets up to k tries at x + f w, y + f h, z + f d "
                      "(cubes on the far faces cut short), so separate caves all fill; random: one random first point "
                      "(f W, f H, f D); point: grow from start_x, start_y, start_z"),
        number("start_x").defaultValue(0).min(-1e9).max(1e9).soft(0, 1000)
            .describe("first point's x with start: point"),
        number("start_y").defaultValue(0).min(-1e9).max(1e9).soft(0, 1000)
            .describe("first point's y with start: point"),
        number("start_z").defaultValue(0).min(-1e9).max(1e9).soft(0, 1000)
            .describe("first point's depth with start: point"),
    };
    appendLayerParams(d, SpriteShape::Rock, "#8a8f99");
    d.checkParams = checkLayerParams;
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        if (w.chunk > 0) {
            ctx.failAtWorld("chunk", "place_volume places the whole volume at once; it does not work in a chunked world "
                                     "(remove world.chunk)");
            return;
        }
        VolumeSettings s;
        s.width = w.width;
        s.height = w.height;
        s.depth = w.depth;
        s.radius = ctx.number("radius");
        s.k = static_cast<int>(ctx.integer("k"));
        s.seed = ctx.seed();
        s.start = ctx.choice("start", kStartModes);
        s.startX = ctx.number("start_x");
        s.startY = ctx.number("start_y");
        s.startZ = ctx.number("start_z");
        const MaskPtr allowed = ctx.mask("allowed");
        const FieldPtr radius = ctx.field("radius");
        s.allowed = allowed.get();
        s.radiusField = radius.get();
        s.maxPoints = ctx.limits().maxPointsPerLayer;

        // Refuse before allocating: the grid and the layer are bounded by the sphere packing limit.
        const double estimate = maxVolumePointsEstimate(s.width, s.height, s.depth, s.radius);
        if (!withinPointBudget(ctx, estimate, "at radius " + formatNumber(s.radius) + " in a " + formatNumber(w.width) + " x "
                                                  + formatNumber(w.height) + " x " + formatNumber(w.depth) + " volume, this layer"))
            return;
        const double cell = s.radius / std::sqrt(3.0);
        const double side = std::max({s.width, s.height, s.depth}) / cell;
        if (volumeGridCells(s.width, s.height, s.depth, s.radius) > 4.0 * static_cast<double>(s.maxPoints) + 1e6
            || !(side < 1e9)) {
            ctx.fail("the occupancy grid for radius " + formatNumber(s.radius) + " would be too large");
            return;
        }
        // the obstacles: points of volume layers, in chain order
        std::vector<PointXYZR> obstacles;
        PointSetPtr chain = ctx.points("obstacles");
        if (chain) {
            for (const auto &layer : chain->layers) {
                if (!layer->info.volume) {
                    ctx.fail("obstacles: layer " + quote(layer->info.name) + " is 2D (it has no depth); place_volume keeps "
                             "clear of volume layers only: wire another place_volume's `all`");
                    return;
                }
                for (std::size_t i = 0; i < layer->points.size(); ++i) {
                    const PointXYR &p = layer->points[i];
                    obstacles.push_back({p.x, p.y, i < layer->z.size() ? layer->z[i] : 0.0, p.r});
                }
            }
        }
        // the grid threads its points through 32-bit links
        constexpr std::uint64_t kGridMax = 2147483000u;
        if (obstacles.size() >= kGridMax) {
            ctx.fail("the obstacles already hold " + std::to_string(obstacles.size()) + " points, as many as one occupancy can");
            return;
        }
        const bool capped = s.maxPoints > kGridMax - obstacles.size();
        if (capped)
            s.maxPoints = kGridMax - obstacles.size();

        std::vector<PointXYZR> placed;
        PlacementTally tally;
        PlacementControl control{ctx.cancelFlag(), ctx.progressCallback(), &tally};
        switch (placeVolume(s, obstacles, placed, control)) {
        case PlacementStatus::Cancelled: return;
        case PlacementStatus::TooManyPoints:
            ctx.fail("the volume reached the limit of " + std::to_string(s.maxPoints)
                     + " points; raise the radius or the limit (grove-cli --max-points)");
            return;
        case PlacementStatus::Done: break;
        }
        std::vector<PointXYR> points;
        std::vector<double> z;
        points.reserve(placed.size());
        z.reserve(placed.size());
        for (const PointXYZR &p : placed) {
            points.push_back({p.x, p.y, p.r});
            z.push_back(p.z);
        }
        auto layer = makeLayer(ctx, std::move(points));
        layer->z = std::move(z);
        layer->info.volume = true;
        layer->tally = tally;
        setChainOutputs(ctx, layer, chain);
    };
    d.wrapProblem = "its volume does not wrap; remove world.wrap or use place_layer";
    registry.add(std::move(d));
}

} // namespace grove
