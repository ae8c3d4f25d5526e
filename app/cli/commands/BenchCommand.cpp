// grove-cli bench: the standard workloads (or a given graph), run several times, reported as
// medians with ratios against plain reference ports measured in the same run.
#include "BenchCommand.h"

#include "BenchWorkloads.h"
#include "ReferenceBridson.h"
#include "ReferenceNoise.h"

#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/base/NumberText.h"
#include "core/graph/NodeRegistry.h"
#include "core/sampling/PoissonPlacement.h"
#include "core/formats/PointsExport.h"
#include "core/fields/Raster.h"
#include "core/fields/ValueNoise.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <functional>

using namespace grove;

namespace {

using Clock = std::chrono::steady_clock;

double seconds(const std::function<void()> &work)
{
    const auto start = Clock::now();
    work();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One row: a workload timed `runs` times, its median, and its throughput in `unit`.
struct Row
{
    std::string name;
    double items = 0;
    double medianSeconds = 0;
    std::string unit;
    std::string note;
};

void print(std::ostream &out, const std::vector<Row> &rows)
{
    out << "workload                                      median          throughput  note\n";
    for (const auto &r : rows) {
        std::string line = r.name;
        line.resize(40, ' ');
        std::string ms = formatFixed(r.medianSeconds * 1000, 1) + " ms";
        std::string rate = formatFixed(r.items / r.medianSeconds / 1e3, 0) + "k " + r.unit + "/s";
        out << line << "  " << std::string(ms.size() < 10 ? 10 - ms.size() : 0, ' ') << ms << "  "
            << std::string(rate.size() < 18 ? 18 - rate.size() : 0, ' ') << rate << "  " << r.note << "\n";
    }
}

Row timePlacement(const std::string &name, PlacementMethod method, int runs)
{
    const PlacementSettings s = grove::bench::standardPlacement(method);
    std::vector<double> times;
    size_t points = 0;
    for (int i = 0; i < runs; ++i)
        times.push_back(seconds([&] { points = grove::bench::placeStandard(s).size(); }));
    return {name, double(points), median(times), "points",
            formatFixed(static_cast<double>(points) / (s.width * s.height), 3) + " points per r^2"};
}

// Graphs evaluated cold `runs` times each, interleaved run by run so a drift in the machine's
// speed touches every graph alike: one row per graph, the median, the points of all its layers.
// Empty: a graph failed (a defect in the workload, never expected).
std::vector<Row> timeGraphs(const std::vector<std::pair<std::string, std::string>> &graphs, int runs)
{
    const NodeRegistry &registry = builtinRegistry();
    std::vector<LoadResult> loaded;
    std::vector<std::vector<std::string>> layers;
    std::vector<Row> rows;
    std::vector<std::vector<double>> times(graphs.size());
    for (const auto &[name, text] : graphs) {
        loaded.push_back(loadGraphFromString(text, "bench", registry));
        if (!loaded.back().ok())
            return {};
        layers.push_back(exportedLayers(loaded.back().graph, registry));
        rows.push_back({name, 0, 0, "points", ""});
    }
    for (int i = 0; i < runs; ++i)
        for (size_t g = 0; g < graphs.size(); ++g) {
            Evaluator ev(registry);
            EvalResult result;
            times[g].push_back(seconds([&] { result = ev.evaluate(loaded[g].graph); }));
            if (!result.ok())
                return {};
            rows[g].items = 0;
            for (const auto &layer : layersOf(result, layers[g]))
                rows[g].items += static_cast<double>(layer->points.size());
        }
    for (size_t g = 0; g < graphs.size(); ++g)
        rows[g].medianSeconds = median(times[g]);
    return rows;
}

int standardWorkloads(std::ostream &out, int runs)
{
    out << "grove-cli bench: " << runs << " runs each, single thread unless noted, medians\n\n";
    std::vector<Row> rows;
    std::vector<double> ref;
    size_t refPoints = 0;
    const PlacementSettings standard = grove::bench::standardPlacement(PlacementMethod::Tutorial);  // the same case
    for (int i = 0; i < runs; ++i)
        ref.push_back(seconds([&] {
            refPoints = grove::bench::referencePoissonDisk(standard.width, standard.height, standard.radius, standard.k,
                                                           standard.seed).size();
        }));
    rows.push_back({"reference Bridson (plain port)", double(refPoints), median(ref), "points", "1024^2, r 1, k 30"});
    Row exact = timePlacement("place_layer exact", PlacementMethod::Tutorial, runs);
    exact.note += ", " + formatFixed(median(ref) / exact.medianSeconds, 2) + "x the reference";
    rows.push_back(exact);
    rows.push_back(timePlacement("place_layer method: fast", PlacementMethod::Fast, runs));

    // through the evaluator, as grove-cli eval and the editor run it
    std::vector<std::pair<std::string, std::string>> graphs = {
        {"place_layer, allowed rule + density", grove::bench::maskedDensityGraph()}};
    const int worlds[] = {1024, 2048, 4096, 8192};
    for (int world : worlds)
        graphs.push_back({"4 layers, " + std::to_string(world) + "^2", grove::bench::fourLayersGraph(world)});
    std::vector<Row> evaluated = timeGraphs(graphs, runs);
    if (evaluated.empty()) {
        out << "grove-cli bench: a standard workload failed to evaluate\n";
        return 1;
    }
    evaluated[0].note = "1024^2, radius 1 to 2, patches";
    for (size_t i = 1; i < evaluated.size(); ++i)
        evaluated[i].note = i == 1 ? "radii 32/16/8/4, allowed rule"
                                   : "x" + formatFixed(evaluated[i].medianSeconds / evaluated[i - 1].medianSeconds, 2)
                                         + " the time of 1/4 the area";
    rows.insert(rows.end(), evaluated.begin(), evaluated.end());

    // value-noise fBm rasters, 2048^2, 4 octaves
    const int side = 2048;
    std::vector<double> raster(static_cast<size_t>(side) * side);
    std::vector<double> refNoise;
    for (int i = 0; i < std::max(1, runs / 2); ++i)
        refNoise.push_back(seconds([&] {
            for (int y = 0; y < side; ++y)
                for (int x = 0; x < side; ++x)
                    raster[static_cast<size_t>(y) * side + static_cast<size_t>(x)] =
                        grove::bench::referenceFbm(x * 0.01, y * 0.01, 1, 4, 2, 0.5);
        }));
    rows.push_back({"reference fBm raster (plain port)", double(side) * side, median(refNoise), "samples", "2048^2, 4 octaves"});
    const NodeRegistry &registry = builtinRegistry();
    LoadResult noise = loadGraphFromString("grove: 1\nworld: {width: 2048, height: 2048, seed: 1}\nnodes:\n  n:\n    type: value_noise\n",
                                           "bench", registry);
    Evaluator ev(registry);
    const FieldPtr field = std::get<FieldPtr>(ev.evaluate(noise.graph).output("n"));
    const bool simd = valueNoiseSimdActive();
    for (const std::pair<int, bool> &run : {std::pair{1, true}, std::pair{2, true}, std::pair{1, false}}) {
        const int threads = run.first;  // not a structured binding: Clang before 16 cannot capture one
        const bool allowSimd = run.second;
        if (!allowSimd && !simd)
            continue;  // no AVX2 here: the rows above already are the scalar path
        setValueNoiseSimd(allowSimd);
        std::vector<double> t;
        for (int i = 0; i < runs; ++i)
            t.push_back(seconds([&] { sampleRaster(*field, 0, 0, 1, 1, side, side, raster.data(), threads); }));
        std::string name = "value_noise raster, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
        if (!allowSimd)
            name += ", scalar";
        else if (simd)
            name += ", AVX2";
        rows.push_back({name, double(side) * side, median(t), "samples",
                        formatFixed(median(refNoise) / median(t), 2) + "x the reference, bit-exact"});
    }
    setValueNoiseSimd(true);
    print(out, rows);
    return 0;
}

int graphWorkload(const std::string &file, int runs, std::ostream &out, std::ostream &err)
{
    const NodeRegistry &registry = builtinRegistry();
    LoadResult loaded = loadGraphFile(file, registry);
    for (const auto &d : loaded.diagnostics)
        err << d.format() << "\n";
    if (!loaded.ok())
        return 1;
    const auto ids = exportedLayers(loaded.graph, registry);
    std::vector<std::vector<double>> perLayer(ids.size());
    std::vector<double> total;
    std::vector<size_t> counts(ids.size());
    for (int i = 0; i < runs; ++i) {
        Evaluator ev(registry);  // cold: nothing cached
        EvalResult result;
        total.push_back(seconds([&] { result = ev.evaluate(loaded.graph); }));
        if (!result.ok()) {
            for (auto d : result.diagnostics) {
                d.file = file;
                locate(loaded, d);
                err << d.format() << "\n";
            }
            return 1;
        }
        for (size_t l = 0; l < ids.size(); ++l) {
            perLayer[l].push_back(result.nodes.at(ids[l])->seconds);
            counts[l] = layersOf(result, {ids[l]})[0]->points.size();
        }
    }
    out << "grove-cli bench " << file << ": " << runs << " cold evaluations, medians\n\n";
    std::vector<Row> rows;
    for (size_t l = 0; l < ids.size(); ++l)
        rows.push_back({ids[l], double(counts[l]), std::max(median(perLayer[l]), 1e-9), "points", ""});
    size_t all = 0;
    for (size_t c : counts)
        all += c;
    rows.push_back({"whole graph", double(all), median(total), "points", "every node, cold"});
    print(out, rows);
    return 0;
}

} // namespace

int runBench(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    int runs = 5;
    std::string file;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--runs" && i + 1 < args.size()) {
            const std::string &v = args[++i];
            auto res = std::from_chars(v.data(), v.data() + v.size(), runs);
            if (res.ec != std::errc() || res.ptr != v.data() + v.size() || runs < 1 || runs > 1000) {
                err << "grove-cli: --runs takes a whole number from 1 to 1000, got '" << v << "'\n";
                return 2;
            }
        } else if (!args[i].empty() && args[i][0] == '-') {
            err << "grove-cli: unknown option for bench: " << args[i] << "\n";
            return 2;
        } else if (file.empty()) {
            file = args[i];
        } else {
            err << "grove-cli: bench takes at most one FILE\n";
            return 2;
        }
    }
    return file.empty() ? standardWorkloads(out, runs) : graphWorkload(file, runs, out, err);
}
