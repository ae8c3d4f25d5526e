// A picture of a PointDiff: the world with kept points grey, removed red, added green and moved
// points as short arrows from where they were to where they are.
#pragma once

#include "core/base/DataTypes.h"
#include "core/base/Image.h"
#include "core/analysis/PointDiff.h"

namespace grove {

// The colours, for readers of the picture (tests, legends).
inline constexpr Rgb kDiffBackground{246, 244, 238};
inline constexpr Rgb kDiffKept{160, 160, 160};
inline constexpr Rgb kDiffRemoved{214, 39, 40};
inline constexpr Rgb kDiffAdded{30, 160, 60};
inline constexpr Rgb kDiffMoved{31, 90, 200};

// The picture's size for `area`: its longer side `maxSide` pixels (smaller worlds are scaled up,
// so a small change stays visible), at least 1 x 1.
std::pair<int, int> diffImageSize(const Region &area, int maxSide);

// Paints every layer's changes over `area` (world units), changed points over kept ones. Kept
// points need diffPoints' listKept. Empty image for an empty area or maxSide below 1.
Image renderDiffImage(const PointDiff &diff, const Region &area, int maxSide = 1024);

} // namespace grove
