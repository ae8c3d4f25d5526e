// The whole `grove-cli eval` run, as a pipeline starts it (a process: start, load, evaluate, write,
// exit), beside the placement it wraps, measured in the same run:
//   - the 646k-point layer (1024², radius 1, k 30) to a JSON file and to /dev/null, each over the
//     same layer placed in this process (`x placement`: wall over the anchor's median wall;
//     `cpu x placement`: the child's user + system time over the anchor's thread CPU time);
//   - four chained layers on a 16384² world (chunk 1024) streamed to JSON on 1 and 2 threads:
//     wall, CPU and the child's peak resident memory.
// `grove_bench_cli --benchmark_repetitions=5`. The child's CPU and memory come from wait4's
// rusage; its output goes to a temporary folder that is removed at the end.
#include "BenchWorkloads.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <vector>

extern char **environ;

using namespace grove;

namespace {

namespace fs = std::filesystem;

// A folder for the graphs and what grove-cli writes, removed when the benchmarks end.
struct Scratch
{
    fs::path dir;
    Scratch()
    {
        std::string pattern = (fs::temp_directory_path() / "grove_bench_cli.XXXXXX").string();
        if (::mkdtemp(pattern.data()))
            dir = pattern;
    }
    ~Scratch()
    {
        std::error_code ignored;
        if (!dir.empty())
            fs::remove_all(dir, ignored);
    }
    fs::path write(const std::string &name, const std::string &text) const
    {
        const fs::path path = dir / name;
        std::ofstream(path) << text;
        return path;
    }
};

const Scratch &scratch()
{
    static const Scratch s;
    return s;
}

struct ChildRun
{
    double wallSeconds = 0;
    double cpuSeconds = 0;  // user + system
    double maxRssMb = 0;
    bool ok = false;
};

// Runs grove-cli with these arguments, its stdout and stderr sent to /dev/null.
ChildRun runCli(const std::vector<std::string> &args)
{
    std::vector<std::string> argv = {GROVE_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char *> pointers;
    for (std::string &a : argv)
        pointers.push_back(a.data());
    pointers.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    ChildRun run;
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, pointers[0], &actions, nullptr, pointers.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return run;
    int status = 0;
    rusage usage{};
    if (::wait4(pid, &status, 0, &usage) != pid)
        return run;
    run.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto seconds = [](const timeval &t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
    run.cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    run.maxRssMb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
    run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return run;
}

// The anchor: the same layer placed in this process, its wall and thread CPU times. The first
// call warms up (memory glibc keeps for the next); BM_CliEval_1024 then places once before each
// grove-cli run, so a machine that gets busier mid-row slows both sides of the ratio alike.
struct Anchor
{
    double wallSeconds = 0;
    double cpuSeconds = 0;
    bool ok = false;
};

Anchor placeOnce()
{
    static const NodeRegistry &registry = builtinRegistry();
    static const LoadResult loaded = loadGraphFromString(bench::bigLayerGraph(), "big.grove.yaml", registry);
    static const bool warm = loaded.ok() && Evaluator(registry).evaluate(loaded.graph).ok();
    Anchor a;
    if (!warm)
        return a;
    Evaluator ev(registry);
    const auto start = std::chrono::steady_clock::now();
    const double cpuStart = bench::threadCpuSeconds();
    const EvalResult r = ev.evaluate(loaded.graph);
    a.cpuSeconds = bench::threadCpuSeconds() - cpuStart;
    a.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    a.ok = r.ok();
    return a;
}

// The last run's CPU time and peak memory (each run of a row does the same work). Linux counts
// in a spawned child's peak the memory of this process it ran in before exec, so a small run's
// max_rss_mb is this process's peak when that is larger (BM_CliEval_1024, after its anchors).
void report(benchmark::State &state, const ChildRun &run)
{
    state.counters["cpu_s"] = run.cpuSeconds;
    state.counters["max_rss_mb"] = run.maxRssMb;
}

// The anchor, timed as a row of its own so that its range shows beside the others.
void BM_Placement_1024(benchmark::State &state)
{
    const NodeRegistry &registry = builtinRegistry();
    LoadResult loaded = loadGraphFromString(bench::bigLayerGraph(), "big.grove.yaml", registry);
    if (!loaded.ok()) {
        state.SkipWithError("graph does not load");
        return;
    }
    for (auto _ : state) {
        Evaluator ev(registry);
        const auto start = std::chrono::steady_clock::now();
        EvalResult r = ev.evaluate(loaded.graph);
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        benchmark::DoNotOptimize(r);
    }
}

// grove-cli eval of the same layer, written where the argument says: 0 a JSON file, 1 /dev/null;
// each run after an in-process placement, the anchor: "x placement" is the runs' total over the
// placements' (wall), "cpu x placement" the same for CPU time.
void BM_CliEval_1024(benchmark::State &state)
{
    const fs::path graph = scratch().write("big.grove.yaml", bench::bigLayerGraph());
    const std::string out = state.range(0) == 0 ? (scratch().dir / "world.json").string() : "/dev/null";
    if (scratch().dir.empty()) {
        state.SkipWithError("no scratch folder");
        return;
    }
    ChildRun run, total;
    Anchor anchors;
    for (auto _ : state) {
        const Anchor anchor = placeOnce();
        run = runCli({"eval", graph.string(), "--quiet", "-o", out});
        if (!anchor.ok || !run.ok) {
            state.SkipWithError(anchor.ok ? "grove-cli failed" : "the anchor's placement failed");
            return;
        }
        state.SetIterationTime(run.wallSeconds);
        total.wallSeconds += run.wallSeconds;
        total.cpuSeconds += run.cpuSeconds;
        anchors.wallSeconds += anchor.wallSeconds;
        anchors.cpuSeconds += anchor.cpuSeconds;
    }
    report(state, run);
    const double runs = static_cast<double>(state.iterations());
    state.counters["placement_s"] = anchors.wallSeconds / runs;
    state.counters["x placement"] = total.wallSeconds / anchors.wallSeconds;
    state.counters["cpu x placement"] = total.cpuSeconds / anchors.cpuSeconds;
}

// Four chained layers on a 16384² world, chunk 1024, streamed to JSON on state.range(0) threads.
void BM_CliStream_16384(benchmark::State &state)
{
    const fs::path graph = scratch().write("four16k.grove.yaml", bench::fourLayersGraph(16384, 1024));
    const fs::path out = scratch().dir / "four16k.json";
    ChildRun run;
    for (auto _ : state) {
        run = runCli({"eval", graph.string(), "--quiet", "--threads", std::to_string(state.range(0)), "-o", out.string()});
        if (!run.ok) {
            state.SkipWithError("grove-cli failed");
            return;
        }
        state.SetIterationTime(run.wallSeconds);
    }
    report(state, run);
    std::error_code ignored;
    state.counters["json_mb"] = static_cast<double>(fs::file_size(out, ignored)) / (1 << 20);
}

} // namespace

BENCHMARK(BM_Placement_1024)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CliEval_1024)->Arg(0)->Arg(1)->ArgName("dev_null")->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CliStream_16384)->Arg(2)->Arg(1)->ArgName("threads")->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_MAIN();
