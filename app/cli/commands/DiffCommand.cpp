// grove-cli diff: reads two graphs (evaluated with the same options) or two exports of one format,
// from files or git revisions, and reports, paints or lists what changed layer by layer.
#include "DiffCommand.h"

#include "ChunkedRun.h"
#include "CliOptions.h"
#include "GitRevision.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/analysis/DiffImage.h"
#include "core/analysis/DiffReport.h"
#include "core/eval/Evaluator.h"
#include "core/base/FileInput.h"
#include "core/export/ExportWriter.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupGraph.h"
#include "core/base/Limits.h"
#include "core/base/NumberText.h"
#include "core/graph/NodeRegistry.h"
#include "core/graph/Overrides.h"
#include "core/formats/PngWriter.h"
#include "core/analysis/PointDiff.h"
#include "core/formats/PointsExport.h"
#include "core/formats/PointsExportReader.h"
#include "core/base/Value.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace grove::cli {

namespace {

constexpr int kExitSame = 0;
constexpr int kExitDifferent = 1;
constexpr int kExitTrouble = 2;

struct Options
{
    std::string pngPath;
    long long pngSize = 1024;
    bool json = false, quiet = false, haveSeed = false;
    std::optional<double> tolerance;
    std::optional<Region> region;
    int threads = 0;
    long long seed = 0;
    std::vector<std::string> sets;
};

// One side of the diff: where it came from and what it holds.
struct Side
{
    const char *role;           // "OLD" or "NEW"
    std::string arg;            // as given: a file or REV:path
    std::string text;
    std::string workTreePath;   // a revision's file in the working tree (graphs resolve inputs there)
    bool revision = false;
    PointsTextKind kind = PointsTextKind::Other;
    PointsExportRead exported;  // an export's layers (kind GrovePointsJson or GroveCsv)
};

// What one side gives the diff: its layers and the rectangle they live in.
struct SideLayers
{
    std::vector<DiffLayer> layers;
    std::optional<Region> area;
};

class DiffRun
{
public:
    DiffRun(std::ostream &out, std::ostream &err) : m_out(out), m_err(err) {}
    int run(const std::vector<std::string> &args);

private:
    int usage(const std::string &message)
    {
        m_err << "grove-cli: diff: " << message << "\n(see grove-cli --help)\n";
        return kExitTrouble;
    }
    int trouble(const std::string &message)
    {
        m_err << "grove-cli: diff: " << message << "\n";
        return kExitTrouble;
    }
    bool read(Side &side);
    std::optional<SideLayers> evaluate(const Side &side, Evaluator &evaluator);
    std::optional<SideLayers> parseExport(Side &side);

    std::ostream &m_out;
    std::ostream &m_err;
    Options m_o;
    bool m_interrupted = false;
};

// Reads a diff input as it parses it (readPointsExport): an export up to
// limits::maxDiffExportBytes, failing at its first bad byte; anything else (a graph) whole into
// side.text, up to limits::maxYamlBytes. So a device or a pipe that never ends is refused once past
// the bound, and a huge file that goes wrong early is refused there.
bool DiffRun::read(Side &side)
{
    std::ifstream file;
    std::istringstream bytes;
    std::istream *in = &file;
    if (isRevisionPath(side.arg)) {
        RevisionFile revision = readRevisionFile(side.arg);
        if (!revision.ok()) {
            trouble(std::string(side.role) + " " + side.arg + ": git cannot give it: " + revision.error);
            return false;
        }
        bytes.str(std::move(revision.bytes));
        in = &bytes;
        side.workTreePath = revision.workTreePath;
        side.revision = true;
    } else {
        std::error_code ec;
        if (std::filesystem::is_directory(side.arg, ec)) {
            trouble(std::string(side.role) + " " + side.arg + ": is a folder, not a file");
            return false;
        }
        file.open(side.arg, std::ios::binary);
        if (!file) {
            trouble(std::string(side.role) + " " + side.arg + ": cannot read it: " + std::strerror(errno)
                    + (side.arg.find(':') != std::string::npos ? " (REV:path reads a git revision's file)" : ""));
            return false;
        }
        const std::uintmax_t size = std::filesystem::file_size(side.arg, ec);
        if (!ec && size > limits::maxDiffExportBytes) {
            trouble(std::string(side.role) + " " + side.arg + ": larger than the "
                    + std::to_string(limits::maxDiffExportBytes >> 20) + " MiB export limit");
            return false;
        }
    }
    side.exported = readPointsExport(*in, limits::maxDiffExportBytes, &side.text, limits::maxYamlBytes);
    side.kind = side.exported.kind;
    if (side.exported.tooLarge) {
        trouble(std::string(side.role) + " " + side.arg + ": " + side.exported.error);
        return false;
    }
    // an export's own error, or text that starts like JSON, is not, and is too large to be a graph
    if (side.kind != PointsTextKind::OtherJson && !side.exported.ok()) {
        // "LINE:COL: what" as the graph loader's diagnostics say it
        const std::string &error = side.exported.error;
        const std::size_t colon = error.find(": ");
        m_err << side.arg << ":" << error.substr(0, colon) << ": error: " << error.substr(colon + 2) << "\n";
        return false;
    }
    return true;
}

std::optional<SideLayers> DiffRun::evaluate(const Side &side, Evaluator &evaluator)
{
    const NodeRegistry &registry = builtinRegistry();
    GroupResolver groups(registry);  // this side's groups, read as it loads
    LoadResult loaded;
    if (side.revision) {
        loaded = loadGraphFromString(side.text, side.arg, groups,
                                     std::filesystem::path(side.workTreePath).parent_path().string());
    } else {
        loaded = loadGraphFile(side.arg, groups);
    }
    if (loaded.ok())
        expandLoadedGroups(loaded, side.arg, groups);  // group nodes become their files' nodes
    for (const auto &d : loaded.diagnostics)
        m_err << d.format() << "\n";
    if (!loaded.ok())
        return std::nullopt;
    Graph graph = loaded.graph;
    if (m_o.haveSeed)
        graph.world.seed = static_cast<std::int32_t>(m_o.seed);
    for (const auto &s : m_o.sets)
        if (auto problem = applyOverride(graph, registry, s)) {
            m_err << side.arg << ": error: --set " << s << ": " << *problem << "\n";
            return std::nullopt;
        }
    const World &world = graph.world;
    if (world.endless && !m_o.region) {
        m_err << side.arg << ": error: the world is endless (world.chunk without width and height): give the rectangle "
              << "to compare with --region x0,y0,x1,y1\n";
        return std::nullopt;
    }
    if (m_o.region && world.chunk > 0) {
        const double reach = kChunkRange * world.chunk;
        const Region &r = *m_o.region;
        if (r.x0 < -reach || r.y0 < -reach || r.x1 > reach || r.y1 > reach) {
            m_err << side.arg << ": error: --region reaches beyond chunk " << kChunkRange << " from the origin ("
                  << formatNumber(reach) << " units at chunk " << formatNumber(world.chunk) << ")\n";
            return std::nullopt;
        }
    }
    const std::vector<std::string> ids = exportedLayers(graph, registry);
    EvalRequest request;
    request.targets = ids;
    request.limits.threads = m_o.threads;
    request.limits.placeWholeWorld = !(world.chunk > 0 && m_o.region);
    request.cancel = &interruptFlag();
    ProgressLine progress(m_err, !m_o.quiet && &m_err == &std::cerr && ::isatty(STDERR_FILENO));
    if (progress.on())
        request.progress = [&](const EvalProgress &p) {
            progress.update(std::string(side.role) + ": evaluating " + p.currentNode, p.fraction, 0);
        };
    const EvalResult result = ids.empty() ? EvalResult{} : evaluator.evaluate(graph, request);
    progress.clear();
    if (interruptFlag() || result.status == EvalResult::Status::Cancelled) {
        m_interrupted = true;
        return std::nullopt;
    }
    if (!result.ok()) {
        for (auto d : result.diagnostics) {
            d.file = side.arg;
            locate(loaded, d);
            m_err << d.format() << "\n";
        }
        return std::nullopt;
    }
    if (m_o.region)
        if (auto problem = regionTooLarge(layersOf(result, ids), *m_o.region, limits::defaultMaxPointsPerLayer)) {
            m_err << side.arg << ": error: " << *problem << "\n";
            return std::nullopt;
        }
    DiffLayersLoad layers = diffLayersOf(layersOf(result, ids), m_o.region, m_o.threads, &interruptFlag());
    if (!layers.ok()) {
        if (interruptFlag())
            m_interrupted = true;
        else
            m_err << side.arg << ": error: " << layers.error << "\n";
        return std::nullopt;
    }
    SideLayers got{std::move(layers.layers), m_o.region};
    if (!got.area)
        got.area = Region{0, 0, world.width, world.height};
    return got;
}

std::optional<SideLayers> DiffRun::parseExport(Side &side)
{
    SideLayers got{std::move(side.exported.layers), side.exported.bounds};
    if (m_o.region) {
        for (DiffLayer &l : got.layers)
            std::erase_if(l.points, [&](const DiffPoint &p) { return !m_o.region->contains(p.x, p.y); });
        got.area = m_o.region;
    }
    return got;
}

// Where the picture is: the region, the union of the two sides' worlds or bounds, or else every
// point with a margin of the largest radius (CSV has no bounds).
Region pictureArea(const std::optional<Region> &a, const std::optional<Region> &b, const PointDiff &diff)
{
    if (a && b)
        return {std::min(a->x0, b->x0), std::min(a->y0, b->y0), std::max(a->x1, b->x1), std::max(a->y1, b->y1)};
    if (a || b)
        return a ? *a : *b;
    Region box{INFINITY, INFINITY, -INFINITY, -INFINITY};
    double margin = 1;
    auto grow = [&](const DiffPoint &p) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y))
            return;
        box = {std::min(box.x0, p.x), std::min(box.y0, p.y), std::max(box.x1, p.x), std::max(box.y1, p.y)};
        if (std::isfinite(p.r))
            margin = std::max(margin, p.r);
    };
    for (const LayerDiff &l : diff.layers) {
        for (const DiffPair &p : l.keptPoints)
            grow(p.to);
        for (const DiffPair &p : l.moved) {
            grow(p.from);
            grow(p.to);
        }
        std::for_each(l.added.begin(), l.added.end(), grow);
        std::for_each(l.removed.begin(), l.removed.end(), grow);
    }
    if (box.x0 > box.x1)
        return {0, 0, 1, 1};
    return {box.x0 - margin, box.y0 - margin, box.x1 + margin, box.y1 + margin};
}

int DiffRun::run(const std::vector<std::string> &args)
{
    std::vector<std::string> inputs;
    auto set = [](bool &to) { return [&to](const std::string &) -> Problem { to = true; return {}; }; };
    const std::vector<Option> options = {
        {{"--png"}, "a FILE", [&](const std::string &v) -> Problem {
             m_o.pngPath = v;
             return v.empty() ? Problem("--png needs a FILE") : std::nullopt;
         }},
        {{"--png-size"}, "a number of pixels", [&](const std::string &v) -> Problem {
             if (auto n = wholeNumber(v, 16, 16384)) {
                 m_o.pngSize = *n;
                 return {};
             }
             return "--png-size takes a whole number of pixels from 16 to 16384, got '" + v + "'";
         }},
        {{"--json"}, "", set(m_o.json)},
        {{"--quiet"}, "", set(m_o.quiet)},
        {{"--tolerance"}, "a distance", [&](const std::string &v) -> Problem {
             double d = -1;
             if (!parseNumber(v, d) || !std::isfinite(d) || d < 0)
                 return "--tolerance takes a distance in world units (a finite number, 0 or more), got '" + v + "'";
             m_o.tolerance = d;
             return {};
         }},
        {{"--region"}, "x0,y0,x1,y1", [&](const std::string &v) { return parseRegion(v, m_o.region.emplace()); }},
        {{"--threads"}, "a number", [&](const std::string &v) { return parseThreads(v, m_o.threads); }},
        {{"--seed"}, "a whole number", [&](const std::string &v) -> Problem {
             if (auto n = wholeNumber(v, INT32_MIN, INT32_MAX)) {
                 m_o.seed = *n;
                 m_o.haveSeed = true;
                 return {};
             }
             return "--seed takes a whole number from -2147483648 to 2147483647, got '" + v + "'";
         }},
        {{"--set"}, "NODE.PARAM=VALUE", [&](const std::string &v) -> Problem {
             m_o.sets.push_back(v);
             return {};
         }},
    };
    if (Problem p = parseOptions(args, "diff", options, [&](const std::string &a) -> Problem {
            if (inputs.size() == 2)
                return "diff takes two inputs, OLD and NEW (a third: '" + a + "')";
            inputs.push_back(a);
            return {};
        }))
        return usage(*p);
    if (inputs.size() != 2)
        return usage("diff needs two inputs: OLD NEW (graphs, exports of one format, or REV:path for a git revision)");

    // a picture that cannot be written is known before anything is evaluated
    if (!m_o.pngPath.empty())
        if (auto error = checkExportDestination({{}, m_o.pngPath}, false))
            return trouble(*error);

    Side sides[2] = {{"OLD", inputs[0], {}, {}, false, {}, {}}, {"NEW", inputs[1], {}, {}, false, {}, {}}};
    for (Side &s : sides)
        if (!read(s))
            return kExitTrouble;
    auto what = [](const Side &s) {
        return s.kind == PointsTextKind::Other ? std::string("a graph") : std::string(pointsTextKindName(s.kind));
    };
    for (const Side &s : sides) {
        // exports of other formats (by name) would otherwise be read as graphs and give YAML errors
        const std::string path = s.arg.substr(s.arg.find(':') == std::string::npos || !s.revision ? 0 : s.arg.find(':') + 1);
        bool foreign = false;
        for (const char *suffix : {".csv", ".json", ".tmj", ".glb", ".tscn"})
            foreign = foreign || hasExtension(path, suffix);
        if (s.kind == PointsTextKind::Other && foreign)
            return trouble(std::string(s.role) + " " + s.arg + " is neither a graph nor a Grove export (grove.points JSON, "
                           "or CSV whose first line is layer,id,x,y,r,...): diff compares graphs, grove.points JSON "
                           "exports or CSV exports");
    }
    for (const Side &s : sides)
        if (s.kind == PointsTextKind::OtherJson)
            return trouble(std::string(s.role) + " " + s.arg + " is JSON that is not a grove.points export: diff compares "
                           "graphs, grove.points JSON exports or CSV exports");
    if (sides[0].kind != sides[1].kind)
        return trouble("OLD " + sides[0].arg + " is " + what(sides[0]) + ", NEW " + sides[1].arg + " is " + what(sides[1])
                       + ": compare two graphs, or two exports of one format");
    const bool graphs = sides[0].kind == PointsTextKind::Other;
    if (!graphs && (m_o.haveSeed || !m_o.sets.empty()))
        return usage("--seed and --set change graphs: they do not go with exports");

    std::optional<SideLayers> got[2];
    Evaluator evaluator(builtinRegistry());  // one cache: what the two graphs share is computed once
    for (int i = 0; i < 2; ++i) {
        got[i] = graphs ? evaluate(sides[i], evaluator) : parseExport(sides[i]);
        if (m_interrupted) {
            m_err << "grove-cli: interrupted; nothing written\n";
            return kExitInterrupted;
        }
        if (!got[i])
            return kExitTrouble;
    }
    PointDiffOptions diffOptions;
    diffOptions.tolerance = m_o.tolerance;
    diffOptions.listKept = !m_o.pngPath.empty();
    diffOptions.cancel = &interruptFlag();
    const PointDiff diff = diffPoints(got[0]->layers, got[1]->layers, diffOptions);
    if (!diff.ok()) {
        if (interruptFlag()) {
            m_err << "grove-cli: interrupted; nothing written\n";
            return kExitInterrupted;
        }
        return trouble(diff.error);
    }
    if (!m_o.pngPath.empty()) {
        const Region area = pictureArea(got[0]->area, got[1]->area, diff);
        const Image image = renderDiffImage(diff, area, static_cast<int>(m_o.pngSize));
        if (image.empty())
            return trouble("cannot paint " + m_o.pngPath + ": the area " + formatNumber(area.x0) + "," + formatNumber(area.y0)
                           + " to " + formatNumber(area.x1) + "," + formatNumber(area.y1) + " is empty");
        std::string why;
        ExportOutput output;
        if (auto bytes = encodePng(image, &why))
            output.png = std::move(*bytes);
        else
            return trouble("cannot encode " + m_o.pngPath + ": " + why);
        // atomically for a file (a temporary file, then rename); straight into a device or pipe
        if (auto error = writeExport(output, {{}, m_o.pngPath}, false))
            return trouble(*error);
    }
    m_out << (m_o.json ? diffJson(diff, sides[0].arg, sides[1].arg) : diffText(diff)) << std::flush;
    if (!m_out)
        return trouble("cannot write the report to standard output");
    return diff.same() ? kExitSame : kExitDifferent;
}

} // namespace

int runDiff(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    // here and not in runCli's handlers: their status 1 would read as "different"
    try {
        return DiffRun(out, err).run(args);
    } catch (const std::bad_alloc &) {
        err << "grove-cli: diff: out of memory\n";
    } catch (const std::exception &e) {
        err << "grove-cli: diff: internal error: " << e.what() << "\n";
    }
    return kExitTrouble;
}

} // namespace grove::cli
