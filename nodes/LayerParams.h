// The params every point-producing node shares (name, types, specials, rotation, scale, look,
// export), and the layer description built from them.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/NodeDescriptor.h"
#include "core/sampling/PoissonPlacement.h"

#include <string>
#include <vector>

namespace grove {

class EvalContext;

// How a placing node (place_layer, place_volume) picks its first points: its `start` param.
inline constexpr ChoiceTable<StartMode, 3> kStartModes{{{StartMode::Patches, "patches"},
                                                        {StartMode::Random, "random"},
                                                        {StartMode::Point, "point"}}};

// Appended to a points node's own params, in this order.
std::vector<ParamSpec> layerParams(SpriteShape defaultSprite, const std::string &defaultColor);
void appendLayerParams(NodeDescriptor &d, SpriteShape defaultSprite, const std::string &defaultColor);
// A scatterer's descriptor before its own params: a Points node whose `points` output is its layer.
NodeDescriptor scatterDescriptor(std::string typeId, std::string displayName, std::string description);
// Sets a scatterer's `points` output to a layer of `points`.
void setLayerOutput(EvalContext &ctx, std::vector<PointXYR> points);
// Cross-param checks for them (the special type must be one of the types).
void checkLayerParams(const ValueMap &params, ParamIssues &issues);
LayerInfo layerInfo(const EvalContext &ctx);
// A layer that holds `points`, with its specials assigned: the `points` output of a sampler node.
std::shared_ptr<PointLayer> makeLayer(const EvalContext &ctx, std::vector<PointXYR> points);
// Refuses (through ctx.fail) a point count beyond the layer budget; true when within it.
bool withinPointBudget(EvalContext &ctx, double estimate, const std::string &what);

} // namespace grove
