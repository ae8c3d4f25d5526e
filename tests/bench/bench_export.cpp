// Exports (every format) and layer stats of the 646k-point layer, each beside the
// placement that made the layer, measured in the same binary: `share of placement` is this
// benchmark's CPU time per run over the placement's (thread CPU time both, so other processes
// on a shared machine move neither much).
#include "BenchWorkloads.h"
#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/export/ExportWriter.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GraphWriter.h"
#include "core/analysis/LayerStats.h"
#include "core/graph/Overrides.h"
#include "core/formats/PointsExport.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <sys/stat.h>
#include <unistd.h>

using namespace grove;

namespace {

// grove-cli's workload (bench::bigLayerGraph): one exact place_layer, 1024 x 1024, radius 1,
// k 30 (646,028 points).
struct BigLayer
{
    Graph graph;
    EvalResult result;
    PointLayerPtr layer;
    ExportInfo info;
    double placementSeconds = 0;  // the median of three evaluations' thread CPU times
    std::string error;
};

const BigLayer &bigLayer()
{
    static const BigLayer big = [] {
        BigLayer b;
        const NodeRegistry &registry = builtinRegistry();
        LoadResult loaded = loadGraphFromString(bench::bigLayerGraph(), "big.grove.yaml", registry);
        if (!loaded.ok()) {
            b.error = "graph does not load";
            return b;
        }
        b.graph = loaded.graph;
        std::vector<double> seconds;
        for (int run = 0; run < 3; ++run) {
            Evaluator ev(registry);
            const double start = bench::threadCpuSeconds();
            b.result = ev.evaluate(b.graph);
            seconds.push_back(bench::threadCpuSeconds() - start);
            if (!b.result.ok()) {
                b.error = "graph does not evaluate";
                return b;
            }
        }
        std::sort(seconds.begin(), seconds.end());
        b.placementSeconds = seconds[1];
        b.layer = layersOf(b.result, {"layer"}).at(0);
        b.info.graphName = b.graph.name;
        b.info.graphFile = "big.grove.yaml";
        b.info.graphHash = graphHash(b.graph, registry);
        b.info.world = b.graph.world;
        return b;
    }();
    return big;
}

void shareCounters(benchmark::State &state, double seconds, const BigLayer &big)
{
    const double perRun = seconds / static_cast<double>(state.iterations());
    state.counters["points"] = static_cast<double>(big.layer->points.size());
    state.counters["placement_ms"] = big.placementSeconds * 1000;
    state.counters["share of placement"] = perRun / big.placementSeconds;
}

void exportBenchmark(benchmark::State &state, ExportFormat format)
{
    const BigLayer &big = bigLayer();
    if (!big.error.empty()) {
        state.SkipWithError(big.error.c_str());
        return;
    }
    std::size_t bytes = 0;
    double seconds = 0;
    for (auto _ : state) {
        const double start = bench::threadCpuSeconds();
        std::string text = exportPoints(format, big.info, {big.layer});
        seconds += bench::threadCpuSeconds() - start;
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    shareCounters(state, seconds, big);
}

void BM_Export_Json(benchmark::State &state) { exportBenchmark(state, ExportFormat::Json); }
void BM_Export_Csv(benchmark::State &state) { exportBenchmark(state, ExportFormat::Csv); }
void BM_Export_Tiled(benchmark::State &state) { exportBenchmark(state, ExportFormat::Tiled); }
void BM_Export_Gltf(benchmark::State &state) { exportBenchmark(state, ExportFormat::Gltf); }
void BM_Export_Godot(benchmark::State &state) { exportBenchmark(state, ExportFormat::Godot); }
void BM_Export_UnrealCsv(benchmark::State &state) { exportBenchmark(state, ExportFormat::UnrealCsv); }
void BM_Export_UnrealJson(benchmark::State &state) { exportBenchmark(state, ExportFormat::UnrealJson); }

// The JSON export written as grove-cli -o FILE writes it: buildExport and writeExport with the
// text going into the staged file as it is rendered (streamText), then fsync and rename.
void BM_Export_JsonFile(benchmark::State &state)
{
    const BigLayer &big = bigLayer();
    if (!big.error.empty()) {
        state.SkipWithError(big.error.c_str());
        return;
    }
    const std::string path = "/tmp/grove_bench_export_" + std::to_string(::getpid()) + ".json";
    ExportJob job;
    job.layers = exportedLayers(big.graph, builtinRegistry());
    job.graphPath = "big.grove.yaml";
    job.streamText = true;
    std::size_t bytes = 0;
    double seconds = 0;
    for (auto _ : state) {
        const double start = bench::threadCpuSeconds();
        const auto built = buildExport(big.graph, builtinRegistry(), big.result, job);
        const auto err = built ? writeExport(*built, {path, {}}, false) : std::optional<std::string>("no export");
        if (err) {
            state.SkipWithError(err->c_str());
            break;
        }
        seconds += bench::threadCpuSeconds() - start;
        struct stat st{};
        bytes = ::stat(path.c_str(), &st) == 0 ? static_cast<std::size_t>(st.st_size) : 0;
    }
    std::remove(path.c_str());
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
    shareCounters(state, seconds, big);
}

// grove-cli --stats' figures for the layer: count, tightest pair, pairs too close, widest clearing.
void BM_LayerStats(benchmark::State &state)
{
    const BigLayer &big = bigLayer();
    if (!big.error.empty()) {
        state.SkipWithError(big.error.c_str());
        return;
    }
    double seconds = 0;
    for (auto _ : state) {
        const double start = bench::threadCpuSeconds();
        LayerStats st = computeLayerStats(big.result, "layer", big.layer, big.graph.world);
        seconds += bench::threadCpuSeconds() - start;
        benchmark::DoNotOptimize(st.tightest);
    }
    shareCounters(state, seconds, big);
}

// island_world's trees made fine (radius 1 and 0.5: about 56k and 223k trees) among the chests
// (radius 140) and rocks placed before them: the trees' statistics against the evaluation of the
// whole graph that placed them (its thread CPU time, median of three, in the same binary).
void BM_LayerStats_IslandTrees(benchmark::State &state)
{
    const NodeRegistry &registry = builtinRegistry();
    LoadResult loaded = loadGraphFile(GROVE_SOURCE_DIR "/presets/island_world.grove.yaml", registry);
    const std::string radius = state.range(0) == 10 ? "1" : "0.5";
    if (!loaded.ok() || applyOverride(loaded.graph, registry, "trees.radius=" + radius)) {
        state.SkipWithError("island_world does not load with the trees' radius");
        return;
    }
    std::vector<double> placement;
    EvalResult result;
    for (int run = 0; run < 3; ++run) {
        Evaluator ev(registry);
        const double start = bench::threadCpuSeconds();
        result = ev.evaluate(loaded.graph);
        placement.push_back(bench::threadCpuSeconds() - start);
    }
    std::sort(placement.begin(), placement.end());
    const PointLayerPtr trees = layersOf(result, {"trees"}).at(0);
    double seconds = 0;
    for (auto _ : state) {
        const double start = bench::threadCpuSeconds();
        LayerStats st = computeLayerStats(result, "trees", trees, loaded.graph.world);
        seconds += bench::threadCpuSeconds() - start;
        benchmark::DoNotOptimize(st.tightest);
    }
    const double perRun = seconds / static_cast<double>(state.iterations());
    state.counters["points"] = static_cast<double>(trees->points.size());
    state.counters["placement_ms"] = placement[1] * 1000;
    state.counters["share of placement"] = perRun / placement[1];
}

} // namespace

BENCHMARK(BM_LayerStats_IslandTrees)->Arg(10)->Arg(5)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_Json)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_Csv)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_Tiled)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_Gltf)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_Godot)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_UnrealCsv)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_UnrealJson)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Export_JsonFile)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_LayerStats)->Unit(benchmark::kMillisecond)->MinTime(2);
