// PreviewController: debounce, cancel, one worker run at a time, generation-checked delivery.
#include "PreviewController.h"

#include "Document.h"
#include "OutputRaster.h"

#include "core/NodeRegistry.h"
#include "core/PreviewPipeline.h"
#include "core/Raster.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QPointer>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace grove {

// Worker-side caches, keyed by what the values depend on, so a drag recomputes only what changed.
struct PreviewController::WorkerCache
{
    std::mutex mutex;
    std::map<std::string, QImage> thumbnails;         // by NodeResult::key
    std::map<const PointLayer *, std::pair<PointLayerPtr, LayerStats>> stats;  // holds the layer alive
};

namespace {

constexpr int kThumbWidth = 72, kThumbHeight = 40;  // fits between a card's port names

QImage thumbnailOf(const NodeResult &node, const World &world)
{
    if (node.outputs.empty())
        return {};
    const double scale = std::min(kThumbWidth / world.width, kThumbHeight / world.height);
    const int w = std::max(8, static_cast<int>(world.width * scale)), h = std::max(8, static_cast<int>(world.height * scale));
    return OutputRaster::render(node.outputs.front(), world, w, h, true);
}

// Evaluation yields the CPU to the UI thread, so a drag stays smooth on a machine with few cores.
// On Linux a thread has its own nice value, and the threads it starts (ground, raster rows)
// inherit it.
void lowerThisThreadsPriority()
{
#if defined(__linux__)
    constexpr int kWorkerNice = 5;
    thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        const int current = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
        setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), std::max(current, kWorkerNice));
    }
#endif
}

// A layer a partial run left out: its row stays in the table, empty and marked.
PreviewLayer skippedLayer(const Graph &graph, const NodeRegistry &registry, const std::string &id)
{
    PreviewLayer layer;
    layer.nodeId = id;
    layer.skipped = true;
    auto empty = std::make_shared<PointLayer>();
    const Node *node = graph.node(id);
    const NodeDescriptor *desc = node ? registry.find(node->type) : nullptr;
    empty->info.name = node && desc ? layerName(*node, *desc) : id;
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

// Everything the UI shows for one graph state, computed off the UI thread.
PreviewSnapshotPtr computeSnapshot(PreviewPipeline &pipeline, const NodeRegistry &registry, const Graph &graph,
                                   const std::set<std::string> &hidden, const std::string &overlayNode, std::mutex &cacheMutex,
                                   std::map<std::string, QImage> &thumbCache,
                                   std::map<const PointLayer *, std::pair<PointLayerPtr, LayerStats>> &statsCache,
                                   const std::atomic<bool> *cancel, const std::function<void(const EvalProgress &)> &progress,
                                   QString *problem)
{
    const auto [w, h] = previewSize(graph.world, PreviewController::kMaxSide);
    // the progress names each step for the status bar: "evaluating NODE", then "statistics of LAYER"
    PreviewFrame frame = pipeline.run(graph, w, h, cancel, [&](const EvalProgress &p) {
        EvalProgress step = p;
        step.currentNode = "evaluating " + p.currentNode;
        progress(step);
    }, hidden);
    if (!frame.result.ok() || frame.image.empty()) {
        if (frame.result.status == EvalResult::Status::Invalid)
            *problem = QObject::tr("Fix the problems to see the preview.");
        else if (frame.result.status == EvalResult::Status::Failed && !frame.result.diagnostics.empty())
            *problem = QString::fromStdString(frame.result.diagnostics.front().message);
        return nullptr;
    }
    using Clock = std::chrono::steady_clock;
    auto since = [](Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); };
    auto snap = std::make_shared<PreviewSnapshot>();
    snap->timings.evalMs = frame.evalSeconds * 1000;
    snap->timings.renderMs = frame.renderSeconds * 1000;
    auto step = Clock::now();
    snap->graph = graph;
    snap->image = QImage(frame.image.rgb.data(), frame.image.width, frame.image.height, frame.image.width * 3,
                         QImage::Format_RGB888)
                      .copy();
    snap->timings.imageMs = since(step);
    step = Clock::now();
    std::lock_guard lock(cacheMutex);
    std::map<std::string, QImage> thumbs;
    for (const auto &[id, node] : frame.result.nodes) {
        if (cancel->load())
            return nullptr;
        auto it = thumbCache.find(node->key);
        thumbs[node->key] = it != thumbCache.end() ? it->second : thumbnailOf(*node, graph.world);
        snap->thumbnails[id] = thumbs[node->key];
    }
    thumbCache = std::move(thumbs);
    snap->timings.thumbsMs = since(step);
    step = Clock::now();
    if (!overlayNode.empty())
        if (auto it = frame.result.nodes.find(overlayNode); it != frame.result.nodes.end() && !it->second->outputs.empty()) {
            snap->overlayNode = overlayNode;
            snap->overlay = OutputRaster::render(it->second->outputs.front(), graph.world, w, h, false, false,
                                                 defaultRasterThreads());
        }
    snap->timings.overlayMs = since(step);
    step = Clock::now();
    std::map<const PointLayer *, std::pair<PointLayerPtr, LayerStats>> stats;
    const std::vector<std::string> layerIds = exportedLayers(graph, registry);
    // Stats are work too (seconds for millions of points): they report progress and stop on Cancel.
    size_t statsDone = 0;
    for (const std::string &id : layerIds) {
        const PortValue points = frame.result.outputWithRole(id, PortRole::LayerPoints);
        const auto *set = std::get_if<PointSetPtr>(&points);
        if (std::find(frame.result.skipped.begin(), frame.result.skipped.end(), id) != frame.result.skipped.end()) {
            snap->layers.push_back(skippedLayer(graph, registry, id));  // listed, marked, without stale numbers
            continue;
        }
        if (!set || !*set || (*set)->layers.empty())
            continue;
        PreviewLayer layer;
        layer.nodeId = id;
        layer.points = (*set)->layers.back();
        layer.name = QString::fromStdString(layer.points->info.name);
        const Rgb &c = layer.points->info.color;
        layer.color = QColor(c[0], c[1], c[2]);
        if (auto it = statsCache.find(layer.points.get()); it != statsCache.end()) {
            layer.stats = it->second.second;
        } else {
            EvalProgress p;
            p.currentNode = "statistics of " + id;
            StatsControl control{cancel, [&](double f) {
                                     p.fraction = (static_cast<double>(statsDone) + f) / static_cast<double>(layerIds.size());
                                     progress(p);
                                 }};
            control.progress(0);
            layer.stats = computeLayerStats(frame.result, id, layer.points, graph.world, control);
            if (layer.stats.cancelled)
                return nullptr;
        }
        ++statsDone;
        stats[layer.points.get()] = {layer.points, layer.stats};
        snap->layers.push_back(layer);
    }
    statsCache = std::move(stats);
    snap->timings.statsMs = since(step);
    snap->notice = skippedNotice(frame.result);
    snap->result = std::move(frame.result);
    snap->seconds = frame.evalSeconds + frame.renderSeconds;
    return snap;
}

// What a run found that the graph's text does not say: nodes that failed, layers far below what
// their area holds.
Diagnostics runProblems(const PreviewSnapshot &snapshot)
{
    Diagnostics found = snapshot.result.failures;
    for (const PreviewLayer &layer : snapshot.layers)
        if (!layer.stats.why.empty()) {
            Diagnostic d;
            d.severity = Diagnostic::Severity::Warning;
            d.nodeId = layer.nodeId;
            d.path = "nodes." + layer.nodeId;
            d.message = layer.stats.why;
            found.push_back(std::move(d));
        }
    return found;
}

} // namespace

PreviewController::PreviewController(Document *document, QObject *parent)
    : QObject(parent), m_document(document), m_pipeline(std::make_shared<PreviewPipeline>(document->registry())),
      m_cache(std::make_shared<WorkerCache>())
{
    m_pool.setMaxThreadCount(1);
#if defined(__GLIBC__)
    // Pictures, overlays and occupancy grids are freed after every run. glibc would raise its mmap
    // threshold past their size after the first free and serve the next ones from its arenas,
    // which fragment and keep growing during a drag; a fixed threshold keeps them in mmap, so a
    // free gives the memory back.
    static const bool fixedThreshold = mallopt(M_MMAP_THRESHOLD, 512 * 1024) != 0;
    Q_UNUSED(fixedThreshold);
#endif
    m_debounce.setSingleShot(true);
    connect(&m_debounce, &QTimer::timeout, this, &PreviewController::startRun);
    m_longRun.setSingleShot(true);
    m_longRun.setInterval(kLongRunMs);
    connect(&m_longRun, &QTimer::timeout, this, [this] {
        if (m_running)
            emit longRunChanged(true);
    });
    for (auto signal : {&Document::graphReset, &Document::graphInfoChanged})
        connect(document, signal, this, &PreviewController::schedule);
    for (auto signal : {&Document::nodeAdded, &Document::nodeRemoved})
        connect(document, signal, this, &PreviewController::schedule);
    connect(document, &Document::nodeRenamed, this, &PreviewController::schedule);
    connect(document, &Document::paramChanged, this, &PreviewController::schedule);
    connect(document, &Document::inputChanged, this, &PreviewController::schedule);
    schedule();
}

PreviewController::~PreviewController()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

void PreviewController::setOverlayNode(const std::string &id)
{
    if (id == m_overlayNode)
        return;
    m_overlayNode = id;
    if (m_overlayEnabled)
        refresh();
}

void PreviewController::setOverlayEnabled(bool enabled)
{
    if (enabled == m_overlayEnabled)
        return;
    m_overlayEnabled = enabled;
    refresh();
}

void PreviewController::setHiddenLayers(const std::set<std::string> &ids)
{
    if (ids == m_hidden)
        return;
    m_hidden = ids;
    refresh();
}

void PreviewController::refresh()
{
    if (!m_waiting.isValid())
        m_waiting.start();
    ++m_requested;
    m_debounce.start(0);
}

void PreviewController::cancel()
{
    m_pending = false;
    m_userCancelled = true;
    m_debounce.stop();
    if (m_cancel)
        m_cancel->store(true);
}

// While a slider is dragged (a button is down), runs start at once if they keep up.
void PreviewController::schedule()
{
    if (!m_waiting.isValid())
        m_waiting.start();
    ++m_requested;
    const bool dragging = QGuiApplication::mouseButtons() != Qt::NoButton;
    m_debounce.start(dragging && m_lastRunMs < 2 * m_debounceMs ? 0 : m_debounceMs);
}

void PreviewController::startRun()
{
    if (m_running) {
        // A stale run: stop it, unless a drag is on and it is young (it then shows a nearly
        // current picture soon, rather than none until the hand stops).
        const bool dragging = QGuiApplication::mouseButtons() != Qt::NoButton;
        const qint64 age = QDateTime::currentMSecsSinceEpoch() - m_runStartMs;
        if (!dragging || age > kLongRunMs)
            m_cancel->store(true);
        m_pending = true;
        return;
    }
    m_pending = false;
    m_userCancelled = false;
    m_running = true;
    const double queueMs = m_waiting.isValid() ? static_cast<double>(m_waiting.nsecsElapsed()) / 1e6 : 0;
    m_waiting.invalidate();
    m_runGeneration = m_requested;
    m_runStartMs = QDateTime::currentMSecsSinceEpoch();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_longRun.start();
    emit statusChanged({});  // the last run's problem is not this run's

    const quint64 generation = m_runGeneration;
    auto cancelFlag = m_cancel;
    auto pipeline = m_pipeline;
    auto cache = m_cache;
    const Graph graph = m_document->graph();
    const NodeRegistry *registry = &m_document->registry();
    const std::string overlay = m_overlayEnabled ? m_overlayNode : std::string();
    const std::set<std::string> hidden = m_hidden;
    QPointer<PreviewController> self(this);
    m_pool.start([=] {
        lowerThisThreadsPriority();
        int lastPercent = -1;
        std::string lastNode;
        auto report = [&](const EvalProgress &p) {
            const int percent = static_cast<int>(p.fraction * 100);
            if (percent == lastPercent && p.currentNode == lastNode)
                return;
            lastPercent = percent;
            lastNode = p.currentNode;
            const QString node = QString::fromStdString(p.currentNode);
            QMetaObject::invokeMethod(self, [self, percent, node] {
                if (self)
                    emit self->progress(percent, node);
            }, Qt::QueuedConnection);
        };
        QString problem;
        PreviewSnapshotPtr snap = computeSnapshot(*pipeline, *registry, graph, hidden, overlay, cache->mutex,
                                                  cache->thumbnails, cache->stats, cancelFlag.get(), report, &problem);
        if (snap) {
            std::const_pointer_cast<PreviewSnapshot>(snap)->generation = generation;
            std::const_pointer_cast<PreviewSnapshot>(snap)->timings.generation = generation;
            std::const_pointer_cast<PreviewSnapshot>(snap)->timings.queueMs = queueMs;
        }
        const bool cancelled = cancelFlag->load();
        QMetaObject::invokeMethod(self, [self, generation, snap, problem, cancelled] {
            if (self)
                self->finishRun(generation, snap, problem, cancelled);
        }, Qt::QueuedConnection);
    });
}

void PreviewController::finishRun(quint64 generation, PreviewSnapshotPtr snapshot, const QString &problem,
                                  bool cancelled)
{
    m_running = false;
    m_longRun.stop();
    m_lastRunMs = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_runStartMs);
    // Never replace a newer picture with an older one.
    if (snapshot && !cancelled && generation > shownGeneration()) {
        m_snapshot = snapshot;
        QElapsedTimer deliver;
        deliver.start();
        emit snapshotReady(snapshot);
        emit statusChanged(snapshot->notice);
        m_document->setRunProblems(runProblems(*snapshot));
        PreviewTimings timings = snapshot->timings;
        timings.deliverMs = static_cast<double>(deliver.nsecsElapsed()) / 1e6;
        emit frameTimed(timings);
    } else if (!snapshot && !cancelled && !problem.isEmpty() && generation == m_requested) {
        emit statusChanged(problem);
    }
    if (m_userCancelled && cancelled)
        emit statusChanged(tr("Preview cancelled; the next change starts it again."));
    if (m_pending || (generation < m_requested && !m_userCancelled)) {
        startRun();
    } else {
        emit longRunChanged(false);
        releaseFreedMemory();
    }
}

// Runs free their rasters and point sets on several threads, and glibc keeps what those threads'
// arenas held: without this, an idle editor sits on the memory of its largest runs.
void PreviewController::releaseFreedMemory()
{
#if defined(__GLIBC__)
    m_pool.start([] { malloc_trim(0); });
#endif
}

} // namespace grove
