// grove-cli check: load, evaluate only the layers the expectations name, measure only the metrics
// they name, and print one line per expectation, located at its `expect` item in the graph.
#include "CheckCommand.h"

#include "ChunkedRun.h"
#include "CliOptions.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/Expectation.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupGraph.h"
#include "core/analysis/LayerMetrics.h"
#include "core/analysis/LayerStats.h"
#include "core/base/Limits.h"
#include "core/base/NumberText.h"
#include "core/graph/NodeRegistry.h"
#include "core/formats/PngWriter.h"
#include "core/analysis/PointSpectrum.h"
#include "core/analysis/SpectrumImage.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

using namespace grove;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
// An endless world has no whole to measure: without --region, the 4 x 4 chunks from the origin
// the editor opens on.
constexpr int kEndlessChunks = 4;

// An expectation from the command line, before a graph names its layer.
struct CliExpectation
{
    std::string text;   // as given
    std::string layer;  // node id or export name
    Expectation expectation;
};

// One expectation on one layer of a graph, and where it was written.
struct Check
{
    std::string nodeId;
    std::string where;  // "FILE:LINE:COL" or "FILE: --expect '...'"
    Expectation expectation;
};

class CheckCommand
{
public:
    CheckCommand(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}
    int run(const std::vector<std::string> &args);

private:
    int usage(const std::string &message)
    {
        m_err << "grove-cli: " << message << "\n(see grove-cli --help)\n";
        return kExitUsage;
    }
    // Checks one graph: kExitOk, kExitFailed or kExitUsage (a layer --expect names is not there).
    int checkGraph(const std::string &file);
    std::string format(Metric metric, double value) const;

    std::ostream &m_out;
    std::ostream &m_err;
    std::vector<CliExpectation> m_expect;
    std::vector<std::pair<std::string, std::string>> m_spectra;  // (layer or "", PNG path)
    std::optional<Region> m_region;
    int m_threads = 0;
    bool m_quiet = false;
};

std::string CheckCommand::format(Metric metric, double value) const
{
    const int decimals = metric == Metric::Count || metric == Metric::TooClose ? 0
                         : !std::isfinite(value) || std::fabs(value) >= 1 ? 2
                                                                            : 4;
    return formatFixed(value, decimals) + (metric == Metric::Anisotropy ? " dB" : "");
}

int CheckCommand::run(const std::vector<std::string> &args)
{
    std::vector<std::string> files;
    const std::vector<cli::Option> options = {
        {{"--expect"}, "LAYER.METRIC OP NUMBER", [&](const std::string &v) -> cli::Problem {
             const std::string flag = "--expect " + quote(v) + ": ";
             const auto split = splitLayerExpectation(v);
             if (!split)
                 return flag + "write LAYER.METRIC OP NUMBER, such as 'trees.count >= 400'";
             std::string why;
             const auto e = parseExpectation(split->second, &why);
             if (!e) {  // the parser's words without its own "expectation '...': " lead
                 const std::string lead = "expectation " + quote(split->second) + ": ";
                 return flag + (why.rfind(lead, 0) == 0 ? why.substr(lead.size()) : why);
             }
             m_expect.push_back({v, split->first, *e});
             return {};
         }},
        {{"--spectrum"}, "FILE.png or LAYER=FILE.png", [&](const std::string &v) -> cli::Problem {
             const auto eq = v.find('=');
             if (eq == 0 || eq + 1 >= v.size() + (eq == std::string::npos))
                 return "--spectrum takes FILE.png or LAYER=FILE.png, got " + quote(v);
             m_spectra.emplace_back(eq == std::string::npos ? std::string() : v.substr(0, eq),
                                    eq == std::string::npos ? v : v.substr(eq + 1));
             return {};
         }},
        {{"--region"}, "x0,y0,x1,y1", [&](const std::string &v) { return cli::parseRegion(v, m_region.emplace()); }},
        {{"--threads"}, "a number", [&](const std::string &v) { return cli::parseThreads(v, m_threads); }},
        {{"--quiet"}, "", [&](const std::string &) -> cli::Problem { m_quiet = true; return {}; }},
    };
    if (cli::Problem p = cli::parseOptions(args, "check", options, [&](const std::string &a) -> cli::Problem {
            files.push_back(a);
            return {};
        }))
        return usage(*p);
    if (files.empty())
        return usage("check needs at least one FILE");
    if (!m_spectra.empty() && files.size() > 1)
        return usage("--spectrum paints a layer of one graph: give one FILE");
    int status = kExitOk;
    for (const auto &file : files) {
        const int s = checkGraph(file);
        if (s == kExitUsage || s == cli::kExitInterrupted)
            return s;
        status = std::max(status, s);
    }
    return status;
}

int CheckCommand::checkGraph(const std::string &file)
{
    const NodeRegistry &registry = builtinRegistry();
    GroupResolver groups(registry);  // this graph's groups, read as it loads
    LoadResult loaded = loadGraphFile(file, groups);
    if (loaded.ok())
        expandLoadedGroups(loaded, file, groups);  // group nodes become their files' nodes
    for (const auto &d : loaded.diagnostics)
        m_err << d.format() << "\n";
    if (!loaded.ok())
        return kExitFailed;
    const Graph &graph = loaded.graph;

    // The layers, by node id and by export name, in graph order.
    std::vector<std::string> layerIds, known;
    std::map<std::string, std::string> nameOf;
    for (int i : topologicalOrder(graph)) {
        const Node &node = graph.nodes[static_cast<size_t>(i)];
        const NodeDescriptor *desc = registry.find(node.type);
        if (!desc || !desc->makesLayer())
            continue;
        layerIds.push_back(node.id);
        nameOf[node.id] = layerName(node, *desc);
        known.push_back(nameOf[node.id]);
    }
    auto findLayer = [&](const std::string &name) -> std::string {
        for (const auto &id : layerIds)
            if (name == id || name == nameOf[id])
                return id;
        return {};
    };

    std::vector<Check> checks;
    for (const auto &id : layerIds) {
        const Node &node = *graph.node(id);
        for (size_t i = 0; i < node.expect.size(); ++i) {
            Diagnostic at;
            at.path = "nodes." + id + ".expect[" + std::to_string(i) + "]";
            locate(loaded, at);
            if (auto e = parseExpectation(node.expect[i], nullptr))
                checks.push_back({id, file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column), *e});
        }
    }
    for (const auto &c : m_expect) {
        const std::string id = findLayer(c.layer);
        if (id.empty())
            return usage("--expect " + quote(c.text) + ": " + file + " has no layer " + quote(c.layer)
                         + didYouMean(c.layer, known));
        checks.push_back({id, file + ": --expect " + quote(c.text), c.expectation});
    }
    std::vector<std::pair<std::string, std::string>> spectra;  // (node id, PNG)
    for (const auto &[layer, png] : m_spectra) {
        if (layer.empty() && layerIds.size() != 1)
            return usage("--spectrum " + png + ": " + file + " has " + std::to_string(layerIds.size())
                         + " layers; name one with --spectrum LAYER=FILE.png");
        const std::string id = layer.empty() ? layerIds.front() : findLayer(layer);
        if (id.empty())
            return usage("--spectrum: " + file + " has no layer " + quote(layer) + didYouMean(layer, known));
        spectra.emplace_back(id, png);
    }
    if (checks.empty() && spectra.empty()) {
        m_err << file << ": nothing to check (no expect in the graph and no --expect)\n";
        return kExitOk;
    }

    // What is measured: the world, a region of it, or an endless world's first chunks.
    const World &world = graph.world;
    Region region{0, 0, world.width, world.height};
    if (m_region) {
        if (!world.endless && (m_region->x0 < 0 || m_region->y0 < 0 || m_region->x1 > world.width || m_region->y1 > world.height)) {
            m_err << file << ": error: --region reaches outside the world (0,0 to " << formatNumber(world.width) << ","
                  << formatNumber(world.height) << ")\n";
            return kExitFailed;
        }
        const double reach = kChunkRange * world.chunk;
        if (world.chunk > 0 && (m_region->x0 < -reach || m_region->y0 < -reach || m_region->x1 > reach || m_region->y1 > reach)) {
            m_err << file << ": error: --region reaches beyond chunk " << kChunkRange << " from the origin ("
                  << formatNumber(reach) << " units at chunk " << formatNumber(world.chunk) << ")\n";
            return kExitFailed;
        }
        region = *m_region;
    } else if (world.endless) {
        region = {0, 0, kEndlessChunks * world.chunk, kEndlessChunks * world.chunk};
    }
    const bool wholeWorld = !world.endless && !m_region;

    EvalRequest request;
    for (const auto &c : checks)
        request.targets.push_back(c.nodeId);
    for (const auto &s : spectra)
        request.targets.push_back(s.first);
    request.limits.threads = m_threads;
    request.limits.placeWholeWorld = wholeWorld || world.chunk <= 0;
    request.cancel = &cli::interruptFlag();
    Evaluator evaluator(registry);
    const EvalResult result = evaluator.evaluate(graph, request);
    if (cli::interruptFlag() || result.status == EvalResult::Status::Cancelled) {
        m_err << "grove-cli: interrupted\n";
        return cli::kExitInterrupted;
    }
    if (!result.ok()) {
        for (auto d : result.diagnostics) {
            d.file = file;
            locate(loaded, d);
            m_err << d.format() << "\n";
        }
        return kExitFailed;
    }

    // Each layer once: its points (and its obstacles') in the region, every metric it is held to;
    // the region's packing bound first.
    cli::Problem tooLarge;
    auto inRegion = [&](const PointLayerPtr &layer) -> PointLayerPtr {
        if (wholeWorld && !layer->lazy)
            return layer;
        if ((tooLarge = cli::regionTooLarge({layer}, region, limits::defaultMaxPointsPerLayer)))
            return nullptr;
        return layerInRegion(*layer, region, m_threads, &cli::interruptFlag());
    };
    std::map<std::string, std::map<Metric, double>> measured;
    std::map<std::string, PointSpectrum> spectrumOf;
    for (const auto &id : layerIds) {
        std::set<Metric> wanted;
        for (const auto &c : checks)
            if (c.nodeId == id)
                wanted.insert(c.expectation.metric);
        const bool paint = std::any_of(spectra.begin(), spectra.end(), [&](const auto &s) { return s.first == id; });
        if (wanted.empty() && !paint)
            continue;
        const PortValue own = result.outputWithRole(id, PortRole::LayerPoints);
        const auto *set = std::get_if<PointSetPtr>(&own);
        if (!set || !*set || (*set)->layers.empty())
            continue;
        const PointLayerPtr layer = (*set)->layers.front();
        MetricSubject subject;
        subject.layer = inRegion(layer);
        // a refined layer (an attribute, a filter) is measured as its source is: among the source's
        // obstacles and where the source could grow
        const std::string source = layerNodeId(graph, registry, id);
        for (const PointLayerPtr &l : obstaclesOf(result, source, layer))
            subject.earlier.push_back(inRegion(l));
        if (!subject.layer || std::find(subject.earlier.begin(), subject.earlier.end(), nullptr) != subject.earlier.end()) {
            if (tooLarge) {
                m_err << file << ": error: " << *tooLarge << "\n";
                return kExitFailed;
            }
            m_err << "grove-cli: interrupted\n";
            return cli::kExitInterrupted;
        }
        const PortValue allowed = result.inputWithRole(source, PortRole::AllowedArea);
        if (layer->grownIn)  // its erased areas are not where it may grow
            subject.allowed = layer->grownIn.get();
        else if (const auto *mask = std::get_if<MaskPtr>(&allowed); mask && *mask)
            subject.allowed = mask->get();
        subject.region = region;
        if (wholeWorld)  // a wrapped world is measured on its torus; a region of it, in the plane
            subject.torus = {world.wrapX, world.wrapY};
        subject.depth = world.depth;
        subject.radius = layerRadius(*layer);
        if (subject.radius <= 0)
            subject.radius = layerRadius(*subject.layer);
        measured[id] = measureLayer(subject, wanted, paint ? &spectrumOf[id] : nullptr);
    }

    std::size_t failed = 0;
    for (const auto &c : checks) {
        const Metric metric = c.expectation.metric;
        const auto layerIt = measured.find(c.nodeId);
        const bool have = layerIt != measured.end() && layerIt->second.count(metric);
        const double value = have ? layerIt->second.at(metric) : 0;
        const bool ok = have && c.expectation.holds(value);
        failed += !ok;
        if (ok && m_quiet)
            continue;
        m_out << c.where << ": " << nameOf[c.nodeId] << ": " << metricName(metric) << " "
              << (have ? format(metric, value) : std::string("(no layer)")) << " " << Expectation::opText(c.expectation.op)
              << " " << formatNumber(c.expectation.value) << (ok ? " ok" : " failed") << "\n";
    }
    for (const auto &[id, png] : spectra) {
        const PointSpectrum &s = spectrumOf[id];
        if (auto error = writePng(renderSpectrumImage(s), png)) {
            m_err << "grove-cli: " << *error << "\n";
            return kExitFailed;
        }
        if (!m_quiet)
            m_out << file << ": " << nameOf[id] << ": spectrum of " << s.points << " points in " << formatNumber(s.side)
                  << " x " << formatNumber(s.side) << " at " << formatNumber(s.x0) << "," << formatNumber(s.y0)
                  << ", |k| <= " << s.m << ": low_freq " << format(Metric::LowFreq, s.lowFreq) << ", anisotropy "
                  << format(Metric::Anisotropy, s.anisotropy) << " -> " << png << "\n";
    }
    if (failed) {
        m_err << file << ": " << failed << " of " << checks.size()
              << (checks.size() == 1 ? " expectation failed\n" : " expectations failed\n");
        return kExitFailed;
    }
    return kExitOk;
}

} // namespace

int runCheck(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    return CheckCommand(out, err).run(args);
}
