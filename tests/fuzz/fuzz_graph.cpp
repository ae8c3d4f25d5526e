// libFuzzer target: graph YAML -> loader + validator, the canonical save round trip, and a
// budgeted evaluation with every export of small valid graphs.
#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GraphWriter.h"
#include "core/analysis/LayerStats.h"
#include "core/graph/NodeRegistry.h"
#include "core/formats/PointsExport.h"
#include "core/render/PreviewRenderer.h"
#include "nodes/BuiltinNodes.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace grove;

namespace {

// Evaluation stays cheap so the fuzzer explores inputs, not slow ones.
constexpr std::size_t kMaxEvalNodes = 24;
constexpr double kMaxEvalWorld = 2048;
constexpr std::uint64_t kMaxPointsPerLayer = 20000;

[[noreturn]] void fail(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "fuzz_graph: %s\n%s\n", what, detail.c_str());
    std::abort();
}

void evaluateSmall(const LoadResult &loaded, const NodeRegistry &registry)
{
    Graph graph = loaded.graph;
    if (graph.nodes.size() > kMaxEvalNodes)
        return;
    if (graph.world.endless && graph.world.chunk < 64)
        return;  // a region of many tiny chunks: slow, not interesting
    graph.world.width = std::min(graph.world.width, kMaxEvalWorld);
    graph.world.height = std::min(graph.world.height, kMaxEvalWorld);
    Evaluator evaluator(registry);
    EvalRequest request;
    request.limits.maxPointsPerLayer = kMaxPointsPerLayer;
    EvalResult result = evaluator.evaluate(graph, request);
    if (!result.ok()) {
        if (result.diagnostics.empty())
            fail("evaluation failed without saying why", saveGraphToString(graph, registry));
        for (Diagnostic d : result.diagnostics) {
            locate(loaded, d);
            if (d.message.empty())
                fail("an evaluation diagnostic without a message", saveGraphToString(graph, registry));
        }
        return;
    }
    // A second run is served from the cache.
    EvalResult cached = evaluator.evaluate(graph, request);
    if (!cached.ok() || !cached.computed.empty())
        fail("a repeated evaluation was not served from the cache", saveGraphToString(graph, registry));

    const std::vector<std::string> ids = exportedLayers(graph, registry);
    const std::vector<PointLayerPtr> layers = layersOf(result, ids);
    if (graph.world.endless) {
        // an endless world's layers by region: a few chunks near the origin, twice the same bytes
        for (const auto &layer : layers) {
            if (!layer || !layer->lazy || graph.world.chunk > 1024)
                continue;
            const double c = graph.world.chunk;
            const Region region{-c, -c, 2 * c, c};
            auto a = layerInRegion(*layer, region, 2), b = layerInRegion(*layer, region, 1);
            if (!a || !b || a->points.size() != b->points.size() || a->ids != b->ids)
                fail("a region of an endless world differs between two asks", saveGraphToString(graph, registry));
            for (const PointXYR &p : a->points)
                if (!region.contains(p.x, p.y))
                    fail("a region's point lies outside it", saveGraphToString(graph, registry));
        }
        return;
    }
    ExportInfo info;
    info.graphName = graph.name;
    info.graphFile = "fuzz.grove.yaml";
    info.graphHash = graphHash(graph, registry);
    info.world = graph.world;
    std::size_t total = 0;
    for (const auto &layer : layers)
        total += layer ? layer->points.size() : 0;
    std::string json;
    for (ExportFormat format : {ExportFormat::Json, ExportFormat::Csv, ExportFormat::Tiled})
        json = exportPoints(format, info, layers) + json;
    if (total <= 2000) {
        // Determinism: a fresh evaluator gives the same bytes.
        Evaluator fresh(registry);
        EvalResult again = fresh.evaluate(graph, request);
        std::string jsonAgain;
        for (ExportFormat format : {ExportFormat::Json, ExportFormat::Csv, ExportFormat::Tiled})
            jsonAgain = exportPoints(format, info, layersOf(again, ids)) + jsonAgain;
        if (!again.ok() || jsonAgain != json)
            fail("the same graph exported different bytes", saveGraphToString(graph, registry));
    }
    if (total <= 4000)
        for (std::size_t i = 0; i < layers.size(); ++i)
            if (layers[i])
                computeLayerStats(*layers[i], {layers.begin(), layers.begin() + static_cast<std::ptrdiff_t>(i)},
                                  graph.world.width, graph.world.height);
    const auto [w, h] = previewSize(graph.world, 48);
    renderPreview(graph, result, w, h);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const NodeRegistry &registry = builtinRegistry();
    const std::string text(reinterpret_cast<const char *>(data), size);
    LoadResult loaded = loadGraphFromString(text, "fuzz.grove.yaml", registry);
    for (const auto &d : loaded.diagnostics)
        // a problem inside an included group file names that file, and where it is included
        if (d.message.empty() || (d.file != "fuzz.grove.yaml" && d.message.find(" (in group ") == std::string::npos))
            fail("a diagnostic without a message or file", text);
    // The validator on the best-effort graph, as the editor's problems dock runs it.
    validateGraph(loaded.graph, registry);
    findCycles(loaded.graph);
    if (!loaded.ok())
        return 0;

    // Canonical save: load(save(g)) == g and save -> load -> save is byte-identical.
    const std::string saved = saveGraphToString(loaded.graph, registry);
    LoadResult reloaded = loadGraphFromString(saved, "fuzz.grove.yaml", registry);
    if (!reloaded.ok())
        fail("the canonical save of a valid graph does not load cleanly", saved);
    if (!(reloaded.graph == loaded.graph))
        fail("load(save(g)) != g", saved);
    const std::string savedAgain = saveGraphToString(reloaded.graph, registry);
    if (savedAgain != saved)
        fail("save -> load -> save changed the bytes", saved + "\n---- then ----\n" + savedAgain);
    if (graphHash(reloaded.graph, registry) != graphHash(loaded.graph, registry))
        fail("the graph hash changed over a round trip", saved);

    // The editor's one connection check, on a few pairs.
    const auto &nodes = loaded.graph.nodes;
    for (std::size_t a = 0; a < std::min<std::size_t>(nodes.size(), 4); ++a)
        for (std::size_t b = 0; b < std::min<std::size_t>(nodes.size(), 4); ++b)
            if (const NodeDescriptor *desc = registry.find(nodes[b].type))
                for (const auto &in : desc->inputs)
                    connectionProblem(loaded.graph, registry, Link{nodes[a].id, {}}, nodes[b].id, in.name);

    evaluateSmall(loaded, registry);
    return 0;
}
