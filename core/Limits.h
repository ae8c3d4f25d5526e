// The budget Grove works within: checked before allocating, so absurd input is refused, not run.
#pragma once

#include <cstddef>
#include <cstdint>

namespace grove::limits {

inline constexpr double maxWorldSize = 1e7;          // world units per side
inline constexpr std::size_t maxNodes = 100000;      // nodes in one graph
inline constexpr std::int64_t maxK = 1000;           // place_layer candidates per step
inline constexpr std::int64_t maxOctaves = 24;       // fBm octaves
inline constexpr std::size_t maxYamlBytes = 64u << 20;  // a graph file larger than this is refused
inline constexpr int maxYamlDepth = 64;              // nesting of YAML collections
inline constexpr std::size_t maxYamlValues = 1'000'000;  // values one file may expand to (aliases count each time)

// Points a single layer may hold unless the caller raises it (grove-cli --max-points).
inline constexpr std::uint64_t defaultMaxPointsPerLayer = 20'000'000;

} // namespace grove::limits
