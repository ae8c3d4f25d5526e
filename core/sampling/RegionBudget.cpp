// The packing bound over a region's chunks, before any chunk is placed.
#include "core/sampling/RegionBudget.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/base/Diagnostic.h"
#include "core/sampling/PoissonPlacement.h"
#include "core/base/Value.h"

#include <cmath>

namespace grove {

std::optional<std::string> regionOverBudget(const PointLayer &layer, const std::string &name, const Region &region,
                                            std::uint64_t maxPoints, const std::string &howToChange)
{
    if (!layer.chunked)
        return std::nullopt;
    const ChunkedLayerSettings &cs = layer.chunked->settings();
    const double c = cs.chunk;
    ChunkCoord first, last;
    if (!layer.chunked->chunkSpan(region, first, last))
        return std::nullopt;
    if (first.i < -kChunkRange || first.j < -kChunkRange || last.i >= kChunkRange || last.j >= kChunkRange)
        return "the region reaches beyond the chunk range: an endless world has chunks -" + std::to_string(kChunkRange) + " to "
               + std::to_string(kChunkRange - 1) + " on each axis, x and y in [" + formatNumber(-kChunkRange * c) + ", "
               + formatNumber(kChunkRange * c) + ") at chunk " + formatNumber(c);
    const double chunks = (static_cast<double>(last.i) - first.i + 1) * (static_cast<double>(last.j) - first.j + 1);
    const double estimate = chunks * maxPointsEstimate(c, c, cs.placement.radius);
    if (estimate > static_cast<double>(maxPoints))
        return "the region covers " + formatNumber(chunks) + " chunks of layer " + quote(name) + ", room for up to "
               + formatNumber(std::floor(estimate)) + " points at radius " + formatNumber(cs.placement.radius)
               + ", more than the limit of " + std::to_string(maxPoints) + howToChange;
    return std::nullopt;
}

} // namespace grove
