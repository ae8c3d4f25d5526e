// grove-cli eval, in the order a run takes: read the options and refuse those that do not go
// together; load the graph (--seed and --set applied); hold --region and --shard to the world;
// choose the layers; evaluate; export, streamed a row of chunks at a time for a chunked world's
// JSON or CSV, otherwise rendered whole before the first byte is written.
#include "EvalCommand.h"

#include "ChunkedRun.h"
#include "CliMessages.h"
#include "CliOptions.h"

#include "core/analysis/LayerStats.h"
#include "core/base/Limits.h"
#include "core/base/NumberText.h"
#include "core/base/Value.h"
#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/export/ExportWriter.h"
#include "core/formats/PointsExport.h"
#include "core/formats/StreamExport.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"
#include "core/graph/Overrides.h"
#include "core/sampling/ChunkedLayer.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <unistd.h>

using namespace grove;

namespace {

// What the command line asks of eval.
struct EvalOptions
{
    std::string file, out, formatName = "json", layers, pngPath;
    ExportFormat format = ExportFormat::Json;
    long long pngSize = 2048, seed = 0;
    long long maxPoints = static_cast<long long>(limits::defaultMaxPointsPerLayer);
    bool split = false, haveSeed = false, stats = false, quiet = false;
    int threads = 0;
    std::optional<Region> region;
    std::optional<ShardSpec> shard;
    std::vector<std::string> sets;  // NODE.PARAM=VALUE, in the order given

    // the points file's path, or empty for standard output (no -o, or -o -)
    std::string pointsPath() const { return out == "-" ? std::string() : out; }
};

// Reads `args` into `o`, then refuses what does not go together, before any file is read.
cli::Problem readOptions(const std::vector<std::string> &args, EvalOptions &o)
{
    auto store = [](std::string &to) { return [&to](const std::string &v) -> cli::Problem { to = v; return {}; }; };
    auto set = [](bool &to) { return [&to](const std::string &) -> cli::Problem { to = true; return {}; }; };
    const std::vector<cli::Option> options = {
        {{"-o", "--out"}, "a PATH", store(o.out)},
        {{"--format"}, "json, csv, tiled, gltf, godot, unreal or unreal-json", store(o.formatName)},
        {{"--png"}, "a FILE", store(o.pngPath)},
        {{"--png-size"}, "a number of pixels", [&](const std::string &v) -> cli::Problem {
             if (auto n = cli::wholeNumber(v, 16, 16384)) {
                 o.pngSize = *n;
                 return {};
             }
             return "--png-size takes a whole number of pixels from 16 to 16384, got '" + v + "'";
         }},
        {{"--split"}, "", set(o.split)},
        {{"--stats"}, "", set(o.stats)},
        {{"--seed"}, "a whole number", [&](const std::string &v) -> cli::Problem {
             if (auto n = cli::wholeNumber(v, INT32_MIN, INT32_MAX)) {
                 o.seed = *n;
                 o.haveSeed = true;
                 return {};
             }
             return "--seed takes a whole number from -2147483648 to 2147483647, got '" + v + "'";
         }},
        {{"--set"}, "NODE.PARAM=VALUE", [&](const std::string &v) -> cli::Problem {
             o.sets.push_back(v);
             return {};
         }},
        {{"--layers"}, "a comma-separated list of layers", store(o.layers)},
        {{"--max-points"}, "a number", [&](const std::string &v) -> cli::Problem {
             if (auto n = cli::wholeNumber(v, 1, INT64_MAX)) {
                 o.maxPoints = *n;
                 return {};
             }
             return "--max-points takes a whole number of at least 1, got '" + v + "'";
         }},
        {{"--threads"}, "a number", [&](const std::string &v) { return cli::parseThreads(v, o.threads); }},
        {{"--region"}, "x0,y0,x1,y1", [&](const std::string &v) { return cli::parseRegion(v, o.region.emplace()); }},
        {{"--shard"}, "K/N", [&](const std::string &v) { return cli::parseShard(v, o.shard.emplace()); }},
        {{"--quiet"}, "", set(o.quiet)},
    };
    if (cli::Problem p = cli::parseOptions(args, "eval", options, [&](const std::string &a) -> cli::Problem {
            if (!o.file.empty())
                return "eval takes one FILE (got '" + o.file + "' and '" + a + "')";
            o.file = a;
            return {};
        }))
        return p;
    if (o.file.empty())
        return "eval needs a FILE";
    if (!exportFormatFromName(o.formatName, o.format))
        return "--format takes json, csv, tiled, gltf, godot, unreal or unreal-json, got '" + o.formatName + "'";
    const bool toStdout = o.pointsPath().empty();
    if (o.format == ExportFormat::Gltf && toStdout && ::isatty(STDOUT_FILENO))
        return "--format gltf writes binary glTF: give -o FILE.glb, or redirect stdout to a file";
    if (o.split && toStdout)
        return "--split needs -o FOLDER";
    if (o.shard && (o.format != ExportFormat::Json || o.split))
        return "--shard writes one grove.points JSON part (join the parts with grove-cli merge): "
               "it does not go with --format " + o.formatName + (o.split ? " or --split" : "");
    if ((o.region || o.shard) && (o.stats || !o.pngPath.empty()))
        return "--stats and --png cover the whole world: they do not go with --region or --shard";
    return std::nullopt;
}

// "a,b,,c": the names between the commas, the empty ones left out.
std::vector<std::string> commaList(const std::string &text)
{
    std::vector<std::string> names;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t comma = text.find(',', pos);
        if (comma == std::string::npos)
            comma = text.size();
        std::string name = text.substr(pos, comma - pos);
        if (!name.empty())
            names.push_back(name);
        pos = comma + 1;
    }
    return names;
}

// --stats: one line per layer on err, aligned for reading in a CI log.
void printStats(std::ostream &err, const EvalResult &result, const std::vector<std::string> &ids,
                const std::vector<PointLayerPtr> &layers, const World &world)
{
    auto pad = [](std::string s, size_t width, bool left = false) {
        if (s.size() >= width)
            return s;
        return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
    };
    size_t nameWidth = 5;
    for (const auto &l : layers)
        nameWidth = std::max(nameWidth, l->info.name.size());
    err << pad("layer", nameWidth, true) << "     count   tightest  too close         widest clearing       time\n";
    for (size_t i = 0; i < layers.size(); ++i) {
        const PointLayer &layer = *layers[i];
        const LayerStats st = computeLayerStats(result, ids[i], layers[i], world);
        auto node = result.nodes.find(ids[i]);
        const double ms = node == result.nodes.end() ? 0 : node->second->seconds * 1000;
        err << pad(layer.info.name, nameWidth, true) << pad(std::to_string(st.count), 10)
            << pad(st.count >= 2 ? formatFixed(st.tightest, 2) : "-", 11) << pad(std::to_string(st.tooClose), 11)
            << pad(st.volume ? std::string("(3D)")
                             : st.count ? formatFixed(st.clearingDiameter, 2) + " @ " + formatFixed(st.clearingX, 0) + "," + formatFixed(st.clearingY, 0) : "-", 24)
            << pad(formatFixed(ms, 1) + " ms", 11) << "\n";
        // a volume measures in 3D: its spacing above, its density against the figures in README "Volumes"
        if (st.volume)
            err << pad("", nameWidth, true) << "     volume: tightest and too close in 3D; density N r^3/V = "
                << formatFixed(st.density, 3) << " (3D Bridson at k = 30, measured by Grove: 0.575 away from the walls, "
                << "about 0.60 over a 30 r cube with its walls; saturated random packing, the most any such "
                << "sampler reaches: 0.731)\n";
    }
}

// One eval run, its steps in the order they happen; each step that stops the run has printed why.
class EvalRun
{
public:
    EvalRun(const EvalOptions &options, std::ostream &out, std::ostream &err)
        : m_o(options), m_out(out), m_err(err), m_registry(builtinRegistry()), m_groups(m_registry), m_evaluator(m_registry)
    {
    }

    int run();

private:
    bool load();                         // the graph, its groups expanded, --seed and --set applied
    std::optional<int> refuseWorld();    // --region, --shard and an endless world held to the world
    bool chooseLayers();                 // the exported layers, or those --layers names
    std::optional<int> evaluate();       // the chosen layers placed (chunk by chunk when streamed or cut)
    int exportStreamed(const ExportDestination &destination);
    int exportWhole(const ExportDestination &destination);

    int located(const std::string &message);       // "FILE: error: MESSAGE"
    int reportFailures(const EvalResult &result);  // the evaluation's problems at their lines in the file

    const EvalOptions &m_o;
    std::ostream &m_out;
    std::ostream &m_err;
    const NodeRegistry &m_registry;
    GroupResolver m_groups;  // the run's groups, read as the graph loads
    Evaluator m_evaluator;  // kept until the export is written (a chunked layer places its chunks as it is exported)
    LoadResult m_loaded;
    Graph m_graph;  // as loaded, then --seed and --set
    std::vector<std::string> m_layers;
    bool m_streamed = false;
    Region m_region;  // --region, or the whole world
    ExportJob m_job;
    EvalRequest m_request;
    EvalResult m_result;
    std::optional<cli::ProgressLine> m_progress;
};

int EvalRun::located(const std::string &message)
{
    m_err << m_o.file << ": error: " << message << "\n";
    return cli::kExitInvalid;
}

int EvalRun::reportFailures(const EvalResult &result)
{
    for (auto d : result.diagnostics) {
        d.file = m_o.file;
        locate(m_loaded, d);
        m_err << d.format() << "\n";
    }
    return cli::kExitInvalid;
}

bool EvalRun::load()
{
    m_loaded = loadGraphFile(m_o.file, m_groups);
    if (m_loaded.ok())
        expandLoadedGroups(m_loaded, m_o.file, m_groups);  // group nodes become their files' nodes
    cli::printDiagnostics(m_err, m_loaded.diagnostics);
    if (!m_loaded.ok())
        return false;
    m_graph = m_loaded.graph;
    if (m_o.haveSeed)
        m_graph.world.seed = static_cast<std::int32_t>(m_o.seed);
    for (const auto &s : m_o.sets) {
        if (auto problem = applyOverride(m_graph, m_registry, s)) {
            m_err << m_o.file << ": error: --set " << s << ": " << *problem << "\n";
            return false;
        }
    }
    return true;
}

std::optional<int> EvalRun::refuseWorld()
{
    const World &world = m_graph.world;
    const bool chunked = world.chunk > 0;
    const std::optional<Region> &region = m_o.region;
    if (!chunked && (region || m_o.shard))
        return located(std::string(region ? "--region" : "--shard") + " needs a chunked world (world: {chunk: SIDE})");
    if (world.endless && !region) {
        // the graph's own problems first: an endless world evaluated without a region places nothing
        Evaluator check(m_registry);
        EvalRequest lazy;
        lazy.limits.maxPointsPerLayer = static_cast<std::uint64_t>(m_o.maxPoints);
        lazy.limits.placeWholeWorld = false;
        if (const EvalResult result = check.evaluate(m_graph, lazy); !result.ok())
            return reportFailures(result);
        return located("the world is endless (world.chunk without width and height): give the rectangle to export with "
                       "--region x0,y0,x1,y1");
    }
    if (world.endless && (m_o.stats || !m_o.pngPath.empty()))
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
    return std::nullopt;
}

bool EvalRun::chooseLayers()
{
    m_layers = exportedLayers(m_graph, m_registry);
    if (m_o.layers.empty())
        return true;
    std::vector<std::string> chosen;
    for (const auto &w : commaList(m_o.layers)) {
        // a layer is named by its node id or its name param
        std::string match;
        std::vector<std::string> known;
        for (const auto &id : m_layers) {
            const std::string name = layerName(m_graph, m_registry, id);
            known.push_back(name);
            if (w == layerNodeId(m_graph, m_registry, id) || w == name)
                match = id;
        }
        if (match.empty()) {
            m_err << m_o.file << ": error: --layers: no exported layer '" << w << "'" << didYouMean(w, known) << "\n";
            return false;
        }
        if (std::find(chosen.begin(), chosen.end(), match) == chosen.end())
            chosen.push_back(match);
    }
    m_layers = chosen;
    return true;
}

std::optional<int> EvalRun::evaluate()
{
    const World &world = m_graph.world;
    const bool chunked = world.chunk > 0;
    // A chunked world streams its JSON or CSV a row of chunks at a time; other formats, --split,
    // --png and --stats place what they export in memory (the whole world for --png and --stats).
    m_streamed = chunked && (m_o.format == ExportFormat::Json || m_o.format == ExportFormat::Csv) && !m_o.split
                 && m_o.pngPath.empty() && !m_o.stats;
    m_region = m_o.region ? *m_o.region : Region{0, 0, world.width, world.height};
    m_job.format = m_o.format;
    m_job.split = m_o.split;
    m_job.layers = m_layers;
    m_job.graphPath = m_o.file;
    m_job.pngSize = m_o.pngPath.empty() ? 0 : static_cast<int>(m_o.pngSize);
    m_job.threads = m_o.threads;
    m_job.cancel = &cli::interruptFlag();
    m_job.streamText = !m_o.pointsPath().empty();  // into a file: its text never sits whole in memory
    if (m_o.region)
        m_job.region = m_o.region;
    m_request.targets = exportTargets(m_graph, m_registry, m_job);
    m_request.limits.maxPointsPerLayer = static_cast<std::uint64_t>(m_o.maxPoints);
    m_request.limits.threads = m_o.threads;
    m_request.limits.placeWholeWorld = !(chunked && (m_streamed || m_o.region));
    m_request.cancel = &cli::interruptFlag();
    // progress only on a terminal, and only when the messages go there (not in-process callers)
    cli::ProgressLine &progress = m_progress.emplace(m_err, !m_o.quiet && &m_err == &std::cerr && ::isatty(STDERR_FILENO));
    if (progress.on())
        m_request.progress = [&](const EvalProgress &p) {
            progress.update("evaluating " + p.currentNode + ", node " + std::to_string(std::min(p.nodesDone + 1, p.nodesTotal))
                                + "/" + std::to_string(p.nodesTotal),
                            p.fraction, 0);
        };
    m_result = m_request.targets.empty() ? EvalResult{} : m_evaluator.evaluate(m_graph, m_request);
    progress.clear();
    if (cli::interruptFlag() || m_result.status == EvalResult::Status::Cancelled)
        return cli::interrupted(m_err);
    if (!m_result.ok())
        return reportFailures(m_result);
    if (!m_request.limits.placeWholeWorld)  // placed chunk by chunk: the region's packing bound first
        if (auto problem = cli::regionTooLarge(layersOf(m_result, m_layers), m_region, static_cast<std::uint64_t>(m_o.maxPoints),
                                               " (--max-points): ask for a smaller --region, or raise --max-points"))
            return located(*problem);
    return std::nullopt;
}

int EvalRun::exportStreamed(const ExportDestination &destination)
{
    StreamExportJob sj;
    sj.format = m_o.format;
    sj.info.graphName = m_graph.name;
    sj.info.graphFile = m_o.file.substr(m_o.file.find_last_of('/') + 1);
    sj.info.graphHash = graphHash(m_graph, m_registry);
    sj.info.world = m_graph.world;
    if (m_o.region)
        sj.info.bounds = m_o.region;
    sj.layers = layersOf(m_result, m_layers);
    sj.region = m_region;
    sj.shard = m_o.shard;
    sj.threads = m_o.threads;
    sj.cacheBytes = m_request.limits.chunkCacheBytes;
    sj.cancel = &cli::interruptFlag();
    cli::ProgressLine &progress = *m_progress;
    if (progress.on())
        sj.progress = [&](const StreamProgress &p) {
            progress.update("chunks " + std::to_string(p.chunksDone) + "/" + std::to_string(p.chunksTotal),
                            p.chunksTotal ? double(p.chunksDone) / double(p.chunksTotal) : 1.0, p.points);
        };
    std::string error;
    const StreamStatus status = streamExport(sj, destination.points, &error);
    progress.clear();
    if (status == StreamStatus::Cancelled || cli::interruptFlag())
        return cli::interrupted(m_err);
    if (status == StreamStatus::Failed) {
        m_err << "grove-cli: " << error << "\n";
        return cli::kExitInvalid;
    }
    return cli::kExitOk;
}

int EvalRun::exportWhole(const ExportDestination &destination)
{
    if (m_o.stats) {
        std::vector<std::string> sources;  // statistics measure a refined layer where its source grew
        for (const std::string &id : m_layers)
            sources.push_back(layerNodeId(m_graph, m_registry, id));
        printStats(m_err, m_result, sources, layersOf(m_result, m_layers), m_graph.world);
    }
    // Every destination is checked before rendering, and every file is staged (its points text
    // written straight into its temporary file) before the first is put in place: a failure leaves
    // no half results.
    std::string error;
    auto built = buildExport(m_graph, m_registry, m_result, m_job, &error);
    if (cli::interruptFlag())
        return cli::interrupted(m_err);
    if (!built) {
        m_err << "grove-cli: cannot render " << m_o.pngPath << ": " << error << "\n";
        return cli::kExitInvalid;
    }
    if (auto problem = writeExport(*built, destination, m_o.split)) {
        m_err << "grove-cli: " << *problem << "\n";
        return cli::kExitInvalid;
    }
    for (const std::string &warning : built->warnings)
        m_err << m_o.file << ": warning: " << warning << "\n";
    if (destination.points.empty()) {
        m_out << built->files.front().bytes << std::flush;
        return m_out ? cli::kExitOk : cli::kExitInvalid;
    }
    return cli::kExitOk;
}

int EvalRun::run()
{
    if (!load())
        return cli::kExitInvalid;
    if (auto status = refuseWorld())
        return *status;
    if (!chooseLayers())
        return cli::kExitInvalid;
    if (auto status = evaluate())
        return *status;
    const ExportDestination destination{m_o.pointsPath(), m_o.pngPath};
    if (auto problem = checkExportDestination(destination, m_o.split)) {
        m_err << "grove-cli: " << *problem << "\n";
        return cli::kExitInvalid;
    }
    return m_streamed ? exportStreamed(destination) : exportWhole(destination);
}

} // namespace

int runEval(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    EvalOptions options;
    if (cli::Problem p = readOptions(args, options))
        return cli::usageError(err, *p);
    return EvalRun(options, out, err).run();
}
