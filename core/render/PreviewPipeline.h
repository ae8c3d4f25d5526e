// The live preview's work for one graph state: evaluate (cached per node), then paint, reusing
// the ground when its node's result is unchanged. Qt-free, so benchmarks time the editor's path.
#pragma once

#include <cmath>
#include <utility>

#include "core/eval/Evaluator.h"
#include "core/render/PreviewRenderer.h"

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
    // runRegion: the world rectangle the image covers, the chunks it overlaps, and each exported
    // layer's points there (node id, layerInRegion), none when the chunks were over the budget.
    Region region;
    std::size_t chunksInView = 0;
    bool overBudget = false;
    std::vector<std::pair<std::string, PointLayerPtr>> regionLayers;
    double placeSeconds = 0;    // of evalSeconds: the region's chunks
};

// A big chunked world's preview: its exported layers stay lazy, and a view asks for its region.
struct RegionRequest
{
    Region region;                 // the world rectangle to paint (the view's visible part)
    std::size_t maxChunks = 96;    // chunks in view above which the ground is painted without points
    int threads = 0;               // for the chunks (0: every core)
};

// Chunks per view a preview places at most (RegionRequest::maxChunks' default), and the chunk
// count from which a finite chunked world is previewed by region rather than whole.
inline constexpr std::size_t kPreviewMaxChunks = 96;
inline constexpr double kRegionPreviewChunks = 256;
// True when the preview shows `world` by region: endless, or chunked into more than
// kRegionPreviewChunks chunks.
bool previewsByRegion(const World &world);

class PreviewPipeline
{
public:
    explicit PreviewPipeline(const NodeRegistry &registry);

    // Evaluates every node (thumbnails and overlays want them all) and paints width x height.
    // Partial: nodes with problems are skipped with their downstream (EvalResult::skipped), the
    // rest is evaluated and painted (on a plain ground when the paint node is among them).
    // Thread-safe; one run at a time.
    // depthSlice: volume layers draw only points with first <= z < second (RenderOptions).
    PreviewFrame run(const Graph &graph, int width, int height, const std::atomic<bool> *cancel = nullptr,
                     std::function<void(const EvalProgress &)> progress = {},
                     const std::set<std::string> &hiddenLayers = {},
                     std::pair<double, double> depthSlice = {-HUGE_VAL, HUGE_VAL});

    // The same for a region of a chunked world, at width x height pixels: the graph is evaluated
    // with placeWholeWorld = false (its chunk caches live in the lazy layers the evaluator keeps
    // while the graph stays), then only the chunks the region needs are placed, unless there are
    // more than request.maxChunks; the ground is painted for the region either way.
    PreviewFrame runRegion(const Graph &graph, const RegionRequest &request, int width, int height,
                           const std::atomic<bool> *cancel = nullptr,
                           std::function<void(const EvalProgress &)> progress = {},
                           const std::set<std::string> &hiddenLayers = {},
                           std::pair<double, double> depthSlice = {-HUGE_VAL, HUGE_VAL});

    Evaluator &evaluator() { return m_evaluator; }

private:
    PreviewFrame runImpl(const Graph &graph, const RegionRequest *region, int width, int height,
                         const std::atomic<bool> *cancel, std::function<void(const EvalProgress &)> progress,
                         const std::set<std::string> &hiddenLayers, std::pair<double, double> depthSlice);
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
    GroundScratch m_groundScratch;  // the ground's rows, reused run after run (under m_mutex)
    const Image *findGround(const std::string &key) const;
    void keepGround(const std::string &key, Image image);
};

} // namespace grove
