// The preview's worker side: what one run needs, the caches runs share, and the two steps of a run
// (the frame for the map first, then the thumbnails and statistics that changed).
#pragma once

#include "preview/PreviewRegion.h"
#include "preview/PreviewSnapshot.h"

#include "core/analysis/LayerStats.h"
#include "core/graph/GroupResolver.h"

#include <cmath>
#include <utility>
#include <QImage>
#include <QString>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace grove {

class NodeRegistry;
class PreviewPipeline;
struct EvalProgress;

// What a run needs besides the pipeline; copied on the UI thread when the run starts.
struct PreviewRunInput
{
    int maxSide = 1024;  // the picture's longer side; smaller for a draft
    Graph graph;
    // the document's groups as resolved when the run was asked for: a copy the worker reads alone
    std::shared_ptr<const GroupResolver> groups;
    std::set<std::string> hidden;
    std::pair<double, double> depthSlice{-HUGE_VAL, HUGE_VAL};  // volume layers: the z slab drawn
    std::string overlayNode;
    std::optional<RegionRun> region;  // a big chunked world: the part in view, at the view's size
};

// Worker-side caches, keyed by what the values depend on, so a drag recomputes only what changed.
// Only the worker thread uses them (one run at a time).
struct PreviewWorkerCache
{
    std::map<std::string, QImage> thumbnails;         // by NodeResult::key
    std::map<const PointLayer *, std::pair<PointLayerPtr, LayerStats>> stats;  // holds the layer alive
    std::string overlayKey;                           // NodeResult::key and size of `overlay`
    QImage overlay;
};

// The frame: everything the map needs, as soon as the evaluation is done. Thumbnails and stats
// come from the caches where their inputs did not change; the rest is left to followUp(). Null
// with the reason in *problem (or none: cancelled) when there is nothing to show.
PreviewSnapshotPtr computeFrame(PreviewPipeline &pipeline, const NodeRegistry &registry, const PreviewRunInput &in,
                                PreviewWorkerCache &cache, const std::atomic<bool> *cancel,
                                const std::function<void(const EvalProgress &)> &progress, QString *problem);

// Thumbnails and stats the frame lacked, unless `stop` (a newer edit, or Cancel) comes first;
// then null. The caches keep what was computed either way.
PreviewSnapshotPtr followUp(const PreviewSnapshot &frame, PreviewWorkerCache &cache, const std::atomic<bool> *stop,
                            const std::function<void(const EvalProgress &)> &progress);

// A region snapshot's layers: places the chunks one chunk around what it shows (and their cones),
// until `stop`. The chunks stay in the layers' caches for the next pan.
void prefetchAround(const PreviewSnapshot &snapshot, const std::atomic<bool> *stop);

// What a run's statistics found that the graph's text does not say: layers far below what their
// area holds, spaced layers with points too close. (The nodes that failed are the result's.)
Diagnostics statsProblems(const PreviewSnapshot &snapshot);

} // namespace grove
