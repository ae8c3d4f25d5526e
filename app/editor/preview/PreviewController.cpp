// PreviewController: debounce, cancel, one worker run at a time, generation-checked delivery.
#include "preview/PreviewController.h"

#include "document/Document.h"
#include "preview/PreviewFrames.h"

#include "core/graph/NodeRegistry.h"
#include "core/render/PreviewPipeline.h"
#include "core/base/ParallelFor.h"
#include "core/fields/Raster.h"

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

} // namespace


PreviewController::PreviewController(Document *document, QObject *parent)
    : QObject(parent), m_document(document), m_pipeline(std::make_shared<PreviewPipeline>(document->registry())),
      m_cache(std::make_shared<PreviewWorkerCache>())
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
    connect(&m_debounce, &ClockTimer::timeout, this, &PreviewController::startRun);
    // Memory goes back to the system once the preview is idle, not between two runs of a drag.
    m_trim.setSingleShot(true);
    m_trim.setInterval(kTrimDelayMs);
    connect(&m_trim, &QTimer::timeout, this, &PreviewController::releaseFreedMemory);
    qApp->installEventFilter(this);  // the release that ends a drag brings the full picture
    m_longRun.setInterval(kLongRunMs);
    connect(&m_longRun, &ClockTimer::timeout, this, [this] {
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
    stopPrefetch();
    if (m_cancel)
        m_cancel->store(true);
    if (m_stop)
        m_stop->store(true);
    m_pool.waitForDone();
}

void PreviewController::setClock(EditorClock *clock)
{
    m_clock = clock ? clock : EditorClock::system();
    const bool pending = m_debounce.isActive();
    m_debounce.setClock(m_clock);
    m_longRun.setClock(m_clock);
    if (pending)
        m_debounce.start(m_debounceMs);
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

void PreviewController::setDepthSlice(double from, double to)
{
    if (std::make_pair(from, to) == m_depthSlice)
        return;
    m_depthSlice = {from, to};
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
    m_graphEdited = true;
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
        // A stale run: stop it, unless a drag is on and it is younger than kDragPatienceMs. It
        // then shows a nearly current picture, rather than none until the hand stops: at a dense
        // setting a run outlasts many edits, and stopping it at each one (as after kLongRunMs it
        // used to) left the map still for seconds while the slider moved.
        const bool dragging = QGuiApplication::mouseButtons() != Qt::NoButton;
        const qint64 age = m_clock->nowMs() - m_runStartMs;
        if (!dragging || age > kDragPatienceMs)
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
    m_runStartMs = m_clock->nowMs();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_longRun.start();
    // A run for an edited graph clears the last run's problem: it is not this run's. A run for a
    // new region of the same graph keeps it until it delivers or fails: clearing it would resize
    // the map (the message sits above it), a region preview asks for a new region when the map
    // resizes, and a graph that fails would run again and again.
    if (m_graphEdited)
        emit statusChanged({});
    m_graphEdited = false;

    const quint64 generation = m_runGeneration;
    auto cancelFlag = m_cancel;
    auto stopFlag = m_stop;
    auto pipeline = m_pipeline;
    auto cache = m_cache;
    auto input = std::make_shared<PreviewRunInput>();
    input->maxSide = kMaxSide;
    input->graph = m_document->graph();
    input->groups = std::make_shared<const GroupResolver>(m_document->groups());
    input->overlayNode = m_overlayEnabled ? m_overlayNode : std::string();
    input->hidden = m_hidden;
    input->depthSlice = m_depthSlice;
    // During a drag the map is drawn at the size the view shows it (when that is smaller): the
    // same picture on screen for a fraction of the pixels. The full picture follows the drag.
    input->region = currentRegionRun(input->graph.world);
    m_lastRegion = input->region;
    const bool draft = !input->region && QGuiApplication::mouseButtons() != Qt::NoButton && m_displaySide > 0
                       && previewSize(input->graph.world, m_displaySide) != previewSize(input->graph.world, kMaxSide);
    if (draft)
        input->maxSide = m_displaySide;
    const NodeRegistry *registry = &m_document->registry();
    QPointer<PreviewController> self(this);
    stopPrefetch();  // the pool has one thread: the run starts as soon as the prefetch stops
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
    // A node that failed is known with the map and listed at once (a huge world's statistics took
    // a minute, with "Fix the problems" over an empty Problems list); what the statistics find
    // changes only with a whole snapshot, so a drag's drafts do not make it flicker.
    if (snapshot->complete())
        m_statsProblems = statsProblems(*snapshot);
    Diagnostics problems = snapshot->result.failures;
    problems.insert(problems.end(), m_statsProblems.begin(), m_statsProblems.end());
    m_document->setRunProblems(std::move(problems));
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
        startPrefetch();
    }
}

void PreviewController::startPrefetch()
{
    const PreviewSnapshotPtr snapshot = m_snapshot;
    if (!m_prefetch || m_running || !snapshot || !snapshot->regional || snapshot->overBudget
        || snapshot->generation != m_requested)
        return;
    stopPrefetch();
    auto stop = std::make_shared<std::atomic<bool>>(false);
    m_prefetchStop = stop;
    m_prefetching = true;
    QPointer<PreviewController> self(this);
    m_pool.start([self, snapshot, stop] {
        lowerThisThreadsPriority();
        prefetchAround(*snapshot, stop.get());
        QMetaObject::invokeMethod(self, [self, stop] {
            if (self && self->m_prefetchStop == stop)
                self->m_prefetching = false;
        }, Qt::QueuedConnection);
    });
}

void PreviewController::stopPrefetch()
{
    if (m_prefetchStop)
        m_prefetchStop->store(true);
    m_prefetching = false;
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

// The part of a big chunked world to paint: what the view shows once it has shown this world,
// before that the world's home rectangle fitted into the view. Nothing for other worlds.
std::optional<RegionRun> PreviewController::currentRegionRun(const World &world) const
{
    if (!previewsByRegion(world))
        return std::nullopt;
    const QSize pixels = m_viewPixels.isEmpty() ? QSize(800, 600) : m_viewPixels;
    const QRectF home = previewHome(world);
    const bool sameWorld = m_snapshot && m_snapshot->regional
                        && sameWorldShown(m_snapshot->graph.world.endless, m_snapshot->home, world.endless, home);
    const bool viewed = sameWorld && m_viewWorld.isValid();
    if (viewed)
        if (auto run = regionRun(world, m_viewWorld, pixels))
            return run;
    return regionRun(world, home, pixels, true);
}

void PreviewController::setViewport(QRectF world, QSize pixels)
{
    m_viewWorld = world;
    m_viewPixels = pixels;
    const World &w = m_document->graph().world;
    if (!previewsByRegion(w) || !m_snapshot || !m_snapshot->regional)
        return;
    const std::optional<RegionRun> wanted = currentRegionRun(w);
    if (wanted == m_lastRegion)
        return;
    // A new part of the world: a run soon, not one per wheel notch or mouse move.
    if (!m_waiting.isValid())
        m_waiting.start();
    ++m_requested;
    supersede();
    if (!m_debounce.isActive())
        m_debounce.start(kRegionDelayMs);
}

// Runs free their rasters and point sets on several threads, and glibc keeps what those threads'
// arenas held: without this, an idle editor sits on the memory of its largest runs.
void PreviewController::releaseFreedMemory()
{
    m_pool.start([] { grove::releaseFreedMemory(); });
}

} // namespace grove
