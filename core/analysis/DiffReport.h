// A PointDiff as text for people (a line per layer and a total) and as JSON for tools.
#pragma once

#include "core/analysis/PointDiff.h"

#include <string>

namespace grove {

// "trees: 1184 kept (1184 same id), 3 moved, 12 added, 9 removed" per layer, then "total: ...".
std::string diffText(const PointDiff &diff);

// The stable JSON shape (README, "Diff two versions"): format "grove.diff", version 1, the two
// inputs' names, per layer its counts and the renumbered, moved, added and removed points (kept
// points: counts only).
std::string diffJson(const PointDiff &diff, const std::string &oldName, const std::string &newName);

} // namespace grove
