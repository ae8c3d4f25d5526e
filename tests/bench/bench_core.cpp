// Google Benchmark suite for the hot paths, each beside a plain reference measured in the same
// run: exact placement (points/s, peak bytes per point) and value-noise fBm rasters.
#include "BenchWorkloads.h"
#include "ReferenceBridson.h"
#include "ReferenceNoise.h"

#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/sampling/PoissonPlacement.h"
#include "core/formats/PointsExport.h"
#include "core/fields/Raster.h"
#include "core/fields/ValueNoise.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#ifdef GROVE_HAVE_TPH
#include "TphAnchor.h"
#endif

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

// ---- allocation accounting: peak bytes held during a measured region
namespace {
std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};
constexpr std::size_t kHeader = 16;

void *countedAlloc(std::size_t n)
{
    void *p = std::malloc(n + kHeader);
    if (!p)
        throw std::bad_alloc();
    std::memcpy(p, &n, sizeof n);
    const std::size_t now = g_current.fetch_add(n) + n;
    std::size_t peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
    return static_cast<char *>(p) + kHeader;
}

void countedFree(void *p)
{
    if (!p)
        return;
    char *base = static_cast<char *>(p) - kHeader;
    std::size_t n;
    std::memcpy(&n, base, sizeof n);
    g_current.fetch_sub(n);
    std::free(base);
}

void resetPeak() { g_peak.store(g_current.load()); }
std::size_t peakSince(std::size_t baseline) { return g_peak.load() - baseline; }
} // namespace

// aligned allocations (the occupancy's large arrays) are counted too
void *operator new(std::size_t n, std::align_val_t a)
{
    void *p = std::aligned_alloc(static_cast<std::size_t>(a), (n + static_cast<std::size_t>(a) - 1) / static_cast<std::size_t>(a) * static_cast<std::size_t>(a));
    if (!p)
        throw std::bad_alloc();
    g_current.fetch_add(n);
    std::size_t now = g_current.load(), peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
    return p;
}
void operator delete(void *p, std::size_t n, std::align_val_t) noexcept
{
    g_current.fetch_sub(n);
    std::free(p);
}
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }  // unsized: not used by Grove
void *operator new(std::size_t n) { return countedAlloc(n); }
void *operator new[](std::size_t n) { return countedAlloc(n); }
void operator delete(void *p) noexcept { countedFree(p); }
void operator delete[](void *p) noexcept { countedFree(p); }
void operator delete(void *p, std::size_t) noexcept { countedFree(p); }
void operator delete[](void *p, std::size_t) noexcept { countedFree(p); }

using namespace grove;

namespace {

constexpr std::int32_t kSeed = 1;  // the noise rasters'

void BM_Bridson_Reference(benchmark::State &state)
{
    const PlacementSettings s = bench::standardPlacement(PlacementMethod::Tutorial);  // the same case
    std::size_t points = 0;
    for (auto _ : state) {
        auto pts = bench::referencePoissonDisk(s.width, s.height, s.radius, s.k, s.seed);
        points = pts.size();
        benchmark::DoNotOptimize(pts.data());
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
}

#ifdef GROVE_HAVE_TPH
// thinks/tph_poisson v0.4 in doubles on the same world and radius, k 30 (its own generator, so
// its own points: about the same count).
void BM_Bridson_Tph(benchmark::State &state)
{
    const PlacementSettings s = bench::standardPlacement(PlacementMethod::Tutorial);
    long long points = 0;
    for (auto _ : state) {
        double first[2];
        points = grove_bench_tph_points(s.width, s.height, s.radius, static_cast<unsigned>(s.k), 1, first);
        benchmark::DoNotOptimize(first);
    }
    if (points < 0) {
        state.SkipWithError("tph_poisson_create failed");
        return;
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
}
#endif

// Grove's place_layer core on the same world: the exact method (the tutorial's points) or the
// fast one (Roberts' circle candidates).
void placementBenchmark(benchmark::State &state, PlacementMethod method)
{
    const PlacementSettings s = bench::standardPlacement(method);
    std::size_t points = 0, peak = 0;
    for (auto _ : state) {
        const std::size_t base = g_current.load();
        resetPeak();
        std::vector<PointXYR> out = bench::placeStandard(s);
        points = out.size();
        peak = peakSince(base);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["density"] = static_cast<double>(points) / (s.width * s.height / (s.radius * s.radius));
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
    state.counters["peak B/point"] = static_cast<double>(peak) / static_cast<double>(points);
}

void BM_Bridson_Grove(benchmark::State &state) { placementBenchmark(state, PlacementMethod::Tutorial); }
void BM_Bridson_Fast(benchmark::State &state) { placementBenchmark(state, PlacementMethod::Fast); }

// The same placement through the evaluator, as grove-cli and the editor run it, with an allowed
// rule and a density radius from 4-octave value noise.
void BM_PlaceLayer_MaskedDensity(benchmark::State &state)
{
    const NodeRegistry &registry = builtinRegistry();
    const std::string text = bench::maskedDensityGraph();
    LoadResult loaded = loadGraphFromString(text, "bench", registry);
    if (!loaded.ok()) {
        state.SkipWithError("graph does not load");
        return;
    }
    std::size_t points = 0;
    for (auto _ : state) {
        Evaluator ev(registry);
        EvalResult r = ev.evaluate(loaded.graph);
        points = layersOf(r, {"layer"})[0]->points.size();
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
}

// The seed's placeLayer ported straight, with the same allowed rule and density radius as
// maskedDensityGraph(), each from seed 002's fbm sample by sample. Checked against Grove's points
// before timing, so both place the same thing.
void BM_PlaceLayer_MaskedDensity_Reference(benchmark::State &state)
{
    auto noise = [](double x, double y) { return bench::referenceFbm(x * 0.005, y * 0.005, 1, 4, 2, 0.5); };
    auto allowed = [&](double x, double y) { return noise(x, y) >= 0.35; };
    auto radiusAt = [&](double x, double y) {
        const double t = std::min(1.0, std::max(0.0, noise(x, y) * 2 - 0.5));
        return 1 + t * (2 - 1);
    };
    auto run = [&] { return bench::referencePlaceLayer(1024, 1024, 1, 30, 1, allowed, radiusAt); };
    {
        const NodeRegistry &registry = builtinRegistry();
        LoadResult loaded = loadGraphFromString(bench::maskedDensityGraph(), "bench", registry);
        Evaluator ev(registry);
        EvalResult r = ev.evaluate(loaded.graph);
        const auto &grove = layersOf(r, {"layer"})[0]->points;
        const auto ref = run();
        bool same = grove.size() == ref.size();
        for (size_t i = 0; same && i < ref.size(); ++i)
            same = grove[i].x == ref[i].x && grove[i].y == ref[i].y && grove[i].r == ref[i].r;
        if (!same) {
            state.SkipWithError("the port's points differ from Grove's");
            return;
        }
    }
    std::size_t points = 0;
    for (auto _ : state) {
        auto pts = run();
        points = pts.size();
        benchmark::DoNotOptimize(pts.data());
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
}

// Four chained layers (radii 32, 16, 8, 4) with an allowed rule, on worlds of growing side:
// time and peak memory should grow with the area, nothing faster.
void BM_Scaling_FourLayers(benchmark::State &state)
{
    const NodeRegistry &registry = builtinRegistry();
    const int side = static_cast<int>(state.range(0));
    const std::string text = bench::fourLayersGraph(side);
    LoadResult loaded = loadGraphFromString(text, "bench", registry);
    if (!loaded.ok()) {
        state.SkipWithError("graph does not load");
        return;
    }
    std::size_t points = 0, peak = 0;
    for (auto _ : state) {
        const std::size_t base = g_current.load();
        resetPeak();
        {
            Evaluator ev(registry);
            EvalResult r = ev.evaluate(loaded.graph);
            points = 0;
            for (const auto &l : layersOf(r, {"a", "b", "c", "d"}))
                points += l->points.size();
        }
        peak = peakSince(base);
    }
    state.counters["points"] = static_cast<double>(points);
    state.counters["peak MB"] = static_cast<double>(peak) / (1 << 20);
    state.counters["points/s"] = benchmark::Counter(static_cast<double>(points) * state.iterations(), benchmark::Counter::kIsRate);
}

constexpr int kRaster = 2048;

// Seed 002's fbm, sample by sample, as the plain baseline.
void BM_ValueFbmRaster_Reference(benchmark::State &state)
{
    std::vector<double> out(static_cast<size_t>(kRaster) * kRaster);
    for (auto _ : state) {
        for (int y = 0; y < kRaster; ++y)
            for (int x = 0; x < kRaster; ++x)
                out[static_cast<size_t>(y) * kRaster + static_cast<size_t>(x)] = bench::referenceFbm(x * 0.01, y * 0.01, kSeed, 4, 2, 0.5);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["samples/s"] = benchmark::Counter(double(kRaster) * kRaster * state.iterations(), benchmark::Counter::kIsRate);
}

void BM_ValueFbmRaster_Grove(benchmark::State &state)
{
    const NodeRegistry &registry = builtinRegistry();
    LoadResult loaded = loadGraphFromString("grove: 1\nworld: {width: 2048, height: 2048, seed: 1}\nnodes:\n  n:\n    type: value_noise\n",
                                            "bench", registry);
    Evaluator ev(registry);
    EvalResult r = ev.evaluate(loaded.graph);
    const FieldPtr field = std::get<FieldPtr>(r.output("n"));
    std::vector<double> out(static_cast<size_t>(kRaster) * kRaster);
    const int threads = static_cast<int>(state.range(0));
    setValueNoiseSimd(state.range(1) != 0);  // 0: the scalar path, for comparison
    // the fast path must be the reference, bit for bit, at any thread count
    sampleRaster(*field, 0, 0, 1, 1, kRaster, kRaster, out.data(), threads);
    for (int y = 0; y < kRaster; y += 97)
        for (int x = 0; x < kRaster; x += 13)
            if (out[static_cast<size_t>(y) * kRaster + static_cast<size_t>(x)] != bench::referenceFbm(x * 0.01, y * 0.01, kSeed, 4, 2, 0.5)) {
                state.SkipWithError("raster differs from the reference");
                return;
            }
    for (auto _ : state) {
        sampleRaster(*field, 0, 0, 1, 1, kRaster, kRaster, out.data(), threads);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["samples/s"] = benchmark::Counter(double(kRaster) * kRaster * state.iterations(), benchmark::Counter::kIsRate);
    state.counters["avx2"] = valueNoiseSimdActive() ? 1 : 0;
    setValueNoiseSimd(true);
}

} // namespace

BENCHMARK(BM_Bridson_Reference)->Unit(benchmark::kMillisecond)->MinTime(2);
#ifdef GROVE_HAVE_TPH
BENCHMARK(BM_Bridson_Tph)->Unit(benchmark::kMillisecond)->MinTime(2);
#endif
BENCHMARK(BM_Bridson_Grove)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Bridson_Fast)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_PlaceLayer_MaskedDensity)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_PlaceLayer_MaskedDensity_Reference)->Unit(benchmark::kMillisecond)->MinTime(2);
BENCHMARK(BM_Scaling_FourLayers)->Unit(benchmark::kMillisecond)->Arg(1024)->Arg(2048)->Arg(4096)->Arg(8192)->Iterations(1);
BENCHMARK(BM_ValueFbmRaster_Reference)->Unit(benchmark::kMillisecond)->MinTime(2);
// args: threads, SIMD allowed
BENCHMARK(BM_ValueFbmRaster_Grove)->Unit(benchmark::kMillisecond)->MinTime(2)->Args({1, 1})->Args({2, 1})->Args({1, 0})->UseRealTime();
BENCHMARK_MAIN();
