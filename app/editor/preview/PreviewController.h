// Keeps the live preview current: on every Document change it (debounced) cancels a stale run and
// evaluates + paints on a worker thread, delivering results tagged with a generation number: first
// the frame (the map, counts, cached thumbnails and stats), then, unless a newer edit came, the
// thumbnails and stats that changed.
#pragma once

#include "common/EditorClock.h"
#include "preview/PreviewRegion.h"
#include "preview/PreviewSnapshot.h"

#include <cmath>
#include <utility>
#include <QElapsedTimer>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <set>
#include <string>

namespace grove {

class Document;
class PreviewPipeline;

class PreviewController : public QObject
{
    Q_OBJECT

public:
    explicit PreviewController(Document *document, QObject *parent = nullptr);
    ~PreviewController() override;

    // The last delivered snapshot (never an older one than delivered before); may be null.
    PreviewSnapshotPtr snapshot() const { return m_snapshot; }
    // The newest graph state asked for, and the one shown now: equal once the preview caught up.
    quint64 requestedGeneration() const { return m_requested; }
    quint64 shownGeneration() const { return m_snapshot ? m_snapshot->generation : 0; }
    quint64 runningGeneration() const { return m_running ? m_runGeneration : 0; }  // 0: no run
    bool isRunning() const { return m_running; }

    // The node whose output the overlay shows (the selection); empty or disabled: none.
    void setOverlayNode(const std::string &id);
    void setOverlayEnabled(bool enabled);
    bool overlayEnabled() const { return m_overlayEnabled; }
    // Exported layers (node ids) left off the picture.
    void setHiddenLayers(const std::set<std::string> &ids);
    // Volume layers draw only points with z in [from, to) (the dock's depth slice; view state).
    void setDepthSlice(double from, double to);
    std::pair<double, double> depthSlice() const { return m_depthSlice; }
    void setDebounceMs(int ms) { m_debounceMs = ms; }
    // The clock the debounce and the progress bar's delay count on (the system clock by default).
    void setClock(EditorClock *clock);
    // The longer side, in device pixels, of the map as the view shows it (0: unknown). Runs during
    // a drag draw their picture at this size when it is below kMaxSide (PreviewSnapshot::draft).
    void setDisplaySide(int pixels);
    // What the view shows (world units) on how many device pixels: a big chunked world's preview
    // (previewsByRegion) paints that part, and asks for it again (debounced) when it changes.
    void setViewport(QRectF world, QSize pixels);
    // A big chunked world: once a picture is shown and nothing waits, the chunks in a ring one chunk
    // wide around the view are placed in the background (stopped by any new request), so a pan
    // finds them ready. On by default.
    void setPrefetch(bool on) { m_prefetch = on; }
    bool isPrefetching() const { return m_prefetching; }
    // Asks for a new run of the current graph.
    void refresh();
    // Stops the run in flight (the status bar's Cancel); the preview keeps its last picture.
    void cancel();

    PreviewPipeline &pipeline() { return *m_pipeline; }
    static constexpr int kMaxSide = 1024;   // the picture's longer side
    static constexpr int kLongRunMs = 300;  // runs longer than this show a progress bar
    // While a slider is dragged, a stale run younger than this finishes and shows its frame
    static constexpr int kDragPatienceMs = 1500;
    static constexpr int kTrimDelayMs = 250;  // idle time before freed memory goes back to the system
    static constexpr int kRegionDelayMs = 25;  // a pan or zoom asks for its region this long after it begins

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void snapshotReady(grove::PreviewSnapshotPtr snapshot);
    // percent of the run, and its step: "evaluating NODE" or "statistics of LAYER"
    void progress(int percent, const QString &step);
    // A run has taken longer than kLongRunMs (true) / no run is in flight any more (false).
    void longRunChanged(bool running);
    // The graph cannot be previewed now (invalid, failed, cancelled); empty when it can again.
    void statusChanged(const QString &message);
    // Where a delivered frame's time went (after snapshotReady's slots ran), for benchmarks.
    void frameTimed(const grove::PreviewTimings &timings);

private:
    void schedule();
    void startRun();
    void supersede();
    void refineDraft();
    void deliver(const PreviewSnapshotPtr &snapshot);
    void finishRun(quint64 generation, bool delivered, const QString &problem, bool cancelled);
    void releaseFreedMemory();
    void startPrefetch();
    void stopPrefetch();

    Document *m_document;
    std::shared_ptr<PreviewPipeline> m_pipeline;
    std::shared_ptr<struct PreviewWorkerCache> m_cache;  // the worker's thumbnails, stats and overlay
    QThreadPool m_pool;
    EditorClock *m_clock = EditorClock::system();
    ClockTimer m_debounce;
    ClockTimer m_longRun;
    QTimer m_trim;
    int m_displaySide = 0;
    QRectF m_viewWorld;                    // the view's visible world rectangle
    QSize m_viewPixels;                    // and its size in device pixels
    std::optional<RegionRun> m_lastRegion;  // of the last region run started
    bool m_prefetch = true;
    bool m_prefetching = false;
    std::shared_ptr<std::atomic<bool>> m_prefetchStop;
    std::optional<RegionRun> currentRegionRun(const World &world) const;
    std::shared_ptr<std::atomic<bool>> m_cancel;  // of the run in flight
    std::shared_ptr<std::atomic<bool>> m_stop;    // of its follow-up: set by a newer request or Cancel
    PreviewSnapshotPtr m_snapshot;
    Diagnostics m_statsProblems;  // the last whole snapshot's (statsProblems)
    std::string m_overlayNode;
    std::set<std::string> m_hidden;
    std::pair<double, double> m_depthSlice{-HUGE_VAL, HUGE_VAL};
    bool m_overlayEnabled = false;  // opt-in: a noise over the island surprises
    bool m_running = false;
    bool m_pending = false;
    bool m_userCancelled = false;
    bool m_graphEdited = false;  // a change to the graph waits: its run clears the last problem shown
    quint64 m_requested = 0;  // bumped on every change
    quint64 m_runGeneration = 0;
    qint64 m_runStartMs = 0;
    QElapsedTimer m_waiting;  // since the oldest request no run has taken yet
    int m_debounceMs = 30;
};

} // namespace grove
