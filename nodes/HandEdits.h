// place_layer's hand edits, read from its params: pins (points a designer placed, each with its
// own type, rotation or scale where given) and erase areas (where the layer stays empty).
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/NodeDescriptor.h"

#include <optional>
#include <string>
#include <vector>

namespace grove {

class EvalContext;

struct Pin
{
    double x = 0, y = 0;
    int type = -1;                   // index into the layer's types; -1: the hash picks
    double rotation = std::nan("");  // NaN: the hash picks
    double scale = std::nan("");
};

// The `pins` and `erase` params, in place_layer's catalog.
ParamSpec pinsParam();
ParamSpec eraseParam();

// The pins of a validated `pins` value, in list order; types resolved against `types`.
std::vector<Pin> readPins(const Value &pins, const std::vector<WeightedType> &types);

// Cross-param checks: a pin's type is one of the layer's types; no two pins closer than the
// layer's radius (each problem placed at the later pin: "pins[4]").
void checkPins(const ValueMap &params, ParamIssues &issues);

// The world-dependent checks at evaluation: a pin outside a finite world, two pins closer than
// their radii (with a radius field, larger than the param). Fails the node at that pin.
bool checkPinsInWorld(EvalContext &ctx, const std::vector<Pin> &pins, const std::vector<double> &radii);

// `allowed` without the erase areas (null erase list: `allowed` itself). In a wrapped world
// (periodX, periodY: its sides, 0 where an axis does not wrap) an area across one edge erases
// across the other too.
MaskPtr withoutErased(MaskPtr allowed, const Value &erase, double periodX = 0, double periodY = 0);

// The pins' attributes for LayerInfo::pinned, given the id each pin received; sorted by id.
std::vector<PinnedAttributes> pinnedAttributes(const std::vector<Pin> &pins, const std::vector<std::uint64_t> &ids);

} // namespace grove
