// The scatter samplers (best_candidate, scatter_around, caves) beside place_layer of a similar point count, in the same run:
//   build/tests/bench/grove_bench_scatter --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// best_candidate: 2000 points, 10 candidates each, on 1024 x 1024; beside place_layer at radius 18
// there (about 2000 points). scatter_around: 5000 parents (place_layer, radius 23 on 2048 x 2048,
// placed once) with 2 to 5 children each; beside place_layer at radius 12 on the parents' chain
// (about as many points as the children). caves: a 512 x 512-cell mask, 5 steps; beside
// place_layer of about as many points as cells (radius 1.6 on 1024 x 1024).
#include "core/graph/EvalContext.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

#include "../NodeRun.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace grove;

namespace {

World world(double side)
{
    World w;
    w.width = side;
    w.height = side;
    w.seed = 17;
    return w;
}

// One node evaluated from its descriptor; a failure ends the benchmark.
std::vector<PortValue> runNode(const std::string &type, const ValueMap &params,
                               const std::vector<std::pair<std::string, PortValue>> &inputs, const World &w)
{
    test::NodeRun run = test::evaluateNodeIn(builtinRegistry(), type, params, inputs, w);
    if (!run.error.empty())
        std::abort();
    return run.outputs;
}

std::size_t layerSize(const PortValue &v)
{
    return std::get<PointSetPtr>(v)->layers.back()->points.size();
}

void BM_BestCandidate_2000(benchmark::State &state)
{
    const World w = world(1024);
    std::size_t n = 0;
    for (auto _ : state)
        n = layerSize(runNode("best_candidate", {{"count", Value(2000.0)}, {"candidates", Value(10.0)}}, {}, w)[0]);
    state.counters["points"] = static_cast<double>(n);
}

void BM_PlaceLayer_Beside_BestCandidate(benchmark::State &state)
{
    const World w = world(1024);
    std::size_t n = 0;
    for (auto _ : state)
        n = layerSize(runNode("place_layer", {{"radius", Value(18.0)}}, {}, w)[0]);
    state.counters["points"] = static_cast<double>(n);
}

// 5000-odd parents (trees) and their chain, placed once
std::pair<PortValue, PortValue> parents()
{
    static const auto out = runNode("place_layer", {{"radius", Value(23.0)}}, {}, world(2048));
    return {out[0], out[1]};
}

void BM_ScatterAround_5000Parents(benchmark::State &state)
{
    const World w = world(2048);
    const auto [trees, chain] = parents();
    std::size_t n = 0;
    for (auto _ : state)
        n = layerSize(runNode("scatter_around",
                              {{"count", Value(ValueList{Value(2.0), Value(5.0)})}, {"r_min", Value(8.0)},
                               {"r_max", Value(30.0)}, {"radius", Value(6.0)}},
                              {{"parents", trees}, {"obstacles", chain}}, w)[0]);
    state.counters["parents"] = static_cast<double>(layerSize(trees));
    state.counters["points"] = static_cast<double>(n);
}

void BM_PlaceLayer_Beside_ScatterAround(benchmark::State &state)
{
    const World w = world(2048);
    const auto [trees, chain] = parents();
    std::size_t n = 0;
    for (auto _ : state)
        n = layerSize(runNode("place_layer", {{"radius", Value(12.0)}}, {{"obstacles", chain}}, w)[0]);
    state.counters["points"] = static_cast<double>(n);
}

void BM_Caves_512x512(benchmark::State &state)
{
    const World w = world(512);
    for (auto _ : state) {
        auto out = runNode("caves", {{"cell_size", Value(1.0)}, {"iterations", Value(5.0)}}, {}, w);
        benchmark::DoNotOptimize(out);
    }
    state.counters["cells"] = 512.0 * 512.0;
}

void BM_PlaceLayer_Beside_Caves(benchmark::State &state)
{
    const World w = world(1024);
    std::size_t n = 0;
    for (auto _ : state)
        n = layerSize(runNode("place_layer", {{"radius", Value(1.6)}}, {}, w)[0]);
    state.counters["points"] = static_cast<double>(n);
}

} // namespace

BENCHMARK(BM_BestCandidate_2000)->Unit(benchmark::kMillisecond)->MinTime(1);
BENCHMARK(BM_PlaceLayer_Beside_BestCandidate)->Unit(benchmark::kMillisecond)->MinTime(1);
BENCHMARK(BM_ScatterAround_5000Parents)->Unit(benchmark::kMillisecond)->MinTime(1);
BENCHMARK(BM_PlaceLayer_Beside_ScatterAround)->Unit(benchmark::kMillisecond)->MinTime(1);
BENCHMARK(BM_Caves_512x512)->Unit(benchmark::kMillisecond)->MinTime(1);
BENCHMARK(BM_PlaceLayer_Beside_Caves)->Unit(benchmark::kMillisecond)->MinTime(1);

BENCHMARK_MAIN();
