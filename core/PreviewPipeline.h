// The live preview's work for one graph state: evaluate (cached per node), then paint, reusing
// the ground when its node's result is unchanged. Qt-free, so benchmarks time the editor's path.
#pragma once

#include "Evaluator.h"
#include "PreviewRenderer.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <string>

namespace grove {

class NodeRegistry;

struct PreviewFrame
{
    EvalResult result;
    Image image;                // empty when the graph did not evaluate or the run was cancelled
    bool groundReused = false;  // the ground came from the previous frame
    double evalSeconds = 0, renderSeconds = 0;
};

class PreviewPipeline
{
public:
    explicit PreviewPipeline(const NodeRegistry &registry);

    // Evaluates every node (thumbnails and overlays want them all) and paints width x height.
    // Partial: nodes with problems are skipped with their downstream (EvalResult::skipped), the
    // rest is evaluated and painted (on a plain ground when the paint node is among them).
    // Thread-safe; one run at a time.
    PreviewFrame run(const Graph &graph, int width, int height, const std::atomic<bool> *cancel = nullptr,
                     std::function<void(const EvalProgress &)> progress = {},
                     const std::set<std::string> &hiddenLayers = {});

    Evaluator &evaluator() { return m_evaluator; }

private:
    const NodeRegistry &m_registry;
    Evaluator m_evaluator;
    std::mutex m_mutex;
    // The grounds of the last two sizes (groundKey() and size each, newest first): the editor
    // alternates between a drag's size and the full one, and each keeps its ground.
    struct Ground
    {
        std::string key;
        Image image;
    };
    Ground m_grounds[2];
    const Image *findGround(const std::string &key) const;
    void keepGround(const std::string &key, Image image);
};

} // namespace grove
