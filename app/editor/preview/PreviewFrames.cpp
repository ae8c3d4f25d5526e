// The preview's worker side: a run's frame (the picture, layers, overlay, cached thumbnails and
// stats), then its follow-up (the thumbnails and stats that changed).
#include "preview/PreviewFrames.h"

#include "preview/OutputRaster.h"

#include "core/graph/GroupGraph.h"
#include "core/sampling/ChunkedLayer.h"
#include "core/graph/NodeRegistry.h"
#include "core/render/PreviewPipeline.h"
#include "core/fields/Raster.h"

#include <QObject>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace grove {

namespace {

constexpr int kThumbWidth = 72, kThumbHeight = 40;  // fits between a card's port names

// A card that cannot show its output says why, on a neutral grey rather than an empty dark card.
QImage placeholder(int w, int h, const QString &why)
{
    QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
    image.fill(QColor(74, 76, 82));
    QPainter p(&image);
    QFont font = p.font();
    font.setPixelSize(9);
    p.setFont(font);
    p.setPen(QColor(215, 215, 220));
    p.drawText(image.rect().adjusted(2, 1, -2, -1), Qt::AlignCenter | Qt::TextWordWrap, why);
    return image;
}

// The node's first output over the world, small; an endless world's over the area it opens on,
// its lazy layers placed there (the chunks the preview shows first, so mostly cached). Null when
// `stop` came first.
QImage thumbnailOf(const NodeResult &node, World world, const std::atomic<bool> *stop)
{
    if (node.outputs.empty())
        return {};
    PortValue value = node.outputs.front();
    if (world.endless) {
        const QRectF home = previewHome(world);
        world.width = home.width();
        world.height = home.height();
    }
    const double scale = std::min(kThumbWidth / world.width, kThumbHeight / world.height);
    const int w = std::max(8, static_cast<int>(world.width * scale)), h = std::max(8, static_cast<int>(world.height * scale));
    if (auto *set = std::get_if<PointSetPtr>(&value)) {
        const bool lazy = *set && std::any_of((*set)->layers.begin(), (*set)->layers.end(),
                                              [](const PointLayerPtr &l) { return l && l->lazy; });
        // a big chunked world: as many chunks as the map would place at most, or none
        if (lazy && world.chunk > 0
            && std::ceil(world.width / world.chunk) * std::ceil(world.height / world.chunk) > double(kPreviewMaxChunks))
            return placeholder(w, h, QObject::tr("too many chunks for a thumbnail"));
        try {
            PointSetPtr placed = withLazyLayersPlaced(*set, Region{0, 0, world.width, world.height}, 1, stop);
            if (!placed)
                return {};
            *set = placed;
        } catch (const std::exception &) {  // the map says what went wrong; the card, that it has no picture
            return placeholder(w, h, QObject::tr("placed by region: no thumbnail"));
        }
    }
    return OutputRaster::render(value, world, w, h, true);
}

// A layer a partial run left out: its row stays in the table, empty and marked.
PreviewLayer skippedLayer(const Graph &graph, const NodeRegistry &registry, const std::string &id)
{
    PreviewLayer layer;
    layer.nodeId = layerNodeId(graph, registry, id);
    layer.skipped = true;
    auto empty = std::make_shared<PointLayer>();
    empty->info.name = layerName(graph, registry, id);
    layer.points = empty;
    layer.name = QString::fromStdString(empty->info.name);
    layer.color = Qt::gray;
    return layer;
}

// What a partial run left out and why, for the line under the map; empty when nothing was.
QString skippedNotice(const EvalResult &result)
{
    if (result.skipped.empty())
        return {};
    QStringList names;
    for (size_t i = 0; i < result.skipped.size() && i < 4; ++i)
        names << QString::fromStdString(result.skipped[i]);
    if (result.skipped.size() > 4)
        names << QObject::tr("%n more", nullptr, static_cast<int>(result.skipped.size() - 4));
    QString failure;
    for (const Diagnostic &d : result.failures)
        failure += QString::fromStdString(d.message) + "\n";
    return failure + QObject::tr("Fix the problems to see %1; the rest of the preview is current.").arg(names.join(", "));
}

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The picture as the view paints it: 32-bit pixels, converted once, here, off the UI thread.
QImage toQImage(const Image &image)
{
    QImage out(image.width, image.height, QImage::Format_RGB32);
    for (int y = 0; y < image.height; ++y) {
        const uint8_t *in = image.rgb.data() + static_cast<size_t>(y) * image.width * 3;
        auto *line = reinterpret_cast<QRgb *>(out.scanLine(y));
        for (int x = 0; x < image.width; ++x, in += 3)
            line[x] = qRgb(in[0], in[1], in[2]);
    }
    return out;
}

} // namespace

PreviewSnapshotPtr computeFrame(PreviewPipeline &pipeline, const NodeRegistry &registry, const PreviewRunInput &in,
                                PreviewWorkerCache &cache, const std::atomic<bool> *cancel,
                                const std::function<void(const EvalProgress &)> &progress, QString *problem)
{
    // groups: the preview shows (and lists the layers of) their files' nodes
    std::optional<Graph> expanded;
    if (hasGroupNodes(in.graph))
        expanded = in.groups ? expandGroups(in.graph, *in.groups, nullptr) : expandGroups(in.graph, registry, nullptr);
    const Graph &graph = expanded ? *expanded : in.graph;
    auto [w, h] = previewSize(graph.world, in.maxSide);
    // the progress names each step for the status bar: "evaluating NODE", then "statistics of LAYER"
    const auto report = [&](const EvalProgress &p) {
        EvalProgress step = p;
        if (p.currentNode.rfind("placing ", 0) != 0)
            step.currentNode = "evaluating " + p.currentNode;
        progress(step);
    };
    PreviewFrame frame;
    if (in.region) {
        RegionRequest request;
        request.region = in.region->region;
        request.maxChunks = kPreviewMaxChunks;
        w = in.region->width;
        h = in.region->height;
        frame = pipeline.runRegion(graph, request, w, h, cancel, report, in.hidden, in.depthSlice);
    } else {
        frame = pipeline.run(graph, w, h, cancel, report, in.hidden, in.depthSlice);
    }
    if (!frame.result.ok() || frame.image.empty()) {
        if (frame.result.status == EvalResult::Status::Invalid)
            *problem = QObject::tr("Fix the problems to see the preview.");
        else if (frame.result.status == EvalResult::Status::Failed && !frame.result.diagnostics.empty())
            *problem = QString::fromStdString(frame.result.diagnostics.front().message);
        return nullptr;
    }
    auto snap = std::make_shared<PreviewSnapshot>();
    snap->timings.evalMs = frame.evalSeconds * 1000;
    snap->timings.renderMs = frame.renderSeconds * 1000;
    auto step = Clock::now();
    snap->graph = graph;
    snap->image = toQImage(frame.image);
    snap->timings.imageMs = msSince(step);
    snap->timings.placeMs = frame.placeSeconds * 1000;
    const Region &r = frame.region;
    if (in.region) {
        snap->regional = true;
        snap->covers = QRectF(QPointF(r.x0, r.y0), QPointF(r.x1, r.y1));
        snap->home = previewHome(graph.world);
        snap->chunksInView = frame.chunksInView;
        snap->maxChunks = kPreviewMaxChunks;
        snap->overBudget = frame.overBudget;
        if (frame.overBudget)
            snap->overBudgetMessage = overBudgetMessage(frame.chunksInView, kPreviewMaxChunks);
    }

    step = Clock::now();
    if (!in.overlayNode.empty())
        if (auto it = frame.result.nodes.find(in.overlayNode); it != frame.result.nodes.end() && !it->second->outputs.empty()) {
            snap->overlayNode = in.overlayNode;
            std::string key = it->second->key + "@" + std::to_string(w) + "x" + std::to_string(h);
            if (in.region)
                key += "#" + formatNumber(r.x0) + "," + formatNumber(r.y0) + "," + formatNumber(r.x1) + "," + formatNumber(r.y1);
            if (key != cache.overlayKey) {  // the overlaid node's output changed (or another node is selected)
                cache.overlay = in.region ? OutputRaster::render(it->second->outputs.front(), r, w, h, false, false,
                                                                 defaultRasterThreads())
                                          : OutputRaster::render(it->second->outputs.front(), graph.world, w, h, false,
                                                                 false, defaultRasterThreads());
                cache.overlayKey = key;
            }
            snap->overlay = cache.overlay;
        }
    snap->timings.overlayMs = msSince(step);

    // Cached thumbnails only: a changed node keeps its card's old picture until followUp().
    for (const auto &[id, node] : frame.result.nodes) {
        if (node->outputs.empty())
            continue;
        if (auto it = cache.thumbnails.find(node->key); it != cache.thumbnails.end())
            snap->thumbnails[id] = it->second;
        else
            snap->thumbnailsPending = true;
    }
    for (const std::string &id : exportedLayers(graph, registry)) {
        const PortValue points = frame.result.outputWithRole(id, PortRole::LayerPoints);
        const auto *set = std::get_if<PointSetPtr>(&points);
        if (std::find(frame.result.skipped.begin(), frame.result.skipped.end(), id) != frame.result.skipped.end()) {
            snap->layers.push_back(skippedLayer(graph, registry, id));  // listed, marked, without stale numbers
            continue;
        }
        if (!set || !*set || (*set)->layers.empty())
            continue;
        PreviewLayer layer;
        layer.nodeId = layerNodeId(graph, registry, id);  // a refined layer is its source's row
        layer.points = (*set)->layers.back();
        layer.name = QString::fromStdString(layer.points->info.name);
        const Rgb &c = layer.points->info.color;
        layer.color = QColor(c[0], c[1], c[2]);
        if (in.region) {
            // the points in view; statistics of a whole endless (or huge) layer are not to be had
            layer.inView = true;
            for (const auto &[regionId, inView] : frame.regionLayers)
                if (regionId == id && inView)
                    layer.points = inView;
            if (frame.overBudget && layer.points->lazy) {
                auto empty = std::make_shared<PointLayer>();
                empty->info = layer.points->info;
                layer.points = empty;
                layer.notPlaced = true;
            }
            layer.stats.count = layer.points->points.size();
            snap->layers.push_back(layer);
            continue;
        }
        if (auto it = cache.stats.find(layer.points.get()); it != cache.stats.end()) {
            layer.stats = it->second.second;
        } else {
            layer.stats.count = layer.points->points.size();  // the count now, the rest after the frame
            layer.statsPending = true;
        }
        snap->layers.push_back(layer);
    }
    snap->notice = skippedNotice(frame.result);
    snap->result = std::move(frame.result);
    snap->seconds = frame.evalSeconds + frame.renderSeconds;
    return snap;
}

PreviewSnapshotPtr followUp(const PreviewSnapshot &frame, PreviewWorkerCache &cache,
                            const std::atomic<bool> *stop, const std::function<void(const EvalProgress &)> &progress)
{
    auto snap = std::make_shared<PreviewSnapshot>(frame);
    snap->timings = {};
    snap->timings.generation = frame.generation;
    snap->timings.followUp = true;
    auto step = Clock::now();
    // Thumbnails: the cache keeps this run's (found or made), so it never outgrows the graph.
    std::map<std::string, QImage> thumbs;
    bool stopped = false;
    for (const auto &[id, node] : frame.result.nodes) {
        if (node->outputs.empty())
            continue;
        if (auto it = cache.thumbnails.find(node->key); it != cache.thumbnails.end()) {
            thumbs[node->key] = it->second;
        } else if (!stopped && !stop->load()) {
            QImage thumb = thumbnailOf(*node, frame.graph.world, stop);
            if (stop->load()) {  // an endless layer's chunks were being placed: a newer run takes over
                stopped = true;
                continue;
            }
            thumbs[node->key] = thumb;
        } else {
            stopped = true;
            continue;
        }
        snap->thumbnails[id] = thumbs[node->key];
    }
    cache.thumbnails = std::move(thumbs);
    snap->thumbnailsPending = false;
    snap->timings.thumbsMs = msSince(step);
    if (stopped)
        return nullptr;

    step = Clock::now();
    // The cache keeps this frame's layers' stats: those it had, and those computed now.
    std::map<const PointLayer *, std::pair<PointLayerPtr, LayerStats>> stats;
    for (const PreviewLayer &layer : snap->layers)
        if (!layer.skipped && !layer.statsPending)
            stats[layer.points.get()] = {layer.points, layer.stats};
    // Stats are work too (seconds for millions of points): they report progress and stop on a newer edit or Cancel.
    size_t statsDone = 0;
    for (PreviewLayer &layer : snap->layers) {
        if (layer.skipped)
            continue;
        if (layer.statsPending) {
            EvalProgress p;
            p.currentNode = "statistics of " + layer.nodeId;
            StatsControl control{stop, [&](double f) {
                                     p.fraction = (static_cast<double>(statsDone) + f) / static_cast<double>(snap->layers.size());
                                     progress(p);
                                 }};
            control.progress(0);
            LayerStats computed = computeLayerStats(frame.result, layer.nodeId, layer.points, frame.graph.world, control);
            if (computed.cancelled) {
                cache.stats = std::move(stats);
                return nullptr;
            }
            layer.stats = std::move(computed);
            layer.statsPending = false;
        }
        ++statsDone;
        stats[layer.points.get()] = {layer.points, layer.stats};
    }
    cache.stats = std::move(stats);
    snap->timings.statsMs = msSince(step);
    return snap;
}
// What a run's statistics found that the graph's text does not say: layers far below what their
// area holds, spaced layers with points too close (a pin dropped by an obstacle), as the layer
// table counts them.
Diagnostics statsProblems(const PreviewSnapshot &snapshot)
{
    Diagnostics found;
    const auto warn = [&](const PreviewLayer &layer, const std::string &message) {
        Diagnostic d;
        d.severity = Diagnostic::Severity::Warning;
        d.nodeId = layer.nodeId;
        d.path = "nodes." + layer.nodeId;
        d.message = message;
        found.push_back(std::move(d));
    };
    for (const PreviewLayer &layer : snapshot.layers) {
        if (!layer.stats.why.empty())
            warn(layer, layer.stats.why);
        // a sampler that keeps a spacing promises none; random points promise nothing
        if (layer.stats.tooClose > 0 && layer.points && layer.points->tally.counted)
            warn(layer, tooCloseSummary(layer.stats.tooClose, layer.stats.tightestTooClose));
    }
    return found;
}

void prefetchAround(const PreviewSnapshot &snapshot, const std::atomic<bool> *stop)
{
    const double c = snapshot.graph.world.chunk;
    const QRectF &r = snapshot.covers;
    const Region ring{r.left() - c, r.top() - c, r.right() + c, r.bottom() + c};
    for (const PreviewLayer &layer : snapshot.layers) {
        if (stop->load() || !layer.points || !layer.points->chunked)
            continue;
        std::vector<ChunkCoord> chunks;
        if (!layer.points->chunked->chunksIn(ring, chunks))
            continue;  // at the edge of an endless world's chunk range
        try {
            layer.points->chunked->prepare(chunks, 0, stop);
        } catch (const std::exception &) {
            return;  // the run that shows these chunks will say what went wrong
        }
    }
}

} // namespace grove
