// Groups beside the same graph with its groups inlined, in the same run:
//   build/tests/bench/grove_bench_groups --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// The anchor evaluates presets/island_groups.grove.yaml's nodes with every group already expanded
// (what the groups stand for, written out). Beside it: the preset itself, whose three group nodes
// are expanded by the Evaluator on every run (their files checked on disk, as the editor's preview
// does on every edit), and the expansion alone.
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

using namespace grove;

namespace {

const Graph &grouped()
{
    static const Graph graph = [] {
        LoadResult loaded = loadGraphFile(GROVE_SOURCE_DIR "/presets/island_groups.grove.yaml", builtinRegistry());
        if (!loaded.ok() || !hasGroupNodes(loaded.graph))
            std::abort();
        return loaded.graph;
    }();
    return graph;
}

const Graph &inlined()
{
    static const Graph graph = [] {
        Diagnostics problems;
        Graph g = expandGroups(grouped(), builtinRegistry(), &problems);
        if (!problems.empty() || hasGroupNodes(g))
            std::abort();
        return g;
    }();
    return graph;
}

std::size_t evaluate(const Graph &graph)
{
    const EvalResult r = Evaluator(builtinRegistry()).evaluate(graph);  // nothing cached
    if (!r.ok())
        std::abort();
    return r.nodes.size();
}

void BM_EvalInlined(benchmark::State &state)
{
    std::size_t nodes = 0;
    for (auto _ : state)
        nodes = evaluate(inlined());
    state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_EvalWithGroups(benchmark::State &state)
{
    std::size_t nodes = 0;
    for (auto _ : state)
        nodes = evaluate(grouped());
    state.counters["nodes"] = static_cast<double>(nodes);
}

void BM_ExpandGroups(benchmark::State &state)
{
    std::size_t nodes = 0;
    for (auto _ : state) {
        Diagnostics problems;
        const Graph g = expandGroups(grouped(), builtinRegistry(), &problems);
        nodes = g.nodes.size();
        benchmark::DoNotOptimize(nodes);
    }
    state.counters["nodes"] = static_cast<double>(nodes);
}

} // namespace

BENCHMARK(BM_EvalInlined)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EvalWithGroups)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExpandGroups)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
