// Live-preview latency on presets/island_world.grove.yaml at 880 x 480 through PreviewPipeline,
// the path the editor's worker runs: a downstream param, the ground noise, and a cold start.
#include "core/graph/GraphReader.h"
#include "core/render/PreviewPipeline.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace grove;

namespace {

constexpr int kWidth = 880, kHeight = 480;

Graph island()
{
    LoadResult loaded = loadGraphFile(GROVE_SOURCE_DIR "/presets/island_world.grove.yaml", builtinRegistry());
    if (!loaded.ok())
        std::abort();
    return loaded.graph;
}

// Each iteration sets a value never used before, so the evaluator's cache cannot answer it.
void editAndRepaint(benchmark::State &state, const char *node, const char *param, double base, double step)
{
    Graph graph = island();
    PreviewPipeline pipeline(builtinRegistry());
    pipeline.run(graph, kWidth, kHeight);  // warm: what the editor holds before the edit
    int n = 0;
    double evalMs = 0, renderMs = 0;
    for (auto _ : state) {
        graph.node(node)->setParam(param, Value(base + step * (++n % 997)));
        PreviewFrame frame = pipeline.run(graph, kWidth, kHeight);
        if (frame.image.empty())
            state.SkipWithError("no picture");
        evalMs += frame.evalSeconds * 1000;
        renderMs += frame.renderSeconds * 1000;
    }
    state.counters["eval_ms"] = evalMs / static_cast<double>(state.iterations());
    state.counters["render_ms"] = renderMs / static_cast<double>(state.iterations());
}

void BM_Preview_FlowersRadius(benchmark::State &state) { editAndRepaint(state, "flowers", "radius", 6, 0.0005); }
void BM_Preview_HeightNoiseFrequency(benchmark::State &state)
{
    editAndRepaint(state, "height_noise", "frequency", 0.006, 0.0000005);
}

void BM_Preview_Cold(benchmark::State &state)
{
    const Graph graph = island();
    for (auto _ : state) {
        PreviewPipeline pipeline(builtinRegistry());
        PreviewFrame frame = pipeline.run(graph, kWidth, kHeight);
        if (frame.image.empty())
            state.SkipWithError("no picture");
        benchmark::DoNotOptimize(frame.image.rgb.data());
    }
}

} // namespace

BENCHMARK(BM_Preview_FlowersRadius)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Preview_HeightNoiseFrequency)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Preview_Cold)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
