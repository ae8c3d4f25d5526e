// The live preview under load: a thousand slider edits in a second fold into far fewer runs, the
// preview ends on the last edit, and neither the evaluator's cache nor the pictures pile up.
// (How long the UI thread is busy is a speed: bench_editor measures it, as ui_cpu_gap_ms.)
#include "tst_editor_support.h"

#include "document/Document.h"
#include "window/MainWindow.h"
#include "inspector/ParamEditors.h"
#include "preview/PreviewController.h"

#include "core/eval/Evaluator.h"
#include "core/graph/NodeRegistry.h"
#include "core/render/PreviewPipeline.h"

#include <QElapsedTimer>

#include <ctime>
#include <QSlider>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTimer>
#include <QUndoStack>
#include <QWindow>

#include <algorithm>

using namespace grove;
using namespace grove::test;

namespace {

const QString kIslandPreset = GROVE_SOURCE_DIR "/presets/island_world.grove.yaml";
constexpr int kEdits = 1000;
constexpr qint64 kStormMs = 1000;

// Where the slider's handle is drawn, as the style computes it.
QPoint handleCenter(QSlider *slider)
{
    QStyleOptionSlider opt;
    opt.initFrom(slider);
    opt.subControls = QStyle::SC_None;
    opt.activeSubControls = QStyle::SC_None;
    opt.orientation = slider->orientation();
    opt.maximum = slider->maximum();
    opt.minimum = slider->minimum();
    opt.tickPosition = slider->tickPosition();
    opt.tickInterval = slider->tickInterval();
    opt.upsideDown = slider->invertedAppearance();
    opt.direction = slider->layoutDirection();
    opt.sliderPosition = slider->sliderPosition();
    opt.sliderValue = slider->value();
    opt.singleStep = slider->singleStep();
    opt.pageStep = slider->pageStep();
    return slider->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, slider).center();
}

// A triangle wave over slider positions [low, high]: every step changes the value.
int stormPosition(int i, int low, int high)
{
    const int span = high - low;
    const int phase = i % (2 * span);
    return low + (phase < span ? phase : 2 * span - phase);
}

struct StormReport
{
    qint64 stormMs = 0;          // from the first edit to the last
    qint64 largestGapMs = 0;     // UI-thread CPU time between heartbeat ticks: work that blocks it
    qint64 largestWallGapMs = 0; // wall time between ticks (also counts the OS giving the core away)
    qint64 catchUpMs = 0;        // from the release to the preview showing the last edit
    int snapshotsDuringDrag = 0;
    std::vector<std::weak_ptr<const PreviewSnapshot>> delivered;  // every picture the preview sent
    size_t largestCache = 0;     // evaluator cache entries
    int edits = 0;
};

} // namespace

class TestEditorStorm : public QObject
{
    Q_OBJECT

private:
    // One drag of the flowers radius slider: press on the handle, kEdits value changes spread
    // over about kStormMs, release; the heartbeat runs until the preview caught up.
    void storm(MainWindow *w, QSlider *slider, StormReport &report)
    {
        PreviewController *preview = w->preview();
        QWindow *window = w->windowHandle();
        const QPoint press = window->mapFromGlobal(slider->mapToGlobal(handleCenter(slider)));

        QElapsedTimer clock;
        clock.start();
        qint64 lastBeat = 0;
        QTimer heartbeat;
        heartbeat.setTimerType(Qt::PreciseTimer);
        heartbeat.setInterval(2);
        // The UI thread is blocked by what it does between two ticks: its own CPU time, so a
        // busy machine taking the core away is not counted against Grove.
        auto threadCpuMs = [] {
            timespec ts{};
            ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return static_cast<qint64>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
        };
        qint64 lastCpu = threadCpuMs();
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            const qint64 cpu = threadCpuMs();
            report.largestWallGapMs = std::max(report.largestWallGapMs, now - lastBeat);
            report.largestGapMs = std::max(report.largestGapMs, cpu - lastCpu);
            lastBeat = now;
            lastCpu = cpu;
            report.largestCache = std::max(report.largestCache, preview->pipeline().evaluator().cacheSize());
        });
        bool dragging = true;
        auto counter = connect(preview, &PreviewController::snapshotReady, this, [&](const PreviewSnapshotPtr &s) {
            report.delivered.push_back(s);
            if (dragging)
                ++report.snapshotsDuringDrag;
        });

        // Through the window, as a real press: the application then knows a button is down.
        QTest::mousePress(window, Qt::LeftButton, {}, press);
        QVERIFY2(slider->isSliderDown(), "the press did not grab the slider's handle");
        heartbeat.start();
        lastBeat = clock.elapsed();
        lastCpu = threadCpuMs();
        const qint64 start = clock.elapsed();
        const int low = slider->minimum() + (slider->maximum() - slider->minimum()) / 40;  // radius ~6
        const int high = slider->minimum() + (slider->maximum() - slider->minimum()) / 5;  // radius ~41
        QTimer driver;
        driver.setTimerType(Qt::PreciseTimer);
        driver.setInterval(1);
        // Each tick catches up with the schedule (one edit per ms), as a fast hand would.
        connect(&driver, &QTimer::timeout, this, [&] {
            const qint64 due = std::min<qint64>(kEdits, (clock.elapsed() - start) * kEdits / kStormMs + 1);
            while (report.edits < due)
                slider->setValue(stormPosition(report.edits++, low, high));
            if (report.edits == kEdits)
                driver.stop();
        });
        driver.start();
        QTRY_VERIFY_WITH_TIMEOUT(report.edits == kEdits, patientMs(20000));
        report.stormMs = clock.elapsed() - start;
        QTest::mouseRelease(window, Qt::LeftButton, {}, press);
        dragging = false;
        const qint64 released = clock.elapsed();
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w), patientMs(60000));
        report.catchUpMs = clock.elapsed() - released;
        heartbeat.stop();
        disconnect(counter);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thousandSliderEditsKeepTheUiResponsiveAndEndOnTheLastEdit()
    {
        auto w = std::make_unique<MainWindow>(registry());
        w->resize(1400, 900);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openFile(kIslandPreset));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(60000));
        w->selectNode("flowers");
        QCoreApplication::processEvents();
        auto *editor = w->findChild<ParamEditor *>("param:radius");
        QVERIFY(editor);
        auto *slider = editor->findChild<QSlider *>();
        QVERIFY(slider && slider->isVisible());
        Document *doc = w->document();
        const int steps = doc->undoStack()->count();
        const size_t nodes = doc->graph().nodes.size();

        StormReport first;
        storm(w.get(), slider, first);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(doc->undoStack()->count(), steps + 1);  // one drag, one undo step
        StormReport second;
        storm(w.get(), slider, second);
        if (QTest::currentTestFailed())
            return;
        // the preview keeps up while dragging: new pictures arrive during the drags, not only after
        // (summed over both, so one drag starved by a busy machine does not decide it)
        QVERIFY2(first.snapshotsDuringDrag + second.snapshotsDuringDrag >= 1, "no picture while dragging");
        for (const StormReport *r : {&first, &second})
            qInfo("storm: %d edits in %lld ms, UI thread busy at most %lld ms between ticks (wall gap %lld ms), "
                  "%d snapshots while dragging, caught up %lld ms after release, evaluator cache <= %zu entries (%zu nodes)",
                  r->edits, r->stormMs, r->largestGapMs, r->largestWallGapMs, r->snapshotsDuringDrag, r->catchUpMs,
                  r->largestCache, nodes);

        for (const StormReport *r : {&first, &second}) {
            // Edits that came during a run were folded into the next one: far fewer pictures than edits.
            QVERIFY2(static_cast<int>(r->delivered.size()) < r->edits,
                     qPrintable(QString("%1 pictures for %2 edits").arg(r->delivered.size()).arg(r->edits)));
            // This run's results and the previous run's, plus one run's worth on the way in.
            QVERIFY2(r->largestCache <= 3 * nodes, qPrintable(QString("%1 entries").arg(r->largestCache)));
        }
        QVERIFY2(w->preview()->pipeline().evaluator().cacheSize() <= 2 * nodes,
                 qPrintable(QString::number(w->preview()->pipeline().evaluator().cacheSize())));
        // Memory does not grow with the drags: once the preview caught up, no picture of an older
        // edit than the one shown is still held by anything.
        size_t stale = 0;
        for (const StormReport *r : {&first, &second})
            for (const auto &weak : r->delivered)
                if (const auto held = weak.lock(); held && held->generation < w->preview()->shownGeneration())
                    ++stale;
        QVERIFY2(stale == 0, qPrintable(QString("%1 older pictures still held").arg(stale)));

        // The second drag ended where it began, so it left no undo step; the graph holds the last
        // value the slider gave.
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        const double radius = doc->graph().node("flowers")->param("radius")->toNumber();
        QCOMPARE(slider->value(), stormPosition(kEdits - 1, slider->minimum() + (slider->maximum() - slider->minimum()) / 40,
                                                slider->minimum() + (slider->maximum() - slider->minimum()) / 5));

        // The preview shows the last edit: the newest generation, and the counts a fresh run gives.
        PreviewController *preview = w->preview();
        QCOMPARE(preview->shownGeneration(), preview->requestedGeneration());
        const PreviewSnapshotPtr snap = preview->snapshot();
        QCOMPARE(snap->graph.node("flowers")->param("radius")->toNumber(), radius);
        Evaluator fresh(doc->registry());
        const EvalResult expected = fresh.evaluate(doc->graph());
        QVERIFY(expected.ok());
        const std::vector<std::string> layers = exportedLayers(doc->graph(), doc->registry());
        QCOMPARE(snap->layers.size(), layers.size());
        for (size_t i = 0; i < layers.size(); ++i) {
            const PortValue v = expected.output(layers[i], "points");
            const auto *set = std::get_if<PointSetPtr>(&v);
            QVERIFY(set && *set);
            QCOMPARE(snap->layers[i].nodeId, layers[i]);
            QCOMPARE(snap->layers[i].stats.count, (*set)->layers.back()->points.size());
        }
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestEditorStorm>(argc, argv);
}

#include "tst_editor_storm.moc"
