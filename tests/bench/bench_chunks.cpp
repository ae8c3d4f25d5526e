// Chunked worlds beside the whole-world method in the same run:
//   build/tests/bench/grove_bench_chunks --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// Per point, one thread: chunked (chunk = 32 r, seam fixes on) against the whole-world exact
// method at 1024² and 4096² (radius 1). Threads: the same chunked world on 1 and 2 threads (real
// time). A cold chunk asked alone, and a window scrolled one chunk at a time with the cache.
// Peak memory: the resident high-water mark (VmHWM, reset through /proc/self/clear_refs).
#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/graph/NodeRegistry.h"
#include "core/formats/PointsExport.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <string>

using namespace grove;

namespace {

std::string oneLayer(int side, int chunk)
{
    return "grove: 1\nworld: {width: " + std::to_string(side) + ", height: " + std::to_string(side) + ", seed: 1"
           + (chunk > 0 ? ", chunk: " + std::to_string(chunk) : std::string()) + "}\nnodes:\n"
           + "  trees:\n    type: place_layer\n    params: {radius: 1}\n";
}

Graph graphOf(const std::string &text)
{
    LoadResult loaded = loadGraphFromString(text, "bench", builtinRegistry());
    if (!loaded.ok())
        std::abort();
    return loaded.graph;
}

// The resident high-water mark in bytes, after resetting it to the current size.
void resetPeakRss()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}
double peakRssMb()
{
    std::ifstream in("/proc/self/status");
    std::string key;
    while (in >> key) {
        if (key == "VmHWM:") {
            double kb = 0;
            in >> kb;
            return kb / 1024;
        }
        std::getline(in, key);
    }
    return 0;
}

void placeWorld(benchmark::State &state, bool chunked, int threads)
{
    const int side = static_cast<int>(state.range(0));
    const Graph graph = graphOf(oneLayer(side, chunked ? 32 : 0));
    std::size_t points = 0;
    double peak = 0;
    for (auto _ : state) {
        resetPeakRss();
        Evaluator evaluator(builtinRegistry());
        EvalRequest request;
        request.limits.threads = threads;
        EvalResult result = evaluator.evaluate(graph, request);
        points = layersOf(result, {"trees"})[0]->points.size();
        peak = peakRssMb();
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["peak RSS MB"] = peak;
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
}

void BM_Whole(benchmark::State &state) { placeWorld(state, false, 1); }
void BM_Chunked(benchmark::State &state) { placeWorld(state, true, 1); }
void BM_ChunkedThreads(benchmark::State &state) { placeWorld(state, true, static_cast<int>(state.range(1))); }

// One chunk of the 4096² world (phase 3, in the middle) asked of a fresh lazy evaluation.
void BM_ColdChunk(benchmark::State &state)
{
    const Graph graph = graphOf(oneLayer(4096, 32));
    std::uint64_t placements = 0;
    std::size_t points = 0;
    for (auto _ : state) {
        state.PauseTiming();
        Evaluator evaluator(builtinRegistry());
        EvalRequest request;
        request.limits.placeWholeWorld = false;
        EvalResult result = evaluator.evaluate(graph, request);
        const PointLayerPtr layer = layersOf(result, {"trees"})[0];
        state.ResumeTiming();
        points = layer->chunked->chunk(64, 65)->points.size();
        placements = layer->chunked->placements();
    }
    state.counters["placements"] = static_cast<double>(placements);
    state.counters["points"] = static_cast<double>(points);
}

// A 16 x 9 window of chunks scrolled right one chunk at a time (16 steps), with the cache:
// time and placements per newly visible chunk.
void BM_ScrollWindow(benchmark::State &state)
{
    const Graph graph = graphOf(oneLayer(4096, 32));
    double perChunk = 0;
    for (auto _ : state) {
        state.PauseTiming();
        Evaluator evaluator(builtinRegistry());
        EvalRequest request;
        request.limits.placeWholeWorld = false;
        EvalResult result = evaluator.evaluate(graph, request);
        const ChunkedLayer &layer = *layersOf(result, {"trees"})[0]->chunked;
        auto window = [&](int left) {
            std::vector<ChunkCoord> chunks;
            layer.chunksIn(Region{left * 32.0, 32 * 40.0, (left + 16) * 32.0, 32 * 49.0}, chunks);
            return chunks;
        };
        layer.prepare(window(10), 1, nullptr);
        const std::uint64_t before = layer.placements();
        state.ResumeTiming();
        for (int left = 11; left <= 26; ++left)
            layer.prepare(window(left), 1, nullptr);
        state.PauseTiming();
        perChunk = static_cast<double>(layer.placements() - before) / (16.0 * 9.0);
        state.ResumeTiming();
    }
    state.counters["placements per new chunk"] = perChunk;
    state.counters["new chunks"] = benchmark::Counter(16.0 * 9.0 * state.iterations(), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK(BM_Whole)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Chunked)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ChunkedThreads)->Args({2048, 1})->Args({2048, 2})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_ColdChunk)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_ScrollWindow)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
