// place_layer with `maximal: true` beside the same layer without it, and beside a plain maximal
// Poisson-disk sampler written here the textbook way (the anchor), on a 1024 x 1024 world at r 1:
//   build/tests/bench/grove_bench_maximal --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// place_layer runs through the Evaluator (node overhead included), one thread, patches start, k = 30.
// The anchor is Ebeida et al.'s simple method with nothing else: background cells of side
// r / sqrt(2) in a flat list, darts at random active cells (as many as there are cells), then
// every active cell split into quarters, a quarter dropped when one disc covers it, for 6 levels
// (then it stops: the textbook's cut-off, not an exact finish).
#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"
#include "core/graph/GraphReader.h"
#include "core/math/SeededRandom.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

using namespace grove;

namespace {

constexpr double kSide = 1024, kRadius = 1;

void BM_PlaceLayer(benchmark::State &state)
{
    const bool maximal = state.range(0) != 0;
    LoadResult loaded = loadGraphFromString("grove: 1\nworld: {width: 1024, height: 1024, seed: 1}\nnodes:\n"
                                            "  v: {type: place_layer, params: {radius: 1, maximal: "
                                                + std::string(maximal ? "true" : "false") + "}}\n",
                                            "bench", builtinRegistry());
    if (!loaded.ok())
        std::abort();
    std::size_t points = 0;
    for (auto _ : state) {
        Evaluator ev(builtinRegistry());
        EvalResult r = ev.evaluate(loaded.graph);
        if (!r.ok())
            std::abort();
        points = layersOf(r, {"v"}).front()->points.size();
        benchmark::DoNotOptimize(points);
    }
    state.counters["points"] = static_cast<double>(points);
}

// The anchor: a from-scratch simple maximal sampler, one flat grid of points (one per cell).
class SimpleMps
{
public:
    std::size_t run(std::int32_t seed)
    {
        SeededRandom random(seed);
        const double side = kRadius / std::sqrt(2.0);
        m_cols = static_cast<int>(std::ceil(kSide / side));
        m_side = side;
        m_grid.assign(static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_cols), -1);
        m_points.clear();
        struct Cell { double x, y; };
        std::vector<Cell> active;
        for (int j = 0; j < m_cols; ++j)
            for (int i = 0; i < m_cols; ++i)
                active.push_back({i * side, j * side});
        double cell = side;
        for (int level = 0; level < 6 && !active.empty(); ++level) {
            const std::size_t darts = active.size();
            for (std::size_t d = 0; d < darts && !active.empty(); ++d) {
                const std::size_t a = static_cast<std::size_t>(random.nextFloat() * static_cast<double>(active.size()));
                const double x = active[a].x + random.nextFloat() * cell, y = active[a].y + random.nextFloat() * cell;
                if (x < kSide && y < kSide && isFree(x, y)) {
                    add(x, y);
                    active[a] = active.back();  // its cell is covered now
                    active.pop_back();
                }
            }
            std::vector<Cell> next;
            cell /= 2;
            for (const Cell &c : active)
                for (const Cell &q : {Cell{c.x, c.y}, Cell{c.x + cell, c.y}, Cell{c.x, c.y + cell}, Cell{c.x + cell, c.y + cell}})
                    if (q.x < kSide && q.y < kSide && !covered(q.x, q.y, cell))
                        next.push_back(q);
            active.swap(next);
        }
        return m_points.size();
    }

private:
    template<typename F>
    bool anyNear(double x, double y, F test) const
    {
        const int cx = static_cast<int>(x / m_side), cy = static_cast<int>(y / m_side);
        for (int j = std::max(0, cy - 2); j <= std::min(m_cols - 1, cy + 3); ++j)
            for (int i = std::max(0, cx - 2); i <= std::min(m_cols - 1, cx + 3); ++i) {
                const int p = m_grid[static_cast<std::size_t>(j) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(i)];
                if (p >= 0 && test(m_points[static_cast<std::size_t>(p)]))
                    return true;
            }
        return false;
    }
    static bool within(const std::pair<double, double> &p, double x, double y)
    {
        return (p.first - x) * (p.first - x) + (p.second - y) * (p.second - y) < kRadius * kRadius;
    }
    bool isFree(double x, double y) const
    {
        return !anyNear(x, y, [&](const std::pair<double, double> &p) { return within(p, x, y); });
    }
    bool covered(double x, double y, double s) const
    {
        return anyNear(x, y, [&](const std::pair<double, double> &p) {
            return within(p, x, y) && within(p, x + s, y) && within(p, x, y + s) && within(p, x + s, y + s);
        });
    }
    void add(double x, double y)
    {
        const std::size_t cell = static_cast<std::size_t>(static_cast<int>(y / m_side)) * static_cast<std::size_t>(m_cols)
                                 + static_cast<std::size_t>(static_cast<int>(x / m_side));
        m_grid[cell] = static_cast<int>(m_points.size());
        m_points.emplace_back(x, y);
    }

    double m_side = 1;
    int m_cols = 0;
    std::vector<int> m_grid;
    std::vector<std::pair<double, double>> m_points;
};

void BM_SimpleMps_Anchor(benchmark::State &state)
{
    SimpleMps mps;
    std::size_t points = 0;
    for (auto _ : state) {
        points = mps.run(1);
        benchmark::DoNotOptimize(points);
    }
    state.counters["points"] = static_cast<double>(points);
}

} // namespace

BENCHMARK(BM_PlaceLayer)->Arg(0)->Arg(1)->ArgName("maximal")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimpleMps_Anchor)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
