// Export bytes: points in one format, one file or one per layer, and the preview PNG.
#include "core/export/ExportJob.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphWriter.h"
#include "core/formats/PngWriter.h"
#include "core/render/PreviewRenderer.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace grove {

std::string safeFileName(const std::string &name)
{
    std::string out;
    for (unsigned char c : name)
        out += (std::isalnum(c) || c == '-' || c == '_' || c == '.') ? static_cast<char>(c) : '_';
    if (out.empty() || out[0] == '.')
        out = "layer" + out;
    // Room for a "_N" suffix and ".tiled.json" within a file name's 255 bytes: a longer name
    // failed half-way through a split export, after the earlier layers were written.
    if (out.size() > 200)
        out.resize(200);
    return out;
}

std::vector<std::string> exportTargets(const Graph &graph, const NodeRegistry &registry, const ExportJob &job)
{
    std::vector<std::string> targets = job.layers;
    if (job.pngSize > 0)  // the picture also needs the paint node (ground) and every drawn layer
        for (const auto &id : previewTargets(graph, registry))
            if (std::find(targets.begin(), targets.end(), id) == targets.end())
                targets.push_back(id);
    return targets;
}

std::optional<ExportOutput> buildExport(const Graph &graph, const NodeRegistry &registry, const EvalResult &result,
                                        const ExportJob &job, std::string *error)
{
    ExportOutput output;
    if (job.pngSize > 0) {
        const auto [w, h] = previewSize(graph.world, job.pngSize);
        RenderOptions options;
        options.threads = job.threads;
        auto encoded = encodePng(renderPreview(graph, result, w, h, options), error);
        if (!encoded)
            return std::nullopt;
        output.png = std::move(*encoded);
    }
    ExportInfo info;
    info.graphName = graph.name;
    info.graphFile = job.graphPath.substr(job.graphPath.find_last_of('/') + 1);
    info.graphHash = graphHash(graph, registry);
    info.world = graph.world;
    std::vector<PointLayerPtr> layers = layersOf(result, job.layers);
    if (job.region) {
        info.bounds = job.region;
        for (PointLayerPtr &layer : layers) {
            layer = layerInRegion(*layer, *job.region, job.threads, job.cancel);
            if (!layer) {
                if (error)
                    *error = "cancelled";
                return std::nullopt;
            }
        }
    }
    output.warnings = exportWarnings(job.format, layers);
    // the file's bytes now, or a renderer that writes them when the file is written
    const auto file = [&](std::string name, const std::vector<PointLayerPtr> &of) {
        if (!job.streamText)
            return ExportFile{std::move(name), exportPoints(job.format, info, of, nullptr, job.threads), {}};
        return ExportFile{std::move(name), {}, [format = job.format, info, of, threads = job.threads](const TextSink &sink) {
                              return exportPoints(format, info, of, &sink, threads);
                          }};
    };
    if (!job.split) {
        output.files.push_back(file({}, layers));
        return output;
    }
    std::set<std::string> names;
    for (const auto &layer : layers) {
        const std::string base = safeFileName(layer->info.name);
        std::string name = base;
        for (int n = 2; !names.insert(name).second; ++n)
            name = base + "_" + std::to_string(n);
        output.files.push_back(file(name + "." + exportExtension(job.format), {layer}));
    }
    return output;
}

} // namespace grove
