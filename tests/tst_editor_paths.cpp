// The preview's Path tool as a designer uses it, by mouse and keys: clicks and Enter draw a path
// into the selected node's drawn paths as one undo step, a drag moves a vertex, Delete removes
// one, a click on the first vertex closes a path, Esc drops the path being drawn; the preview
// places along the new path, the file keeps it, and the Inspector counts and clears the paths.
#include "tst_editor_support.h"

#include "handedit/HandEditTools.h"
#include "handedit/PathTool.h"
#include "window/PreviewDock.h"
#include "preview/PreviewView.h"

#include "core/base/YamlValue.h"
#include "core/graph/PathValue.h"

#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QTest>

#include <cmath>

using namespace grove;
using namespace grove::test;

namespace {

const std::string kFences = R"yaml(grove: 1
world: {width: 400, height: 300, seed: 7}
nodes:
  houses:
    type: place_layer
    params: {radius: 30}
  fence:
    type: place_path
    params:
      radius: 6
      paths:
        - {points: [[20, 280], [120, 280]], closed: false}
)yaml";

ValueList pathsOf(const Document *d)
{
    const Value *v = d->graph().node("fence")->param("paths");
    return v && v->isList() ? v->toList() : ValueList{};
}

DrawnPath pathAt(const Document *d, std::size_t i)
{
    return readDrawnPath(pathsOf(d).at(i)).value_or(DrawnPath{});
}

const PointLayer *fenceLayer(MainWindow *w)
{
    for (const PreviewLayer &l : w->preview()->snapshot()->layers)
        if (l.nodeId == "fence")
            return l.points.get();
    return nullptr;
}

double distToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF d = b - a;
    const double t = std::clamp(QPointF::dotProduct(p - a, d) / QPointF::dotProduct(d, d), 0.0, 1.0);
    const QPointF q = a + d * t;
    return std::hypot(p.x() - q.x(), p.y() - q.y());
}

// How many of the layer's points lie on the polyline (offset 0: they stand on it).
int pointsOn(const PointLayer &layer, const DrawnPath &path)
{
    int on = 0;
    for (const PointXYR &p : layer.points)
        for (std::size_t k = 0; k + 1 < path.points.size(); ++k)
            if (distToSegment(QPointF(p.x, p.y), QPointF(path.points[k].x, path.points[k].y),
                              QPointF(path.points[k + 1].x, path.points[k + 1].y)) < 1e-6) {
                ++on;
                break;
            }
    return on;
}

} // namespace

class TestEditorPaths : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> openOnFence(QString *path = nullptr)
    {
        auto w = openWindowOn(m_dir, kFences, path);
        w->activateWindow();  // the tool keys are shortcuts: they need the window active
        if (!QTest::qWaitForWindowActive(w.get()))
            qFatal("the window did not become active");
        if (!QTest::qWaitFor([&] { return caughtUp(w.get()); }, patientMs(30000)))
            qFatal("the preview did not catch up");
        w->selectNode("fence");
        return w;
    }

    // The world point a click at `world` lands on (the widget's pixel), as the tool stores it.
    static QPointF landed(PreviewView *view, QPointF world)
    {
        return PathEditor::tidied(view->worldAt(view->widgetAt(world).toPoint()));
    }

    static void click(PreviewView *view, QPointF world)
    {
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, view->widgetAt(world).toPoint());
    }

private slots:
    void theToolIsOnlyForNodesWithDrawnPaths()
    {
        auto w = openOnFence();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        QAction *path = tools->toolAction(HandEditTools::Path);
        QVERIFY(path->isEnabled());
        QVERIFY(!tools->toolAction(HandEditTools::Pin)->isEnabled());     // place_path takes no pins
        QVERIFY(!tools->toolAction(HandEditTools::Delete)->isEnabled());  // nor erase areas
        bool hasButton = false;  // the strip over the map shows it beside the others
        for (QToolButton *b : w->previewDock()->findChildren<QToolButton *>())
            hasButton = hasButton || (b->defaultAction() == path && b->isVisible());
        QVERIFY(hasButton);
        w->selectNode("houses");
        QVERIFY(!path->isEnabled());
        QVERIFY(tools->toolAction(HandEditTools::Pin)->isEnabled());
        w->selectNode("fence");
        QVERIFY(path->isEnabled());
        view->setFocus();
        QTest::keyClick(view, Qt::Key_L);
        QCOMPARE(tools->tool(), HandEditTools::Path);
        // selecting a node without drawn paths turns the tool off
        w->selectNode("houses");
        QCOMPARE(tools->tool(), HandEditTools::Select);
    }

    // Three clicks and Enter: one path in the node's param, one undo step; the preview places
    // along it; undo removes it and redo restores it; the saved file holds it on its own line.
    void clicksAndEnterDrawOnePathThatUndoRemovesAndRedoRestores()
    {
        QString file;
        auto w = openOnFence(&file);
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        const std::string before = bytes(d);
        const int steps = d->undoStack()->count();
        view->setFocus();
        QTest::keyClick(view, Qt::Key_L);
        const QPointF at[] = {{100, 100}, {250, 120}, {300, 220}};
        for (const QPointF &p : at)
            click(view, p);
        QCOMPARE(tools->pathTool().drawing().size(), std::size_t(3));
        QCOMPARE(d->undoStack()->count(), steps);  // nothing is saved until the path is finished
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(d->undoStack()->count(), steps + 1);
        QCOMPARE(pathsOf(d).size(), std::size_t(2));
        const DrawnPath drawn = pathAt(d, 1);
        QVERIFY(!drawn.closed);
        QCOMPARE(drawn.points.size(), std::size_t(3));
        for (std::size_t k = 0; k < 3; ++k) {
            QCOMPARE(drawn.points[k].x, landed(view, at[k]).x());
            QCOMPARE(drawn.points[k].y, landed(view, at[k]).y());
        }
        QVERIFY(tools->pathTool().drawing().empty());
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY2(pointsOn(*fenceLayer(w.get()), drawn) > 20, "the preview places along the new path");
        const std::string withPath = bytes(d);
        d->undoStack()->undo();
        QVERIFY(bytes(d) == before);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(pointsOn(*fenceLayer(w.get()), drawn), 0);
        d->undoStack()->redo();
        QVERIFY(bytes(d) == withPath);
        QCOMPARE(d->save(file), std::nullopt);
        const std::string saved = readFile(file.toStdString());
        QVERIFY2(saved.find("      paths:\n        - {points: [[20, 280], [120, 280]], closed: false}\n        - "
                            + toFlowYaml(pathsOf(d)[1]) + "\n") != std::string::npos,
                 saved.c_str());
    }

    // A double-click finishes the path at its spot, as Qt delivers it on X11 (press, release,
    // double-click, release) and as some platforms do (press, release, press, double-click,
    // release); the clicks after it draw as ever.
    void aDoubleClickFinishesThePath()
    {
        auto w = openOnFence();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        tools->setTool(HandEditTools::Path);
        for (const bool secondPress : {false, true}) {
            const double y = secondPress ? 160 : 60;
            click(view, {60, y});
            click(view, {200, y + 20});
            const QPoint last = view->widgetAt(QPointF(320, y)).toPoint();
            QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, last);
            if (secondPress)
                QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, last);
            QTest::mouseDClick(view, Qt::LeftButton, Qt::NoModifier, last);
            QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, last);
            QCOMPARE(pathsOf(d).size(), std::size_t(secondPress ? 3 : 2));
            QCOMPARE(pathAt(d, pathsOf(d).size() - 1).points.size(), std::size_t(3));
            QVERIFY2(tools->pathTool().drawing().empty(), "the last release starts no new path");
        }
        click(view, {100, 230});
        click(view, {300, 230});
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(pathsOf(d).size(), std::size_t(4));
        QCOMPARE(pathAt(d, 3).points.size(), std::size_t(2));
    }

    // Dragging a vertex moves it (the others stay) in one undo step.
    void draggingAVertexMovesItInOneStep()
    {
        auto w = openOnFence();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        tools->setTool(HandEditTools::Path);
        const std::string before = bytes(d);
        const int steps = d->undoStack()->count();
        const QPoint from = view->widgetAt(QPointF(120, 280)).toPoint(), to = view->widgetAt(QPointF(200, 230)).toPoint();
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view, (from + to) / 2);
        QTest::mouseMove(view, to);
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, to);
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const DrawnPath moved = pathAt(d, 0);
        QCOMPARE(moved.points.size(), std::size_t(2));
        QCOMPARE(moved.points[0].x, 20.0);
        QCOMPARE(moved.points[0].y, 280.0);
        QCOMPARE(moved.points[1].x, PathEditor::tidied(view->worldAt(to)).x());
        QCOMPARE(moved.points[1].y, PathEditor::tidied(view->worldAt(to)).y());
        QVERIFY(tools->pathTool().drawing().empty());  // a drag starts no path
        d->undoStack()->undo();
        QVERIFY(bytes(d) == before);
    }

    // Delete on a hovered vertex removes it; a path left below its minimum goes whole. Each is
    // one undo step.
    void deleteRemovesTheHoveredVertex()
    {
        auto w = openOnFence();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        QVERIFY(tools->pathTool().editor().addPath({{100, 100}, {200, 120}, {300, 100}}, false).isEmpty());
        tools->setTool(HandEditTools::Path);
        const int steps = d->undoStack()->count();
        QTest::mouseMove(view, view->widgetAt(QPointF(200, 120)).toPoint());
        QTest::keyClick(view, Qt::Key_Delete);
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const DrawnPath left = pathAt(d, 1);
        QCOMPARE(left.points.size(), std::size_t(2));
        QCOMPARE(left.points[1].x, 300.0);
        QTest::mouseMove(view, view->widgetAt(QPointF(20, 280)).toPoint());
        QTest::keyClick(view, Qt::Key_Backspace);
        QCOMPARE(d->undoStack()->count(), steps + 2);
        QCOMPARE(pathsOf(d).size(), std::size_t(1));  // the first path had two vertices: it went whole
        QCOMPARE(pathAt(d, 0).points[0].x, 100.0);
        d->undoStack()->undo();
        QCOMPARE(pathsOf(d).size(), std::size_t(2));
    }

    // A click on the first vertex closes the path; Esc drops a path being drawn (nothing saved),
    // and a second Esc goes back to Select.
    void aClickOnTheFirstVertexClosesAndEscCancels()
    {
        auto w = openOnFence();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        PreviewView *view = w->previewDock()->view();
        view->setFocus();
        QTest::keyClick(view, Qt::Key_L);
        for (const QPointF &p : {QPointF(150, 60), QPointF(250, 60), QPointF(200, 150), QPointF(151, 61)})
            click(view, p);
        QCOMPARE(pathsOf(d).size(), std::size_t(2));
        const DrawnPath ring = pathAt(d, 1);
        QVERIFY(ring.closed);
        QCOMPARE(ring.points.size(), std::size_t(3));
        const int steps = d->undoStack()->count();
        const std::string before = bytes(d);
        click(view, {300, 200});
        click(view, {350, 250});
        QTest::keyClick(view, Qt::Key_Escape);
        QVERIFY(tools->pathTool().drawing().empty());
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(d->undoStack()->count(), steps);
        QVERIFY(bytes(d) == before);
        QCOMPARE(tools->tool(), HandEditTools::Path);
        QTest::keyClick(view, Qt::Key_Escape);
        QCOMPARE(tools->tool(), HandEditTools::Select);
    }

    // The Inspector counts the paths and vertices, and Clear all is one undo step.
    void theInspectorCountsAndClearsThePaths()
    {
        auto w = openOnFence();
        Document *d = w->document();
        HandEditTools *tools = w->previewDock()->tools();
        auto *inspector = w->findChild<QDockWidget *>("InspectorDock");
        QVERIFY(inspector);
        inspector->show();
        const auto visible = [&]<typename T>(const char *name) -> T * {
            for (T *t : inspector->findChildren<T *>(name))
                if (t->isVisible())
                    return t;
            return nullptr;
        };
        QTRY_VERIFY(visible.operator()<QLabel>("pathSummary"));
        QCOMPARE(visible.operator()<QLabel>("pathSummary")->text(), QString("1 path, 2 vertices"));
        QVERIFY(tools->pathTool().editor().addPath({{100, 100}, {200, 120}, {300, 100}}, true).isEmpty());
        QTRY_COMPARE(visible.operator()<QLabel>("pathSummary")->text(), QString("2 paths, 5 vertices (1 closed)"));
        const int steps = d->undoStack()->count();
        QTest::mouseClick(visible.operator()<QPushButton>("clearAll"), Qt::LeftButton);
        QCOMPARE(pathsOf(d).size(), std::size_t(0));
        QCOMPARE(d->undoStack()->count(), steps + 1);
        d->undoStack()->undo();
        QCOMPARE(pathsOf(d).size(), std::size_t(2));
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestEditorPaths>(argc, argv);
}

#include "tst_editor_paths.moc"
