// place_layer's chunked mode: checks the chunk against the layer's radius, then builds the
// layer's ChunkedLayer and, for a finite world placed whole, every chunk on the threads asked for.
#include "ChunkedPlaceLayer.h"

#include "HandEdits.h"
#include "LayerParams.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/graph/EvalContext.h"
#include "core/base/Diagnostic.h"
#include "core/base/Value.h"

#include <cmath>
#include <limits>
#include <map>

namespace grove {

void placeLayerChunked(EvalContext &ctx, const PlacementSettings &s, MaskPtr allowed, FieldPtr radius, PointSetPtr obstacles,
                       const std::vector<Pin> &pins, std::vector<PointXYR> pinned)
{
    const World &w = ctx.world();
    const std::string who = "layer " + quote(ctx.node().id);
    const double largest = radius ? std::max(s.radius, radius->upperBound()) : s.radius;
    if (!std::isfinite(largest)) {
        ctx.failAtWorld("chunk", "the radius input of " + who + " has no upper bound, and a chunked world needs one to know "
                                 "how far a chunk reaches: take the radius from a density node (its max_radius bounds it)");
        return;
    }
    // for messages: a bound like 40.00000000000001 (density's arithmetic) reads as 40
    const auto shown = [](double v) { return formatNumber(std::round(v * 1e6) / 1e6); };
    if (w.chunk < 4 * largest) {
        ctx.failAtWorld("chunk", "world chunk " + formatNumber(w.chunk) + " is less than 4 times the largest radius "
                                     + shown(largest) + " of " + who + "; use a chunk of at least " + shown(4 * largest)
                                     + " (about 32 radii, " + shown(32 * largest) + ", places fastest)");
        return;
    }
    if (maxPointsEstimate(w.chunk, w.chunk, s.radius) >= kChunkPointLimit) {
        ctx.failAtWorld("chunk", "world chunk " + formatNumber(w.chunk) + " could hold more than "
                                     + std::to_string(kChunkPointLimit) + " points of " + who + " at radius "
                                     + formatNumber(s.radius) + ", more than a chunk can number; use a chunk of at most "
                                     + formatNumber(std::floor(std::sqrt(kChunkPointLimit * 0.8 * s.radius * s.radius))));
        return;
    }
    // a layer left lazy never holds the whole world: regions are asked of it, and bounded there
    const bool placeWhole = !w.endless && ctx.limits().placeWholeWorld;
    if (placeWhole && !withinPointBudget(ctx, maxPointsEstimate(w.width, w.height, s.radius),
                                         "at radius " + formatNumber(s.radius) + " on a " + formatNumber(w.width) + " x "
                                             + formatNumber(w.height) + " world, this layer"))
        return;

    ChunkedLayerSettings cs;
    cs.chunk = w.chunk;
    cs.finite = !w.endless;
    cs.worldWidth = w.width;
    cs.worldHeight = w.height;
    cs.placement = s;
    cs.allowed = std::move(allowed);
    cs.radius = radius;
    cs.largestRadius = largest;
    if (obstacles)
        cs.obstacles = obstacles->layers;
    // a pin's id is (its chunk, its place among that chunk's pins): the chunk lists its pins first
    std::vector<std::uint64_t> pinIds;
    std::map<std::pair<int, int>, std::uint32_t> pinsInChunk;
    for (std::size_t k = 0; k < pinned.size(); ++k) {
        const int i = chunkIndexOf(pinned[k].x, w.chunk), j = chunkIndexOf(pinned[k].y, w.chunk);
        if (i < -kChunkRange || i >= kChunkRange || j < -kChunkRange || j >= kChunkRange) {
            ctx.failAt("pins[" + std::to_string(k) + "]",
                       "pin " + std::to_string(k) + " at (" + formatNumber(pinned[k].x) + ", " + formatNumber(pinned[k].y)
                           + ") lies beyond the chunks a world can number: with chunk " + formatNumber(w.chunk)
                           + ", x and y stay within -" + formatNumber(kChunkRange * w.chunk) + " to "
                           + formatNumber(kChunkRange * w.chunk));
            return;
        }
        pinIds.push_back(chunkPointId(i, j, pinsInChunk[{i, j}]++));
    }
    auto layer = makeLayer(ctx, {});
    layer->info.pinned = pinnedAttributes(pins, pinIds);
    if (!ctx.param("erase").toList().empty())
        layer->grownIn = allowed;
    cs.info = layer->info;
    cs.pins = std::move(pinned);
    if (FieldPtr height = ctx.field("height")) {
        cs.height = height;
        cs.heightScale = ctx.number("height_scale");
    }
    cs.cacheBudget = ctx.limits().chunkCacheBytes;
    auto chunked = std::make_shared<const ChunkedLayer>(std::move(cs));
    layer->chunked = chunked;

    if (!placeWhole) {
        layer->lazy = true;  // chunks on demand, by region
    } else {
        const Region whole{0, 0, w.width, w.height};
        std::vector<ChunkCoord> chunks;
        chunked->chunksIn(whole, chunks);
        // every chunk stays until the layer is copied out, then the copy is all that is kept
        chunked->setCacheBudget(std::numeric_limits<std::size_t>::max());
        const auto progress = [&](std::size_t done, std::size_t total) {
            ctx.progress(static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(1, total)));
        };
        PlacementTally tally{true, s.radius};
        try {
            if (chunked->prepare(chunks, ctx.limits().threads, ctx.cancelFlag(), progress) != ChunkStatus::Done)
                return;  // cancelled
            for (const ChunkCoord &c : chunks)
                if (ChunkPointsPtr cp = chunked->chunk(c.i, c.j)) {
                    tally.candidates += cp->tally.candidates;
                    tally.offMap += cp->tally.offMap;
                    tally.tooClose += cp->tally.tooClose;
                    tally.notAllowed += cp->tally.notAllowed;
                }
            // each chunk leaves the cache as it is copied out: the peak stays near one copy
            if (chunked->collect(whole, 1, ctx.cancelFlag(), layer->points, layer->ids,
                                 chunked->settings().height ? &layer->z : nullptr, &layer->specialIds, true)
                != ChunkStatus::Done)
                return;  // cancelled
        } catch (const std::exception &e) {
            ctx.fail(std::string("chunked placement failed: ") + e.what());
            return;
        }
        layer->tally = tally;
        chunked->dropCache();
        chunked->setCacheBudget(ctx.limits().chunkCacheBytes);
    }
    setChainOutputs(ctx, layer, obstacles);
}

void setChainOutputs(EvalContext &ctx, const PointLayerPtr &layer, const PointSetPtr &obstacles)
{
    auto own = std::make_shared<PointSet>();
    own->layers.push_back(layer);
    auto all = std::make_shared<PointSet>();
    if (obstacles)
        all->layers = obstacles->layers;
    all->layers.push_back(layer);
    ctx.setOutput("points", PointSetPtr(own));
    ctx.setOutput("all", PointSetPtr(all));
}

} // namespace grove
