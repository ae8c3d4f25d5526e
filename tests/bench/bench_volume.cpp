// place_volume (Bridson in 3D) beside the 2D exact place_layer at a similar point count, in one run:
//   build/tests/bench/grove_bench_volume --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// Whole graphs through the Evaluator (node overhead included), one thread, patches start, k = 30:
// a 360^3 volume at radius 10 (about 27,000 points) and a 2100^2 world at radius 10 (about 28,000).
// A second pair at about 4x the points (a 570^3 volume, a 4200^2 world).
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/formats/PointsExport.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

using namespace grove;

namespace {

Graph graphOf(const std::string &text)
{
    LoadResult loaded = loadGraphFromString(text, "bench", builtinRegistry());
    if (!loaded.ok())
        std::abort();
    return loaded.graph;
}

void run(benchmark::State &state, const std::string &text)
{
    const Graph graph = graphOf(text);
    std::size_t points = 0;
    for (auto _ : state) {
        Evaluator ev(builtinRegistry());
        EvalResult r = ev.evaluate(graph);
        if (!r.ok())
            std::abort();
        points = layersOf(r, {"v"}).front()->points.size();
        benchmark::DoNotOptimize(points);
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["points_per_s"] = benchmark::Counter(static_cast<double>(points) * static_cast<double>(state.iterations()),
                                                        benchmark::Counter::kIsRate);
}

void BM_PlaceVolume(benchmark::State &state)
{
    const std::string side = std::to_string(state.range(0));
    run(state, "grove: 1\nworld: {width: " + side + ", height: " + side + ", depth: " + side
                   + ", seed: 1}\nnodes:\n  v: {type: place_volume, params: {radius: 10}}\n");
}

void BM_PlaceLayer2D(benchmark::State &state)
{
    const std::string side = std::to_string(state.range(0));
    run(state, "grove: 1\nworld: {width: " + side + ", height: " + side
                   + ", seed: 1}\nnodes:\n  v: {type: place_layer, params: {radius: 10}}\n");
}

} // namespace

BENCHMARK(BM_PlaceVolume)->Arg(360)->Arg(570)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlaceLayer2D)->Arg(2100)->Arg(4200)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
