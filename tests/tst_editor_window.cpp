// The editor window as a designer meets it: the layout and its memory, what the status bar and the
// cursor say, File › New's first choice, the export dialog's end, legible (or hidden) port labels, and
// where Tab goes: never into a dock behind another's tab; over the canvas, to the node palette.
#include "tst_editor_support.h"

#include "core/render/PreviewPipeline.h"

#include "document/Autosave.h"
#include "window/ExportDialog.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "canvas/NodeItem.h"
#include "canvas/NodePalette.h"
#include "window/PresetBrowser.h"
#include "preview/PreviewController.h"
#include "canvas/WireItem.h"

#include <QApplication>
#include <QCursor>
#include <QDockWidget>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>

using namespace grove;
using namespace grove::test;

namespace {

QDockWidget *dock(MainWindow *w, const char *name)
{
    auto *d = w->findChild<QDockWidget *>(name);
    if (!d)
        qFatal("no dock %s", name);
    return d;
}

// The title of the current tab among the window's tabbed docks that include `title`.
QString currentTabWith(MainWindow *w, const QString &title)
{
    for (QTabBar *bar : w->findChildren<QTabBar *>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == title)
                return bar->tabText(bar->currentIndex());
    return {};
}

// The Problems list of the front tab, focused as by a click.
QWidget *focusProblems(MainWindow *w)
{
    QListWidget *shown = nullptr;
    for (QListWidget *list : dock(w, "ProblemsDock")->findChildren<QListWidget *>())
        if (list->isVisible())
            shown = list;
    if (!shown)
        qFatal("no Problems list in view");
    shown->setFocus(Qt::MouseFocusReason);
    return shown;
}

} // namespace

class TestEditorWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // A window at its default size (no saved layout), shown, on the island graph.
    std::unique_ptr<MainWindow> defaultWindow()
    {
        QSettings().clear();
        static int n = 0;
        const QString path = m_dir.filePath(QString("island_%1.grove.yaml").arg(++n));
        writeFile(path.toStdString(), kIsland);
        auto w = std::make_unique<MainWindow>(registry());
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get()))
            qWarning("window not exposed");
        if (!w->openFile(path))
            qFatal("cannot open %s", qPrintable(path));
        QCoreApplication::processEvents();
        return w;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // File › New starts from nothing unless the designer picks a preset.
    void newGraphPreselectsEmptyGraph()
    {
        PresetBrowser browser(registry());
        QVERIFY(browser.list()->count() > 1);
        QVERIFY(browser.list()->currentItem());
        QCOMPARE(browser.list()->currentItem()->text(), QString("Empty graph"));
        QCOMPARE(browser.list()->currentItem()->data(Qt::UserRole).toString(), QString());
    }

    // A successful export closes the dialog (the status bar says what was written); a failed one
    // stays open with the reason.
    void exportDialogClosesWhenDone()
    {
        auto w = defaultWindow();
        action(w.get(), "&Export…")->trigger();
        QPointer<ExportDialog> alive = w->findChild<ExportDialog *>();
        ExportDialog *dialog = alive;
        QVERIFY(dialog && dialog->isVisible());
        dialog->setKind(ExportDialog::Kind::Json);
        dialog->setDestination(m_dir.filePath("no/such/folder/out.json"));
        bool done = false, ok = true;
        connect(dialog, &ExportDialog::finished, this, [&](bool success, const QString &) {
            done = true;
            ok = success;
        });
        dialog->start();
        QTRY_VERIFY_WITH_TIMEOUT(done, patientMs(60000));
        QVERIFY(!ok);
        QVERIFY(alive && dialog->isVisible());
        // the reason is shown whole, on as many lines as it wraps to ("directory" lost its foot)
        QLabel *reason = nullptr;
        for (QLabel *label : dialog->findChildren<QLabel *>())
            reason = label->text().startsWith("cannot write") ? label : reason;
        QVERIFY(reason);
        QTRY_VERIFY2(reason->height() >= reason->heightForWidth(reason->width()),
                     qPrintable(QString("%1 px for %2").arg(reason->height()).arg(reason->heightForWidth(reason->width()))));

        done = false;
        dialog->setDestination(m_dir.filePath("island.json"));
        dialog->start();
        QTRY_VERIFY_WITH_TIMEOUT(done, patientMs(60000));
        QVERIFY(ok);
        QVERIFY(QFileInfo::exists(m_dir.filePath("island.json")));
        QTRY_VERIFY(!alive || !alive->isVisible());
        QVERIFY(w->statusBar()->currentMessage().startsWith("Wrote 1 file(s) to "));
    }

    // An export that leaves something out says so: a Godot scene holds four attributes a point.
    void exportSaysWhatTheFormatLeftOut()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto w = openWindowOn(dir, "grove: 1\nworld: {width: 200, height: 150, seed: 3}\nnodes:\n"
                                   "  moist: {type: value_noise}\n  rocks: {type: place_layer, params: {radius: 20}}\n"
                                   "  a1: {type: attribute, inputs: {points: rocks, field: moist}, params: {name: a_one}}\n"
                                   "  a2: {type: attribute, inputs: {points: a1, field: moist}, params: {name: a_two}}\n"
                                   "  a3: {type: attribute, inputs: {points: a2, field: moist}, params: {name: a_three}}\n"
                                   "  a4: {type: attribute, inputs: {points: a3, field: moist}, params: {name: a_four}}\n"
                                   "  a5: {type: attribute, inputs: {points: a4, field: moist}, params: {name: a_five}}\n");
        action(w.get(), "&Export…")->trigger();
        ExportDialog *dialog = w->findChild<ExportDialog *>();
        QVERIFY(dialog);
        dialog->setKind(ExportDialog::Kind::Godot);
        dialog->setDestination(dir.filePath("rocks.tscn"));
        bool done = false;
        connect(dialog, &ExportDialog::finished, this, [&](bool, const QString &) { done = true; });
        dialog->start();
        QTRY_VERIFY_WITH_TIMEOUT(done, patientMs(60000));
        QVERIFY(QFileInfo::exists(dir.filePath("rocks.tscn")));
        const QString message = w->statusBar()->currentMessage();
        QVERIFY2(message.contains("Warning: godot: layer 'rocks' has 5 attributes") && message.contains("left out: a_five"),
                 qPrintable(message));
    }

    // The status bar says what a deletion removed, wires included.
    void deletionSaysWhatItRemoved()
    {
        auto w = defaultWindow();
        QAction *del = action(w.get(), "&Delete");
        w->scene()->selectNodes({"trees"});
        del->trigger();
        // trees' obstacles and allowed inputs, and flowers' obstacles from trees.all.
        QCOMPARE(w->statusBar()->currentMessage(), QString("Deleted trees and 3 wires."));
        QVERIFY(w->autosave()->saveNow());  // seconds later: the autosave does not talk over it
        QCOMPARE(w->statusBar()->currentMessage(), QString("Deleted trees and 3 wires."));
        w->document()->undoStack()->undo();

        w->scene()->selectNodes({"trees", "flowers"});
        del->trigger();
        QCOMPARE(w->statusBar()->currentMessage(), QString("Deleted trees, flowers and 4 wires."));
        w->document()->undoStack()->undo();

        w->scene()->selectNodes({});
        for (QGraphicsItem *item : w->scene()->items())
            if (auto *wire = dynamic_cast<WireItem *>(item); wire && wire->toNode() == "rocks")
                wire->setSelected(true);
        del->trigger();
        QCOMPARE(w->statusBar()->currentMessage(), QString("Deleted 2 wires."));
    }

    // While a wire is dragged over an input that refuses it, the reason is shown at the cursor.
    void wrongWireReasonAtTheCursor()
    {
        auto w = defaultWindow();
        GraphView *view = w->view();
        view->frameAll();
        QWidget *vp = view->viewport();
        const QPoint from = view->mapFromScene(w->scene()->nodeItem("chests")->portScenePos(false, "all"));
        const QPoint to = view->mapFromScene(w->scene()->nodeItem("land")->portScenePos(true, "field"));
        QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, from);
        for (int i = 1; i <= 8; ++i)
            QTest::mouseMove(vp, from + (to - from) * i / 8);
        const QGraphicsSimpleTextItem *hint = w->scene()->cursorHint();
        QVERIFY(hint && hint->isVisible());
        QVERIFY2(hint->text().contains("type mismatch: field takes field, chests.all gives points"),
                 qPrintable(hint->text()));
        // Beside the cursor, not somewhere on the canvas.
        const QPoint at = view->mapFromScene(hint->scenePos());
        QVERIFY2((at - to).manhattanLength() < 60, qPrintable(QString("%1,%2").arg(at.x()).arg(at.y())));
        QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, to);
        QVERIFY(!w->scene()->cursorHint() || !w->scene()->cursorHint()->isVisible());
    }

    // The Inspector has a column of its own, as tall as the window allows; the preview sits
    // beside the canvas, with room to see the world.
    void inspectorHasAFullColumn()
    {
        auto w = defaultWindow();
        QDockWidget *inspector = dock(w.get(), "InspectorDock");
        QDockWidget *preview = dock(w.get(), "PreviewDock");
        QVERIFY2(inspector->height() >= 0.75 * w->height(),
                 qPrintable(QString("inspector %1 of %2").arg(inspector->height()).arg(w->height())));
        QVERIFY2(preview->height() >= 0.6 * w->height(),
                 qPrintable(QString("preview %1 of %2").arg(preview->height()).arg(w->height())));
        QVERIFY(preview->width() >= 400);
        QVERIFY(w->view()->width() >= 400);
        // Side by side: canvas, preview, inspector from left to right.
        const int canvasRight = w->view()->mapTo(w.get(), QPoint(w->view()->width(), 0)).x();
        QVERIFY(canvasRight <= preview->x() + 8);
        QVERIFY(preview->x() + preview->width() <= inspector->x() + 8);
    }

    // The layout is remembered across runs; a layout saved by an older version is ignored.
    void layoutIsRemembered()
    {
        {
            auto w = defaultWindow();
            QDockWidget *problems = dock(w.get(), "ProblemsDock");
            QDockWidget *preview = dock(w.get(), "PreviewDock");
            problems->hide();
            QCoreApplication::processEvents();  // the first show's layout settles
            w->resizeDocks({preview}, {620}, Qt::Horizontal);
            QTRY_COMPARE(preview->width(), 620);
            QVERIFY(w->close());
        }
        {
            auto w = std::make_unique<MainWindow>(registry());
            w->show();
            QVERIFY(QTest::qWaitForWindowExposed(w.get()));
            QVERIFY(dock(w.get(), "ProblemsDock")->isHidden());
            QVERIFY2(qAbs(dock(w.get(), "PreviewDock")->width() - 620) <= 12,
                     qPrintable(QString::number(dock(w.get(), "PreviewDock")->width())));
        }
        // A state saved without the layout's version (an older arrangement) is not restored.
        {
            QSettings().clear();
            MainWindow old(registry());
            old.show();
            QVERIFY(QTest::qWaitForWindowExposed(&old));
            dock(&old, "InspectorDock")->hide();
            QSettings().setValue("window/state", old.saveState());  // version 0, as before
        }
        auto w = std::make_unique<MainWindow>(registry());
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(dock(w.get(), "InspectorDock")->isVisible());
        QVERIFY(dock(w.get(), "InspectorDock")->height() >= 0.75 * w->height());
    }

    // A click on a node while the World tab is in front brings the Inspector forward.
    void clickOnNodeShowsTheInspector()
    {
        auto w = defaultWindow();
        dock(w.get(), "WorldDock")->raise();
        QCoreApplication::processEvents();
        QCOMPARE(currentTabWith(w.get(), "Inspector"), QString("World"));
        w->view()->frameAll();
        NodeItem *trees = w->scene()->nodeItem("trees");
        const QPoint header = w->view()->mapFromScene(trees->mapToScene(QPointF(60, 30)));
        QTest::mouseClick(w->view()->viewport(), Qt::LeftButton, Qt::NoModifier, header);
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"trees"});
        QCOMPARE(currentTabWith(w.get(), "Inspector"), QString("Inspector"));
    }

    // With the Inspector's tab in front, Tab from the Problems list (the pointer over it) walks the
    // fields in view and never one of the World tab behind it, where typing would rename the graph
    // unseen; a World field that had the keys loses them when its tab goes behind.
    void tabNeverReachesADockBehindAnother()
    {
        auto w = defaultWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QCOMPARE(currentTabWith(w.get(), "Inspector"), QString("Inspector"));
        QDockWidget *world = dock(w.get(), "WorldDock");
        QWidget *start = focusProblems(w.get());
        QCursor::setPos(start->mapToGlobal(start->rect().center()));
        QCOMPARE(QApplication::focusWidget(), start);
        for (int i = 0; i < 80; ++i) {
            QWidget *from = QApplication::focusWidget();
            QTest::keyClick(from, Qt::Key_Tab);
            QWidget *now = QApplication::focusWidget();
            QVERIFY2(now && !world->isAncestorOf(now),
                     qPrintable(QString("Tab %1 went to %2 on the World tab").arg(i + 1).arg(now ? now->objectName() : "")));
            if (now == start || now == w->view() || now->window() != w.get())
                break;  // round, or at the canvas (whose Tab is the palette's)
        }
        QVERIFY(!w->document()->isModified());

        auto *name = world->findChild<QLineEdit *>("worldName");
        world->raise();
        QCoreApplication::processEvents();
        name->setFocus(Qt::MouseFocusReason);
        QCOMPARE(QApplication::focusWidget(), name);
        dock(w.get(), "InspectorDock")->raise();
        QCoreApplication::processEvents();
        QVERIFY(QApplication::focusWidget() != name);
        QVERIFY(!world->isAncestorOf(QApplication::focusWidget()));
    }

    // Tab with the pointer over the canvas opens the node palette at the pointer, wherever the keys
    // were (here the Problems list); in a text field Tab still goes to the next field.
    void tabOverTheCanvasOpensThePalette()
    {
        auto w = defaultWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QWidget *viewport = w->view()->viewport();
        QCursor::setPos(viewport->mapToGlobal(viewport->rect().center()));
        NodePalette *palette = w->view()->palette();

        // In a text field Tab goes to the next field, the pointer over the canvas or not (checked
        // first: the palette's window, once shown and hidden, can take the activation back late).
        QDockWidget *world = dock(w.get(), "WorldDock");
        world->raise();
        QCoreApplication::processEvents();
        auto *name = world->findChild<QLineEdit *>("worldName");
        QVERIFY(name);
        name->setFocus(Qt::MouseFocusReason);
        QCOMPARE(QApplication::focusWidget(), name);
        QTest::keyClick(name, Qt::Key_Tab);
        QVERIFY(!palette->isVisible());
        QVERIFY(QApplication::focusWidget() != name);

        QWidget *problems = focusProblems(w.get());
        QTest::keyClick(problems, Qt::Key_Tab);
        QTRY_VERIFY(palette->isVisible());
        QTRY_VERIFY(QApplication::focusWidget() && QApplication::focusWidget()->window() == palette);  // typing filters it
    }

    // Port names too small to read are not drawn; zoomed in, they are.
    void portLabelsHideWhenTooSmall()
    {
        auto w = defaultWindow();
        NodeItem *trees = w->scene()->nodeItem("trees");
        w->view()->setZoom(NodeItem::kPortLabelMinZoom * 0.8);
        QVERIFY(!trees->portLabelsShown());
        w->view()->setZoom(1.0);
        QVERIFY(trees->portLabelsShown());
        w->view()->frameAll();
        const double zoom = w->view()->transform().m11();
        QCOMPARE(trees->portLabelsShown(), zoom >= NodeItem::kPortLabelMinZoom);
        // A card made while zoomed out (here: a deletion undone) follows the view.
        w->scene()->selectNodes({"trees"});
        action(w.get(), "&Delete")->trigger();
        w->view()->setZoom(0.3);
        w->document()->undoStack()->undo();
        QVERIFY(w->scene()->nodeItem("trees"));
        QVERIFY(!w->scene()->nodeItem("trees")->portLabelsShown());
    }
};

// A test organisation of its own: the layouts it saves are never the user's.
int main(int argc, char **argv)
{
    return runEditorSuite<TestEditorWindow>(argc, argv, "GroveWindowTest");
}

#include "tst_editor_window.moc"
