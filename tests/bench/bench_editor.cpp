// Edit-to-frame latency of the real editor: a MainWindow on presets/island_world at its
// default size, its real worker thread and real paint, driven through a scripted slider drag. Each
// of N value changes (one every GROVE_BENCH_EDIT_MS, default 20 ms) is timed from the moment the
// value changes to the first paint of the Preview whose picture was evaluated from that value or a
// newer one. Run it offscreen (QT_QPA_PLATFORM=offscreen) or on a display (Xvfb).
//
//   grove_bench_editor --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Counters: edit_to_frame_ms (median), p95_ms, skipped (edits whose own value was never painted,
// superseded by a newer one), frames, final_ms (release to the last value's frame on screen),
// settled_ms (release to the preview idle: full-size picture, thumbnails and stats),
// ui_gap_ms (largest wall gap between 1 ms heartbeats on the UI thread), ui_cpu_gap_ms (UI-thread
// CPU time between two heartbeats: work that blocks it, without the OS lending the core away), and
// the breakdown, mean per delivered frame: queue_ms (edit to its run's start), eval_ms, render_ms
// (ground + sprites), image_ms (QImage conversion and scaling to the view), overlay_ms, thumbs_ms
// and stats_ms (these two follow the frame), deliver_ms (UI thread: the frame handed to the dock,
// table, canvas), paint_ms (the Preview's paintEvent).
// GROVE_BENCH_EDITS (default 60) and GROVE_BENCH_EDIT_MS change the drag; the CTest smoke run uses few.
#include "window/MainWindow.h"
#include "inspector/ParamEditors.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"
#include "preview/PreviewView.h"

#include "core/sampling/ChunkedLayer.h"

#include "nodes/BuiltinNodes.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QEventLoop>
#include <QPushButton>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <vector>

using namespace grove;

namespace {

const QString kIsland = GROVE_SOURCE_DIR "/presets/island_world.grove.yaml";

int envInt(const char *name, int fallback)
{
    const QByteArray v = qgetenv(name);
    bool ok = false;
    const int n = v.toInt(&ok);
    return ok && n > 0 ? n : fallback;
}

qint64 threadCpuNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<qint64>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Runs the event loop until `done` or `timeoutMs`; false on timeout.
bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QTest::qSleep(1);
    }
    return true;
}

QPoint handleCenter(QSlider *slider)
{
    QStyleOptionSlider opt;
    opt.initFrom(slider);
    opt.orientation = slider->orientation();
    opt.maximum = slider->maximum();
    opt.minimum = slider->minimum();
    opt.sliderPosition = slider->sliderPosition();
    opt.sliderValue = slider->value();
    return slider->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, slider).center();
}

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const size_t i = static_cast<size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

bool caughtUp(MainWindow *w)
{
    PreviewController *c = w->preview();
    return !c->isRunning() && c->snapshot() && c->shownGeneration() == c->requestedGeneration()
           && w->previewDock()->view()->paintedGeneration() >= c->requestedGeneration();
}

struct Drag
{
    const char *node, *param;
    bool overlay;
};

void dragBenchmark(benchmark::State &state, Drag drag)
{
    const int edits = envInt("GROVE_BENCH_EDITS", 60);
    const int intervalMs = envInt("GROVE_BENCH_EDIT_MS", 20);
    std::vector<double> latencies, finals, gaps, cpuGaps, skips, frameCounts;
    struct Sum
    {
        double queue = 0, eval = 0, render = 0, image = 0, overlay = 0, thumbs = 0, stats = 0, deliver = 0, paint = 0;
        int frames = 0, followUps = 0, paints = 0;
    } sum;

    for (auto _ : state) {
        auto w = std::make_unique<MainWindow>(builtinRegistry());
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get()) || !w->openFile(kIsland)) {
            state.SkipWithError("cannot open island_world");
            return;
        }
        PreviewController *preview = w->preview();
        PreviewView *view = w->previewDock()->view();
        w->selectNode(drag.node);
        if (drag.overlay) {
            auto *toggle = w->previewDock()->findChild<QPushButton *>("overlayToggle");
            toggle->setChecked(true);
        }
        if (!waitFor([&] { return caughtUp(w.get()); }, 60000)) {
            state.SkipWithError("the preview did not settle");
            return;
        }
        QTest::qWait(200);  // thumbnails and statistics of the first picture
        auto *editor = w->findChild<ParamEditor *>(QString("param:%1").arg(drag.param));
        QSlider *slider = editor ? editor->findChild<QSlider *>() : nullptr;
        if (!slider || !slider->isVisible()) {
            state.SkipWithError("no visible slider");
            return;
        }

        QElapsedTimer clock;
        clock.start();
        struct Edit
        {
            quint64 generation;
            qint64 atNs;
            double latencyMs = -1;
            bool ownFrame = false;
        };
        std::vector<Edit> log;
        int frames = 0;
        auto onPaint = QObject::connect(view, &PreviewView::framePainted, [&](quint64 generation, qint64 paintNs) {
            const qint64 now = clock.nsecsElapsed();
            ++frames;
            sum.paint += static_cast<double>(paintNs) / 1e6;
            ++sum.paints;
            for (Edit &e : log) {
                if (e.latencyMs < 0 && generation >= e.generation)
                    e.latencyMs = static_cast<double>(now - e.atNs) / 1e6;
                if (generation == e.generation)
                    e.ownFrame = true;
            }
        });
        std::vector<PreviewTimings> timings;  // every frame's, for GROVE_BENCH_EDIT_LOG
        auto onFrame = QObject::connect(preview, &PreviewController::frameTimed, [&](const PreviewTimings &t) {
            timings.push_back(t);
            if (t.followUp) {
                sum.thumbs += t.thumbsMs;
                sum.stats += t.statsMs;
                ++sum.followUps;
                return;
            }
            sum.queue += t.queueMs;
            sum.eval += t.evalMs;
            sum.render += t.renderMs;
            sum.image += t.imageMs;
            sum.overlay += t.overlayMs;
            sum.thumbs += t.thumbsMs;
            sum.stats += t.statsMs;
            sum.deliver += t.deliverMs;
            ++sum.frames;
        });

        // Heartbeat: a 1 ms timer on the UI thread; the largest wall and UI-CPU gaps between ticks.
        qint64 lastBeat = clock.nsecsElapsed(), lastCpu = threadCpuNs(), maxGap = 0, maxCpuGap = 0;
        QTimer heartbeat;
        heartbeat.setTimerType(Qt::PreciseTimer);
        heartbeat.setInterval(1);
        QObject::connect(&heartbeat, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed(), cpu = threadCpuNs();
            maxGap = std::max(maxGap, now - lastBeat);
            maxCpuGap = std::max(maxCpuGap, cpu - lastCpu);
            lastBeat = now;
            lastCpu = cpu;
        });

        // A real press on the handle: the application knows a button is down, as in a drag.
        QWindow *window = w->windowHandle();
        const QPoint press = window->mapFromGlobal(slider->mapToGlobal(handleCenter(slider)));
        QTest::mousePress(window, Qt::LeftButton, {}, press);
        heartbeat.start();
        lastBeat = clock.nsecsElapsed();
        lastCpu = threadCpuNs();
        // A hand wiggling the value about where it was: down a fifth of the edits, up two fifths,
        // down again, ... one slider step (a new value) per edit. Every value is evaluated anew:
        // the evaluator keeps only the current graph's results.
        const int start = slider->value();
        const int amplitude = std::max(1, std::min(edits / 5, std::min(start - slider->minimum(), slider->maximum() - start)));
        auto position = [&](int i) {  // a triangle wave through start, first downwards
            const int phase = (i + amplitude) % (4 * amplitude);
            return start - amplitude + std::abs(phase - 2 * amplitude);
        };
        QEventLoop loop;
        QTimer driver;
        driver.setTimerType(Qt::PreciseTimer);
        driver.setInterval(intervalMs);
        QObject::connect(&driver, &QTimer::timeout, [&] {
            const qint64 at = clock.nsecsElapsed();
            slider->setValue(position(static_cast<int>(log.size()) + 1));
            log.push_back({preview->requestedGeneration(), at});
            if (static_cast<int>(log.size()) == edits) {
                driver.stop();
                loop.quit();
            }
        });
        driver.start();
        loop.exec();
        QTest::mouseRelease(window, Qt::LeftButton, {}, press);
        const qint64 released = clock.nsecsElapsed();
        const quint64 last = log.back().generation;
        const bool shown = waitFor([&] { return view->paintedGeneration() >= last; }, 60000);
        const double finalMs = static_cast<double>(clock.nsecsElapsed() - released) / 1e6;
        const bool settled = shown && waitFor([&] { return caughtUp(w.get()); }, 60000);
        const double settledMs = static_cast<double>(clock.nsecsElapsed() - released) / 1e6;
        QTest::qWait(50);  // thumbnails and statistics after the drag, as the designer sees them
        heartbeat.stop();
        QObject::disconnect(onPaint);
        QObject::disconnect(onFrame);
        if (!settled || log.back().latencyMs < 0) {
            state.SkipWithError("the final value was never painted");
            return;
        }
        std::vector<double> lat;
        int skipped = 0;
        for (const Edit &e : log) {
            lat.push_back(e.latencyMs);
            skipped += e.ownFrame ? 0 : 1;
        }
        // GROVE_BENCH_EDIT_LOG=FILE: each edit's latency, a line each, to see where the slow ones fall
        if (const char *path = std::getenv("GROVE_BENCH_EDIT_LOG")) {
            QFile out(QString::fromLocal8Bit(path));
            if (out.open(QIODevice::Append | QIODevice::Text))
                for (std::size_t i = 0; i < log.size(); ++i)
                    out.write(QString("%1 %2 edit %3 %4 ms%5\n").arg(drag.node, drag.param).arg(i).arg(log[i].latencyMs, 0, 'f', 1)
                                  .arg(log[i].ownFrame ? "" : " (no frame of its own)").toUtf8());
            if (out.isOpen())
                for (const PreviewTimings &t : timings)
                    out.write(QString("%1 %2 run %3%4: queue %5 eval %6 render %7 thumbs %8 stats %9 ms\n")
                                  .arg(drag.node, drag.param).arg(t.generation).arg(t.followUp ? " follow-up" : "")
                                  .arg(t.queueMs, 0, 'f', 1).arg(t.evalMs, 0, 'f', 1).arg(t.renderMs, 0, 'f', 1)
                                  .arg(t.thumbsMs, 0, 'f', 1).arg(t.statsMs, 0, 'f', 1).toUtf8());
        }
        const double median = quantile(lat, 0.5);
        latencies.push_back(median);
        finals.push_back(quantile(lat, 0.95));
        gaps.push_back(static_cast<double>(maxGap) / 1e6);
        cpuGaps.push_back(static_cast<double>(maxCpuGap) / 1e6);
        skips.push_back(skipped);
        frameCounts.push_back(frames);
        state.SetIterationTime(median / 1000);
        state.counters["final_ms"] = finalMs;
        state.counters["settled_ms"] = settledMs;
    }
    auto mean = [](const std::vector<double> &v) {
        double s = 0;
        for (double x : v)
            s += x;
        return v.empty() ? 0 : s / static_cast<double>(v.size());
    };
    state.counters["edit_to_frame_ms"] = mean(latencies);
    state.counters["p95_ms"] = mean(finals);
    state.counters["skipped"] = mean(skips);
    state.counters["frames"] = mean(frameCounts);
    state.counters["ui_gap_ms"] = *std::max_element(gaps.begin(), gaps.end());
    state.counters["ui_cpu_gap_ms"] = *std::max_element(cpuGaps.begin(), cpuGaps.end());
    const double n = std::max(1, sum.frames), followUps = std::max(1, sum.followUps + sum.frames);
    state.counters["queue_ms"] = sum.queue / n;
    state.counters["eval_ms"] = sum.eval / n;
    state.counters["render_ms"] = sum.render / n;
    state.counters["image_ms"] = sum.image / n;
    state.counters["overlay_ms"] = sum.overlay / n;
    state.counters["thumbs_ms"] = sum.thumbs / followUps;
    state.counters["stats_ms"] = sum.stats / followUps;
    state.counters["deliver_ms"] = sum.deliver / n;
    state.counters["paint_ms"] = sum.paint / std::max(1, sum.paints);
}

// A big chunked world: the 65536 x 65536 world (presets/endless with edges, chunks of 256, rocks 8 and trees 4)
// at the default window size. Each step is timed from the view's change (zoomTo, as a wheel or a
// drag leaves it) to the first paint of a picture of the new part: the 25 ms the preview waits for
// more changes to fold in, the chunks placed, the ground and sprites painted, the paint. Each step
// starts once the preview has placed the ring of chunks around the view (a designer's pause).
// Counters: zoom_in_ms (from the whole world to 1 pixel a unit at its centre, every chunk cold),
// pan_ms (median of GROVE_BENCH_PANS pans of one chunk, right and down by turns, onto new chunks),
// pan_max_ms, pan_back_ms (median of the same pans back: their chunks are placed), zoom_out_ms and
// zoom_step_in_ms (one wheel notch, 1.25x, out then in), chunks (chunk placements, both layers).
void big_world_pan(benchmark::State &state)
{
    const int pans = envInt("GROVE_BENCH_PANS", 12);
    QFile preset(GROVE_SOURCE_DIR "/presets/endless.grove.yaml");
    preset.open(QIODevice::ReadOnly);
    QByteArray text = preset.readAll();
    text.replace("world:\n  seed: 2026\n", "world:\n  width: 65536\n  height: 65536\n  seed: 2026\n");
    for (auto _ : state) {
        QTemporaryDir dir;
        const QString path = dir.filePath("big.grove.yaml");
        QFile out(path);
        out.open(QIODevice::WriteOnly);
        out.write(text);
        out.close();
        MainWindow w(builtinRegistry());
        w.show();
        if (!w.openFile(path) || !waitFor([&] { return caughtUp(&w) && w.preview()->snapshot()->regional; }, 120000)) {
            state.SkipWithError("the big world did not show");
            return;
        }
        PreviewView *view = w.previewDock()->view();
        const auto shows = [&](const QRectF &rect) {
            return caughtUp(&w) && w.preview()->snapshot()->covers.contains(rect.center());
        };
        const auto timeTo = [&](const QRectF &rect) {
            // a designer looks before the next move: the ring around the view is placed meanwhile
            if (!waitFor([&] { return !w.preview()->isPrefetching(); }, 120000))
                state.SkipWithError("the prefetch did not end");
            QElapsedTimer clock;
            clock.start();
            view->zoomTo(rect);
            if (!waitFor([&] { return shows(rect); }, 120000))
                state.SkipWithError("a view did not show");
            return static_cast<double>(clock.nsecsElapsed()) / 1e6;
        };
        QRectF rect(QPointF(32768 - view->width() / 2.0, 32768 - view->height() / 2.0), QSizeF(view->size()));
        const double zoomIn = timeTo(rect);
        std::vector<QRectF> visited{rect};
        std::vector<double> forth, back;
        for (int i = 0; i < pans; ++i) {
            rect.translate(i % 2 ? QPointF(0, 256) : QPointF(256, 0));
            visited.push_back(rect);
            forth.push_back(timeTo(rect));
        }
        for (int i = pans - 1; i >= 0; --i)
            back.push_back(timeTo(visited[static_cast<size_t>(i)]));
        const QRectF wider(rect.center() - QPointF(rect.width(), rect.height()) * 0.625, rect.size() * 1.25);
        const double zoomOut = timeTo(wider);
        const double zoomStepIn = timeTo(rect);
        std::uint64_t chunks = 0;
        for (const PreviewLayer &l : w.preview()->snapshot()->layers)
            if (l.points && l.points->chunked)
                chunks += l.points->chunked->placements();
        state.SetIterationTime(zoomIn / 1000);
        state.counters["zoom_in_ms"] = zoomIn;
        state.counters["pan_ms"] = quantile(forth, 0.5);
        state.counters["pan_max_ms"] = *std::max_element(forth.begin(), forth.end());
        state.counters["pan_back_ms"] = quantile(back, 0.5);
        state.counters["zoom_out_ms"] = zoomOut;
        state.counters["zoom_step_in_ms"] = zoomStepIn;
        state.counters["chunks"] = static_cast<double>(chunks);
    }
}

void layer_radius_drag(benchmark::State &s) { dragBenchmark(s, {"flowers", "radius", false}); }
void ground_noise_drag(benchmark::State &s) { dragBenchmark(s, {"height_noise", "frequency", false}); }
void layer_radius_drag_overlay(benchmark::State &s) { dragBenchmark(s, {"flowers", "radius", true}); }
void ground_noise_drag_overlay(benchmark::State &s) { dragBenchmark(s, {"height_noise", "frequency", true}); }

} // namespace

BENCHMARK(layer_radius_drag)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ground_noise_drag)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(layer_radius_drag_overlay)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ground_noise_drag_overlay)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(big_world_pan)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

int main(int argc, char **argv)
{
    // Private settings and data folders: the window's remembered layout and autosaves are neither
    // read nor written, so every run opens at the default size.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
    qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());
    qputenv("GROVE_AUTOSAVE_MS", "3600000");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("GroveBench");
    QApplication::setApplicationName("GroveBench");
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
