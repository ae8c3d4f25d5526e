// How much a region of a chunked layer may cost, asked before any of its chunks is placed: every
// caller that places a region (grove-cli eval, check and diff with --region, libgrove) asks here,
// so a huge region on an endless world is refused at once instead of growing without bound.
#pragma once

#include "core/base/DataTypes.h"

#include <cstdint>
#include <optional>
#include <string>

namespace grove {

// Why `region` is too much for the chunked layer `layer` (shown as `name`): it reaches beyond the
// chunk range, or its chunks have room by the packing bound (hexagonal packing at the layer's
// radius, maxPointsEstimate) for more than `maxPoints` points. Nothing when it fits or the layer
// is not chunked. `howToChange` follows the limit in that message (" (--max-points): ...").
std::optional<std::string> regionOverBudget(const PointLayer &layer, const std::string &name, const Region &region,
                                            std::uint64_t maxPoints, const std::string &howToChange);

} // namespace grove
