// Groups in the editor: Group and Ungroup (one undo step each, byte-identical round trip), a group
// node's card and Inspector from its file, the preview following an edited group file, and a
// double-click opening the group's file with a breadcrumb back.
#include "tst_editor_support.h"

#include "document/Autosave.h"
#include "window/EditActions.h"
#include "window/ExportDialog.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "document/InputWatcher.h"
#include "canvas/NodeItem.h"
#include "window/PresetBrowser.h"

#include "core/graph/GroupGraph.h"

#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPointer>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

using namespace grove;
using namespace grove::test;

namespace {

size_t countOf(const PreviewSnapshotPtr &snap, const std::string &id)
{
    for (const PreviewLayer &l : snap->layers)
        if (l.nodeId == id)
            return l.stats.count;
    return 0;
}

EditActions *editActionsOf(MainWindow *w)
{
    auto *actions = w->findChild<EditActions *>();
    if (!actions)
        qFatal("no edit actions");
    return actions;
}

QAction *undoAction(MainWindow *w)
{
    for (QAction *a : w->findChildren<QAction *>())
        if (a->shortcuts().contains(QKeySequence(QKeySequence::Undo)))
            return a;
    qFatal("no undo action");
    return nullptr;
}

bool visibleWidget(MainWindow *w, const char *name)
{
    const QList<QWidget *> all = w->findChildren<QWidget *>(name);
    return std::any_of(all.begin(), all.end(), [](QWidget *widget) { return widget->isVisible(); });
}

// A double-click on the middle of a node's card, as the designer does it.
void doubleClickCard(MainWindow *w, const std::string &id)
{
    NodeItem *card = w->scene()->nodeItem(id);
    if (!card)
        qFatal("no card %s", id.c_str());
    w->view()->centerOn(card);
    const QPoint at = w->view()->mapFromScene(card->sceneBoundingRect().center());
    QTest::mouseDClick(w->view()->viewport(), Qt::LeftButton, {}, at);
}

std::string groupFile(int radius)
{
    return "grove: 1\nnotes: |\n  Dots spaced by gap,\n  where area allows.\n"
           "world: {width: 300, height: 200, seed: 1}\n"
           "inputs:\n  area: {to: [dots.allowed], description: where the dots go}\n"
           "outputs:\n  all: {from: dots.all}\n  dots: {from: dots.points}\n"
           "expose:\n  gap: {param: dots.radius, description: the dots' spacing, min: 2, max: 90}\n"
           "nodes:\n  dots:\n    type: place_layer\n    params: {radius: " + std::to_string(radius) + "}\n";
}

const std::string kUsesGroup = "grove: 1\nworld: {width: 300, height: 200, seed: 1}\nnodes:\n"
                               "  n:\n    type: value_noise\n"
                               "  land:\n    type: allowed_rule\n    inputs: {field: n}\n    params: {min: 0.3}\n"
                               "  g:\n    type: group\n    inputs: {area: land}\n    params: {graph: parts/dots.grove.yaml, gap: 12}\n";

} // namespace

class TestEditorGroups : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Select three layers, Group: one node in their place, wired as before, one undo step that
    // gives back the file's bytes; Ungroup: the original bytes again, and its own undo step.
    void groupThenUngroupIsByteIdentical()
    {
        auto w = openWindowOn(m_dir, kIsland);
        Document *d = w->document();
        const int steps = d->undoStack()->count();
        w->scene()->selectNodes({"rocks", "trees", "forest"});
        QVERIFY(editActionsOf(w.get())->groupAction()->isEnabled());
        QVERIFY(!editActionsOf(w.get())->ungroupAction()->isEnabled());
        QVERIFY(editActionsOf(w.get())->groupSelection(m_dir.filePath("parts/woods.grove.yaml")));
        QCOMPARE(d->undoStack()->count(), steps + 1);
        const Node *group = d->graph().node("woods");
        QVERIFY(group && group->type == "group");
        QVERIFY(!d->graph().node("trees"));
        QCOMPARE(d->graph().node("flowers")->input("obstacles")->toString(), std::string("woods.trees_all"));
        QVERIFY(QFileInfo::exists(m_dir.filePath("parts/woods.grove.yaml")));
        // the card takes the leftmost grouped node's place (forest's), not the centroid of the
        // three, which lies among the nodes that stay
        QCOMPARE(d->graph().layout.at("woods"), (NodeLayout{520, 200, false}));
        const std::string grouped = bytes(d);
        d->undoStack()->undo();
        QCOMPARE(QString::fromStdString(bytes(d)), QString::fromStdString(kIsland));
        d->undoStack()->redo();
        QCOMPARE(bytes(d), grouped);

        w->scene()->selectNodes({"woods"});
        QVERIFY(editActionsOf(w.get())->ungroupAction()->isEnabled());
        QVERIFY(editActionsOf(w.get())->ungroupSelection());
        QCOMPARE(QString::fromStdString(bytes(d)), QString::fromStdString(kIsland));
        QCOMPARE(d->undoStack()->count(), steps + 2);
        d->undoStack()->undo();
        QCOMPARE(bytes(d), grouped);
    }

    // The group's card has the file's ports; the Inspector shows its exposed params like any node's.
    void aGroupNodeShowsItsFile()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        writeFile(m_dir.filePath("parts/dots.grove.yaml").toStdString(), groupFile(10));
        auto w = openWindowOn(m_dir, kUsesGroup);
        QVERIFY2(w->document()->problems().empty(), formatAll(w->document()->problems()).c_str());
        NodeItem *item = w->scene()->nodeItem("g");
        QVERIFY(item);
        QCOMPARE(item->portType(true, "area"), std::optional<DataType>(DataType::Mask));
        QCOMPARE(item->portType(false, "dots"), std::optional<DataType>(DataType::Points));
        QCOMPARE(item->portType(false, "all"), std::optional<DataType>(DataType::Points));
        w->selectNode("g");
        QTRY_VERIFY(w->findChild<QWidget *>("param:gap"));
        QVERIFY(w->findChild<QWidget *>("param:graph"));
        // the file's notes, wrapped by hand there, are one paragraph the Inspector wraps to its width
        QTRY_VERIFY(std::ranges::any_of(w->findChildren<QLabel *>(), [](QLabel *l) {
            return l->isVisible() && l->text() == "Dots spaced by gap, where area allows.";
        }));
        // the group's file is watched
        QVERIFY(w->inputWatcher()->files().contains(QFileInfo(m_dir.filePath("parts/dots.grove.yaml")).absoluteFilePath()));
    }

    // The group file edited outside (or in another window): the outer preview follows, no edit here.
    void editingTheGroupFileUpdatesThePreview()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        const QString inner = m_dir.filePath("parts/dots.grove.yaml");
        writeFile(inner.toStdString(), groupFile(10));
        std::string text = kUsesGroup;
        text.replace(text.find("gap: 12"), 7, "gap: 10");
        auto w = openWindowOn(m_dir, text);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "g_dots") > 0, patientMs(30000));
        const size_t before = countOf(w->preview()->snapshot(), "g_dots");
        // gap is given by the group node, so the file's radius would not show: change its seed
        std::string edited = groupFile(10);
        edited.replace(edited.find("radius: 10"), 10, "radius: 10, seed: 7");
        writeFile(inner.toStdString(), edited);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "g_dots") != before, patientMs(15000));
        QVERIFY(w->document()->undoStack()->isClean());
        // a new output in the file: the card shows it, with nothing edited here
        QVERIFY(!w->scene()->nodeItem("g")->portType(false, "more"));
        edited.replace(edited.find("outputs:\n"), 9, "outputs:\n  more: {from: dots.all}\n");
        writeFile(inner.toStdString(), edited);
        QTRY_VERIFY_WITH_TIMEOUT(w->scene()->nodeItem("g") && w->scene()->nodeItem("g")->portType(false, "more"), patientMs(15000));
        // a new exposed param in the file: the selected group's Inspector shows it, unselected
        // and selected again or not
        w->selectNode("g");
        QCoreApplication::processEvents();
        QVERIFY(visibleWidget(w.get(), "param:gap") && !visibleWidget(w.get(), "param:dot_seed"));
        edited.replace(edited.find("expose:\n"), 8, "expose:\n  dot_seed: {param: dots.seed, description: the dots' seed}\n");
        writeFile(inner.toStdString(), edited);
        QTRY_VERIFY_WITH_TIMEOUT(visibleWidget(w.get(), "param:dot_seed"), patientMs(15000));
        QVERIFY(w->document()->undoStack()->isClean());
    }

    // A double-click on a group's card opens its file in a tab of its own, with a breadcrumb; the
    // outer graph keeps its unsaved edit (nothing is asked). Each tab has its own undo history; the
    // breadcrumb's link and Back bring the outer tab forward with the group selected; a second
    // double-click brings the same tab forward again.
    void aGroupOpensInATab()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        const QString inner = QFileInfo(m_dir.filePath("parts/dots.grove.yaml")).absoluteFilePath();
        writeFile(inner.toStdString(), groupFile(10));
        QString outer;
        auto w = openWindowOn(m_dir, kUsesGroup, &outer);
        auto *tabs = w->findChild<QTabWidget *>("graphTabs");
        QVERIFY(tabs && tabs->tabBar()->isHidden());  // one graph: no tab bar
        Document *outerDoc = w->document();
        setParam(outerDoc, "land", "min", Value(0.4));
        QCOMPARE(w->tabCount(), 1);

        doubleClickCard(w.get(), "g");
        QCOMPARE(w->tabCount(), 2);
        QCOMPARE(w->currentTab(), 1);
        QVERIFY(tabs->tabBar()->isVisible());
        QCOMPARE(w->tabTitle(0), QFileInfo(outer).fileName() + "*");
        QCOMPARE(w->tabTitle(1), QString("dots.grove.yaml"));
        Document *innerDoc = w->document();
        QVERIFY(innerDoc != outerDoc);
        QCOMPARE(QFileInfo(innerDoc->filePath()).absoluteFilePath(), inner);
        QVERIFY(innerDoc->graph().node("dots"));
        QCOMPARE(w->windowTitle(), QString("dots.grove.yaml[*] — Grove"));
        QCOMPARE(w->breadcrumb(), QFileInfo(outer).fileName() + " › g (dots.grove.yaml)");
        auto *crumbs = w->findChild<QLabel *>("breadcrumb");
        QVERIFY(crumbs && crumbs->isVisible());
        QVERIFY(crumbs->text().contains("<a href=\"0\">" + QFileInfo(outer).fileName() + "</a>"));
        // the outer graph is as it was, its edit unsaved
        QVERIFY(outerDoc->isModified());
        QCOMPARE(outerDoc->graph().node("land")->param("min")->toNumber(), 0.4);

        // Edit › Undo acts on the tab in front
        QAction *undo = undoAction(w.get());
        QVERIFY(!undo->isEnabled());
        setParam(innerDoc, "dots", "radius", Value(14.0));
        QVERIFY(undo->isEnabled());
        QCOMPARE(w->tabTitle(1), QString("dots.grove.yaml*"));
        undo->trigger();
        QCOMPARE(innerDoc->graph().node("dots")->param("radius")->toNumber(), 10.0);
        QCOMPARE(outerDoc->graph().node("land")->param("min")->toNumber(), 0.4);
        setParam(innerDoc, "dots", "radius", Value(14.0));

        // the breadcrumb's first graph: the outer tab, the group selected, its Inspector in front
        emit crumbs->linkActivated("0");
        QCOMPARE(w->currentTab(), 0);
        QCOMPARE(w->document(), outerDoc);
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"g"});
        QVERIFY(!crumbs->isVisible());
        QTRY_VERIFY(visibleWidget(w.get(), "param:gap"));
        undo->trigger();  // now the outer tab's
        QCOMPARE(outerDoc->graph().node("land")->param("min")->toNumber(), 0.3);
        QCOMPARE(innerDoc->graph().node("dots")->param("radius")->toNumber(), 14.0);

        // the same group again: the same tab, its edit kept; Back returns
        doubleClickCard(w.get(), "g");
        QCOMPARE(w->tabCount(), 2);
        QCOMPARE(w->document(), innerDoc);
        QCOMPARE(innerDoc->graph().node("dots")->param("radius")->toNumber(), 14.0);
        QVERIFY(w->backFromGroup());
        QCOMPARE(w->document(), outerDoc);
        QCOMPARE(w->breadcrumb(), QString());
        // opening the file a tab has brings that tab forward, and reads nothing
        QVERIFY(w->openFile(inner));
        QCOMPARE(w->document(), innerDoc);
        QVERIFY(innerDoc->isModified());
        QVERIFY(!w->openGroup("dots"));  // not a group
    }

    // Groups inside groups: each level a tab, the breadcrumb the whole way with a link per graph;
    // a graph on the way whose tab was closed opens again from its link, with the way to it.
    void nestedGroupsTheWholeWay()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("nest"));
        writeFile(m_dir.filePath("nest/dots.grove.yaml").toStdString(), groupFile(10));
        writeFile(m_dir.filePath("nest/mid.grove.yaml").toStdString(),
                  "grove: 1\nworld: {width: 300, height: 200, seed: 1}\n"
                  "inputs:\n  area: {to: [d.area]}\noutputs:\n  all: {from: d.all}\n"
                  "nodes:\n  d:\n    type: group\n    params: {graph: dots.grove.yaml}\n");
        std::string outerText = kUsesGroup;
        outerText.replace(outerText.find("graph: parts/dots.grove.yaml, gap: 12"), 37, "graph: nest/mid.grove.yaml");
        QString outer;
        auto w = openWindowOn(m_dir, outerText, &outer);
        QVERIFY2(w->document()->problems().empty(), formatAll(w->document()->problems()).c_str());
        Document *outerDoc = w->document();
        doubleClickCard(w.get(), "g");
        Document *midDoc = w->document();
        QCOMPARE(QFileInfo(midDoc->filePath()).fileName(), QString("mid.grove.yaml"));
        doubleClickCard(w.get(), "d");
        QCOMPARE(w->tabCount(), 3);
        QCOMPARE(w->breadcrumb(), QFileInfo(outer).fileName() + " › g › mid.grove.yaml › d (dots.grove.yaml)");
        auto *crumbs = w->findChild<QLabel *>("breadcrumb");
        QVERIFY(crumbs->text().contains("<a href=\"1\">mid.grove.yaml</a>"));

        // the first link: the outer tab, g selected
        emit crumbs->linkActivated("0");
        QCOMPARE(w->document(), outerDoc);
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"g"});
        // the middle graph's tab closed, then its link from the innermost tab: open again, d selected,
        // with the way to it
        w->setCurrentTab(1);
        QCOMPARE(w->document(), midDoc);
        QVERIFY(w->closeTab(1));
        QCOMPARE(w->tabCount(), 2);
        w->setCurrentTab(1);
        QCOMPARE(QFileInfo(w->document()->filePath()).fileName(), QString("dots.grove.yaml"));
        emit crumbs->linkActivated("1");
        QCOMPARE(w->tabCount(), 3);
        QCOMPARE(QFileInfo(w->document()->filePath()).fileName(), QString("mid.grove.yaml"));
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"d"});
        QCOMPARE(w->breadcrumb(), QFileInfo(outer).fileName() + " › g (mid.grove.yaml)");
        QVERIFY(w->backFromGroup());
        QCOMPARE(w->document(), outerDoc);
    }

    // Saving the group's tab updates the preview of the tab that includes it.
    void savingTheGroupTabUpdatesTheOuterPreview()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        writeFile(m_dir.filePath("parts/dots.grove.yaml").toStdString(), groupFile(10));
        auto w = openWindowOn(m_dir, kUsesGroup);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "g_dots") > 0, patientMs(30000));
        const size_t before = countOf(w->preview()->snapshot(), "g_dots");
        // the group's card shows the picture of what its first output ("all") comes from inside
        NodeItem *card = w->scene()->nodeItem("g");
        QTRY_VERIFY_WITH_TIMEOUT(!card->thumbnail().isNull(), patientMs(15000));
        QCOMPARE(card->thumbnail(), w->preview()->snapshot()->thumbnails.at("g_dots"));
        QVERIFY(w->openGroup("g"));
        setParam(w->document(), "dots", "seed", Value(7.0));  // gap is the group node's: the seed shows
        action(w.get(), "&Save")->trigger();
        QVERIFY(!w->document()->isModified());
        QVERIFY(w->breadcrumb().endsWith(" › g (dots.grove.yaml)"));  // saving keeps the way back
        QVERIFY(readFile(m_dir.filePath("parts/dots.grove.yaml").toStdString()).find("seed: 7") != std::string::npos);
        w->setCurrentTab(0);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "g_dots") != before, patientMs(15000));
        QVERIFY(w->document()->undoStack()->isClean());
    }

    // A tab closed while its preview is still evaluating goes at once; the window carries on.
    void closingATabWhileItsPreviewRuns()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        writeFile(m_dir.filePath("parts/dots.grove.yaml").toStdString(), groupFile(3));
        auto w = openWindowOn(m_dir, kUsesGroup);
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w->openGroup("g"));
            QCOMPARE(w->tabCount(), 2);
            setParam(w->document(), "dots", "seed", Value(double(i + 2)));  // a run starts
            w->document()->undoStack()->undo();  // back to clean: no question on closing
            QVERIFY(w->closeTab(1));
            QCOMPARE(w->tabCount(), 1);
        }
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "g_dots") > 0, patientMs(30000));
    }

    // A tab closed while its export writes: the export finishes first (it shares the tab's
    // evaluator), and the tab's export dialog goes with it.
    void closingATabWhileItExports()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        writeFile(m_dir.filePath("parts/dots.grove.yaml").toStdString(), groupFile(3));
        auto w = openWindowOn(m_dir, kUsesGroup);
        QVERIFY(w->openGroup("g"));
        action(w.get(), "&Export…")->trigger();
        const QList<ExportDialog *> dialogs = w->findChildren<ExportDialog *>();
        QCOMPARE(dialogs.size(), 1);
        QPointer<ExportDialog> dialog = dialogs.front();
        const QString out = m_dir.filePath("dots_export.json");
        QFile::remove(out);
        dialog->setKind(ExportDialog::Kind::Json);
        dialog->setDestination(out);
        dialog->start();
        QVERIFY(w->closeTab(1));
        QVERIFY(!dialog);
        const std::string json = readFile(out.toStdString());
        QVERIFY2(json.find("\"dots\"") != std::string::npos, json.substr(0, 200).c_str());
        QCOMPARE(w->tabCount(), 1);
    }

    // Closing a tab with unsaved edits asks; Cancel keeps it, Discard leaves the file as it was.
    // Closing the window asks about every modified tab, each in turn.
    void closingModifiedTabsAsks()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("parts"));
        const QString inner = m_dir.filePath("parts/dots.grove.yaml");
        writeFile(inner.toStdString(), groupFile(10));
        QString outer;
        auto w = openWindowOn(m_dir, kUsesGroup, &outer);
        QVERIFY(!w->closeTab(0));  // the last tab stays
        QVERIFY(w->openGroup("g"));
        setParam(w->document(), "dots", "radius", Value(20.0));
        QStringList asked;
        answerQuestions(this, {"Cancel"}, &asked);
        QVERIFY(!w->closeTab(1));
        QCOMPARE(asked, QStringList{"dots.grove.yaml has unsaved changes. Save them?"});
        QCOMPARE(w->tabCount(), 2);
        answerQuestions(this, {"Discard"}, &asked);
        QVERIFY(w->closeTab(1));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(w->tabCount(), 1);
        QCOMPARE(readFile(inner.toStdString()), groupFile(10));

        // both modified: the window asks about each; Cancel on the second keeps the window open
        setParam(w->document(), "land", "min", Value(0.5));
        QVERIFY(w->openGroup("g"));
        setParam(w->document(), "dots", "radius", Value(30.0));
        QVERIFY(w->autosave()->saveNow());
        w->setCurrentTab(0);
        QVERIFY(w->autosave()->saveNow());
        const auto autosavedFor = [](const QString &path) {
            const QString absolute = QFileInfo(path).absoluteFilePath();
            int n = 0;
            for (const Autosave::Entry &e : Autosave::entries())
                n += e.documentPath == absolute;
            return n;
        };
        QCOMPARE(autosavedFor(outer) + autosavedFor(inner), 2);
        answerQuestions(this, {"Discard", "Cancel"}, &asked);
        QVERIFY(!w->close());
        QCOMPARE(asked, (QStringList{QFileInfo(outer).fileName() + " has unsaved changes. Save them?",
                                     "dots.grove.yaml has unsaved changes. Save them?"}));
        QVERIFY(w->isVisible());
        // cancelled: the first answer's Discard did not drop what a crash would need
        QCOMPARE(autosavedFor(outer) + autosavedFor(inner), 2);
        answerQuestions(this, {"Discard", "Discard"}, &asked);
        QVERIFY(w->close());
        QCOMPARE(asked.size(), 2);
        QCOMPARE(autosavedFor(outer) + autosavedFor(inner), 0);
        QCOMPARE(readFile(inner.toStdString()), groupFile(10));
    }

    // The presets browser lists the shipped groups; one dropped on the canvas is a group node
    // (one undo step) whose card has the group's ports.
    void aGroupFromThePresetsDropsOnTheCanvas()
    {
        QStringList groups;
        QString forest;
        for (const PresetEntry &e : PresetBrowser::findPresets(builtinRegistry()))
            if (e.group) {
                groups << e.name;
                if (e.path.endsWith("forest_undergrowth.grove.yaml"))
                    forest = e.path;
            }
        groups.sort();
        QCOMPARE(groups, (QStringList{"Forest with undergrowth", "Loot with guards", "Shoreline"}));
        auto w = openWindowOn(m_dir, kIsland);
        Document *d = w->document();
        const std::string before = bytes(d);
        QVERIFY(editActionsOf(w.get())->insertGroup(forest, QPointF(400, 500)));
        const Node *node = d->graph().node("forest_undergrowth");
        QVERIFY(node && node->type == "group");
        // copied beside the graph: the world keeps working when it moves or Grove is upgraded
        QCOMPARE(QString::fromStdString(node->param("graph")->toString()), QString("groups/forest_undergrowth.grove.yaml"));
        QCOMPARE(readFile(m_dir.filePath("groups/forest_undergrowth.grove.yaml").toStdString()), readFile(forest.toStdString()));
        QCOMPARE(d->nodePosition("forest_undergrowth"), QPointF(400, 500));
        QCOMPARE(w->scene()->nodeItem("forest_undergrowth")->portType(true, "area"), std::optional<DataType>(DataType::Mask));
        QCOMPARE(w->scene()->nodeItem("forest_undergrowth")->portType(false, "trees"), std::optional<DataType>(DataType::Points));
        d->undoStack()->undo();
        QCOMPARE(bytes(d), before);
    }

    // View > Presets: the browser's list in a dock (not the modal File > New). What its list puts
    // on a drag, dropped on the canvas, is a group node on a copy in the open graph's groups/:
    // one undo step, and undo gives back the file's bytes.
    void dropFromThePresetsDock()
    {
        auto w = openWindowOn(m_dir, kIsland);
        Document *d = w->document();
        auto *dock = w->findChild<QDockWidget *>("PresetsDock");
        QVERIFY(dock && !dock->isVisible() && !dock->widget());  // nothing rendered until asked for
        action(w.get(), "Presets")->trigger();
        QTRY_VERIFY(dock->isVisible());
        auto *browser = qobject_cast<PresetBrowser *>(dock->widget());
        QVERIFY(browser);
        QVERIFY(browser->isVisible());
        QListWidgetItem *forest = nullptr;
        for (int i = 0; i < browser->list()->count(); ++i)
            if (browser->list()->item(i)->data(Qt::UserRole).toString().endsWith("groups/forest_undergrowth.grove.yaml"))
                forest = browser->list()->item(i);
        QVERIFY(forest);
        QCOMPARE(forest->text(), QString("Forest with undergrowth (group)"));
        std::unique_ptr<QMimeData> mime(browser->list()->model()->mimeData({browser->list()->indexFromItem(forest)}));
        QVERIFY(mime && mime->hasUrls());
        const std::string before = bytes(d);
        const int steps = d->undoStack()->count();
        const QPoint at = w->view()->viewport()->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w->view()->viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(at), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(w->view()->viewport(), &drop);
        QVERIFY(drop.isAccepted());
        const Node *node = d->graph().node("forest_undergrowth");
        QVERIFY(node && node->type == "group");
        const QString param = QString::fromStdString(node->param("graph")->toString());
        QCOMPARE(param, QString("groups/forest_undergrowth.grove.yaml"));
        QCOMPARE(readFile(m_dir.filePath(param).toStdString()), readFile(forest->data(Qt::UserRole).toString().toStdString()));
        QCOMPARE(d->undoStack()->count(), steps + 1);
        QVERIFY(w->scene()->nodeItem("forest_undergrowth"));
        d->undoStack()->undo();
        QCOMPARE(bytes(d), before);
    }

    // A preset group whose name is taken in the graph's groups/ by a different file: the user is
    // asked; Cancel adds nothing, Use Existing keeps that file, Replace writes the preset's over it.
    void aPresetGroupOverADifferentCopyAsks()
    {
        QString loot;
        for (const PresetEntry &e : PresetBrowser::findPresets(builtinRegistry()))
            if (e.group && e.path.endsWith("loot_with_guards.grove.yaml"))
                loot = e.path;
        QVERIFY(!loot.isEmpty());
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("groups"));
        const std::string mine = groupFile(10);
        const QString copy = dir.filePath("groups/loot_with_guards.grove.yaml");
        writeFile(copy.toStdString(), mine);
        auto w = openWindowOn(dir, kIsland);
        Document *d = w->document();
        const int steps = d->undoStack()->count();
        QStringList asked;
        answerQuestions(this, {"Cancel"}, &asked);
        QVERIFY(!editActionsOf(w.get())->insertGroup(loot, QPointF(0, 0)));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains("groups/loot_with_guards.grove.yaml"), qPrintable(asked[0]));
        QCOMPARE(d->undoStack()->count(), steps);
        QVERIFY(!d->graph().node("loot_with_guards"));

        answerQuestions(this, {"Use Existing"}, &asked);
        QVERIFY(editActionsOf(w.get())->insertGroup(loot, QPointF(0, 0)));
        QCOMPARE(readFile(copy.toStdString()), mine);
        QCOMPARE(QString::fromStdString(d->graph().node("loot_with_guards")->param("graph")->toString()),
                 QString("groups/loot_with_guards.grove.yaml"));
        QVERIFY(w->scene()->nodeItem("loot_with_guards")->portType(false, "dots"));  // the file that was there

        answerQuestions(this, {"Replace"}, &asked);
        QVERIFY(editActionsOf(w.get())->insertGroup(loot, QPointF(200, 0)));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(readFile(copy.toStdString()), readFile(loot.toStdString()));
        QCOMPARE(d->undoStack()->count(), steps + 2);
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestEditorGroups>(argc, argv);
}

#include "tst_editor_groups.moc"
