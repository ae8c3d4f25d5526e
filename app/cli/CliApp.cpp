// grove-cli's commands as a function: validate graphs, evaluate them headless and export their
// layers, compare two versions (DiffCommand), list the catalog. main.cpp and the CLI fuzzer call runCli.
#include "CliApp.h"

#include "BenchCommand.h"
#include "CheckCommand.h"
#include "ChunkedRun.h"
#include "CliOptions.h"
#include "CliUsage.h"
#include "DiffCommand.h"
#include "InputsCommand.h"

#include "core/base/SafeFile.h"
#include "core/formats/CatalogExport.h"
#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/export/ExportWriter.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/analysis/LayerStats.h"
#include "core/base/NumberText.h"
#include "core/graph/NodeRegistry.h"
#include "core/graph/Overrides.h"
#include "core/formats/PointsExport.h"
#include "core/formats/ShardMerge.h"
#include "core/formats/StreamExport.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace grove;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;


// The commands, writing data to `out` and messages to `err` (std::cout and std::cerr in grove-cli).
class Cli
{
public:
    Cli(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}

    int run(const std::vector<std::string> &args);

private:
    int usageError(const std::string &message);
    void printDiagnostics(const Diagnostics &diagnostics);
    void printStats(const EvalResult &result, const std::vector<std::string> &ids,
                    const std::vector<PointLayerPtr> &layers, const World &world);
    int cmdValidate(const std::vector<std::string> &args);
    int cmdEval(const std::vector<std::string> &args);
    int cmdFormat(const std::vector<std::string> &args);
    int cmdMerge(const std::vector<std::string> &args);
    int interrupted();
    int cmdNodes(const std::vector<std::string> &args);

    std::ostream &m_out;
    std::ostream &m_err;
};

int Cli::usageError(const std::string &message)
{
    m_err << "grove-cli: " << message << "\n(see grove-cli --help)\n";
    return kExitUsage;
}

void Cli::printDiagnostics(const Diagnostics &diagnostics)
{
    for (const auto &d : diagnostics)
        m_err << d.format() << "\n";
}

int Cli::cmdValidate(const std::vector<std::string> &args)
{
    if (args.empty())
        return usageError("validate needs at least one FILE");
    const NodeRegistry &registry = builtinRegistry();
    bool anyErrors = false;
    for (const auto &file : args) {
        if (!file.empty() && file[0] == '-' && file != "-")
            return usageError("unknown option for validate: " + file);
        LoadResult loaded = loadGraphFile(file, registry);
        if (loaded.ok()) {  // the groups too: what evaluation would see (problems only; the hash is the file's)
            LoadResult expanded = loaded;
            expandLoadedGroups(expanded, file, registry);
            loaded.diagnostics = std::move(expanded.diagnostics);
        }
        printDiagnostics(loaded.diagnostics);
        if (!loaded.ok()) {
            anyErrors = true;
            size_t errors = 0;
            for (const auto &d : loaded.diagnostics)
                errors += d.severity == Diagnostic::Severity::Error;
            m_err << file << ": " << errors << (errors == 1 ? " problem" : " problems") << "\n";
        } else {
            m_out << file << ": ok (" << loaded.graph.nodes.size() << " nodes, "
                      << graphHash(loaded.graph, registry) << ")\n";
        }
    }
    return anyErrors ? kExitInvalid : kExitOk;
}

// One line per layer on stderr, aligned for reading in a CI log.
void Cli::printStats(const EvalResult &result, const std::vector<std::string> &ids, const std::vector<PointLayerPtr> &layers,
                const World &world)
{
    auto pad = [](std::string s, size_t width, bool left = false) {
        if (s.size() >= width)
            return s;
        return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
    };
    size_t nameWidth = 5;
    for (const auto &l : layers)
        nameWidth = std::max(nameWidth, l->info.name.size());
    m_err << pad("layer", nameWidth, true) << "     count   tightest  too close         widest clearing       time\n";
    for (size_t i = 0; i < layers.size(); ++i) {
        const PointLayer &layer = *layers[i];
        const LayerStats st = computeLayerStats(result, ids[i], layers[i], world);
        auto node = result.nodes.find(ids[i]);
        const double ms = node == result.nodes.end() ? 0 : node->second->seconds * 1000;
        m_err << pad(layer.info.name, nameWidth, true) << pad(std::to_string(st.count), 10)
                  << pad(st.count >= 2 ? formatFixed(st.tightest, 2) : "-", 11) << pad(std::to_string(st.tooClose), 11)
                  << pad(st.volume ? std::string("(3D)")
                                   : st.count ? formatFixed(st.clearingDiameter, 2) + " @ " + formatFixed(st.clearingX, 0) + "," + formatFixed(st.clearingY, 0) : "-", 24)
                  << pad(formatFixed(ms, 1) + " ms", 11) << "\n";
        // a volume measures in 3D: its spacing above, its density against the figures in README "Volumes"
        if (st.volume)
            m_err << pad("", nameWidth, true) << "     volume: tightest and too close in 3D; density N r^3/V = "
                  << formatFixed(st.density, 3) << " (3D Bridson at k = 30, measured by Grove: 0.575 away from the walls, "
                  << "about 0.60 over a 30 r cube with its walls; saturated random packing, the most any such "
                  << "sampler reaches: 0.731)\n";
    }
}

int Cli::cmdEval(const std::vector<std::string> &args)
{
    std::string file, out, formatName = "json", layersArg, pngPath;
    long long pngSize = 2048, seed = 0;
    long long maxPoints = static_cast<long long>(limits::defaultMaxPointsPerLayer);
    bool split = false, haveSeed = false, stats = false, quiet = false;
    int threads = 0;
    std::optional<Region> region;
    std::optional<ShardSpec> shard;
    std::vector<std::string> sets;
    auto store = [](std::string &to) { return [&to](const std::string &v) -> cli::Problem { to = v; return {}; }; };
    auto set = [](bool &to) { return [&to](const std::string &) -> cli::Problem { to = true; return {}; }; };
    const std::vector<cli::Option> options = {
        {{"-o", "--out"}, "a PATH", store(out)},
        {{"--format"}, "json, csv, tiled, gltf, godot, unreal or unreal-json", store(formatName)},
        {{"--png"}, "a FILE", store(pngPath)},
        {{"--png-size"}, "a number of pixels", [&](const std::string &v) -> cli::Problem {
             if (auto n = cli::wholeNumber(v, 16, 16384)) {
                 pngSize = *n;
                 return {};
             }
             return "--png-size takes a whole number of pixels from 16 to 16384, got '" + v + "'";
         }},
        {{"--split"}, "", set(split)},
        {{"--stats"}, "", set(stats)},
        {{"--seed"}, "a whole number", [&](const std::string &v) -> cli::Problem {
             if (auto n = cli::wholeNumber(v, INT32_MIN, INT32_MAX)) {
                 seed = *n;
                 haveSeed = true;
                 return {};
             }
             return "--seed takes a whole number from -2147483648 to 2147483647, got '" + v + "'";
         }},
        {{"--set"}, "NODE.PARAM=VALUE", [&](const std::string &v) -> cli::Problem {
             sets.push_back(v);
             return {};
         }},
        {{"--layers"}, "a comma-separated list of layers", store(layersArg)},
        {{"--max-points"}, "a number", [&](const std::string &v) -> cli::Problem {
             if (auto n = cli::wholeNumber(v, 1, INT64_MAX)) {
                 maxPoints = *n;
                 return {};
             }
             return "--max-points takes a whole number of at least 1, got '" + v + "'";
         }},
        {{"--threads"}, "a number", [&](const std::string &v) { return cli::parseThreads(v, threads); }},
        {{"--region"}, "x0,y0,x1,y1", [&](const std::string &v) { return cli::parseRegion(v, region.emplace()); }},
        {{"--shard"}, "K/N", [&](const std::string &v) { return cli::parseShard(v, shard.emplace()); }},
        {{"--quiet"}, "", set(quiet)},
    };
    if (cli::Problem p = cli::parseOptions(args, "eval", options, [&](const std::string &a) -> cli::Problem {
            if (!file.empty())
                return "eval takes one FILE (got '" + file + "' and '" + a + "')";
            file = a;
            return {};
        }))
        return usageError(*p);
    if (file.empty())
        return usageError("eval needs a FILE");
    ExportFormat format;
    if (!exportFormatFromName(formatName, format))
        return usageError("--format takes json, csv, tiled, gltf, godot, unreal or unreal-json, got '" + formatName + "'");
    if (format == ExportFormat::Gltf && (out.empty() || out == "-") && ::isatty(STDOUT_FILENO))
        return usageError("--format gltf writes binary glTF: give -o FILE.glb, or redirect stdout to a file");
    if (split && (out.empty() || out == "-"))
        return usageError("--split needs -o FOLDER");
    if (shard && (format != ExportFormat::Json || split))
        return usageError("--shard writes one grove.points JSON part (join the parts with grove-cli merge): "
                          "it does not go with --format " + formatName + (split ? " or --split" : ""));
    if ((region || shard) && (stats || !pngPath.empty()))
        return usageError("--stats and --png cover the whole world: they do not go with --region or --shard");

    const NodeRegistry &registry = builtinRegistry();
    LoadResult loaded = loadGraphFile(file, registry);
    if (loaded.ok())
        expandLoadedGroups(loaded, file, registry);  // group nodes become their files' nodes
    printDiagnostics(loaded.diagnostics);
    if (!loaded.ok())
        return kExitInvalid;
    Graph graph = loaded.graph;
    if (haveSeed)
        graph.world.seed = static_cast<std::int32_t>(seed);
    for (const auto &s : sets) {
        if (auto problem = applyOverride(graph, registry, s)) {
            m_err << file << ": error: --set " << s << ": " << *problem << "\n";
            return kExitInvalid;
        }
    }

    const World &world = graph.world;
    const bool chunked = world.chunk > 0;
    auto located = [&](const std::string &message) {
        m_err << file << ": error: " << message << "\n";
        return kExitInvalid;
    };
    if (!chunked && (region || shard))
        return located(std::string(region ? "--region" : "--shard") + " needs a chunked world (world: {chunk: SIDE})");
    auto reportFailures = [&](const EvalResult &result) {
        for (auto d : result.diagnostics) {
            d.file = file;
            locate(loaded, d);
            m_err << d.format() << "\n";
        }
        return kExitInvalid;
    };
    if (world.endless && !region) {
        // the graph's own problems first: an endless world evaluated without a region places nothing
        Evaluator check(registry);
        EvalRequest lazy;
        lazy.limits.maxPointsPerLayer = static_cast<std::uint64_t>(maxPoints);
        lazy.limits.placeWholeWorld = false;
        if (const EvalResult result = check.evaluate(graph, lazy); !result.ok())
            return reportFailures(result);
        return located("the world is endless (world.chunk without width and height): give the rectangle to export with "
                       "--region x0,y0,x1,y1");
    }
    if (world.endless && (stats || !pngPath.empty()))
        return located("--stats and --png need a world with a width and a height; this one is endless");
    if (region && !world.endless && (region->x0 < 0 || region->y0 < 0 || region->x1 > world.width || region->y1 > world.height))
        return located("--region " + formatNumber(region->x0) + "," + formatNumber(region->y0) + "," + formatNumber(region->x1)
                       + "," + formatNumber(region->y1) + " reaches outside the world (0,0 to " + formatNumber(world.width)
                       + "," + formatNumber(world.height) + ")");
    if (region && chunked) {
        const double reach = kChunkRange * world.chunk;
        if (region->x0 < -reach || region->y0 < -reach || region->x1 > reach || region->y1 > reach)
            return located("--region reaches beyond chunk " + std::to_string(kChunkRange) + " from the origin (" + formatNumber(reach)
                           + " units at chunk " + formatNumber(world.chunk) + ")");
    }

    std::vector<std::string> layers = exportedLayers(graph, registry);
    if (!layersArg.empty()) {
        std::vector<std::string> wanted;
        size_t pos = 0;
        while (pos <= layersArg.size()) {
            size_t comma = layersArg.find(',', pos);
            if (comma == std::string::npos)
                comma = layersArg.size();
            std::string name = layersArg.substr(pos, comma - pos);
            if (!name.empty())
                wanted.push_back(name);
            pos = comma + 1;
        }
        std::vector<std::string> chosen;
        for (const auto &w : wanted) {
            // a layer is named by its node id or its name param
            std::string match;
            std::vector<std::string> known;
            for (const auto &id : layers) {
                const Node *n = graph.node(id);
                const std::string name = layerName(*n, *registry.find(n->type));
                known.push_back(name);
                if (w == id || w == name)
                    match = id;
            }
            if (match.empty()) {
                m_err << file << ": error: --layers: no exported layer '" << w << "'" << didYouMean(w, known)
                          << "\n";
                return kExitInvalid;
            }
            if (std::find(chosen.begin(), chosen.end(), match) == chosen.end())
                chosen.push_back(match);
        }
        layers = chosen;
    }

    // A chunked world streams its JSON or CSV a row of chunks at a time; other formats, --split,
    // --png and --stats place what they export in memory (the whole world for --png and --stats).
    const bool streamedRun = chunked && (format == ExportFormat::Json || format == ExportFormat::Csv) && !split
                             && pngPath.empty() && !stats;
    const Region wholeRegion = region ? *region : Region{0, 0, world.width, world.height};
    ExportJob job;
    job.format = format;
    job.split = split;
    job.layers = layers;
    job.graphPath = file;
    job.pngSize = pngPath.empty() ? 0 : static_cast<int>(pngSize);
    job.threads = threads;
    job.cancel = &cli::interruptFlag();
    if (region)
        job.region = region;
    Evaluator evaluator(registry);
    EvalRequest request;
    request.targets = exportTargets(graph, registry, job);
    request.limits.maxPointsPerLayer = static_cast<std::uint64_t>(maxPoints);
    request.limits.threads = threads;
    request.limits.placeWholeWorld = !(chunked && (streamedRun || region));
    request.cancel = &cli::interruptFlag();
    // progress only on a terminal, and only when the messages go there (not in-process callers)
    cli::ProgressLine progress(m_err, !quiet && &m_err == &std::cerr && ::isatty(STDERR_FILENO));
    if (progress.on())
        request.progress = [&](const EvalProgress &p) {
            progress.update("evaluating " + p.currentNode + ", node " + std::to_string(std::min(p.nodesDone + 1, p.nodesTotal))
                                + "/" + std::to_string(p.nodesTotal),
                            p.fraction, 0);
        };
    EvalResult result = request.targets.empty() ? EvalResult{} : evaluator.evaluate(graph, request);
    progress.clear();
    if (cli::interruptFlag() || result.status == EvalResult::Status::Cancelled)
        return interrupted();
    if (!result.ok())
        return reportFailures(result);

    if (!request.limits.placeWholeWorld)  // placed chunk by chunk: the region's packing bound first
        if (auto problem = cli::regionTooLarge(layersOf(result, layers), wholeRegion, static_cast<std::uint64_t>(maxPoints),
                                               " (--max-points): ask for a smaller --region, or raise --max-points"))
            return located(*problem);

    ExportDestination destination{out == "-" ? std::string() : out, pngPath};
    if (auto err = checkExportDestination(destination, split)) {
        m_err << "grove-cli: " << *err << "\n";
        return kExitInvalid;
    }
    if (streamedRun) {
        StreamExportJob sj;
        sj.format = format;
        sj.info.graphName = graph.name;
        sj.info.graphFile = file.substr(file.find_last_of('/') + 1);
        sj.info.graphHash = graphHash(graph, registry);
        sj.info.world = world;
        if (region)
            sj.info.bounds = region;
        sj.layers = layersOf(result, layers);
        sj.region = wholeRegion;
        sj.shard = shard;
        sj.threads = threads;
        sj.cacheBytes = request.limits.chunkCacheBytes;
        sj.cancel = &cli::interruptFlag();
        if (progress.on())
            sj.progress = [&](const StreamProgress &p) {
                progress.update("chunks " + std::to_string(p.chunksDone) + "/" + std::to_string(p.chunksTotal),
                                p.chunksTotal ? double(p.chunksDone) / double(p.chunksTotal) : 1.0, p.points);
            };
        std::string error;
        const StreamStatus status = streamExport(sj, destination.points, &error);
        progress.clear();
        if (status == StreamStatus::Cancelled || cli::interruptFlag())
            return interrupted();
        if (status == StreamStatus::Failed) {
            m_err << "grove-cli: " << error << "\n";
            return kExitInvalid;
        }
        return kExitOk;
    }

    const std::vector<PointLayerPtr> pointLayers = layersOf(result, layers);
    if (stats)
        printStats(result, layers, pointLayers, graph.world);
    // Every destination is checked before rendering, and everything is rendered before the first
    // byte is written: a failure leaves no half results.
    std::string error;
    auto built = buildExport(graph, registry, result, job, &error);
    if (cli::interruptFlag())
        return interrupted();
    if (!built) {
        m_err << "grove-cli: cannot render " << pngPath << ": " << error << "\n";
        return kExitInvalid;
    }
    if (auto err = writeExport(*built, destination, split)) {
        m_err << "grove-cli: " << *err << "\n";
        return kExitInvalid;
    }
    if (destination.points.empty()) {
        m_out << built->files.front().bytes << std::flush;
        return m_out ? kExitOk : kExitInvalid;
    }
    return kExitOk;
}

int Cli::interrupted()
{
    m_err << "grove-cli: interrupted; nothing written\n";
    return cli::kExitInterrupted;
}

int Cli::cmdMerge(const std::vector<std::string> &args)
{
    std::string out;
    std::vector<std::string> parts;
    const std::vector<cli::Option> options = {
        {{"-o", "--out"}, "a PATH", [&](const std::string &v) -> cli::Problem { out = v; return {}; }},
    };
    if (cli::Problem p = cli::parseOptions(args, "merge", options, [&](const std::string &a) -> cli::Problem {
            parts.push_back(a);
            return {};
        }))
        return usageError(*p);
    if (parts.empty())
        return usageError("merge needs the PART files of grove-cli eval --shard");
    if (auto err = mergeShards(parts, out == "-" ? std::string() : out, &cli::interruptFlag())) {
        if (cli::interruptFlag())
            return interrupted();
        m_err << *err;
        return kExitInvalid;
    }
    return kExitOk;
}

int Cli::cmdFormat(const std::vector<std::string> &args)
{
    bool check = false;
    std::vector<std::string> files;
    for (const auto &a : args) {
        if (a == "--check")
            check = true;
        else if (!a.empty() && a[0] == '-')
            return usageError("unknown option for format: " + a);
        else
            files.push_back(a);
    }
    if (files.empty())
        return usageError("format needs at least one FILE");
    const NodeRegistry &registry = builtinRegistry();
    int status = kExitOk;
    for (const auto &file : files) {
        LoadResult loaded = loadGraphFile(file, registry);
        printDiagnostics(loaded.diagnostics);
        if (!loaded.ok()) {
            status = kExitInvalid;  // never rewrite a graph that did not load cleanly
            continue;
        }
        const std::string canonical = saveGraphToString(loaded.graph, registry);
        std::ifstream in(file, std::ios::binary);
        std::ostringstream current;
        current << in.rdbuf();
        if (current.str() == canonical)
            continue;
        if (check) {
            m_err << file << ": not in canonical form\n";
            status = kExitInvalid;
        } else if (auto err = writeFileAtomically(file, canonical)) {
            m_err << "grove-cli: " << *err << "\n";
            status = kExitInvalid;
        } else {
            m_err << file << ": formatted\n";
        }
    }
    return status;
}

int Cli::cmdNodes(const std::vector<std::string> &args)
{
    std::string mode = "text";
    for (const auto &a : args) {
        if (a == "--json")
            mode = "json";
        else if (a == "--markdown")
            mode = "markdown";
        else
            return usageError("nodes takes --json or --markdown, got '" + a + "'");
    }
    const NodeRegistry &registry = builtinRegistry();
    if (mode == "json")
        m_out << catalogJson(registry);
    else if (mode == "markdown")
        m_out << catalogMarkdown(registry);
    else
        m_out << catalogText(registry);
    return kExitOk;
}

int Cli::run(const std::vector<std::string> &args)
{
    if (args.empty()) {
        m_err << kCliUsage;
        return kExitUsage;
    }
    const std::string command = args.front();
    std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (command == "--help" || command == "-h" || command == "help") {
            m_out << kCliUsage;
            return kExitOk;
        }
        // `grove-cli eval --help` and the like: the usage, not an error about the option
        for (const std::string &a : rest)
            if (a == "--help" || a == "-h") {
                m_out << kCliUsage;
                return kExitOk;
            }
        if (command == "--version") {
            m_out << "grove-cli " << kGroveVersion << "\n";
            return kExitOk;
        }
        if (command == "validate")
            return cmdValidate(rest);
        if (command == "eval")
            return cmdEval(rest);
        if (command == "format")
            return cmdFormat(rest);
        if (command == "merge")
            return cmdMerge(rest);
        if (command == "nodes")
            return cmdNodes(rest);
        if (command == "diff")
            return cli::runDiff(rest, m_out, m_err);
        if (command == "bench")
            return runBench(rest, m_out, m_err);
        if (command == "check")
            return runCheck(rest, m_out, m_err);
        if (command == "inputs")
            return runInputs(rest, m_out, m_err);
    } catch (const std::bad_alloc &) {
        m_err << "grove-cli: out of memory\n";
        return kExitInvalid;
    } catch (const std::exception &e) {
        m_err << "grove-cli: internal error: " << e.what() << "\n";
        return kExitInvalid;
    }
    return usageError("unknown command '" + command + "'"
                      + didYouMean(command, {"validate", "eval", "check", "format", "merge", "inputs", "diff", "bench", "nodes", "--help", "--version"}));
}

} // namespace

int runCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    return Cli(out, err).run(args);
}
