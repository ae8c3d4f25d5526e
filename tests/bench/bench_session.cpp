// libgrove's streaming session: the time of one grove_session_update a frame, with the workers busy,
// against the frame's budget, beside two anchors in the same run:
//   build/tests/bench/grove_bench_session --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// Driving: a source at 24 units a frame over tests/capi/endless.grove.yaml (chunk 128, radius 640 or 2000),
// so chunks are wanted, cancelled and handed over every frame; median_us and p99_us are the update's
// own time over the run's frames (cpu_*: the thread's CPU time), budget_us what it was given, wanted
// the chunks (of both layers) wanted at the end. Standing: the same session with the
// source still (the update's floor), every chunk around it delivered, at radius 640 or 2000. Chunk: grove_points_in_chunk of one cached chunk, the
// synchronous call an engine would make without a session.
#include "grove.h"

#include <benchmark/benchmark.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// The calling thread's CPU time: beside the wall clock, it tells the update's own work from the
// scheduler's preemption on a busy machine.
double threadCpuUs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

grove_graph *openEndless()
{
    const std::string path = std::string(GROVE_SOURCE_DIR) + "/tests/capi/endless.grove.yaml";
    char error[1024];
    grove_graph *g = grove_open_file(path.c_str(), error, sizeof error);
    if (!g) {
        std::fprintf(stderr, "%s\n", error);
        std::abort();
    }
    return g;
}

grove_session *openSession(grove_graph *g, int workers)
{
    const char *layers[] = {"rocks", "trees"};
    grove_session_options o{};
    o.workers = workers;
    grove_session *s = grove_session_open(g, layers, 2, &o, nullptr, 0);
    if (!s)
        std::abort();
    return s;
}

void report(benchmark::State &state, std::vector<double> &us, long long budget, long long handed)
{
    std::sort(us.begin(), us.end());
    state.counters["median_us"] = us[us.size() / 2];
    state.counters["p99_us"] = us[us.size() * 99 / 100];
    state.counters["max_us"] = us.back();
    state.counters["budget_us"] = static_cast<double>(budget);
    state.counters["chunks_a_frame"] = static_cast<double>(handed) / static_cast<double>(us.size());
}

void BM_SessionUpdateDriving(benchmark::State &state)
{
    const long long budget = state.range(0);
    const double radius = static_cast<double>(state.range(1));
    grove_graph *g = openEndless();
    grove_session *s = openSession(g, 1);
    std::vector<double> us, cpu;
    long long handed = 0, frame = 0;
    grove_update_result u;
    for (auto _ : state) {
        const grove_source src{24.0 * static_cast<double>(frame), 2000 * std::sin(static_cast<double>(frame) / 700), radius};
        ++frame;
        const double c0 = threadCpuUs();
        const auto t0 = std::chrono::steady_clock::now();
        grove_session_update(s, &src, 1, budget, &u);
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        cpu.push_back(threadCpuUs() - c0);
        handed += u.ready_count;
    }
    std::sort(cpu.begin(), cpu.end());
    state.counters["cpu_p99_us"] = cpu[cpu.size() * 99 / 100];
    state.counters["cpu_max_us"] = cpu.back();
    grove_session_stats st;
    grove_session_get_stats(s, &st);
    state.counters["computing"] = st.computing;
    state.counters["wanted"] = st.queued + st.computing + st.ready + st.resident;
    report(state, us, budget, handed);
    grove_session_close(s);
    grove_close(g);
}

void BM_SessionUpdateStanding(benchmark::State &state)
{
    grove_graph *g = openEndless();
    grove_session *s = openSession(g, 1);
    const grove_source src{100, 100, static_cast<double>(state.range(0))};
    grove_update_result u;
    for (int n = 0; n < 100000; ++n) {  // every chunk around the source delivered first
        if (grove_session_update(s, &src, 1, 0, &u) != 0 || u.pending == 0)
            break;
        grove_session_wait(s, 60'000'000);
    }
    std::vector<double> us;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        grove_session_update(s, &src, 1, 500, &u);
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    grove_session_stats st;
    grove_session_get_stats(s, &st);
    state.counters["wanted"] = st.queued + st.computing + st.ready + st.resident;
    report(state, us, 500, 0);
    grove_session_close(s);
    grove_close(g);
}

void BM_PointsInCachedChunk(benchmark::State &state)
{
    grove_graph *g = openEndless();
    std::vector<grove_point> out(static_cast<std::size_t>(grove_points_in_chunk(g, "trees", 3, -2, nullptr, 0, nullptr, 0)));
    std::vector<double> us;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(grove_points_in_chunk(g, "trees", 3, -2, out.data(), static_cast<long long>(out.size()), nullptr, 0));
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
    report(state, us, 0, 1);
    grove_close(g);
}

} // namespace

BENCHMARK(BM_SessionUpdateDriving)->Args({200, 640})->Args({1000, 640})->Args({1000, 2000})->Iterations(5000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_SessionUpdateStanding)->Arg(640)->Arg(2000)->Iterations(5000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_PointsInCachedChunk)->Iterations(5000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK_MAIN();
