// Hand edits in the preview as a designer makes them: pin, delete, move, erase brush and area on the
// selected layer, each one undo step that undo restores exactly; refused edits leave the graph as it
// was; the edits survive an upstream change; Compare with Saved counts what core's diff counts.
#include "tst_editor_support.h"

#include "handedit/HandEditTools.h"
#include "inspector/ParamEditors.h"
#include "window/PreviewDock.h"
#include "preview/PreviewView.h"
#include "preview/SavedComparison.h"

#include "core/analysis/DiffReport.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/analysis/PointDiff.h"
#include "core/formats/PointsExport.h"

#include <QLabel>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace grove;
using namespace grove::test;

namespace {

const PointLayer *layerOf(MainWindow *w, const std::string &id)
{
    for (const PreviewLayer &l : w->preview()->snapshot()->layers)
        if (l.nodeId == id)
            return l.points.get();
    return nullptr;
}

std::size_t listSize(const Document *d, const std::string &node, const std::string &param)
{
    const Value *v = d->graph().node(node)->param(param);
    return v && v->isList() ? v->toList().size() : 0;
}

// A generated (not pinned) point of the layer, well inside the world, its index-th such one.
PointXYR generatedPoint(const PointLayer &layer, std::size_t index)
{
    std::size_t seen = 0;
    for (const PointXYR &p : layer.points)
        if (p.x > 60 && p.y > 60 && p.x < 820 && p.y < 420 && seen++ == index)
            return p;
    return {-1, -1, 0};
}

bool hasPointAt(const PointLayer &layer, double x, double y)
{
    for (const PointXYR &p : layer.points)
        if (p.x == x && p.y == y)
            return true;
    return false;
}

// A graph's exported layers as grove-cli diff reads them (with a region: only there, chunk by chunk).
std::vector<DiffLayer> evaluatedLayers(const Graph &graph, const std::optional<Region> &region = {})
{
    Evaluator evaluator(registry());
    EvalRequest request;
    request.targets = exportedLayers(graph, registry());
    request.limits.placeWholeWorld = !region;
    const EvalResult result = evaluator.evaluate(graph, request);
    return diffLayersOf(layersOf(result, request.targets), region).layers;
}

QStringList legendOf(const PointDiff &diff)
{
    QStringList lines;
    for (const LayerDiff &l : diff.layers)
        lines << QString("%1: %2 added, %3 removed, %4 moved").arg(QString::fromStdString(l.name)).arg(l.added.size())
                     .arg(l.removed.size()).arg(l.moved.size());
    return lines;
}

} // namespace

class TestEditorHandEdits : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> openOnTrees(QString *path = nullptr)
    {
        auto w = openWindowOn(m_dir, kIsland, path);
        w->activateWindow();  // the tool keys are shortcuts: they need the window active
        if (!QTest::qWaitForWindowActive(w.get()))
            qFatal("the window did not become active");
        if (!QTest::qWaitFor([&] { return caughtUp(w.get()); }, patientMs(30000)))
            qFatal("the preview did not catch up");
        w->selectNode("trees");
        return w;
    }

private slots:
    void pinClickAddsOnePinThatUndoRemovesAndRedoRestores()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const std::string before = bytes(d);
        const int steps = d->undoStack()->count();
        QVERIFY(tools->toolAction(HandEditTools::Pin)->isEnabled());
        tools->setTool(HandEditTools::Pin);
        tools->setPinType("pine");
        const QPoint at = view->widgetAt(QPointF(400, 240)).toPoint();
        const QPointF world = view->worldAt(at);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const ValueList pins = d->graph().node("trees")->param("pins")->toList();
        QCOMPARE(pins.size(), std::size_t(1));
        QCOMPARE(pins[0].find("x")->toNumber(), std::round(world.x() * 10) / 10);
        QCOMPARE(pins[0].find("y")->toNumber(), std::round(world.y() * 10) / 10);
        QCOMPARE(pins[0].find("type")->toString(), std::string("pine"));
        QVERIFY2(!pins[0].find("rotation") && !pins[0].find("scale"), "optional fields stay absent");
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const PointLayer *trees = layerOf(w.get(), "trees");
        QCOMPARE(trees->points.front().x, pins[0].find("x")->toNumber());  // pins come first, exactly
        QCOMPARE(trees->points.front().y, pins[0].find("y")->toNumber());
        const std::string pinned = bytes(d);
        d->undoStack()->undo();
        QVERIFY(bytes(d) == before);
        d->undoStack()->redo();
        QVERIFY(bytes(d) == pinned);
    }

    void deletingAGeneratedPointErasesItsSpot()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        view->zoomTo(QRectF(200, 100, 400, 240));  // points a few pixels wide: a click picks one
        const PointXYR p = generatedPoint(*layerOf(w.get(), "trees"), 20);
        const auto picked = tools->pointAt(QPointF(p.x, p.y));
        QVERIFY(picked && !picked->pin && picked->x == p.x && picked->y == p.y);
        const int steps = d->undoStack()->count();
        tools->setTool(HandEditTools::Delete);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(p.x, p.y)).toPoint());
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const ValueList erase = d->graph().node("trees")->param("erase")->toList();
        QCOMPARE(erase.size(), std::size_t(1));
        const ValueList circle = erase[0].find("circle")->toList();
        QCOMPARE(circle[0].toNumber(), std::round(p.x * 10) / 10);
        QCOMPARE(circle[2].toNumber(), std::round(p.r * 10) / 10);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        for (const PointXYR &q : layerOf(w.get(), "trees")->points)
            QVERIFY2(std::hypot(q.x - circle[0].toNumber(), q.y - circle[1].toNumber()) >= circle[2].toNumber(),
                     "no point is left inside the erased spot");
    }

    void movingAGeneratedPointIsAPinPlusAnEraseInOneStep()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        view->zoomTo(QRectF(200, 100, 400, 240));
        const PointXYR p = generatedPoint(*layerOf(w.get(), "trees"), 30);
        const std::string before = bytes(d);
        const int steps = d->undoStack()->count();
        tools->setTool(HandEditTools::Move);
        const QPoint from = view->widgetAt(QPointF(p.x, p.y)).toPoint(), to = from + QPoint(40, 25);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view, from + QPoint(20, 12));
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(d->undoStack()->count(), steps + 1);
        QCOMPARE(listSize(d, "trees", "pins"), std::size_t(1));
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(1));
        const Value pin = d->graph().node("trees")->param("pins")->toList()[0];
        QVERIFY2(pin.find("type") && pin.find("rotation") && pin.find("scale"), "the pin looks as the point did");
        QCOMPARE(pin.find("x")->toNumber(), std::round(view->worldAt(to).x() * 10) / 10);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(hasPointAt(*layerOf(w.get(), "trees"), pin.find("x")->toNumber(), pin.find("y")->toNumber()));
        d->undoStack()->undo();
        QVERIFY(bytes(d) == before);
    }

    void aBrushStrokeIsOneStepAndLeavesNoPointInside()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const int steps = d->undoStack()->count();
        tools->setTool(HandEditTools::Brush);
        tools->setBrushRadius(25);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(300, 200)).toPoint());
        for (int i = 1; i <= 10; ++i)
            QTest::mouseMove(view, view->widgetAt(QPointF(300 + i * 20, 200 + i * 8)).toPoint());
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(500, 280)).toPoint());
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const std::vector<EraseShape> shapes = tools->editor().eraseShapes();
        QVERIFY(shapes.size() >= 10);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        for (const PointXYR &q : layerOf(w.get(), "trees")->points)
            for (const EraseShape &s : shapes)
                QVERIFY(std::hypot(q.x - s.centre.x(), q.y - s.centre.y()) >= s.radius);
        d->undoStack()->undo();
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(0));
    }

    void aRectangleDragErasesAFourCornerPolygon()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        tools->setTool(HandEditTools::Area);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(300, 150)).toPoint());
        QTest::mouseMove(view, view->widgetAt(QPointF(350, 200)).toPoint());
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(420, 260)).toPoint());
        const std::vector<EraseShape> shapes = tools->editor().eraseShapes();
        QCOMPARE(shapes.size(), std::size_t(1));
        QVERIFY(!shapes[0].circle);
        QCOMPARE(shapes[0].polygon.size(), std::size_t(4));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const QRectF box = QPolygonF(QList<QPointF>(shapes[0].polygon.begin(), shapes[0].polygon.end())).boundingRect();
        for (const PointXYR &q : layerOf(w.get(), "trees")->points)
            QVERIFY(!box.contains(q.x, q.y));
        QCOMPARE(listSize(d, "trees", "pins"), std::size_t(0));
    }

    void badPinsAreRefusedAndTheGraphStaysAsItWas()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        QVERIFY(tools->editor().addPin(QPointF(300, 200), "").isEmpty());
        const std::string before = bytes(d);
        const int steps = d->undoStack()->count();
        const QString tooClose = tools->editor().addPin(QPointF(305, 203), "");  // trees' radius is 11
        QVERIFY2(tooClose.contains("closer than"), qPrintable(tooClose));
        const QString outside = tools->editor().addPin(QPointF(-20, 100), "");
        QVERIFY2(outside.contains("outside the world"), qPrintable(outside));
        QVERIFY(bytes(d) == before);
        QCOMPARE(d->undoStack()->count(), steps);
        // by a click too: the status bar says why
        QSignalSpy said(tools, &HandEditTools::statusMessage);
        PreviewView *view = w->previewDock()->view();
        tools->setTool(HandEditTools::Pin);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(302, 201)).toPoint());
        QVERIFY(!said.isEmpty() && said.last().at(0).toString().startsWith("Not done"));
        QVERIFY(bytes(d) == before);
    }

    void toolsAreDisabledWithoutALayerThatTakesPins()
    {
        auto w = openOnTrees();
        HandEditTools *tools = w->previewDock()->tools();
        w->selectNode("height");
        for (auto t : {HandEditTools::Pin, HandEditTools::Brush, HandEditTools::Area, HandEditTools::Move, HandEditTools::Delete}) {
            QVERIFY(!tools->toolAction(t)->isEnabled());
            QVERIFY(tools->toolAction(t)->toolTip().contains("Place Layer"));
        }
        tools->setTool(HandEditTools::Pin);
        QCOMPARE(tools->tool(), HandEditTools::Select);
        QVERIFY(!tools->editor().addPin(QPointF(300, 200), "").isEmpty());
        w->selectNode("trees");
        QVERIFY(tools->toolAction(HandEditTools::Pin)->isEnabled());
    }

    void aPinMovesAndDeletesAsAPin()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        QVERIFY(tools->editor().addPin(QPointF(400, 240), "oak").isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const int steps = d->undoStack()->count();
        tools->setTool(HandEditTools::Move);
        const QPoint from = view->widgetAt(QPointF(400, 240)).toPoint(), to = from + QPoint(30, -20);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const ValueList pins = d->graph().node("trees")->param("pins")->toList();
        QCOMPARE(pins.size(), std::size_t(1));  // the same pin, somewhere else: no erase needed
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(0));
        QCOMPARE(pins[0].find("type")->toString(), std::string("oak"));
        const QPointF moved(pins[0].find("x")->toNumber(), pins[0].find("y")->toNumber());
        QCOMPARE(moved.x(), std::round(view->worldAt(to).x() * 10) / 10);
        // Del while hovering it (with a tool on) removes it from the list
        tools->setTool(HandEditTools::Pin);
        QTest::mouseMove(view, view->widgetAt(moved).toPoint());
        QTest::keyClick(view, Qt::Key_Delete);
        QCOMPARE(listSize(d, "trees", "pins"), std::size_t(0));
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(0));
        QCOMPARE(d->undoStack()->count(), steps + 2);
    }

    // The tool keys act wherever the keyboard is in the preview dock (the layer table just
    // clicked), not only on the map; a text field elsewhere keeps its letters.
    void toolKeysWorkAnywhereInThePreview()
    {
        auto w = openOnTrees();
        HandEditTools *tools = w->previewDock()->tools();
        auto *table = w->previewDock()->findChild<QWidget *>("layerTable");
        QVERIFY(table);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_M);
        QCOMPARE(tools->tool(), HandEditTools::Move);
        QTest::keyClick(table, Qt::Key_E);
        QCOMPARE(tools->tool(), HandEditTools::Brush);
        const double r = tools->brushRadius();
        QTest::keyClick(table, Qt::Key_BracketLeft);
        QVERIFY(tools->brushRadius() < r);
        auto *inspector = w->findChild<QDockWidget *>("InspectorDock");
        QVERIFY(inspector);
        inspector->show();
        inspector->raise();
        QCoreApplication::processEvents();
        QLineEdit *id = nullptr;  // the selected node's id in the Inspector (an old page may await deletion)
        for (QLineEdit *e : w->findChildren<QLineEdit *>("nodeId"))
            if (e->isVisible())
                id = e;
        QVERIFY(id);
        id->setFocus();
        id->end(false);
        QTest::keyClick(id, Qt::Key_P);
        QCOMPARE(tools->tool(), HandEditTools::Brush);
        QCOMPARE(id->text(), QString("treesp"));
    }

    void aPolygonOfClicksClosesWithEnterAndEscCancels()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        view->setFocus();
        QTest::keyClick(view, Qt::Key_R);
        QCOMPARE(tools->tool(), HandEditTools::Area);
        const QPointF corners[] = {{300, 150}, {420, 160}, {400, 260}, {310, 240}, {280, 200}};
        for (const QPointF &c : corners)
            QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(c).toPoint());
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(0));  // open until closed
        QTest::keyClick(view, Qt::Key_Return);
        const std::vector<EraseShape> shapes = tools->editor().eraseShapes();
        QCOMPARE(shapes.size(), std::size_t(1));
        QCOMPARE(shapes[0].polygon.size(), std::size_t(5));
        // Esc drops a polygon in progress, a second Esc goes back to Select
        const int steps = d->undoStack()->count();
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(600, 300)).toPoint());
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(QPointF(650, 300)).toPoint());
        QTest::keyClick(view, Qt::Key_Escape);
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(d->undoStack()->count(), steps);
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(tools->tool(), HandEditTools::Select);
        // the brush size keys
        QTest::keyClick(view, Qt::Key_E);
        const double r = tools->brushRadius();
        QTest::keyClick(view, Qt::Key_BracketRight);
        QVERIFY(tools->brushRadius() > r);
    }

    void theInspectorListsEraseAreasAndKeepsAbsentPinFieldsAbsent()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditor &editor = w->previewDock()->tools()->editor();
        QVERIFY(editor.addPin(QPointF(400, 240), "").isEmpty());
        ValueList areas;
        areas.push_back(HandEditor::circleArea(300, 200, 60));
        areas.push_back(HandEditor::polygonArea({{100, 100}, {200, 100}, {200, 180}, {150, 220}, {100, 180}}));
        QVERIFY(editor.addEraseAreas(areas, "erase").isEmpty());
        auto *erase = w->findChild<ParamEditor *>("param:erase");
        QVERIFY(erase);
        QStringList texts;
        for (QLabel *l : erase->findChildren<QLabel *>())
            if (l->isVisibleTo(erase))
                texts << l->text();
        // no-break spaces inside a circle's numbers: a narrow Inspector never wraps "r" from "60"
        QVERIFY2(texts.contains(QStringLiteral("circle at (300,\u00a0200) r\u00a060")) && texts.contains("polygon of 5 vertices"),
                 qPrintable(texts.join("|")));
        const int steps = d->undoStack()->count();
        QTest::mouseClick(erase->findChild<QPushButton *>("remove_0"), Qt::LeftButton);
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(1));
        QCOMPARE(d->undoStack()->count(), steps + 1);
        erase = w->findChild<ParamEditor *>("param:erase");
        QTest::mouseClick(erase->findChild<QPushButton *>("clearAll"), Qt::LeftButton);
        QCOMPARE(listSize(d, "trees", "erase"), std::size_t(0));
        QCOMPARE(d->undoStack()->count(), steps + 2);
        // editing a pin's x keeps its absent type, rotation and scale absent
        auto *pins = w->findChild<ParamEditor *>("param:pins");
        QVERIFY(pins);
        auto *rotation = pins->findChild<QLineEdit *>("rotation:0");
        QVERIFY(rotation && rotation->text().isEmpty());
        auto *x = pins->findChild<QLineEdit *>("x:0");
        x->setFocus();
        x->selectAll();
        QTest::keyClicks(x, "410");
        QTest::keyClick(x, Qt::Key_Return);
        const Value pin = d->graph().node("trees")->param("pins")->toList()[0];
        QCOMPARE(pin.find("x")->toNumber(), 410.0);
        QVERIFY2(!pin.find("type") && !pin.find("rotation") && !pin.find("scale"), "absent fields stay absent");
        // Add item gives a pin the file accepts (at 0, 0), which the designer then edits
        pins = w->findChild<ParamEditor *>("param:pins");
        QPushButton *add = nullptr;
        for (QPushButton *b : pins->findChildren<QPushButton *>())
            if (b->text().startsWith("Add"))
                add = b;
        QVERIFY(add);
        QTest::mouseClick(add, Qt::LeftButton);
        const ValueList all = d->graph().node("trees")->param("pins")->toList();
        QCOMPARE(all.size(), std::size_t(2));
        QCOMPARE(all[1].find("x")->toNumber(), 0.0);
        QVERIFY(!all[1].find("type"));
    }

    void compareWithSavedCountsWhatCoreDiffCounts()
    {
        QString path;
        auto w = openOnTrees(&path);
        Document *d = w->document();
        SavedComparison *compare = w->previewDock()->comparison();
        w->previewDock()->compareAction()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(compare->diff().has_value(), patientMs(30000));
        for (const LayerDiff &l : compare->diff()->layers)
            QVERIFY(l.added.empty() && l.removed.empty() && l.moved.empty());
        HandEditTools *tools = w->previewDock()->tools();
        QVERIFY(tools->editor().addPin(QPointF(420, 230), "oak").isEmpty());
        QVERIFY(tools->editor().addEraseAreas({HandEditor::circleArea(600, 300, 40)}, "erase").isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && compare->diff() && !compare->isBusy(), patientMs(30000));
        QTRY_VERIFY_WITH_TIMEOUT(compare->legend().join("\n").contains("trees"), patientMs(10000));
        const PointDiff expected = diffPoints(evaluatedLayers(loadGraphFile(path.toStdString(), registry()).graph),
                                              evaluatedLayers(d->graph()));
        QCOMPARE(compare->legend(), legendOf(expected));
        QVERIFY(!expected.same());
        // grove-cli diff of the saved file and the edited one reports what the overlay shows
        const QString edited = m_dir.filePath("edited.grove.yaml");
        writeFile(edited.toStdString(), bytes(d));
        QProcess cli;
        cli.start(GROVE_CLI, {"diff", path, edited});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(QString::fromUtf8(cli.readAllStandardOutput()).toStdString(), diffText(*compare->diff()));
        // a new, unsaved document has nothing to compare with
        d->clear();
        QTRY_VERIFY_WITH_TIMEOUT(compare->message().contains("Nothing saved"), patientMs(10000));
    }

    void anEndlessWorldComparesTheRegionThePreviewShows()
    {
        QString path;
        auto w = openWindowOn(m_dir, readFile(GROVE_SOURCE_DIR "/presets/endless.grove.yaml"), &path);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && w->preview()->snapshot()->regional, patientMs(60000));
        w->selectNode("trees");
        SavedComparison *compare = w->previewDock()->comparison();
        w->previewDock()->compareAction()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(compare->diff().has_value(), patientMs(60000));
        QVERIFY(compare->diff()->same());
        HandEditor &editor = w->previewDock()->tools()->editor();
        const QString far = editor.addPin(QPointF(9e6, 10), "");  // 256 * 32768 = 8388608 from the origin
        QVERIFY2(far.contains("chunk range"), qPrintable(far));
        QVERIFY(editor.addPin(QPointF(300, 300), "").isEmpty());  // no edge: no "outside the world"
        QVERIFY(editor.addEraseAreas({HandEditor::circleArea(500, 420, 60)}, "erase").isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && compare->diff() && !compare->isBusy(), patientMs(60000));
        const QRectF c = w->preview()->snapshot()->covers;
        const Region region{c.left(), c.top(), c.right(), c.bottom()};
        QVERIFY(hasPointAt(*layerOf(w.get(), "trees"), 300, 300));
        const PointDiff expected = diffPoints(evaluatedLayers(loadGraphFile(path.toStdString(), registry()).graph, region),
                                              evaluatedLayers(w->document()->graph(), region));
        QVERIFY(!expected.same());
        QTRY_COMPARE_WITH_TIMEOUT(compare->legend(), legendOf(expected), patientMs(10000));
    }

    void pinsAndErasesSurviveAnUpstreamNoiseChange()
    {
        auto w = openOnTrees();
        Document *d = w->document();
        HandEditor &editor = w->previewDock()->tools()->editor();
        QVERIFY(editor.addPin(QPointF(250, 180), "pine").isEmpty());
        QVERIFY(editor.addPin(QPointF(610.5, 333.3), "").isEmpty());
        QVERIFY(editor.addEraseAreas({HandEditor::circleArea(450, 250, 50),
                                      HandEditor::polygonArea({{100, 100}, {200, 100}, {200, 180}, {100, 180}})}, "erase")
                    .isEmpty());
        setParam(d, "height", "frequency", Value(0.0091));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const PointLayer *trees = layerOf(w.get(), "trees");
        QVERIFY(hasPointAt(*trees, 250, 180));
        QVERIFY(hasPointAt(*trees, 610.5, 333.3));
        for (const PointXYR &q : trees->points) {
            QVERIFY(std::hypot(q.x - 450, q.y - 250) >= 50);
            QVERIFY(!(q.x > 100 && q.x < 200 && q.y > 100 && q.y < 180));
        }
        // and the saved text reads back with them
        Graph reread = loadGraphFromString(bytes(d), "reread", registry()).graph;
        QCOMPARE(reread.node("trees")->param("pins")->toList().size(), std::size_t(2));
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestEditorHandEdits>(argc, argv);
}

#include "tst_editor_hand_edits.moc"
