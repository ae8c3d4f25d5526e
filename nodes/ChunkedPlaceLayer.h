// place_layer in a chunked world (world.chunk): the layer as chunks, placed whole or left lazy.
#pragma once

#include "core/base/DataTypes.h"
#include "core/sampling/PoissonPlacement.h"

namespace grove {

class EvalContext;

// Sets place_layer's outputs for a chunked world: `s` holds the layer's placement settings (its
// allowed area and radius field are the given ones), `obstacles` the chain before it.
struct Pin;

// `pins` (in list order) and `pinned` (the same with their radii) are placed first, by the chunk
// each lies in; every chunk that reaches one keeps clear of it.
void placeLayerChunked(EvalContext &ctx, const PlacementSettings &s, MaskPtr allowed, FieldPtr radius, PointSetPtr obstacles,
                       const std::vector<Pin> &pins, std::vector<PointXYR> pinned);

// place_layer's two outputs: `points` the layer alone, `all` the obstacles followed by it.
void setChainOutputs(EvalContext &ctx, const PointLayerPtr &layer, const PointSetPtr &obstacles);

} // namespace grove
