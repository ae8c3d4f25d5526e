// The standard placement workloads, shared by `grove-cli bench` and the Google Benchmark suite
// in tests/bench so both time the same thing.
#pragma once

#include "core/sampling/OccupancyGrid.h"
#include "core/sampling/PoissonPlacement.h"

#include <cmath>
#include <ctime>
#include <string>
#include <vector>

namespace grove::bench {

// This thread's CPU time in seconds: what other processes on a shared machine move least.
inline double threadCpuSeconds()
{
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The place_layer core on the issue's anchor case: 1024 x 1024, r 1, k 30, one random start.
inline constexpr double kPlacementWorld = 1024;

inline PlacementSettings standardPlacement(PlacementMethod method)
{
    PlacementSettings s;
    s.width = s.height = kPlacementWorld;
    s.radius = 1;
    s.k = 30;
    s.seed = 1;
    s.start = StartMode::Random;
    s.method = method;
    return s;
}

// One run of it, on a grid sized as place_layer sizes it for one radius.
inline std::vector<PointXYR> placeStandard(const PlacementSettings &s)
{
    OccupancyGrid grid(s.width, s.height, s.radius / std::sqrt(2.0));
    std::vector<PointXYR> out;
    placePoisson(s, grid, out);
    return out;
}

// The standard placement as a whole graph: one exact place_layer, 1024 x 1024, radius 1, k 30, a
// random start (646,028 points): the exports' and the whole grove-cli run's anchor.
inline std::string bigLayerGraph()
{
    return R"(grove: 1
name: Export speed
world: {width: 1024, height: 1024, seed: 1}
nodes:
  layer:
    type: place_layer
    params: {radius: 1, k: 30, start: random, seed: 1}
)";
}

// place_layer with an allowed rule and a density radius (1 to 2) from 4-octave value noise,
// 1024 x 1024, patches start.
inline std::string maskedDensityGraph()
{
    return R"(grove: 1
world: {width: 1024, height: 1024, seed: 1}
nodes:
  noise:
    type: value_noise
    params: {frequency: 0.005, octaves: 4}
  rule:
    type: allowed_rule
    inputs: {field: noise}
    params: {min: 0.35}
  density:
    type: density
    inputs: {field: noise}
    params: {min_radius: 1, max_radius: 2, gain: 2, bias: -0.5}
  layer:
    type: place_layer
    inputs: {allowed: rule, radius: density}
    params: {radius: 1, k: 30, start: patches}
)";
}

// Four chained layers (radii 32, 16, 8, 4) with an allowed rule on a side x side world: time and
// memory should grow with the area, nothing faster.
inline std::string fourLayersGraph(int side, int chunk = 0)
{
    return "grove: 1\nworld: {width: " + std::to_string(side) + ", height: " + std::to_string(side) + ", seed: 1"
           + (chunk > 0 ? ", chunk: " + std::to_string(chunk) : std::string()) + "}\nnodes:\n"
             "  noise:\n    type: value_noise\n    params: {frequency: 0.004, octaves: 4}\n"
             "  land:\n    type: allowed_rule\n    inputs: {field: noise}\n    params: {min: 0.3}\n"
             "  a:\n    type: place_layer\n    inputs: {allowed: land}\n    params: {radius: 32, seed: 1}\n"
             "  b:\n    type: place_layer\n    inputs: {obstacles: a.all, allowed: land}\n    params: {radius: 16, seed: 2}\n"
             "  c:\n    type: place_layer\n    inputs: {obstacles: b.all, allowed: land}\n    params: {radius: 8, seed: 3}\n"
             "  d:\n    type: place_layer\n    inputs: {obstacles: c.all, allowed: land}\n    params: {radius: 4, seed: 4}\n";
}

} // namespace grove::bench
