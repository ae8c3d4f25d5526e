// The editor as a user drives it: every command and its undo (checked as saved bytes), merging,
// wiring and its refusals, the palette, clipboard, framing, collapse, the World panel, save/open.
#include "tst_editor_support.h"

#include "document/Document.h"
#include "document/GraphCommands.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "window/MainWindow.h"
#include "document/NodeClipboard.h"
#include "document/NodeCommands.h"
#include "canvas/NodeItem.h"
#include "canvas/NodePalette.h"
#include "inspector/ParamEditors.h"
#include "document/ValueCommands.h"
#include "canvas/WireItem.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QListWidget>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace grove;
using namespace grove::test;

namespace {

QPoint viewPoint(GraphView *view, QPointF scenePos)
{
    return view->mapFromScene(scenePos);
}

// A left-button drag on the canvas, in small steps, as a hand would make it.
void drag(GraphView *view, QPointF fromScene, QPointF toScene)
{
    QWidget *vp = view->viewport();
    const QPoint a = viewPoint(view, fromScene), b = viewPoint(view, toScene);
    QTest::mousePress(vp, Qt::LeftButton, Qt::NoModifier, a);
    for (int i = 1; i <= 8; ++i)
        QTest::mouseMove(vp, a + (b - a) * i / 8);
    QTest::mouseRelease(vp, Qt::LeftButton, Qt::NoModifier, b);
}

WireItem *wireInto(GraphScene *scene, const std::string &node, const std::string &port)
{
    for (QGraphicsItem *item : scene->items())
        if (auto *w = dynamic_cast<WireItem *>(item); w && w->toNode() == node && w->toPort() == port)
            return w;
    return nullptr;
}


} // namespace

class TestEditor : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_original;

    // A fresh window on a private copy of the preset, shown at a fixed size and framed.
    std::unique_ptr<MainWindow> openWindow(QString *path = nullptr)
    {
        static int n = 0;
        const QString copy = m_dir.filePath(QString("island_%1.grove.yaml").arg(++n));
        writeFile(copy.toStdString(), m_original);
        auto w = std::make_unique<MainWindow>(registry());
        w->resize(1400, 900);
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get()))
            qWarning("window not exposed");
        if (!w->openFile(copy))
            qFatal("cannot open %s", qPrintable(copy));
        QCoreApplication::processEvents();
        w->view()->frameAll();
        if (path)
            *path = copy;
        return w;
    }

    QString status(MainWindow *w) { return w->statusBar()->currentMessage(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_original = kIsland;
        QVERIFY(!m_original.empty());
    }

    // Each command changes the saved text as the user intended; undo steps back through exactly the
    // same bytes, the start is the opened file byte for byte, and redo replays every step.
    void everyCommandUndoesToIdenticalBytes()
    {
        QString path;
        auto w = openWindow(&path);
        Document *doc = w->document();
        QUndoStack *stack = doc->undoStack();
        QCOMPARE(bytes(doc), m_original);
        std::vector<std::string> states{bytes(doc)};
        auto step = [&](const char *what) {
            const std::string now = bytes(doc);
            if (now == states.back())
                qFatal("step '%s' changed nothing", what);
            states.push_back(now);
        };

        // Add, through the palette as Tab would open it.
        w->view()->showPalette(QPoint(200, 600));
        auto *search = w->view()->palette()->findChild<QLineEdit *>("paletteSearch");
        QTest::keyClicks(search, "remap");
        QTest::keyClick(search, Qt::Key_Return);
        QVERIFY(w->view()->palette()->isHidden());
        QVERIFY(nodeBlock(bytes(doc), "remap").find("    type: remap\n") != std::string::npos);
        step("add");

        stack->push(new MoveNodesCommand(doc, {{"remap", doc->nodePosition("remap")}}, {{"remap", QPointF(300, 640)}}));
        QVERIFY(bytes(doc).find("    remap: {x: 300, y: 640}\n") != std::string::npos);
        step("move");

        stack->push(new SetInputCommand(doc, "remap", "field", Link{"height", ""}));
        QVERIFY(nodeBlock(bytes(doc), "remap").find("    inputs:\n      field: height\n") != std::string::npos);
        step("connect");

        stack->push(new SetParamCommand(doc, "remap", "out_max", Value(2.5)));
        QVERIFY(nodeBlock(bytes(doc), "remap").find("      out_max: 2.5\n") != std::string::npos);
        step("set param");

        stack->push(new RenameNodeCommand(doc, "remap", "stretch"));
        QVERIFY(nodeBlock(bytes(doc), "remap").empty());
        QVERIFY(nodeBlock(bytes(doc), "stretch").find("      field: height\n") != std::string::npos);
        QVERIFY(bytes(doc).find("    stretch: {x: 300, y: 640}\n") != std::string::npos);
        step("rename");

        stack->push(new SetInputCommand(doc, "land", "field", std::nullopt));
        QVERIFY(nodeBlock(bytes(doc), "land").find("inputs:") == std::string::npos);
        step("disconnect");

        // Paste: what Ctrl+C put on the clipboard arrives with a fresh id.
        w->scene()->selectNodes({"height"});
        action(w.get(), "&Copy")->trigger();
        action(w.get(), "&Paste")->trigger();
        QVERIFY2(nodeBlock(bytes(doc), "height_2").find("    type: value_noise\n") != std::string::npos, bytes(doc).c_str());
        QCOMPARE(status(w.get()), QString("Pasted height_2 (Ctrl+Z undoes)."));  // the new id said
        step("paste");

        w->scene()->selectNodes({"chests"});
        action(w.get(), "D&uplicate")->trigger();
        QVERIFY(nodeBlock(bytes(doc), "chests_2").find("      radius: 140\n") != std::string::npos);
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"chests_2"});
        QCOMPARE(status(w.get()), QString("Duplicated as chests_2 (Ctrl+Z undoes)."));
        step("duplicate");

        // Delete takes the links into the node with it.
        w->scene()->selectNodes({"moisture"});
        action(w.get(), "&Delete")->trigger();
        QVERIFY(nodeBlock(bytes(doc), "moisture").empty());
        QVERIFY(bytes(doc).find("moisture") == std::string::npos);
        step("delete");

        w->scene()->selectNodes({"trees"});
        action(w.get(), "Collapse/E&xpand")->trigger();
        QVERIFY(bytes(doc).find("    trees: {x: 1300, y: 120, collapsed: true}\n") != std::string::npos);
        step("collapse");

        World world = doc->graph().world;
        world.seed = 7;
        stack->push(new SetGraphInfoCommand(doc, "Renamed", doc->graph().notes, world, "World"));
        QVERIFY(bytes(doc).find("name: Renamed\n") != std::string::npos);
        QVERIFY(bytes(doc).find("  seed: 7\n") != std::string::npos);
        step("graph info");

        QCOMPARE(stack->count(), int(states.size()) - 1);
        for (size_t i = states.size() - 1; i > 0; --i) {
            stack->undo();
            QCoreApplication::processEvents();
            QCOMPARE(bytes(doc), states[i - 1]);
        }
        QVERIFY(!doc->isModified());
        QVERIFY(!w->isWindowModified());
        const QString again = m_dir.filePath("undone.grove.yaml");
        QVERIFY(!doc->save(again));
        QCOMPARE(readFile(again.toStdString()), m_original);
        for (size_t i = 1; i < states.size(); ++i) {
            stack->redo();
            QCOMPARE(bytes(doc), states[i]);
        }
    }

    // A slider drag is one undo step however far it goes; releasing the slider ends it, and an
    // edit of another param or node is its own step.
    void paramEditsMergeUntilSliderRelease()
    {
        auto w = openWindow();
        Document *doc = w->document();
        QUndoStack *stack = doc->undoStack();
        w->selectNode("height");
        QCoreApplication::processEvents();
        auto *editor = w->findChild<ParamEditor *>("param:frequency");
        QVERIFY(editor);
        auto *slider = editor->findChild<QSlider *>();
        auto *spin = editor->findChild<QLineEdit *>();
        QVERIFY(slider && spin);
        const std::string start = bytes(doc);

        slider->setSliderDown(true);
        for (int v : {100, 150, 200, 300})
            slider->setValue(v);
        slider->setSliderDown(false);  // what letting go of the mouse does
        QCOMPARE(stack->count(), 1);
        QCOMPARE(*doc->graph().node("height")->param("frequency"), Value(0.0307));
        QCOMPARE(spin->text(), QString("0.0307"));
        const std::string afterFirst = bytes(doc);

        slider->setSliderDown(true);
        slider->setValue(350);
        slider->setValue(400);
        slider->setSliderDown(false);
        QCOMPARE(stack->count(), 2);
        const std::string afterSecond = bytes(doc);
        QVERIFY(nodeBlock(afterSecond, "height").find("      frequency: 0.0406\n") != std::string::npos);

        // Without a release between them, a different param is still a new step.
        slider->setSliderDown(true);
        slider->setValue(500);
        auto *octaves = w->findChild<ParamEditor *>("param:octaves")->findChild<QSlider *>();
        octaves->setValue(3);
        slider->setValue(550);
        slider->setSliderDown(false);
        QCOMPARE(stack->count(), 5);

        // Typing into the box: each Enter (editingFinished) ends a step.
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, "0.015");
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(stack->count(), 6);
        QVERIFY(nodeBlock(bytes(doc), "height").find("      frequency: 0.015\n") != std::string::npos);
        spin->selectAll();
        QTest::keyClicks(spin, "0.02");
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(stack->count(), 7);

        // Another node's same-named param never merges into this one's step.
        stack->push(new SetParamCommand(doc, "moisture", "frequency", Value(0.5)));
        QCOMPARE(stack->count(), 8);

        for (int i = 0; i < 6; ++i)
            stack->undo();
        QCOMPARE(bytes(doc), afterSecond);
        stack->undo();
        QCOMPARE(bytes(doc), afterFirst);
        stack->undo();
        QCOMPARE(bytes(doc), start);
    }

    // The canvas refuses what the validator refuses and says why; nothing changes.
    void connectionRefusalsSayWhy_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("reason");
        QTest::newRow("type mismatch") << "chests.all" << "land.field"
                                       << "Cannot connect chests.all to land.field: type mismatch: field takes field, "
                                          "chests.all gives points";
        QTest::newRow("cycle") << "forest" << "land.mask"
                               << "Cannot connect forest to land.mask: cycle: land already feeds forest";
        QTest::newRow("self") << "land" << "land.mask" << "Cannot connect land to land.mask: a node cannot feed itself";
    }

    void connectionRefusalsSayWhy()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, reason);
        auto w = openWindow();
        Document *doc = w->document();
        const std::string before = bytes(doc);
        const Link source = Link::parse(from.toStdString());
        const Link target = Link::parse(to.toStdString());
        NodeItem *src = w->scene()->nodeItem(source.node);
        NodeItem *dst = w->scene()->nodeItem(target.node);
        QVERIFY(src && dst);
        drag(w->view(), src->portScenePos(false, source.port), dst->portScenePos(true, target.port));
        QCOMPARE(status(w.get()), reason);
        QCOMPARE(bytes(doc), before);
        QCOMPARE(doc->undoStack()->count(), 0);
    }

    // Dropping a wire on an input that is already wired replaces its link, in one undoable step;
    // picking a wire up off one input and dropping it on another moves it (a reconnect).
    void wiredInputIsReplacedAndReconnected()
    {
        auto w = openWindow();
        Document *doc = w->document();
        const std::string before = bytes(doc);
        GraphScene *scene = w->scene();
        drag(w->view(), scene->nodeItem("meadow")->portScenePos(false, ""),
             scene->nodeItem("rocks")->portScenePos(true, "allowed"));
        QCOMPARE(status(w.get()), QString("Connected meadow to rocks.allowed"));
        QVERIFY(nodeBlock(bytes(doc), "rocks").find("      allowed: meadow\n") != std::string::npos);
        QCOMPARE(doc->undoStack()->count(), 1);
        doc->undoStack()->undo();
        QCOMPARE(bytes(doc), before);

        // Reconnect: take trees.allowed (from forest) over to flowers.allowed.
        drag(w->view(), scene->nodeItem("trees")->portScenePos(true, "allowed"),
             scene->nodeItem("flowers")->portScenePos(true, "allowed"));
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(doc->undoStack()->text(0), QString("Reconnect forest"));
        QVERIFY(nodeBlock(bytes(doc), "trees").find("allowed") == std::string::npos);
        QVERIFY(nodeBlock(bytes(doc), "flowers").find("      allowed: forest\n") != std::string::npos);
        doc->undoStack()->undo();
        QCOMPARE(bytes(doc), before);

        // A wire picked up and dropped on empty canvas is removed.
        drag(w->view(), scene->nodeItem("trees")->portScenePos(true, "allowed"), QPointF(1300, 900));
        QVERIFY(nodeBlock(bytes(doc), "trees").find("allowed") == std::string::npos);
        QCOMPARE(doc->undoStack()->text(0), QString("Disconnect trees.allowed"));
    }

    void paletteFilters()
    {
        auto w = openWindow();
        NodePalette *palette = w->view()->palette();
        auto *search = palette->findChild<QLineEdit *>("paletteSearch");
        const NodeRegistry &reg = w->document()->registry();

        palette->popup(QPoint(100, 100));
        QCOMPARE(palette->visibleTypeIds().size(), int(reg.all().size()));

        QTest::keyClicks(search, "Noise");  // by name, any case
        const QStringList noises = palette->visibleTypeIds();
        QVERIFY(noises.contains("value_noise"));
        QVERIFY(!noises.contains("place_layer"));
        for (const QString &id : noises)
            QVERIFY2(QString::fromStdString(reg.find(id.toStdString())->displayName).contains("Noise")
                         || id.contains("noise"),
                     qPrintable(id));

        search->clear();
        QTest::keyClicks(search, "place_layer");  // by type id
        QCOMPARE(palette->visibleTypeIds(), QStringList{"place_layer"});

        search->clear();
        QTest::keyClicks(search, "labels masks");  // by category, words in any order
        QStringList labels;
        for (const auto &d : reg.all())
            if (d->category == "Labels & masks")
                labels << QString::fromStdString(d->typeId);
        QCOMPARE(palette->visibleTypeIds(), labels);
        QVERIFY(labels.contains("allowed_rule") && labels.contains("threshold"));

        search->clear();
        QTest::keyClicks(search, "zzz");
        QVERIFY(palette->visibleTypeIds().isEmpty());
        QTest::keyClick(search, Qt::Key_Return);  // nothing to choose: nothing added
        QCOMPARE(w->document()->undoStack()->count(), 0);
        palette->hide();

        // Opened for a mask wire: only types with a mask input.
        palette->popup(QPoint(100, 100), DataType::Mask);
        const QStringList takesMask = palette->visibleTypeIds();
        QVERIFY(takesMask.contains("allowed_rule") && takesMask.contains("place_layer"));
        QVERIFY(!takesMask.contains("value_noise") && !takesMask.contains("math"));
        for (const QString &id : takesMask) {
            const auto &inputs = reg.find(id.toStdString())->inputs;
            QVERIFY2(std::any_of(inputs.begin(), inputs.end(), [](const PortSpec &p) { return p.type == DataType::Mask; }),
                     qPrintable(id));
        }
        QTest::keyClicks(search, "rule");
        QCOMPARE(palette->visibleTypeIds(), QStringList{"allowed_rule"});
        palette->hide();
    }

    // A wire let go on empty canvas opens the palette with only nodes that take it; the chosen node
    // arrives wired, and one undo takes both away.
    void wireIntoEmptySpaceAddsWiredNode()
    {
        auto w = openWindow();
        Document *doc = w->document();
        const std::string before = bytes(doc);
        NodeItem *land = w->scene()->nodeItem("land");
        const QPointF empty(600, 720);  // below every card
        QVERIFY(w->scene()->items(empty).isEmpty());
        drag(w->view(), land->portScenePos(false, ""), empty);
        NodePalette *palette = w->view()->palette();
        QVERIFY(palette->isVisible());
        const QStringList offered = palette->visibleTypeIds();
        QVERIFY(offered.contains("place_layer") && offered.contains("allowed_rule"));
        QVERIFY(!offered.contains("value_noise") && !offered.contains("remap"));
        auto *search = palette->findChild<QLineEdit *>("paletteSearch");
        QTest::keyClicks(search, "place");
        QTest::keyClick(search, Qt::Key_Return);
        const std::string block = nodeBlock(bytes(doc), "place_layer");
        QVERIFY2(block.find("    inputs:\n      allowed: land\n") != std::string::npos, block.c_str());
        QCOMPARE(doc->undoStack()->count(), 1);
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"place_layer"});
        doc->undoStack()->undo();
        QCOMPARE(bytes(doc), before);
    }

    // A fresh node dragged onto a wire is spliced into it; the move and both links are one step.
    void nodeDroppedOnWireIsInserted()
    {
        auto w = openWindow();
        Document *doc = w->document();
        std::string id;
        doc->undoStack()->push(NodeClipboard::newNode(doc, "remap", QPointF(300, 700), &id));
        QCoreApplication::processEvents();
        const std::string before = bytes(doc);
        WireItem *wire = wireInto(w->scene(), "land", "field");
        QVERIFY(wire);
        const QPointF middle = wire->path().pointAtPercent(0.5);
        NodeItem *remap = w->scene()->nodeItem(id);
        const QPointF grab = remap->pos() + QPointF(60, 12);
        drag(w->view(), grab, middle);
        const std::string after = bytes(doc);
        QVERIFY2(nodeBlock(after, "land").find("      field: remap\n") != std::string::npos, after.c_str());
        QVERIFY(nodeBlock(after, "remap").find("      field: height\n") != std::string::npos);
        QCOMPARE(doc->undoStack()->count(), 2);
        QCOMPARE(doc->undoStack()->text(1), QString("Insert remap into land.field"));
        doc->undoStack()->undo();
        QCOMPARE(bytes(doc), before);

        // A node whose ports do not fit the wire is only moved.
        doc->undoStack()->push(NodeClipboard::newNode(doc, "threshold", QPointF(300, 900), &id));
        QCoreApplication::processEvents();
        WireItem *points = wireInto(w->scene(), "rocks", "obstacles");
        QVERIFY(points);
        drag(w->view(), w->scene()->nodeItem(id)->pos() + QPointF(60, 12), points->path().pointAtPercent(0.5));
        QVERIFY(nodeBlock(bytes(doc), "rocks").find("      obstacles: chests.all\n") != std::string::npos);
        QVERIFY(nodeBlock(bytes(doc), "threshold").find("inputs:") == std::string::npos);
        QCOMPARE(doc->undoStack()->text(doc->undoStack()->index() - 1), QString("Move threshold"));
    }

    // Two separate drags of the same node are two undo steps.
    void separateDragsAreSeparateSteps()
    {
        auto w = openWindow();
        Document *doc = w->document();
        NodeItem *flowers = w->scene()->nodeItem("flowers");
        w->view()->resetTransform();  // 1:1, so whole pixels are whole units
        w->view()->centerOn(flowers);
        drag(w->view(), flowers->pos() + QPointF(60, 12), flowers->pos() + QPointF(60, 112));
        drag(w->view(), flowers->pos() + QPointF(60, 12), flowers->pos() + QPointF(60, 112));
        QCOMPARE(doc->undoStack()->count(), 2);
        QVERIFY(bytes(doc).find("    flowers: {x: 1560, y: 380}\n") != std::string::npos);
        doc->undoStack()->undo();
        QVERIFY(bytes(doc).find("    flowers: {x: 1560, y: 280}\n") != std::string::npos);
    }

    // F frames the selection, or everything when nothing is selected.
    void frameSelectionOrAll()
    {
        auto w = openWindow();
        GraphView *view = w->view();
        view->setFocus();
        auto visible = [view] { return view->mapToScene(view->viewport()->rect()).boundingRect(); };
        w->scene()->selectNodes({"flowers"});
        QTest::keyClick(view, Qt::Key_F);
        const QRectF flowers = w->scene()->nodeItem("flowers")->sceneBoundingRect();
        QVERIFY(visible().contains(flowers));
        QVERIFY(std::abs(visible().center().x() - flowers.center().x()) < 2);
        QVERIFY(!visible().intersects(w->scene()->nodeItem("height")->sceneBoundingRect()));

        w->scene()->clearSelection();
        QTest::keyClick(view, Qt::Key_F);
        for (const Node &n : w->document()->graph().nodes)
            QVERIFY2(visible().contains(w->scene()->nodeItem(n.id)->sceneBoundingRect()), n.id.c_str());
    }

    // Copy puts YAML text on the system clipboard; another window pastes it, links between the
    // copied nodes kept; plain YAML typed elsewhere pastes too.
    void clipboardIsYamlAcrossWindows()
    {
        auto a = openWindow();
        MainWindow b(registry());
        b.resize(1000, 700);
        b.show();
        a->scene()->selectNodes({"height", "land"});
        action(a.get(), "&Copy")->trigger();
        const QString text = QApplication::clipboard()->text();
        QVERIFY(text.startsWith("grove: 1\n"));
        QVERIFY(text.contains("  land:\n    type: allowed_rule\n    inputs:\n      field: height\n"));
        QVERIFY(!text.contains("chests"));

        action(&b, "&Paste")->trigger();
        const std::string pasted = bytes(b.document());
        QVERIFY(nodeBlock(pasted, "land").find("      field: height\n") != std::string::npos);
        QCOMPARE(b.document()->graph().nodes.size(), size_t(2));
        QCOMPARE(b.scene()->selectedNodeIds(), (std::vector<std::string>{"height", "land"}));

        QApplication::clipboard()->setText("grove: 1\nnodes:\n  bump:\n    type: constant\n");
        action(&b, "&Paste")->trigger();
        QVERIFY(b.document()->graph().node("bump"));
        b.document()->undoStack()->undo();
        b.document()->undoStack()->undo();
        QVERIFY(b.document()->graph().nodes.empty());

        QApplication::clipboard()->setText("just some words");
        action(&b, "&Paste")->trigger();
        QCOMPARE(b.statusBar()->currentMessage(), QString("The clipboard holds no Grove nodes."));
        QCOMPARE(b.document()->undoStack()->index(), 0);
        b.document()->undoStack()->setClean();
    }

    // The canvas's edit actions are offered only when the selection gives them something to act on.
    void editActionsFollowTheSelection()
    {
        auto w = openWindow();
        const QStringList onNodes{"&Delete", "D&uplicate", "&Copy", "Collapse/E&xpand"};
        for (const QString &text : onNodes)
            QVERIFY2(!action(w.get(), text)->isEnabled(), qPrintable(text));
        QVERIFY(action(w.get(), "&Paste")->isEnabled() && action(w.get(), "Select &All")->isEnabled());
        w->scene()->selectNodes({"rocks"});
        for (const QString &text : onNodes)
            QVERIFY2(action(w.get(), text)->isEnabled(), qPrintable(text));

        // A wire alone can be deleted, not copied; deleting it leaves nothing to delete.
        w->scene()->clearSelection();
        wireInto(w->scene(), "rocks", "allowed")->setSelected(true);
        QVERIFY(action(w.get(), "&Delete")->isEnabled() && !action(w.get(), "&Copy")->isEnabled());
        action(w.get(), "&Delete")->trigger();
        QVERIFY(nodeBlock(bytes(w->document()), "rocks").find("allowed") == std::string::npos);
        QVERIFY(!action(w.get(), "&Delete")->isEnabled());
    }

    // The arrow on a card's header collapses it (saved in the layout); undo opens it again.
    void collapseIsSavedAndUndoable()
    {
        QString path;
        auto w = openWindow(&path);
        Document *doc = w->document();
        NodeItem *rocks = w->scene()->nodeItem("rocks");
        const double open = rocks->sceneBoundingRect().height();
        const QPoint arrow = viewPoint(w->view(), rocks->pos() + QPointF(200 - 19, 19));
        QTest::mouseClick(w->view()->viewport(), Qt::LeftButton, Qt::NoModifier, arrow);
        QVERIFY(rocks->isCollapsed());
        QVERIFY(rocks->sceneBoundingRect().height() < open / 2);
        QVERIFY(bytes(doc).find("    rocks: {x: 1040, y: 60, collapsed: true}\n") != std::string::npos);
        // Its wires now meet the header.
        WireItem *in = wireInto(w->scene(), "rocks", "allowed");
        QVERIFY(std::abs(in->path().pointAtPercent(1).y() - (rocks->pos().y() + 21)) < 0.5);

        action(w.get(), "&Save")->trigger();
        MainWindow other(registry());
        QVERIFY(other.openFile(path));
        QVERIFY(other.scene()->nodeItem("rocks")->isCollapsed());
        QVERIFY(!other.scene()->nodeItem("trees")->isCollapsed());

        doc->undoStack()->undo();
        QVERIFY(!rocks->isCollapsed());
        QCOMPARE(bytes(doc), m_original);
    }

};

int main(int argc, char **argv)
{
    return runEditorSuite<TestEditor>(argc, argv);
}

#include "tst_editor.moc"
