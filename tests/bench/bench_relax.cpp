// relax and voronoi beside the placement of the same points, in the same run:
//   build/tests/bench/grove_bench_relax --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// The anchor is place_layer at radius 8 on 1024 x 1024 (about 10k points, exact method). Beside it:
// three Lloyd rounds of those points (keep_spacing on, and off), and the voronoi regions of the
// same points as sites sampled on a 1024 x 1024 raster (labels, then the borders mask), and the
// distance node's field to those points sampled on the same raster.
#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace grove;

namespace {

constexpr int kSide = 1024;

PointLayerPtr place()
{
    const std::string text = "grove: 1\nworld: {width: 1024, height: 1024, seed: 1}\nnodes:\n"
                             "  trees:\n    type: place_layer\n    params: {radius: 8}\n";
    LoadResult loaded = loadGraphFromString(text, "bench", builtinRegistry());
    if (!loaded.ok())
        std::abort();
    const EvalResult r = Evaluator(builtinRegistry()).evaluate(loaded.graph);
    const PortValue v = r.outputWithRole("trees", PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    if (!r.ok() || !set || !*set)
        std::abort();
    return (*set)->layers.back();
}

// One node straight from its descriptor on the placed layer.
std::vector<PortValue> evaluateNode(const std::string &type, const ValueMap &params, const std::string &input,
                                    const PointLayerPtr &layer)
{
    const NodeDescriptor *desc = builtinRegistry().find(type);
    Node node;
    node.id = "n";
    node.type = type;
    node.params = completeParams(*desc, params);
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(layer);
    std::vector<PortValue> in(desc->inputs.size());
    in[static_cast<std::size_t>(desc->inputIndex(input))] = PointSetPtr(set);
    World world;
    world.width = kSide;
    world.height = kSide;
    const EvalLimits limits{limits::defaultMaxPointsPerLayer};
    EvalContext ctx(*desc, node, world, in, limits, nullptr, {});
    desc->evaluate(ctx);
    if (!ctx.error().empty())
        std::abort();
    return ctx.outputs();
}

void BM_PlaceLayer10k(benchmark::State &state)
{
    std::size_t n = 0;
    for (auto _ : state)
        n = place()->points.size();
    state.counters["points"] = static_cast<double>(n);
}

void relax(benchmark::State &state, bool keepSpacing)
{
    const PointLayerPtr layer = place();
    for (auto _ : state) {
        auto out = evaluateNode("relax", {{"rounds", 3.0}, {"keep_spacing", keepSpacing}}, "points", layer);
        benchmark::DoNotOptimize(out);
    }
    state.counters["points"] = static_cast<double>(layer->points.size());
}

void BM_Relax10kThreeRounds(benchmark::State &state) { relax(state, true); }
void BM_Relax10kThreeRoundsNoSpacing(benchmark::State &state) { relax(state, false); }

void BM_VoronoiLabelsRaster(benchmark::State &state)
{
    const PointLayerPtr layer = place();
    std::vector<int> row(kSide);
    long long sum = 0;
    for (auto _ : state) {
        const auto out = evaluateNode("voronoi", {}, "sites", layer);
        const auto labels = std::get<LabelsPtr>(out[0]);
        for (int j = 0; j < kSide; ++j) {
            labels->sampleRow(0.5, 1, j + 0.5, kSide, row.data());
            sum += row[static_cast<std::size_t>(j)];
        }
    }
    benchmark::DoNotOptimize(sum);
    state.counters["sites"] = static_cast<double>(layer->points.size());
    state.counters["samples"] = double(kSide) * kSide;
}

// at(x, y) summed over the raster's cell centres, spot by spot.
template <class At>
auto overRaster(const At &at)
{
    decltype(at(0.0, 0.0)) sum = 0;
    for (int j = 0; j < kSide; ++j)
        for (int i = 0; i < kSide; ++i)
            sum += at(i + 0.5, j + 0.5);
    return sum;
}

void BM_VoronoiBordersRaster(benchmark::State &state)
{
    const PointLayerPtr layer = place();
    long long on = 0;
    for (auto _ : state) {
        const auto out = evaluateNode("voronoi", {{"width", 2.0}}, "sites", layer);
        const auto borders = std::get<MaskPtr>(out[1]);
        on += overRaster([&](double x, double y) { return borders->at(x, y) ? 1 : 0; });
    }
    benchmark::DoNotOptimize(on);
    state.counters["sites"] = static_cast<double>(layer->points.size());
}

void BM_DistancePointsRaster(benchmark::State &state)
{
    const PointLayerPtr layer = place();
    double sum = 0;
    for (auto _ : state) {
        const auto out = evaluateNode("distance", {{"max_distance", 1e6}}, "points", layer);
        const auto field = std::get<FieldPtr>(out[0]);
        sum += overRaster([&](double x, double y) { return field->at(x, y); });
    }
    benchmark::DoNotOptimize(sum);
    state.counters["points"] = static_cast<double>(layer->points.size());
}

} // namespace

BENCHMARK(BM_PlaceLayer10k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Relax10kThreeRounds)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Relax10kThreeRoundsNoSpacing)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VoronoiLabelsRaster)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VoronoiBordersRaster)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DistancePointsRaster)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
