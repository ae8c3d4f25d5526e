// PreviewPipeline: evaluation through the shared cache, then ground (cached) and sprites.
#include "PreviewPipeline.h"

#include "NodeRegistry.h"
#include "Raster.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace grove {

PreviewPipeline::PreviewPipeline(const NodeRegistry &registry) : m_registry(registry), m_evaluator(registry) {}

PreviewFrame PreviewPipeline::run(const Graph &graph, int width, int height, const std::atomic<bool> *cancel,
                                  std::function<void(const EvalProgress &)> progress,
                                  const std::set<std::string> &hiddenLayers)
{
    std::lock_guard lock(m_mutex);
    using Clock = std::chrono::steady_clock;
    PreviewFrame frame;
    const auto start = Clock::now();
    RenderOptions options;
    options.cancel = cancel;
    options.hiddenLayers = hiddenLayers;

    // First the sinks (paint): their fields are lazy, so this is quick, and a changed ground can
    // then be painted on other cores while the layers are placed.
    EvalRequest first;
    first.cancel = cancel;
    first.evict = false;
    first.partial = true;
    for (const Node &node : graph.nodes)
        if (const NodeDescriptor *desc = m_registry.find(node.type); desc && desc->outputs.empty())
            first.targets.push_back(node.id);
    const EvalResult sinks = first.targets.empty() ? EvalResult{} : m_evaluator.evaluate(graph, first);
    const std::string size = "@" + std::to_string(width) + "x" + std::to_string(height);
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
    frame.result = m_evaluator.evaluate(graph, request);
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
