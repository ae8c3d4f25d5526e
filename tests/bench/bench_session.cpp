// libgrove's streaming session: the time of one grove_session_update a frame, with the workers busy,
// against the frame's budget, the chunks a second two workers deliver on a long walk and the memory
// the process holds over it, beside two anchors in the same run:
//   build/tests/bench/grove_bench_session --benchmark_repetitions=5 --benchmark_display_aggregates_only=true
// Driving: a source at 24 units a frame over tests/capi/endless.grove.yaml (chunk 128, radius 640 or 2000),
// so chunks are wanted, cancelled and handed over every frame; median_us and p99_us are the update's
// own time over the run's frames (cpu_*: the thread's CPU time), budget_us what it was given, wanted
// the chunks (of both layers) wanted at the end. Standing: the same session with the
// source still (the update's floor), every chunk around it delivered, at radius 640 or 2000. Chunk: grove_points_in_chunk of one cached chunk, the
// synchronous call an engine would make without a session.
// Walk: two workers stream presets/endless.grove.yaml (chunk 256, rocks and trees) around a source
// walking (1.5 units a frame, 20,000 frames) or driving (24 units a frame, 2,000 frames) in a
// straight line, radius 1000, budget 1000 us; after an update that leaves more than 8 chunks pending
// the caller waits for one (at most a 60 Hz frame), so the frames go as fast as the workers deliver
// and the walk outruns them when driving. chunks_per_s: chunks delivered a wall second;
// chunks_per_worker_s: delivered a second of the workers' own time (stats.worker_us, cancelled work
// included); workers_busy: the share of the wall time the two workers spent placing; units_per_s:
// the speed the walk reached; wanted_per_unit: chunks wanted a unit travelled (delivered, cancelled
// or pending; the first disc included), so a 60 Hz walk at s units a frame wants 60 s
// wanted_per_unit chunks a second. rss_*: the process's resident memory at the start (graph and
// session open), after the first quarter of the frames, its most and at the end (growth: end less
// that warm figure) with the graph's chunk cache at 4 MiB a layer; heap_*: the same for the bytes
// malloc handed out and did not get back (live data, without the free pages the allocator keeps);
// bytes_held_max_mb: the session's most bytes_held against memory_cap_mb. Synchronous: the anchor
// for chunks_per_s, grove_points_in_chunk of the same layers' chunks along the same line on the
// calling thread alone, none cached.
#include "grove.h"

#include <benchmark/benchmark.h>

#include <malloc.h>
#include <time.h>
#include <unistd.h>

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

grove_graph *openEndless(const char *file = "tests/capi/endless.grove.yaml")
{
    const std::string path = std::string(GROVE_SOURCE_DIR) + "/" + file;
    char error[1024];
    grove_graph *g = grove_open_file(path.c_str(), error, sizeof error);
    if (!g) {
        std::fprintf(stderr, "%s\n", error);
        std::abort();
    }
    return g;
}

// The process's resident memory in MiB (/proc/self/statm's second field, in pages).
double residentMiB()
{
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    long long size = 0, resident = 0;
    if (!f)
        return 0;
    if (std::fscanf(f, "%lld %lld", &size, &resident) != 2)
        resident = 0;
    std::fclose(f);
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// The bytes malloc has handed out and not had back, in MiB (every arena; mmap'd blocks included):
// beside the resident figure, it tells live data from the allocator's kept free pages.
double heapInUseMiB()
{
    const struct mallinfo2 m = mallinfo2();
    return static_cast<double>(m.uordblks + m.hblkhd) / (1024.0 * 1024.0);
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

constexpr double kWalkRadius = 1000;
constexpr long long kWalkBudget = 1000;
// The walk waits for a chunk only with more than this pending: the two workers always find one to
// start, so a walk that needs few chunks a unit still keeps them busy.
constexpr int kWalkBacklog = 8;

// The walk's source after `frame` frames of `step` units: a straight line, so no chunk comes back
// (the chunk cache never answers for the workers).
grove_source walkSource(double step, long long frame)
{
    const double d = step * static_cast<double>(frame);
    return {d, 0.25 * d, kWalkRadius};
}

void BM_SessionWalk(benchmark::State &state)
{
    const double step = static_cast<double>(state.range(0)) / 10;
    const long long frames = state.range(1);
    for (auto _ : state) {
        grove_graph *g = openEndless("presets/endless.grove.yaml");
        grove_set_cache_bytes(g, std::size_t(4) << 20);
        grove_session *s = openSession(g, 2);
        // filled up front, so their pages are resident before the first figure
        std::vector<double> us(static_cast<std::size_t>(frames)), cpu(us.size());
        malloc_trim(0);  // what earlier benchmarks freed leaves the start figure
        const double rssStart = residentMiB(), heapStart = heapInUseMiB();
        double rssWarm = 0, heapWarm = 0, rssMax = rssStart, heldMax = 0;
        grove_update_result u;
        grove_session_stats st;
        const auto start = std::chrono::steady_clock::now();
        for (long long frame = 0; frame < frames; ++frame) {
            const grove_source src = walkSource(step, frame);
            const double c0 = threadCpuUs();
            const auto t0 = std::chrono::steady_clock::now();
            grove_session_update(s, &src, 1, kWalkBudget, &u);
            us[static_cast<std::size_t>(frame)] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
            cpu[static_cast<std::size_t>(frame)] = threadCpuUs() - c0;
            grove_session_get_stats(s, &st);
            heldMax = std::max(heldMax, static_cast<double>(st.bytes_held));
            if (u.pending > kWalkBacklog)
                grove_session_wait(s, 16'667);
            if (frame % 500 == 499)
                rssMax = std::max(rssMax, residentMiB());
            if (frame + 1 == frames / 4) {
                rssWarm = residentMiB();
                heapWarm = heapInUseMiB();
            }
        }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        grove_session_get_stats(s, &st);
        const double rssEnd = residentMiB(), heapEnd = heapInUseMiB();
        state.counters["chunks_per_s"] = static_cast<double>(st.delivered) / wall;
        state.counters["chunks_per_worker_s"] = static_cast<double>(st.delivered) / (static_cast<double>(st.worker_us) / 1e6);
        state.counters["workers_busy"] = static_cast<double>(st.worker_us) / 1e6 / (2 * wall);
        const double distance = std::hypot(walkSource(step, frames - 1).x, walkSource(step, frames - 1).y);
        state.counters["units_per_s"] = distance / wall;
        state.counters["wanted_per_unit"] = static_cast<double>(st.delivered + st.cancelled + u.pending) / distance;
        state.counters["delivered"] = static_cast<double>(st.delivered);
        state.counters["evicted"] = static_cast<double>(st.evicted);
        state.counters["cancelled"] = static_cast<double>(st.cancelled);
        state.counters["wall_s"] = wall;
        state.counters["rss_start_mb"] = rssStart;
        state.counters["rss_warm_mb"] = rssWarm;
        state.counters["rss_max_mb"] = std::max(rssMax, rssEnd);
        state.counters["rss_end_mb"] = rssEnd;
        state.counters["rss_growth_mb"] = rssEnd - rssWarm;
        state.counters["heap_start_mb"] = heapStart;
        state.counters["heap_warm_mb"] = heapWarm;
        state.counters["heap_end_mb"] = heapEnd;
        state.counters["heap_growth_mb"] = heapEnd - heapWarm;
        state.counters["bytes_held_max_mb"] = heldMax / (1024.0 * 1024.0);
        state.counters["memory_cap_mb"] = static_cast<double>(st.memory_cap) / (1024.0 * 1024.0);
        std::sort(cpu.begin(), cpu.end());
        state.counters["cpu_p99_us"] = cpu[cpu.size() * 99 / 100];
        report(state, us, kWalkBudget, st.delivered);
        grove_session_close(s);
        grove_close(g);
    }
}

// The anchor for the walk's chunks a second: the same layers' chunks along the same line, placed by
// grove_points_in_chunk on this thread alone, each once (none cached), nearest the line first.
void BM_ChunksSynchronous(benchmark::State &state)
{
    const long long chunks = state.range(0);
    for (auto _ : state) {
        grove_graph *g = openEndless("presets/endless.grove.yaml");
        grove_set_cache_bytes(g, std::size_t(4) << 20);
        std::vector<grove_point> out(1 << 16);
        long long placed = 0, points = 0;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; placed < chunks; ++i)
            for (int dj = 0; dj < 4 && placed < chunks; ++dj) {
                const int j = i / 4 + (dj % 2 ? -(dj + 1) / 2 : dj / 2);  // the line's chunk, then beside it
                for (const char *layer : {"rocks", "trees"}) {
                    const long long n = grove_points_in_chunk(g, layer, i, j, out.data(), static_cast<long long>(out.size()), nullptr, 0);
                    if (n < 0 || n > static_cast<long long>(out.size()))
                        std::abort();
                    points += n;
                    ++placed;
                }
            }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.counters["chunks_per_s"] = static_cast<double>(placed) / wall;
        state.counters["points_a_chunk"] = static_cast<double>(points) / static_cast<double>(placed);
        state.counters["wall_s"] = wall;
        grove_close(g);
    }
}

} // namespace

BENCHMARK(BM_SessionUpdateDriving)->Args({200, 640})->Args({1000, 640})->Args({1000, 2000})->Iterations(5000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_SessionUpdateStanding)->Arg(640)->Arg(2000)->Iterations(5000)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_PointsInCachedChunk)->Iterations(5000)->Unit(benchmark::kMicrosecond)->UseRealTime();
// step (tenths of a unit a frame), frames
BENCHMARK(BM_SessionWalk)->Args({15, 20000})->Args({240, 2000})->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(BM_ChunksSynchronous)->Arg(400)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK_MAIN();
