// One finished live-preview run as the UI shows it: picture, per-node thumbnails, overlay, layers.
#pragma once

#include "core/eval/Evaluator.h"
#include "core/graph/Graph.h"
#include "core/analysis/LayerStats.h"

#include <QColor>
#include <QImage>
#include <QRectF>
#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace grove {

struct PreviewLayer
{
    std::string nodeId;
    QString name;
    QColor color;
    PointLayerPtr points;
    LayerStats stats;
    bool skipped = false;            // not evaluated (a problem of its own or upstream): no numbers
    bool statsPending = false;       // stats.count is current, the rest follows the frame
    bool inView = false;             // a region preview: stats.count counts the points in view only
    bool notPlaced = false;          // a region preview over its chunk budget: no points placed
};

// Where a frame's time went (milliseconds), for grove_bench_editor and the README's breakdown.
struct PreviewTimings
{
    quint64 generation = 0;
    bool followUp = false;   // the thumbnails and statistics that follow a frame, not the frame
    double queueMs = 0;      // from the oldest edit the run answers to the run's start
    double evalMs = 0, renderMs = 0;  // PreviewPipeline: evaluation; ground and sprites
    double imageMs = 0;      // the picture as a QImage (conversion, scaling to the view)
    double overlayMs = 0, thumbsMs = 0, statsMs = 0;
    double placeMs = 0;      // a region preview: placing the chunks in view (part of evalMs)
    double deliverMs = 0;    // UI thread: the snapshot handed to the dock, layer table and canvas
};

struct PreviewSnapshot
{
    quint64 generation = 0;          // which request this answers; a newer one always wins
    Graph graph;                     // the graph as evaluated
    EvalResult result;
    QImage image;                    // ground + sprites, at the world's aspect
    std::map<std::string, QImage> thumbnails;  // by node id: its first output, small
    bool thumbnailsPending = false;  // some changed nodes' thumbnails follow the frame
    std::string overlayNode;         // the node the overlay shows (the selection), or empty
    QImage overlay;                  // that node's output over the map, ARGB, the image's size
    std::vector<PreviewLayer> layers;  // exported layers in graph order
    double seconds = 0;              // evaluation + painting
    bool draft = false;              // drawn during a drag at the view's size; the full picture follows
    QString notice;                  // what a partial run left out, or empty
    // A big chunked world's preview (previewsByRegion): the picture covers `covers` only, at the
    // view's resolution; `home` is the rectangle Fit shows.
    bool regional = false;
    QRectF covers, home;
    std::size_t chunksInView = 0, maxChunks = 0;
    bool overBudget = false;         // too many chunks in view: the ground without points
    QString overBudgetMessage;
    PreviewTimings timings;

    // Thumbnails and stats are all there (a frame is delivered before them, then completed).
    bool complete() const
    {
        for (const PreviewLayer &layer : layers)
            if (layer.statsPending)
                return false;
        return !thumbnailsPending;
    }
};

using PreviewSnapshotPtr = std::shared_ptr<const PreviewSnapshot>;

} // namespace grove
