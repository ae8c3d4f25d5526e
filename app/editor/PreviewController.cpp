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
#include <QMouseEvent>
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

// What a run needs besides the graph; copied on the UI thread when the run starts.
struct RunInput
{
    int maxSide = PreviewController::kMaxSide;  // smaller for a draft
    Graph graph;
    std::set<std::string> hidden;
    std::string overlayNode;
};

// The frame: everything the map needs, as soon as the evaluation is done. Thumbnails and stats
// come from the caches where their inputs did not change; the rest is left to followUp().
PreviewSnapshotPtr computeFrame(PreviewPipeline &pipeline, const NodeRegistry &registry, const RunInput &in,
                                PreviewController::WorkerCache &cache, const std::atomic<bool> *cancel,
                                const std::function<void(const EvalProgress &)> &progress, QString *problem);

// Thumbnails and stats the frame lacked, unless `stop` (a newer edit, or Cancel) comes first;
// then null. The caches keep what was computed either way.
PreviewSnapshotPtr followUp(const PreviewSnapshot &frame, PreviewController::WorkerCache &cache,
                            const std::atomic<bool> *stop, const std::function<void(const EvalProgress &)> &progress);

} // namespace

// Worker-side caches, keyed by what the values depend on, so a drag recomputes only what changed.
// Only the worker thread uses them (one run at a time).
struct PreviewController::WorkerCache
{
    std::map<std::string, QImage> thumbnails;         // by NodeResult::key
    std::map<const PointLayer *, std::pair<PointLayerPtr, LayerStats>> stats;  // holds the layer alive
    std::string overlayKey;                           // NodeResult::key and size of `overlay`
    QImage overlay;
};

namespace {

PreviewSnapshotPtr computeFrame(PreviewPipeline &pipeline, const NodeRegistry &registry, const RunInput &in,
                                PreviewController::WorkerCache &cache, const std::atomic<bool> *cancel,
                                const std::function<void(const EvalProgress &)> &progress, QString *problem)
{
    const Graph &graph = in.graph;
    const auto [w, h] = previewSize(graph.world, in.maxSide);
    // the progress names each step for the status bar: "evaluating NODE", then "statistics of LAYER"
    PreviewFrame frame = pipeline.run(graph, w, h, cancel, [&](const EvalProgress &p) {
        EvalProgress step = p;
        step.currentNode = "evaluating " + p.currentNode;
        progress(step);
    }, in.hidden);
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

    step = Clock::now();
    if (!in.overlayNode.empty())
        if (auto it = frame.result.nodes.find(in.overlayNode); it != frame.result.nodes.end() && !it->second->outputs.empty()) {
            snap->overlayNode = in.overlayNode;
            const std::string key = it->second->key + "@" + std::to_string(w) + "x" + std::to_string(h);
            if (key != cache.overlayKey) {  // the overlaid node's output changed (or another node is selected)
                cache.overlay = OutputRaster::render(it->second->outputs.front(), graph.world, w, h, false, false,
                                                     defaultRasterThreads());
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
        layer.nodeId = id;
        layer.points = (*set)->layers.back();
        layer.name = QString::fromStdString(layer.points->info.name);
        const Rgb &c = layer.points->info.color;
        layer.color = QColor(c[0], c[1], c[2]);
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

PreviewSnapshotPtr followUp(const PreviewSnapshot &frame, PreviewController::WorkerCache &cache,
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
            thumbs[node->key] = thumbnailOf(*node, frame.graph.world);
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
    // Memory goes back to the system once the preview is idle, not between two runs of a drag.
    m_trim.setSingleShot(true);
    m_trim.setInterval(kTrimDelayMs);
    connect(&m_trim, &QTimer::timeout, this, &PreviewController::releaseFreedMemory);
    qApp->installEventFilter(this);  // the release that ends a drag brings the full picture
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
    if (m_stop)
        m_stop->store(true);
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
    supersede();
    m_debounce.start(0);
}

void PreviewController::cancel()
{
    m_pending = false;
    m_userCancelled = true;
    m_debounce.stop();
    if (m_cancel)
        m_cancel->store(true);
    if (m_stop)
        m_stop->store(true);
}

// A newer request makes the run's follow-up (thumbnails, stats) stale: it stops at its next safe
// point, so the next run starts at once. The run's frame, if not yet delivered, still is.
void PreviewController::supersede()
{
    if (m_running && m_stop)
        m_stop->store(true);
}

// While a slider is dragged (a button is down), a run starts at once. Otherwise after a short quiet
// time counted from the first edit: a stream of edits never holds the preview off.
void PreviewController::schedule()
{
    if (!m_waiting.isValid())
        m_waiting.start();
    ++m_requested;
    supersede();
    const bool dragging = QGuiApplication::mouseButtons() != Qt::NoButton;
    if (dragging)
        m_debounce.start(0);
    else if (!m_debounce.isActive())
        m_debounce.start(m_debounceMs);
}

void PreviewController::startRun()
{
    m_debounce.stop();
    if (m_running) {
        if (m_requested == m_runGeneration)
            return;
        // A stale run: stop it, unless a drag is on and it is young (it then shows a nearly
        // current picture soon, rather than none until the hand stops).
        const bool dragging = QGuiApplication::mouseButtons() != Qt::NoButton;
        const qint64 age = QDateTime::currentMSecsSinceEpoch() - m_runStartMs;
        if (!dragging || age > kLongRunMs)
            m_cancel->store(true);
        m_stop->store(true);
        m_pending = true;
        return;
    }
    m_trim.stop();
    m_pending = false;
    m_userCancelled = false;
    m_running = true;
    const double queueMs = m_waiting.isValid() ? static_cast<double>(m_waiting.nsecsElapsed()) / 1e6 : 0;
    m_waiting.invalidate();
    m_runGeneration = m_requested;
    m_runStartMs = QDateTime::currentMSecsSinceEpoch();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_longRun.start();
    emit statusChanged({});  // the last run's problem is not this run's

    const quint64 generation = m_runGeneration;
    auto cancelFlag = m_cancel;
    auto stopFlag = m_stop;
    auto pipeline = m_pipeline;
    auto cache = m_cache;
    auto input = std::make_shared<RunInput>();
    input->graph = m_document->graph();
    input->overlayNode = m_overlayEnabled ? m_overlayNode : std::string();
    input->hidden = m_hidden;
    // During a drag the map is drawn at the size the view shows it (when that is smaller): the
    // same picture on screen for a fraction of the pixels. The full picture follows the drag.
    const bool draft = QGuiApplication::mouseButtons() != Qt::NoButton && m_displaySide > 0
                       && previewSize(input->graph.world, m_displaySide) != previewSize(input->graph.world, kMaxSide);
    if (draft)
        input->maxSide = m_displaySide;
    const NodeRegistry *registry = &m_document->registry();
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
        auto deliver = [&](PreviewSnapshotPtr snap) {
            QMetaObject::invokeMethod(self, [self, snap] {
                if (self)
                    self->deliver(snap);
            }, Qt::QueuedConnection);
        };
        QString problem;
        PreviewSnapshotPtr frame = computeFrame(*pipeline, *registry, *input, *cache, cancelFlag.get(), report, &problem);
        if (frame && !cancelFlag->load()) {
            auto edited = std::const_pointer_cast<PreviewSnapshot>(frame);
            edited->generation = generation;
            edited->timings.generation = generation;
            edited->timings.queueMs = queueMs;
            edited->draft = draft;
            deliver(frame);  // the map first; what follows never holds it up
            if (!frame->complete() && !stopFlag->load())
                if (PreviewSnapshotPtr full = followUp(*frame, *cache, stopFlag.get(), report))
                    deliver(full);
        }
        const bool cancelled = cancelFlag->load();
        const bool delivered = frame != nullptr;
        QMetaObject::invokeMethod(self, [self, generation, delivered, problem, cancelled] {
            if (self)
                self->finishRun(generation, delivered, problem, cancelled);
        }, Qt::QueuedConnection);
    });
}

void PreviewController::deliver(const PreviewSnapshotPtr &snapshot)
{
    // Never replace a newer picture with an older one; a follow-up completes its own frame.
    const bool newer = snapshot->generation > shownGeneration();
    const bool completes = m_snapshot && snapshot->generation == shownGeneration() && !m_snapshot->complete()
                           && snapshot->complete();
    if (!newer && !completes)
        return;
    m_snapshot = snapshot;
    QElapsedTimer clock;
    clock.start();
    emit snapshotReady(snapshot);
    emit statusChanged(snapshot->notice);
    if (snapshot->complete())  // the Problems a run finds need its stats: only whole snapshots change them
        m_document->setRunProblems(runProblems(*snapshot));
    PreviewTimings timings = snapshot->timings;
    timings.deliverMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    emit frameTimed(timings);
}

void PreviewController::finishRun(quint64 generation, bool delivered, const QString &problem, bool cancelled)
{
    m_running = false;
    m_longRun.stop();
    if (!delivered && !cancelled && !problem.isEmpty() && generation == m_requested)
        emit statusChanged(problem);
    if (m_userCancelled && cancelled)
        emit statusChanged(tr("Preview cancelled; the next change starts it again."));
    if (m_pending || (generation < m_requested && !m_userCancelled)) {
        startRun();
    } else {
        emit longRunChanged(false);
        m_trim.start();
        refineDraft();
    }
}

// A draft on show and the drag over: the same graph again at full size (the evaluator's cache
// answers it, so only the picture is drawn again). While the button is down, the release does it.
void PreviewController::refineDraft()
{
    if (!m_snapshot || !m_snapshot->draft || m_running || m_userCancelled
        || QGuiApplication::mouseButtons() != Qt::NoButton)
        return;
    refresh();
}

bool PreviewController::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::MouseButtonRelease && m_snapshot && m_snapshot->draft && !m_running
        && static_cast<QMouseEvent *>(event)->buttons() == Qt::NoButton && !m_userCancelled)
        refresh();
    return QObject::eventFilter(watched, event);
}

void PreviewController::setDisplaySide(int pixels)
{
    m_displaySide = std::max(0, pixels);
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
