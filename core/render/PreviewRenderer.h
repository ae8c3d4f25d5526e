// The preview: the paint node's ground, then every exported layer as small top-down sprites, to RGB.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/Graph.h"
#include "core/base/Image.h"

#include <atomic>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace grove {

struct EvalResult;
class NodeRegistry;

// The ground's working rows (each pixel's label and shade), kept by a caller that paints again
// and again (the editor's preview): a frame then reuses them instead of asking the system for
// fresh pages and faulting them in (8 MiB at the editor's size). One renderGround at a time.
struct GroundScratch
{
    std::vector<int> labels;
    std::vector<double> shade;
};

struct RenderOptions
{
    const std::atomic<bool> *cancel = nullptr;  // when set, renderPreview stops and returns an empty Image
    bool sprites = true;                        // draw the exported layers over the ground
    int threads = 0;                            // ground rows in parallel; 0: every hardware thread
    std::set<std::string> hiddenLayers;         // node ids of exported layers not to draw
    // The rectangle of the world the image covers; empty: the whole world [0, width) x [0, height).
    // A chunked world's preview paints the part in view, at the view's resolution.
    Region region;
    // When set, the layers step 2 draws (a region's points, layerInRegion) instead of the result's
    // exported layers; hiddenLayers still applies.
    const std::vector<PointLayerPtr> *layers = nullptr;
    // Volume layers (place_volume): only points with sliceMin <= z < sliceMax are drawn (the
    // editor's depth slice); all of them by default.
    double sliceMin = -HUGE_VAL, sliceMax = HUGE_VAL;
    GroundScratch *groundScratch = nullptr;  // none: the ground's rows are allocated for the call
};

// Paints the world [0, width) x [0, height) (or options.region) scaled to a width x height pixel image:
// 1. The ground: the first paint node (graph order) with a result gives each pixel centre its
//    label's colour, lit by light = 1 + slope * 10 * shading with slope = shade(x, y) -
//    shade(x - 3, y - 3) in world units (seed 000 step 7's `1 + slope * 5` at shading 0.5, for
//    fields in [0, 1] where the seed's noise spans [-1, 1]). Without a paint node: a neutral ground.
// 2. Every exported layer in the result, biggest mean radius first (graph order on ties), each
//    point a sprite (shadow, body, highlight) sized from its radius and scale attribute. Volume
//    layers come last, their points merged deepest first (the nearest on top), each darkened by
//    its depth: light 1 - 0.65 z / world.depth.
// Deterministic: the same graph and result give the same bytes on every run.
Image renderPreview(const Graph &graph, const EvalResult &result, int width, int height,
                    const RenderOptions &options = {});

// Step 1 alone: the ground (an empty Image when cancelled). It depends only on groundKey's node,
// so callers that repaint often can keep it and redo only step 2.
Image renderGround(const Graph &graph, const EvalResult &result, int width, int height,
                   const RenderOptions &options = {});
// Step 2 alone: stamps every exported layer onto `image`; false when cancelled (image half drawn).
bool drawLayers(Image &image, const Graph &graph, const EvalResult &result, const RenderOptions &options = {});
// The exported layers step 2 draws, in graph order, each once, without hidden and empty ones.
std::vector<PointLayerPtr> previewLayers(const Graph &graph, const EvalResult &result,
                                         const std::set<std::string> &hidden = {});
// The NodeResult::key of the node whose ground step 1 paints; empty for the neutral ground.
std::string groundKey(const Graph &graph, const EvalResult &result);

// The image size for a world: one pixel per world unit, scaled down to fit maxSide, at least 1x1.
std::pair<int, int> previewSize(const World &world, int maxSide);

// Renders at previewSize(graph.world, maxSide) and writes a PNG atomically; the error, or nothing.
std::optional<std::string> writePreviewPng(const Graph &graph, const EvalResult &result, const std::string &path,
                                           int maxSide);

// The nodes a preview needs evaluated (EvalRequest::targets): exported layers and nodes without
// outputs (paint), in graph order.
std::vector<std::string> previewTargets(const Graph &graph, const NodeRegistry &registry);

} // namespace grove
