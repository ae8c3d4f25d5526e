// The live preview as a designer meets it: edits change the picture's layers, a stale run never
// wins over a newer one, export gives grove-cli's bytes, presets list and render, and a click on
// the map sets a layer's start point as one undo step; the hover readout follows what lies under a
// still pointer.
#include "tst_editor_support.h"

#include "document/Document.h"
#include "window/ExportDialog.h"
#include "canvas/GraphScene.h"
#include "window/MainWindow.h"
#include "window/PresetBrowser.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"
#include "preview/PreviewView.h"
#include "document/ValueCommands.h"

#include "core/eval/Evaluator.h"
#include "core/render/PreviewPipeline.h"
#include "core/graph/NodeRegistry.h"

#include <QComboBox>
#include <QSlider>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QMouseEvent>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>
#include <QWheelEvent>

#include <set>

using namespace grove;
using namespace grove::test;

namespace {

const QString kIslandPreset = GROVE_SOURCE_DIR "/presets/island_world.grove.yaml";

std::string readAll(const QString &path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll().toStdString();
}

int runCli(const QStringList &args, QString *err = nullptr)
{
    QProcess p;
    p.start(GROVE_CLI, args);
    p.waitForFinished(120000);
    if (err)
        *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// Runs the export dialog to its end: whether it succeeded, and what it said.
std::pair<bool, QString> exportWith(MainWindow *w, ExportDialog::Kind kind, bool split, const QString &destination)
{
    ExportDialog dialog(w->document(), &w->preview()->pipeline().evaluator(), nullptr);
    dialog.setKind(kind);
    dialog.setSplit(split);
    dialog.setPngSize(600);
    dialog.setDestination(destination);
    bool done = false, ok = false;
    QString message;
    QObject::connect(&dialog, &ExportDialog::finished, [&](bool success, const QString &m) {
        done = true;
        ok = success;
        message = m;
    });
    dialog.start();
    if (!QTest::qWaitFor([&] { return done; }, patientMs(60000)))
        return {false, "the export did not finish within a minute"};
    return {ok, message};
}

size_t layerCount(const PreviewSnapshotPtr &snap, const std::string &id)
{
    for (const PreviewLayer &l : snap->layers)
        if (l.nodeId == id)
            return l.stats.count;
    return 0;
}

} // namespace

class TestPreviewDock : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> openWindow(const std::string &text, QString *pathOut = nullptr)
    {
        return openWindowOn(m_dir, text, pathOut);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void paramEditChangesThePreview()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const size_t before = layerCount(w->preview()->snapshot(), "flowers");
        QVERIFY(before > 0);
        setParam(w->document(), "flowers", "radius", Value(12.0));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const size_t after = layerCount(w->preview()->snapshot(), "flowers");
        QVERIFY2(after > 0 && after < before, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
        // The table shows what the picture shows.
        QTreeWidget *table = w->previewDock()->layerTable();
        bool found = false;
        for (int i = 0; i < table->topLevelItemCount(); ++i)
            if (table->topLevelItem(i)->text(0) == "flowers") {
                QCOMPARE(table->topLevelItem(i)->text(1), QString::number(after));
                found = true;
            }
        QVERIFY(found);
    }

    // Slow runs (a dense layer) edited twice in quick succession: the shown generations only ever
    // grow, and the preview ends on the last edit's counts.
    void staleRunNeverShowsOverANewerOne()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        std::vector<PreviewSnapshotPtr> shown;
        connect(w->preview(), &PreviewController::snapshotReady, this,
                [&](const PreviewSnapshotPtr &s) { shown.push_back(s); });
        w->preview()->setDebounceMs(0);
        setParam(w->document(), "flowers", "radius", Value(1.05));
        QTest::qWait(5);
        setParam(w->document(), "flowers", "radius", Value(1.1));
        QTest::qWait(5);
        setParam(w->document(), "flowers", "radius", Value(7.5));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(60000));
        QVERIFY(!shown.empty());
        // A generation shows at most twice: its frame, then the same frame with its thumbnails and stats.
        for (size_t i = 1; i < shown.size(); ++i)
            QVERIFY(shown[i]->generation > shown[i - 1]->generation
                    || (shown[i]->generation == shown[i - 1]->generation && !shown[i - 1]->complete()
                        && shown[i]->complete() && shown[i]->image.cacheKey() == shown[i - 1]->image.cacheKey()));
        QCOMPARE(w->preview()->shownGeneration(), w->preview()->requestedGeneration());
        // The counts are those of the graph as it is now.
        Evaluator fresh(w->document()->registry());
        const EvalResult expected = fresh.evaluate(w->document()->graph());
        const PortValue flowers = expected.output("flowers", "points");
        const auto *set = std::get_if<PointSetPtr>(&flowers);
        QVERIFY(set && *set);
        QCOMPARE(layerCount(w->preview()->snapshot(), "flowers"), (*set)->layers.back()->points.size());
    }

    void exportGivesGroveCliBytes_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("split");
        QTest::addColumn<QStringList>("cliArgs");
        QTest::newRow("json") << int(ExportDialog::Kind::Json) << false << QStringList{"--format", "json"};
        QTest::newRow("csv") << int(ExportDialog::Kind::Csv) << false << QStringList{"--format", "csv"};
        QTest::newRow("tiled split") << int(ExportDialog::Kind::Tiled) << true << QStringList{"--format", "tiled", "--split"};
        QTest::newRow("png") << int(ExportDialog::Kind::Png) << false << QStringList{};
    }

    void exportGivesGroveCliBytes()
    {
        QFETCH(int, kind);
        QFETCH(bool, split);
        QFETCH(QStringList, cliArgs);
        QString graphPath;
        auto w = openWindow(kIsland, &graphPath);
        QTemporaryDir out;
        const bool png = kind == int(ExportDialog::Kind::Png);
        const QString mine = out.filePath(split ? "mine" : "mine.out"), theirs = out.filePath(split ? "cli" : "cli.out");
        const auto [ok, message] = exportWith(w.get(), static_cast<ExportDialog::Kind>(kind), split, mine);
        QVERIFY2(ok, qPrintable(message));
        QStringList args{"eval", graphPath};
        if (png)
            args << "--png" << theirs << "--png-size" << "600" << "-o" << out.filePath("ignored.json");
        else
            args << cliArgs << "-o" << theirs;
        QCOMPARE(runCli(args), 0);
        if (!split) {
            const std::string a = readAll(mine), b = readAll(theirs);
            QVERIFY(!a.empty());
            QVERIFY(a == b);
            return;
        }
        const QStringList files = QDir(theirs).entryList(QDir::Files, QDir::Name);
        QCOMPARE(QDir(mine).entryList(QDir::Files, QDir::Name), files);
        QCOMPARE(files.size(), 4);
        for (const QString &f : files)
            QVERIFY2(readAll(QDir(mine).filePath(f)) == readAll(QDir(theirs).filePath(f)), qPrintable(f));
    }

    // The export dialog and grove-cli share one writer: the same destination succeeds or fails
    // alike, with the same reason, and a refused one is left as it was.
    void exportDestinationsFollowGroveCli_data()
    {
        QTest::addColumn<bool>("split");
        QTest::addColumn<QString>("dest");  // in a temporary folder holding a file `taken` and a folder `dir`
        QTest::addColumn<QString>("problem");  // with the folder's path as %1; empty: it works
        QTest::newRow("split onto a file") << true << "taken"
                                           << "cannot write into %1/taken: it is a file, and one file per layer needs a folder";
        QTest::newRow("file onto a folder") << false << "dir" << "cannot write %1/dir: it is a folder";
        QTest::newRow("file in a missing folder") << false << "missing/x.json"
                                                  << "cannot write %1/missing/x.json: No such file or directory";
        QTest::newRow("file under a file") << false << "taken/x.json"
                                           << "cannot write %1/taken/x.json: %1/taken is a file, not a folder";
        QTest::newRow("split makes its folder") << true << "layers" << "";
        QTest::newRow("split into a folder") << true << "dir" << "";
    }

    void exportDestinationsFollowGroveCli()
    {
        QFETCH(bool, split);
        QFETCH(QString, dest);
        QFETCH(QString, problem);
        QString graphPath;
        auto w = openWindow(kIsland, &graphPath);
        for (const char *side : {"editor", "cli"}) {
            QTemporaryDir tmp;
            QVERIFY(QDir(tmp.path()).mkdir("dir"));
            const QString taken = tmp.filePath("taken");
            QFile f(taken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("keep me");
            f.close();
            const QString target = tmp.filePath(dest);
            const QString expected = problem.isEmpty() ? problem : problem.arg(tmp.path());
            if (std::string(side) == "editor") {
                const auto [ok, message] = exportWith(w.get(), ExportDialog::Kind::Json, split, target);
                QCOMPARE(ok, problem.isEmpty());
                if (!ok)
                    QCOMPARE(message, expected);
            } else {
                QStringList args{"eval", graphPath, "-o", target};
                if (split)
                    args << "--split";
                QString err;
                QCOMPARE(runCli(args, &err), problem.isEmpty() ? 0 : 1);
                if (!problem.isEmpty())
                    QCOMPARE(err, "grove-cli: " + expected + "\n");
            }
            QCOMPARE(readAll(taken), std::string("keep me"));
            QVERIFY(!QDir(tmp.filePath("missing")).exists());
            if (problem.isEmpty())
                QCOMPARE(QDir(target).entryList(QDir::Files).size(), qsizetype(4));
            else
                QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
                         (QStringList{"dir", "taken"}));
        }
    }

    void islandPresetRendersWithItsFourLayers()
    {
        auto w = shownWindowOn(kIslandPreset);
        QVERIFY(w);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const QImage image = w->previewDock()->view()->picture();
        QCOMPARE(image.size(), QSize(880, 480));
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
        QTreeWidget *table = w->previewDock()->layerTable();
        QStringList names;
        for (int i = 0; i < table->topLevelItemCount(); ++i) {
            names << table->topLevelItem(i)->text(0);
            QVERIFY(table->topLevelItem(i)->text(1).toInt() > 0);
        }
        QCOMPARE(names, (QStringList{"chests", "rocks", "trees", "flowers"}));
        // Every node with an output has a thumbnail on its card.
        QVERIFY(!w->preview()->snapshot()->thumbnails.at("height_noise").isNull());
    }

    // A volume world shows the Depth slice in the dock's bar; a slab draws only its points, and
    // a 2D world hides the control.
    void depthSliceShowsOnlyASlabOfAVolume()
    {
        auto w = shownWindowOn(GROVE_SOURCE_DIR "/presets/asteroids.grove.yaml");
        QVERIFY(w);
        PreviewDock *dock = w->previewDock();
        dock->depthSlab()->setCurrentIndex(0);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(dock->depthControls()->isVisible());
        QVERIFY(!dock->depthSlider()->isEnabled());
        const QImage all = dock->view()->picture();
        dock->depthSlab()->setCurrentIndex(2);  // a quarter of the depth, 320 / 4 = 80
        dock->depthSlider()->setValue(1000);    // the deepest
        QCOMPARE(w->preview()->depthSlice(), std::make_pair(240.0, 320.0));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && dock->view()->picture() != all, patientMs(30000));
        // fewer sprites over the ground: more pixels of the plain ground colour
        const QImage slab = dock->view()->picture();
        auto groundPixels = [](const QImage &image) {
            std::map<QRgb, int> counts;
            for (int y = 0; y < image.height(); y += 3)
                for (int x = 0; x < image.width(); x += 3)
                    ++counts[image.pixel(x, y)];
            int most = 0;
            for (const auto &[c, n] : counts)
                most = std::max(most, n);
            return most;
        };
        QVERIFY(groundPixels(slab) > groundPixels(all));
        dock->depthSlab()->setCurrentIndex(0);
        QCOMPARE(w->preview()->depthSlice(), std::make_pair(-HUGE_VAL, HUGE_VAL));
        QVERIFY(w->openFile(kIslandPreset));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && !dock->depthControls()->isVisible(), patientMs(30000));
    }

    void presetBrowserListsTheShippedPresets()
    {
        PresetBrowser browser(builtinRegistry());
        QStringList files;
        for (const PresetEntry &e : browser.entries())
            if (!e.user && !e.group)
                files << QFileInfo(e.path).fileName();
        files.sort();
        QCOMPARE(files, (QStringList{"asteroids.grove.yaml", "biomes.grove.yaml", "caves.grove.yaml", "endless.grove.yaml", "forest_savanna.grove.yaml",
                                     "island_groups.grove.yaml", "island_world.grove.yaml", "loot_and_camps.grove.yaml", "meadow_tile.grove.yaml", "scatter_methods.grove.yaml",
                                     "territories.grove.yaml", "twin_forests.grove.yaml", "valley.grove.yaml"}));
        QCOMPARE(browser.list()->count(), static_cast<int>(browser.entries().size()) + 1);  // + Empty graph

        // A saved preset is listed as the user's, with its name and description.
        bool ok = false;
        auto w = openWindow(kIsland);
        const QString path = PresetBrowser::writeUserPreset(w->document()->graph(), w->document()->groups(), "My Isle",
                                                         "Windy.", &ok);
        QVERIFY2(ok, qPrintable(path));
        bool listed = false;
        for (const PresetEntry &e : PresetBrowser::findPresets(builtinRegistry()))
            listed |= e.user && e.name == "My Isle" && e.notes == "Windy.";
        QVERIFY(listed);
        QFile::remove(path);
    }

    void clickOnTheMapSetsTheStartPointAsOneUndoStep()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        w->selectNode("trees");
        PreviewView *view = w->previewDock()->view();
        const std::string before = bytes(w->document());
        const int steps = w->document()->undoStack()->count();
        const QPoint at = view->widgetAt(QPointF(300, 200)).toPoint();
        const QPointF world = view->worldAt(at);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(w->document()->undoStack()->count(), steps + 1);
        const Node *trees = w->document()->graph().node("trees");
        QCOMPARE(trees->param("start")->toString(), std::string("point"));
        QCOMPARE(trees->param("start_x")->toNumber(), std::round(world.x()));
        QCOMPARE(trees->param("start_y")->toNumber(), std::round(world.y()));
        w->document()->undoStack()->undo();
        QVERIFY(bytes(w->document()) == before);
        // A node without start params ignores clicks.
        w->selectNode("height");
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(w->document()->undoStack()->index(), steps);
    }

    // The readout under the map says what is under the pointer now: after a wheel notch (here at
    // another spot than the last move, as a wheel turned at once after a jump of the pointer) and
    // after an edit re-placed the points, with the pointer still.
    void hoverReadoutFollowsZoomAndNewPoints()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        w->selectNode("height");  // its value is read out too
        PreviewDock *dock = w->previewDock();
        PreviewView *view = dock->view();
        const QPointF first(view->width() * 0.3, view->height() * 0.5), second(view->width() * 0.6, view->height() * 0.4);
        QMouseEvent move(QEvent::MouseMove, first, view->mapToGlobal(first), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(view, &move);
        QCOMPARE(dock->hoverText(), dock->readout(view->worldAt(first)));
        const QString atFirst = dock->hoverText();
        const double zoom = view->zoom();
        QWheelEvent notch(second, view->mapToGlobal(second), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(view, &notch);
        QVERIFY(view->zoom() > zoom);
        const QString afterZoom = dock->readout(view->worldAt(second));
        QVERIFY(afterZoom != atFirst);
        QCOMPARE(dock->hoverText(), afterZoom);

        setParam(w->document(), "trees", "radius", Value(19.0));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(dock->readout(view->worldAt(second)) != afterZoom);  // the trees moved
        QCOMPARE(dock->hoverText(), dock->readout(view->worldAt(second)));
    }

    // The readout holds what fits its three lines: valley's seven layers, with the paths' long
    // ids, took a fourth, cut in half over the layer table; the layers left out are counted.
    void hoverReadoutFitsItsLines()
    {
        auto w = shownWindowOn(GROVE_SOURCE_DIR "/presets/valley.grove.yaml");
        QVERIFY(w);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        PreviewDock *dock = w->previewDock();
        PreviewView *view = dock->view();
        const QLabel *label = dock->findChild<QLabel *>("hoverReadout");
        QVERIFY(label);
        bool counted = false;
        for (double f : {0.2, 0.5, 0.8}) {
            const QPointF at(view->width() * f, view->height() * 0.6);
            QMouseEvent move(QEvent::MouseMove, at, view->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QCoreApplication::sendEvent(view, &move);
            const QString shown = dock->hoverText();
            const int needs = label->fontMetrics().boundingRect(label->contentsRect(), Qt::TextWordWrap, shown).height();
            QVERIFY2(needs <= label->contentsRect().height(),
                     qPrintable(QString("%1 px of text in %2 px: %3").arg(needs).arg(label->contentsRect().height()).arg(shown)));
            QVERIFY2(shown.contains("houses #"), qPrintable(shown));
            counted = counted || shown.contains(QRegularExpression(", \\d more$"));
        }
        QVERIFY(counted);  // the case was met: some layers were left out, and counted
    }

    // The nearest point's attributes follow it in the readout, as the field gives them there.
    void hoverReadoutShowsTheNearestPointsAttributes()
    {
        const std::string text = "grove: 1\nworld: {width: 300, height: 200, seed: 4}\nnodes:\n"
                                 "  moist: {type: value_noise, params: {frequency: 0.02}}\n"
                                 "  trees: {type: place_layer, params: {radius: 30}}\n"
                                 "  wet: {type: attribute, inputs: {points: trees, field: moist}, params: {name: moisture}}\n";
        auto w = openWindow(text);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const Graph graph = w->document()->graph();
        const EvalResult r = Evaluator(builtinRegistry()).evaluate(graph);
        const PortValue moist = r.output("moist");
        const PointSetPtr trees = std::get<PointSetPtr>(r.output("wet"));
        const PointXYR p = trees->layers.front()->points.front();
        const QString readout = w->previewDock()->readout(QPointF(p.x, p.y));
        const QString want = QString("trees #0 at 0.0 (moisture %1)").arg(std::get<FieldPtr>(moist)->at(p.x, p.y), 0, 'f', 3);
        QVERIFY2(readout.contains(want), qPrintable(readout + " lacks " + want));
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestPreviewDock>(argc, argv);
}

#include "tst_preview_dock.moc"
