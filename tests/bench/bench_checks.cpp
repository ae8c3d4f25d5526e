// The costs of hand edits, diff and checks beside the placement they follow, in the same run:
//   build/tests/bench/grove_bench_checks --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// The anchor is placing one layer (radius 2 on 1024 x 1024, about 150k points, exact method).
// Beside it: the same layer with 200 pins and 50 erase circles (what hand edits cost), diffing it
// against the layer at radius 2.05 (grove-cli diff's matching) and two degenerate diffs (a crowd
// at one spot, a far outlier), every metric of grove-cli check but the spectrum, and the spectrum
// alone.
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/analysis/LayerMetrics.h"
#include "core/graph/NodeRegistry.h"
#include "core/analysis/PointDiff.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

using namespace grove;

namespace {

constexpr int kSide = 1024;

std::string layerGraph(double radius, const std::string &edits = {})
{
    return "grove: 1\nworld: {width: " + std::to_string(kSide) + ", height: " + std::to_string(kSide) + ", seed: 1}\nnodes:\n"
           + "  trees:\n    type: place_layer\n    params:\n      radius: " + formatNumber(radius) + "\n" + edits;
}

// 200 pins on a grid 60 apart (never too close), 50 erase circles between them.
std::string handEdits()
{
    std::string pins = "      pins:\n", erase = "      erase:\n";
    for (int k = 0; k < 200; ++k)
        pins += "        - {x: " + std::to_string(30 + (k % 16) * 60) + ", y: " + std::to_string(30 + (k / 16) * 60) + "}\n";
    for (int k = 0; k < 50; ++k)
        erase += "        - {circle: [" + std::to_string(60 + (k % 10) * 95) + ", " + std::to_string(60 + (k / 10) * 190)
                 + ", 12]}\n";
    return pins + erase;
}

PointLayerPtr place(const std::string &text)
{
    LoadResult loaded = loadGraphFromString(text, "bench", builtinRegistry());
    if (!loaded.ok())
        std::abort();
    Evaluator evaluator(builtinRegistry());
    const EvalResult r = evaluator.evaluate(loaded.graph);
    const PortValue v = r.outputWithRole("trees", PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    if (!r.ok() || !set || !*set)
        std::abort();
    return (*set)->layers.back();
}

void BM_PlaceLayer(benchmark::State &state)
{
    const std::string text = layerGraph(2);
    std::size_t n = 0;
    for (auto _ : state)
        n = place(text)->points.size();
    state.counters["points"] = static_cast<double>(n);
}

void BM_PlaceLayerWithEdits(benchmark::State &state)
{
    const std::string text = layerGraph(2, handEdits());
    std::size_t n = 0;
    for (auto _ : state)
        n = place(text)->points.size();
    state.counters["points"] = static_cast<double>(n);
}

void BM_DiffLayers(benchmark::State &state)
{
    const PointLayerPtr before = place(layerGraph(2)), after = place(layerGraph(2.05));
    std::size_t moved = 0;
    for (auto _ : state) {
        const PointDiff d = diffPointLayers({before}, {after});
        moved = d.layers.empty() ? 0 : d.layers.front().moved.size();
    }
    state.counters["moved"] = static_cast<double>(moved);
}

// The same matching at about a million points (radius 2 against 2.05 on 2640 x 2640, placed once
// per run): what grove-cli diff of two big worlds costs beyond reading them.
void BM_DiffLayersMillion(benchmark::State &state)
{
    constexpr int kBig = 2640;
    auto big = [](double radius) {
        return place("grove: 1\nworld: {width: " + std::to_string(kBig) + ", height: " + std::to_string(kBig)
                     + ", seed: 1}\nnodes:\n  trees:\n    type: place_layer\n    params:\n      radius: "
                     + formatNumber(radius) + "\n");
    };
    static const PointLayerPtr before = big(2), after = big(2.05);
    std::size_t moved = 0;
    for (auto _ : state) {
        const PointDiff d = diffPointLayers({before}, {after});
        moved = d.layers.empty() ? 0 : d.layers.front().moved.size();
    }
    state.counters["points"] = static_cast<double>(before->points.size());
    state.counters["moved"] = static_cast<double>(moved);
}

// Degenerate diffs, beside the anchor: 100k points at one spot against 100k at a spot 0.5 away
// (every pair equally near), and the anchor's layer at radius 2 against 2.05 with one point 1e15
// away on each side, far from each other (removed and added: a bounding box a trillion times the
// world).
void BM_DiffOneSpot(benchmark::State &state)
{
    DiffLayer before{"l", {}}, after{"l", {}};
    for (std::uint64_t i = 0; i < 100'000; ++i) {
        before.points.push_back({5, 5, 1, i});
        after.points.push_back({5.5, 5, 1, i});
    }
    std::size_t moved = 0;
    for (auto _ : state) {
        const PointDiff d = diffPoints({before}, {after});
        moved = d.layers.empty() ? 0 : d.layers.front().moved.size();
    }
    state.counters["moved"] = static_cast<double>(moved);
}

void BM_DiffFarOutlier(benchmark::State &state)
{
    const DiffLayersLoad before = diffLayersOf({place(layerGraph(2))}), after = diffLayersOf({place(layerGraph(2.05))});
    std::vector<DiffLayer> a = before.layers, b = after.layers;
    a.front().points.push_back({1e15, 1e15, 2, 99'999'999});
    b.front().points.push_back({-1e15, 1e15, 2, 99'999'999});
    std::size_t moved = 0;
    for (auto _ : state) {
        const PointDiff d = diffPoints(a, b);
        moved = d.layers.empty() ? 0 : d.layers.front().moved.size();
    }
    state.counters["points"] = static_cast<double>(a.front().points.size());
    state.counters["moved"] = static_cast<double>(moved);
}

void BM_CheckMetrics(benchmark::State &state)
{
    MetricSubject subject;
    subject.layer = place(layerGraph(2));
    subject.region = {0, 0, kSide, kSide};
    subject.radius = layerRadius(*subject.layer);
    const std::set<Metric> wanted{Metric::Count, Metric::Density, Metric::Tightest, Metric::TooClose, Metric::Clearing,
                                  Metric::Coverage};
    double coverage = 0;
    for (auto _ : state)
        coverage = measureLayer(subject, wanted)[Metric::Coverage];
    state.counters["coverage"] = coverage;
}

void BM_Spectrum(benchmark::State &state)
{
    MetricSubject subject;
    subject.layer = place(layerGraph(2));
    subject.region = {0, 0, kSide, kSide};
    subject.radius = layerRadius(*subject.layer);
    double low = 0;
    for (auto _ : state)
        low = measureLayer(subject, {Metric::LowFreq, Metric::Anisotropy})[Metric::LowFreq];
    state.counters["low_freq"] = low;
}

} // namespace

BENCHMARK(BM_PlaceLayer)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_PlaceLayerWithEdits)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_DiffLayers)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_DiffLayersMillion)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_DiffOneSpot)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_DiffFarOutlier)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_CheckMetrics)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Spectrum)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK_MAIN();
