// What stands too close to a point the designer places by hand: while a tree is dragged with the
// Move tool onto a rock the status line names the rock (and the pin tool's aim does the same);
// dropped anyway, the Problems list and the status bar's count say which layer is too close to
// which, as the layer table counts it; a drop among the layer's own points is no problem, as
// they make way for the pin. On a wrapped world the aim sees across the seams, and in an endless
// one it sees the lazy layers' points in view.
#include "tst_editor_support.h"

#include "handedit/HandEditTools.h"
#include "window/PreviewDock.h"
#include "window/ProblemsPanel.h"
#include "preview/PreviewView.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>
#include <cmath>
#include <optional>

using namespace grove;
using namespace grove::test;

namespace {

const PreviewLayer *layerOf(MainWindow *w, const std::string &id)
{
    for (const PreviewLayer &l : w->preview()->snapshot()->layers)
        if (l.nodeId == id)
            return &l;
    return nullptr;
}

// The shown snapshot answers the newest edit and its statistics are in.
bool settled(MainWindow *w)
{
    return caughtUp(w) && w->preview()->snapshot()->complete();
}

QStringList problems(MainWindow *w)
{
    QStringList texts;
    auto *panel = w->findChild<ProblemsPanel *>();
    for (int i = 0; i < panel->count(); ++i)
        texts << panel->item(i)->text();
    return texts;
}

QString problemCount(MainWindow *w)
{
    for (QLabel *label : w->statusBar()->findChildren<QLabel *>())
        if (label->text().contains("problem") || label->text().contains("warning"))
            return label->text();
    return {};
}

// A generated tree well inside the map, and a rock far enough from it that the drag is a move.
struct Drag
{
    PointXYR tree, rock;
};

Drag treeAndRock(MainWindow *w)
{
    const PointLayer &trees = *layerOf(w, "trees")->points;
    const PointLayer &rocks = *layerOf(w, "rocks")->points;
    for (const PointXYR &r : rocks.points)
        if (r.x > 120 && r.y > 120 && r.x < 760 && r.y < 360)
            for (const PointXYR &t : trees.points)
                if (std::hypot(t.x - r.x, t.y - r.y) > 60 && std::hypot(t.x - r.x, t.y - r.y) < 200)
                    return {t, r};
    qFatal("no rock with a tree near it");
}

} // namespace

class TestEditorCrowding : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> openOnTrees()
    {
        auto w = openWindowOn(m_dir, kIsland);
        if (!QTest::qWaitFor([&] { return settled(w.get()); }, patientMs(30000)))
            qFatal("the preview did not catch up");
        w->selectNode("trees");
        return w;
    }

private slots:
    void aTreeMovedOntoARockIsShownAndListedAsTooClose()
    {
        auto w = openOnTrees();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const Drag d = treeAndRock(w.get());
        view->zoomTo(QRectF(std::min(d.tree.x, d.rock.x) - 40, std::min(d.tree.y, d.rock.y) - 40,
                            std::abs(d.tree.x - d.rock.x) + 80, std::abs(d.tree.y - d.rock.y) + 80));
        QCOMPARE(problems(w.get()), QStringList{"No problems."});
        tools->setTool(HandEditTools::Move);
        QSignalSpy said(tools, &HandEditTools::statusMessage);
        // a few pixels off the rock's centre: well within the 11 a tree and a rock need
        const QPoint from = view->widgetAt(QPointF(d.tree.x, d.tree.y)).toPoint();
        const QPoint to = view->widgetAt(QPointF(d.rock.x, d.rock.y)).toPoint() + QPoint(3, 0);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view, (from + to) / 2);
        QTest::mouseMove(view, to);
        QStringList whileDragging;
        for (const QList<QVariant> &args : said)
            whileDragging << args.at(0).toString();
        QVERIFY2(whileDragging.join("\n").contains("Too close here: it at")
                     && whileDragging.join("\n").contains("rocks' point at"),
                 qPrintable(whileDragging.join("\n")));
        // the ring shows on the rock: one of the crowders stays too close, and it is the rock
        const std::vector<HandEditTools::Crowder> crowders = tools->crowdersAt(view->worldAt(to), d.tree.r);
        QVERIFY(!crowders.empty() && crowders.front().staysTooClose());
        QCOMPARE(crowders.front().pair.otherLayer, std::string("rocks"));
        QCOMPARE(crowders.front().pair.other.x, d.rock.x);

        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY2(said.last().at(0).toString().contains("too close") && said.last().at(0).toString().contains("Problems"),
                 qPrintable(said.last().at(0).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), patientMs(30000));
        QCOMPARE(layerOf(w.get(), "trees")->stats.tooClose, std::size_t(1));
        QCOMPARE(w->previewDock()->layerTable()->findItems("trees", Qt::MatchExactly).value(0)->text(3), QString("1"));
        const QStringList listed = problems(w.get()).filter("trees: 1 pair too close: the point at");
        QVERIFY2(listed.size() == 1, qPrintable(problems(w.get()).join("\n")));
        QVERIFY2(listed[0].contains("rocks' point at") && listed[0].contains("nearer than the 11 the two need")
                     && listed[0].contains("(the smaller of their radii, 11 and 34)"),
                 qPrintable(listed[0]));
        QCOMPARE(problemCount(w.get()), QString("0 error(s), 1 warning(s)"));
        // undone, the pair is gone and so is the problem
        w->document()->undoStack()->undo();
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()) && layerOf(w.get(), "trees")->stats.tooClose == 0, patientMs(30000));
        QCOMPARE(problems(w.get()), QStringList{"No problems."});
    }

    // The pin tool aims with the same check: a pin clicked by a rock says so, and is listed.
    void aPinClickedByARockSaysSo()
    {
        auto w = openOnTrees();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const Drag d = treeAndRock(w.get());
        view->zoomTo(QRectF(d.rock.x - 60, d.rock.y - 40, 120, 80));
        tools->setTool(HandEditTools::Pin);
        QSignalSpy said(tools, &HandEditTools::statusMessage);
        const QPoint aim = view->widgetAt(QPointF(d.rock.x + 4, d.rock.y)).toPoint();
        QTest::mouseMove(view, aim);  // aiming: the note is about the pin a click would add
        QVERIFY2(!said.isEmpty() && said.last().at(0).toString().startsWith("Too close here: a new pin at")
                     && said.last().at(0).toString().contains("rocks' point at"),
                 qPrintable(said.isEmpty() ? QString() : said.last().at(0).toString()));
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, aim);
        QVERIFY2(!said.isEmpty() && said.last().at(0).toString().startsWith("Pinned a point")
                     && said.last().at(0).toString().contains("too close: it at"),
                 qPrintable(said.isEmpty() ? QString() : said.last().at(0).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), patientMs(30000));
        QCOMPARE(problems(w.get()).filter("trees: 1 pair too close").size(), 1);
        // over the pin just placed, the note still speaks of a new pin, not of the one placed
        said.clear();
        QTest::mouseMove(view, aim + QPoint(1, 0));
        QVERIFY2(!said.isEmpty() && said.last().at(0).toString().startsWith("Too close here: a new pin at"),
                 qPrintable(said.isEmpty() ? QString() : said.last().at(0).toString()));
    }

    // A pin on a clear spot (among trees, which make way for it), the pointer left on it while
    // the new picture comes: the click's message stays; a note that a new pin there would be 0.0
    // from the one just placed read as a warning about it. Moved off, the aim speaks again, and a
    // clear spot takes its note away.
    void aPinKeepsItsMessageWhileThePointerStays()
    {
        auto w = openOnTrees();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const Drag d = treeAndRock(w.get());
        view->zoomTo(QRectF(d.tree.x - 60, d.tree.y - 40, 120, 80));
        tools->setTool(HandEditTools::Pin);
        const QPoint aim = view->widgetAt(QPointF(d.tree.x, d.tree.y)).toPoint();
        QSignalSpy said(tools, &HandEditTools::statusMessage);
        QTest::mouseMove(view, aim);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, aim);
        const auto last = [&] { return said.isEmpty() ? QString() : said.last().at(0).toString(); };
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), patientMs(30000));
        emit view->hovered(view->worldAt(aim), true);  // as the view asks when the world moves under a still pointer
        QVERIFY2(last().startsWith("Pinned a point") && !last().contains("too close"), qPrintable(last()));
        QTest::mouseMove(view, aim + QPoint(2, 0));
        QVERIFY2(last().startsWith("Too close here: a new pin at"), qPrintable(last()));
        // on to a clear spot (another tree, which makes way): the note it would contradict goes
        const std::vector<PointXYR> &trees = layerOf(w.get(), "trees")->points->points;
        const PointXYR pin = d.tree;
        const auto clear = std::find_if(trees.begin(), trees.end(), [pin](const PointXYR &t) {
            return std::hypot(t.x - pin.x, t.y - pin.y) > 20 && std::abs(t.x - pin.x) < 50 && std::abs(t.y - pin.y) < 30;
        });
        QVERIFY(clear != trees.end());
        QTest::mouseMove(view, view->widgetAt(QPointF(clear->x, clear->y)).toPoint());
        QVERIFY2(last().isEmpty(), qPrintable(last()));
    }

    // On a wrapped world a spot by one edge is crowded by what stands across the other: the pin
    // tool's aim names the rock there and rings its copy by the cursor, the hover readout finds it
    // nearest, and the pin is listed.
    void aPinByTheSeamOfAWrappedWorldSeesAcrossIt()
    {
        auto w = openWindowOn(m_dir, "grove: 1\nworld: {width: 400, height: 300, seed: 3, wrap: true}\nnodes:\n"
                                     "  rocks:\n    type: place_layer\n    params: {radius: 34, pins: [{x: 3, y: 150}]}\n"
                                     "  trees:\n    type: place_layer\n    inputs: {obstacles: rocks.all}\n    params: {radius: 11, seed: 2}\n");
        QVERIFY(QTest::qWaitFor([&] { return settled(w.get()); }, patientMs(30000)));
        w->selectNode("trees");
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        view->zoomTo(QRectF(340, 110, 60, 80));
        tools->setTool(HandEditTools::Pin);
        const QPoint at = view->widgetAt(QPointF(396, 151)).toPoint();
        const QPointF spot = view->worldAt(at);
        const std::vector<HandEditTools::Crowder> crowders = tools->crowdersAt(spot, 11);
        const auto rock = std::find_if(crowders.begin(), crowders.end(), [](const auto &c) { return c.pair.otherLayer == "rocks"; });
        QVERIFY(rock != crowders.end() && rock->staysTooClose());
        QCOMPARE(rock->pair.other.x, 3.0);
        QCOMPARE(rock->image, QPointF(403, 150));
        QVERIFY(std::fabs(rock->pair.distance - std::hypot(403 - spot.x(), 150 - spot.y())) < 1e-9);
        // the hover readout's nearest rock is the one across the seam, at its distance there
        const QString readout = w->previewDock()->readout(spot);
        QVERIFY2(readout.contains(QRegularExpression("rocks #\\d+ at " + QRegularExpression::escape(QString::number(rock->pair.distance, 'f', 1)))),
                 qPrintable(readout));
        QSignalSpy said(tools, &HandEditTools::statusMessage);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY2(!said.isEmpty() && said.last().at(0).toString().contains("too close: it at")
                     && said.last().at(0).toString().contains("rocks' point at (3.0, 150.0)"),
                 qPrintable(said.isEmpty() ? QString() : said.last().at(0).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), patientMs(30000));
        QCOMPARE(layerOf(w.get(), "trees")->stats.tooClose, std::size_t(1));
        QCOMPARE(problems(w.get()).filter("trees: 1 pair too close").size(), 1);
    }

    // In an endless world (previewed by region, its layers lazy) the aim keeps the layer's own
    // radius and sees the rocks the trees were placed among, as on a finite map.
    void aPinInAnEndlessWorldSeesTheRocks()
    {
        auto w = openWindowOn(m_dir, "grove: 1\nworld: {seed: 3, chunk: 256}\nnodes:\n"
                                     "  rocks:\n    type: place_layer\n    params: {radius: 34}\n"
                                     "  trees:\n    type: place_layer\n    inputs: {obstacles: rocks.all}\n    params: {radius: 11, seed: 2}\n");
        QVERIFY(QTest::qWaitFor([&] { return caughtUp(w.get()) && w->preview()->snapshot()->regional; }, patientMs(30000)));
        w->selectNode("trees");
        const QRectF inner = w->preview()->snapshot()->covers.adjusted(80, 80, -80, -80);
        std::optional<PointXYR> rock;
        for (const PointXYR &r : layerOf(w.get(), "rocks")->points->points)
            if (!rock && inner.contains(r.x, r.y))
                rock = r;
        QVERIFY(rock);
        PreviewView *view = w->previewDock()->view();
        view->zoomTo(QRectF(rock->x - 60, rock->y - 40, 120, 80));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        HandEditTools *tools = w->previewDock()->tools();
        tools->setTool(HandEditTools::Pin);
        QSignalSpy said(tools, &HandEditTools::statusMessage);
        QTest::mouseMove(view, view->widgetAt(QPointF(rock->x + 4, rock->y)).toPoint());
        QVERIFY2(!said.isEmpty() && said.last().at(0).toString().startsWith("Too close here: a new pin at")
                     && said.last().at(0).toString().contains("rocks' point at")
                     && said.last().at(0).toString().contains("nearer than the 11 the two need"),
                 qPrintable(said.isEmpty() ? QString("nothing said") : said.last().at(0).toString()));
    }

    // Dropped among the layer's own trees, the pin is placed first and the others grow around it:
    // they show as making way, and nothing is too close after.
    void aTreeMovedAmongItsOwnLayerIsNoProblem()
    {
        auto w = openOnTrees();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const Drag d = treeAndRock(w.get());
        // another tree, a few units clear of the radius every rock and chest needs
        const PointLayer &trees = *layerOf(w.get(), "trees")->points;
        std::optional<PointXYR> target;
        for (const PointXYR &t : trees.points) {
            bool clear = std::hypot(t.x - d.tree.x, t.y - d.tree.y) > 60 && t.x > 40 && t.y > 40 && t.x < 840 && t.y < 440;
            for (const char *obstacle : {"chests", "rocks"})
                for (const PointXYR &o : layerOf(w.get(), obstacle)->points->points)
                    clear = clear && std::hypot(t.x - o.x, t.y - o.y) > 16;  // a tree needs 11, the drop lands a unit off
            if (clear) {
                target = t;
                break;
            }
        }
        QVERIFY(target);
        view->zoomTo(QRectF(std::min(d.tree.x, target->x) - 40, std::min(d.tree.y, target->y) - 40,
                            std::abs(d.tree.x - target->x) + 80, std::abs(d.tree.y - target->y) + 80));
        tools->setTool(HandEditTools::Move);
        const QPoint from = view->widgetAt(QPointF(d.tree.x, d.tree.y)).toPoint();
        const QPoint to = view->widgetAt(QPointF(target->x, target->y)).toPoint() + QPoint(1, 0);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view, to);
        const std::vector<HandEditTools::Crowder> crowders = tools->crowdersAt(view->worldAt(to), d.tree.r);
        QVERIFY(!crowders.empty());
        for (const HandEditTools::Crowder &c : crowders)
            QVERIFY2(!c.staysTooClose(), c.pair.otherLayer.c_str());
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(w->document()->graph().node("trees")->param("pins")->toList().size(), std::size_t(1));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), patientMs(30000));
        QCOMPARE(layerOf(w.get(), "trees")->stats.tooClose, std::size_t(0));
        QCOMPARE(problems(w.get()), QStringList{"No problems."});
    }
};

int main(int argc, char **argv)
{
    return runEditorSuite<TestEditorCrowding>(argc, argv);
}

#include "tst_editor_crowding.moc"
