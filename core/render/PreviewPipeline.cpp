// PreviewPipeline: evaluation through the shared cache, then ground (cached) and sprites.
#include "core/render/PreviewPipeline.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/graph/NodeRegistry.h"
#include "core/fields/Raster.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <limits>
#include <thread>

namespace grove {

PreviewPipeline::PreviewPipeline(const NodeRegistry &registry) : m_registry(registry), m_evaluator(registry) {}

namespace {

std::string regionText(const Region &r)
{
    return "#" + formatNumber(r.x0) + "," + formatNumber(r.y0) + "," + formatNumber(r.x1) + "," + formatNumber(r.y1);
}

// The region's points of every exported layer (frame.regionLayers), placing the chunks they need
// unless the region overlaps more than request.maxChunks. Cancelled: the result says so.
void placeRegion(const NodeRegistry &registry, const Graph &graph, const RegionRequest &request, PreviewFrame &frame,
                 const std::atomic<bool> *cancel, const std::function<void(const EvalProgress &)> &progress)
{
    // Exactly the region: a margin for the crowns of trees just outside would place a whole ring
    // of chunks more (and their cones) for a few pixels at the view's edge.
    const Region &r = request.region;
    std::vector<std::pair<std::string, PointLayerPtr>> layers;
    for (const std::string &id : exportedLayers(graph, registry)) {
        const PortValue points = frame.result.outputWithRole(id, PortRole::LayerPoints);
        if (const auto *set = std::get_if<PointSetPtr>(&points); set && *set && !(*set)->layers.empty())
            layers.emplace_back(id, (*set)->layers.back());
    }
    for (const auto &[id, layer] : layers)
        if (layer->chunked) {
            std::vector<ChunkCoord> chunks;
            layer->chunked->chunksIn(r, chunks);
            frame.chunksInView = chunks.size();
            break;
        }
    frame.overBudget = frame.chunksInView > request.maxChunks;
    const auto start = std::chrono::steady_clock::now();
    try {
        for (size_t n = 0; n < layers.size(); ++n) {
            const auto &[id, layer] = layers[n];
            if (frame.overBudget && layer->lazy) {
                frame.regionLayers.emplace_back(id, nullptr);
                continue;
            }
            if (layer->lazy && layer->chunked) {
                std::vector<ChunkCoord> chunks;
                if (!layer->chunked->chunksIn(r, chunks))
                    throw std::out_of_range("the view reaches beyond the chunk range");
                EvalProgress p;
                p.currentNode = "placing " + id + " in view";
                const auto report = [&](std::size_t done, std::size_t total) {
                    p.fraction = (static_cast<double>(n) + static_cast<double>(done) / static_cast<double>(std::max<std::size_t>(1, total)))
                                 / static_cast<double>(layers.size());
                    if (progress)
                        progress(p);
                };
                if (layer->chunked->prepare(chunks, request.threads, cancel, report) != ChunkStatus::Done) {
                    frame.result.status = EvalResult::Status::Cancelled;
                    return;
                }
            }
            PointLayerPtr inView = layerInRegion(*layer, r, 1, cancel);
            if (!inView) {
                frame.result.status = EvalResult::Status::Cancelled;
                return;
            }
            frame.regionLayers.emplace_back(id, std::move(inView));
        }
    } catch (const std::exception &e) {
        Diagnostic d;
        d.message = std::string("the preview could not place the chunks in view: ") + e.what();
        frame.result.diagnostics.insert(frame.result.diagnostics.begin(), d);  // the one the preview shows
        frame.result.status = EvalResult::Status::Failed;
        frame.regionLayers.clear();
    }
    frame.placeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

bool previewsByRegion(const World &world)
{
    if (!(world.chunk > 0))
        return false;
    if (world.endless)
        return true;
    return std::ceil(world.width / world.chunk) * std::ceil(world.height / world.chunk) > kRegionPreviewChunks;
}

PreviewFrame PreviewPipeline::run(const Graph &graph, int width, int height, const std::atomic<bool> *cancel,
                                  std::function<void(const EvalProgress &)> progress,
                                  const std::set<std::string> &hiddenLayers, std::pair<double, double> depthSlice)
{
    return runImpl(graph, nullptr, width, height, cancel, std::move(progress), hiddenLayers, depthSlice);
}

PreviewFrame PreviewPipeline::runRegion(const Graph &graph, const RegionRequest &request, int width, int height,
                                        const std::atomic<bool> *cancel,
                                        std::function<void(const EvalProgress &)> progress,
                                        const std::set<std::string> &hiddenLayers, std::pair<double, double> depthSlice)
{
    return runImpl(graph, &request, width, height, cancel, std::move(progress), hiddenLayers, depthSlice);
}

PreviewFrame PreviewPipeline::runImpl(const Graph &graph, const RegionRequest *regional, int width, int height,
                                      const std::atomic<bool> *cancel,
                                      std::function<void(const EvalProgress &)> progress,
                                      const std::set<std::string> &hiddenLayers, std::pair<double, double> depthSlice)
{
    std::lock_guard lock(m_mutex);
    using Clock = std::chrono::steady_clock;
    PreviewFrame frame;
    const auto start = Clock::now();
    RenderOptions options;
    options.cancel = cancel;
    options.groundScratch = &m_groundScratch;
    options.hiddenLayers = hiddenLayers;
    options.sliceMin = depthSlice.first;
    options.sliceMax = depthSlice.second;
    if (regional) {
        options.region = regional->region;
        frame.region = regional->region;
    }

    // First the sinks (paint): their fields are lazy, so this is quick, and a changed ground can
    // then be painted on other cores while the layers are placed.
    EvalRequest first;
    first.cancel = cancel;
    first.evict = false;
    first.partial = true;
    first.limits.placeWholeWorld = !regional;
    for (const Node &node : graph.nodes)
        if (const NodeDescriptor *desc = m_registry.find(node.type); desc && desc->outputs.empty())
            first.targets.push_back(node.id);
    const EvalResult sinks = first.targets.empty() ? EvalResult{} : m_evaluator.evaluate(graph, first);
    const std::string size = "@" + std::to_string(width) + "x" + std::to_string(height)
                             + (regional ? regionText(regional->region) : std::string());
    std::string key = sinks.ok() ? groundKey(graph, sinks) + size : std::string();
    std::thread groundThread;
    Image ground;
    RenderOptions groundOptions = options;
    groundOptions.threads = std::max(1, defaultRasterThreads() - 1);
    if (!key.empty() && findGround(key)) {
        frame.groundReused = true;
    } else if (!key.empty()) {
        groundThread = std::thread([&] { ground = renderGround(graph, sinks, width, height, groundOptions); });
    }

    EvalRequest request;
    request.cancel = cancel;
    request.progress = std::move(progress);
    request.partial = true;  // one broken node must not blank the whole preview
    request.limits.placeWholeWorld = !regional;
    if (regional)  // a region run never holds a whole layer: at most maxChunks of each are placed
        first.limits.maxPointsPerLayer = request.limits.maxPointsPerLayer = std::numeric_limits<std::uint64_t>::max();
    const std::function<void(const EvalProgress &)> report = request.progress;
    frame.result = m_evaluator.evaluate(graph, request);
    if (regional && frame.result.ok())
        placeRegion(m_registry, graph, *regional, frame, cancel, report);
    const auto evaluated = Clock::now();
    frame.evalSeconds = std::chrono::duration<double>(evaluated - start).count();
    if (groundThread.joinable()) {
        groundThread.join();
        keepGround(key, std::move(ground));
    }
    if (!frame.result.ok())
        return frame;
    // The full run may paint from another node than the first pass found (none had a result then).
    key = groundKey(graph, frame.result) + size;
    if (!findGround(key)) {
        keepGround(key, renderGround(graph, frame.result, width, height, options));
        frame.groundReused = false;
    }
    const Image *kept = findGround(key);
    if (!kept)
        return frame;
    Image image = *kept;
    std::vector<PointLayerPtr> regionLayers;
    if (regional) {
        for (const auto &[id, layer] : frame.regionLayers)
            regionLayers.push_back(layer);
        options.layers = &regionLayers;
    }
    if (drawLayers(image, graph, frame.result, options))
        frame.image = std::move(image);
    frame.renderSeconds = std::chrono::duration<double>(Clock::now() - evaluated).count();
    return frame;
}

const Image *PreviewPipeline::findGround(const std::string &key) const
{
    for (const Ground &g : m_grounds)
        if (!g.image.empty() && g.key == key)
            return &g.image;
    return nullptr;
}

void PreviewPipeline::keepGround(const std::string &key, Image image)
{
    if (image.empty() || key.empty())  // cancelled: nothing to keep
        return;
    // A newer ground of the same size replaces its own size's entry; otherwise the older one goes.
    const std::string size = key.substr(key.rfind('@'));
    const bool sameSizeFirst = m_grounds[0].key.size() >= size.size()
                               && m_grounds[0].key.compare(m_grounds[0].key.size() - size.size(), size.size(), size) == 0;
    if (!sameSizeFirst)
        m_grounds[1] = std::move(m_grounds[0]);
    m_grounds[0] = {key, std::move(image)};
}

} // namespace grove
