// scatter_around: children in a ring around each point of a parent layer (bushes around trees),
// on the occupancy the obstacles chain shares.
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/math/ExactTrig.h"
#include "core/graph/NodeRegistry.h"
#include "core/sampling/OccupancyGrid.h"
#include "core/math/SeededRandom.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace grove {

namespace {

// The salt of a parent's stream: pointHash(seed, parent id, kSalt + its layer's place on the wire).
constexpr std::uint32_t kSalt = 0x61726f75u;  // "arou"

// Candidates one layer may try (parents x most children x tries): a few seconds at worst (about
// 0.4 microseconds a candidate when nearly all are turned away), and a bound on time, not only memory.
constexpr double kMaxTries = 1e7;

bool finite(const PointXYR &p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.r); }

} // namespace

void registerScatterAround(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "scatter_around";
    d.displayName = "Scatter Around";
    d.category = "Points";
    d.description = "For each point of the parents layer, a count of children in the ring [r_min, r_max] around it "
                    "(bushes around trees, debris around rocks), kept clear of the obstacles, the parents and each "
                    "other on one shared occupancy. Each parent's children come from its own stream, seeded by "
                    "pointHash(seed, parent id): moving one parent moves only its children (where they do not meet).";
    d.needsWorldSize = true;
    d.spacing = Spacing::Plane;  // children keep clear of each other, the parents and the obstacles
    d.inputs = {
        port("parents", DataType::Points).describe("the points to scatter around (every layer on the wire)"),
        port("obstacles", DataType::Points).optional()
            .describe("points already placed: the children keep clear of them (wire the previous layer's `all`)"),
        port("allowed", DataType::Mask).optional().role(PortRole::AllowedArea)
            .describe("where the children may grow"),
    };
    d.outputs = {
        port("points", DataType::Points).role(PortRole::LayerPoints).describe("the children"),
        port("all", DataType::Points).role(PortRole::LayerChain)
            .describe("the obstacles, the parents' layers not among them, then the children: wire it into the next layer"),
    };
    d.params = {
        range("count").defaultValue(ValueList{2.0, 5.0}).min(0).max(1000).soft(0, 10)
            .describe("children per parent: a whole number in [low, high], uniform, from the parent's stream"),
        number("r_min").defaultValue(10).min(0).max(1e7).soft(0, 100)
            .describe("nearest a child may be to its parent (world units)"),
        number("r_max").defaultValue(30).min(0).max(1e7).soft(1, 200)
            .describe("farthest a child may be from its parent (at least r_min)"),
        number("radius").defaultValue(6).above(0).max(1e7).soft(1, 50)
            .describe("the children's spacing: no two objects closer than the smaller of their radii"),
        integer("tries").defaultValue(30).min(1).max(1000).soft(1, 100)
            .describe("candidates tried for one child before it is left out"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Rock, "#8a8f7a");
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        checkLayerParams(params, issues);
        const double rMin = paramNumber(params, "r_min"), rMax = paramNumber(params, "r_max");
        if (rMin > rMax)
            issues.push_back({"r_max", "r_max " + formatNumber(rMax) + " is below r_min " + formatNumber(rMin)});
        for (const auto &[k, v] : params)
            if (k == "count" && v.toList().size() == 2)
                for (const Value &end : v.toList())
                    if (end.toNumber() != std::floor(end.toNumber()))
                        issues.push_back({"count", "count " + formatNumber(end.toNumber()) + " is not a whole number"});
    };
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        const ValueList &count = ctx.param("count").toList();
        const auto low = static_cast<std::int64_t>(count[0].toNumber()), high = static_cast<std::int64_t>(count[1].toNumber());
        const double rMin = ctx.number("r_min"), rMax = ctx.number("r_max"), radius = ctx.number("radius");
        const std::int64_t tries = ctx.integer("tries");
        const std::int32_t seed = ctx.seed();
        PointSetPtr parents = ctx.points("parents");
        PointSetPtr obstacles = ctx.points("obstacles");
        MaskPtr allowed = ctx.mask("allowed");

        const double parentCount = parents ? static_cast<double>(parents->size()) : 0.0;
        if (!withinPointBudget(ctx, parentCount * static_cast<double>(high),
                               formatNumber(parentCount) + " parents of up to " + std::to_string(high) + " children"))
            return;
        if (parentCount * static_cast<double>(high) * static_cast<double>(tries) > kMaxTries) {
            ctx.failAt("tries", formatNumber(parentCount) + " parents x " + std::to_string(high) + " children x "
                                    + std::to_string(tries) + " tries are more than the " + formatNumber(kMaxTries)
                                    + " candidates one layer may try; lower tries or count");
            return;
        }
        // the layers on the occupancy: the obstacles, then the parents' layers not among them
        std::vector<PointLayerPtr> held;
        if (obstacles)
            held = obstacles->layers;
        if (parents)
            for (const PointLayerPtr &layer : parents->layers)
                if (std::find(held.begin(), held.end(), layer) == held.end())
                    held.push_back(layer);
        std::size_t heldPoints = 0;
        for (const PointLayerPtr &layer : held)
            heldPoints += layer->points.size();
        if (heldPoints + static_cast<std::size_t>(parentCount) * static_cast<std::size_t>(high) >= OccupancyGrid::kMaxPoints) {
            ctx.fail("the obstacles, parents and children would hold more points than one occupancy can ("
                     + std::to_string(OccupancyGrid::kMaxPoints) + ")");
            return;
        }
        const double cellSize = radius / std::sqrt(2.0);
        if (OccupancyGrid::cellsFor(w.width, w.height, cellSize) > 4.0 * static_cast<double>(ctx.limits().maxPointsPerLayer) + 1e6) {
            ctx.failAt("radius", "the occupancy grid for radius " + formatNumber(radius) + " would be too large");
            return;
        }
        OccupancyGrid grid(w.width, w.height, cellSize);
        // points that keep their own radius from everything (hand-placed houses) are checked apart
        std::vector<PointXYR> kept;
        double keptRadius = 0;
        for (const PointLayerPtr &layer : held) {
            if (layer->info.keepsRadius) {
                for (const PointXYR &p : layer->points)
                    if (finite(p) && p.r > 0) {
                        kept.push_back(p);
                        keptRadius = std::max(keptRadius, p.r);
                    }
            } else {
                for (const PointXYR &p : layer->points)
                    if (finite(p))
                        grid.add(p.x, p.y, p.r);
            }
        }
        std::unique_ptr<OccupancyGrid> keepOut;
        if (!kept.empty()) {
            keepOut = std::make_unique<OccupancyGrid>(w.width, w.height, std::max(keptRadius, std::max(w.width, w.height) / 1024));
            keepOut->addAll(kept);
        }

        const double rMin2 = rMin * rMin, rMax2 = rMax * rMax;
        std::vector<PointXYR> children;
        std::uint64_t done = 0;
        if (parents)
            for (std::size_t li = 0; li < parents->layers.size(); ++li) {
                const PointLayer &layer = *parents->layers[li];
                for (std::size_t i = 0; i < layer.points.size(); ++i) {
                    const PointXYR &parent = layer.points[i];
                    if (!finite(parent))
                        continue;
                    const std::uint64_t h = pointHash(seed, layer.idOf(i), kSalt + static_cast<std::uint32_t>(li));
                    SeededRandom random(static_cast<std::int32_t>(static_cast<std::uint32_t>(h)));
                    const std::int64_t n = std::min(high, low + static_cast<std::int64_t>(random.nextFloat() * static_cast<double>(high - low + 1)));
                    for (std::int64_t c = 0; c < n; ++c)
                        for (std::int64_t t = 0; t < tries; ++t) {
                            // uniform over the ring's area; the distance actually taken is checked
                            const auto [cx, sy] = unitVector(random.nextFloat());
                            const double dist = std::sqrt(rMin2 + random.nextFloat() * (rMax2 - rMin2));
                            const double x = parent.x + dist * cx, y = parent.y + dist * sy;
                            const double dx = x - parent.x, dy = y - parent.y, d2 = dx * dx + dy * dy;
                            if (!(x >= 0 && y >= 0 && x < w.width && y < w.height) || d2 < rMin2 || d2 > rMax2)
                                continue;
                            if ((allowed && !allowed->at(x, y)) || (keepOut && !keepOut->isFree(x, y, keptRadius)))
                                continue;
                            if (!grid.isFree(x, y, radius))
                                continue;
                            grid.add(x, y, radius);
                            children.push_back({x, y, radius});
                            break;
                        }
                    if (ctx.cancelled())  // a parent tries up to count x tries candidates: asked after each
                        return;
                    if ((++done & 1023) == 0)
                        ctx.progress(static_cast<double>(done) / parentCount);
                }
            }
        // no rejection tally: the layer is not meant to fill its allowed area, so the notes that
        // tell why a filling layer came out sparse would mislead here
        auto layer = makeLayer(ctx, std::move(children));
        auto own = std::make_shared<PointSet>();
        own->layers.push_back(layer);
        auto all = std::make_shared<PointSet>();
        all->layers = held;
        all->layers.push_back(layer);
        ctx.setOutput("points", PointSetPtr(own));
        ctx.setOutput("all", PointSetPtr(all));
    };
    d.wrapProblem = "it measures spacing only in the plane, not across the edges; use place_layer, which places on the torus";
    registry.add(std::move(d));
}

} // namespace grove
