// The preview's layer table and overlays as a designer reads them: names follow renames, the
// clearing circle and old error text never outlive what they describe, the overlay is opt-in,
// the widest clearing stays inside the layer's allowed area, an empty layer says why.
#include "tst_editor_support.h"

#include "document/Document.h"
#include "window/MainWindow.h"
#include "document/NodeCommands.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"
#include "handedit/HandEditTools.h"
#include "canvas/GraphScene.h"
#include "preview/PreviewView.h"
#include "window/ProblemsPanel.h"
#include "document/ValueCommands.h"

#include "core/graph/GraphReader.h"

#include <QAbstractButton>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QUndoStack>

using namespace grove;
using namespace grove::test;

namespace {

QStringList tableNames(MainWindow *w)
{
    QStringList names;
    QTreeWidget *table = w->previewDock()->layerTable();
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        names << table->topLevelItem(i)->text(0);
    return names;
}

QTreeWidgetItem *row(MainWindow *w, const QString &name)
{
    QTreeWidget *table = w->previewDock()->layerTable();
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        if (table->topLevelItem(i)->text(0) == name)
            return table->topLevelItem(i);
    return nullptr;
}

QLabel *previewStatus(MainWindow *w)
{
    return w->previewDock()->findChild<QLabel *>("previewStatus");
}

const PreviewLayer *layerOf(MainWindow *w, const std::string &id)
{
    for (const PreviewLayer &l : w->preview()->snapshot()->layers)
        if (l.nodeId == id)
            return &l;
    return nullptr;
}

} // namespace

class TestPreviewLayers : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> openWindow(const std::string &text) { return openWindowOn(m_dir, text); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Renaming trees to rees renames its row (the export says rees too).
    void renamedLayerIsRenamedInTheTable()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(tableNames(w.get()), (QStringList{"chests", "rocks", "trees", "flowers"}));
        w->selectNode("trees");
        Document *doc = w->document();
        doc->undoStack()->push(new RenameNodeCommand(doc, "trees", "rees"));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(tableNames(w.get()), (QStringList{"chests", "rocks", "rees", "flowers"}));
        QTreeWidgetItem *rees = row(w.get(), "rees");
        QVERIFY(rees);
        QCOMPARE(rees->data(0, Qt::UserRole).toString(), QString("rees"));
        // The renamed node is still the selected one: its row is current and its clearing drawn.
        QCOMPARE(w->previewDock()->layerTable()->currentItem(), rees);
        QVERIFY(w->previewDock()->view()->hasCircle());
        // A hidden layer stays hidden under its new name.
        rees->setCheckState(0, Qt::Unchecked);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        doc->undoStack()->push(new RenameNodeCommand(doc, "rees", "trees"));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(row(w.get(), "trees")->checkState(0), Qt::Unchecked);
    }

    // A click on a layer's row selects its node (the Inspector shows it, the hand-edit tools come
    // on); the arrow keys walk the rows and the selection with them.
    void aLayerRowPicksItsNode()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        w->selectNode("");
        HandEditTools *tools = w->previewDock()->tools();
        QVERIFY(!tools->toolsEnabled());
        QTreeWidget *table = w->previewDock()->layerTable();
        const QRect rocks = table->visualItemRect(row(w.get(), "rocks"));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(rocks.center().x() + 40, rocks.center().y()));
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"rocks"});
        QVERIFY(tools->toolsEnabled());
        QVERIFY(w->previewDock()->view()->hasCircle());
        QTest::keyClick(table, Qt::Key_Down);
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"trees"});
        QCOMPARE(table->currentItem(), row(w.get(), "trees"));
        // selected on the canvas, the row follows and nothing is chosen back
        w->selectNode("chests");
        QCOMPARE(table->currentItem(), row(w.get(), "chests"));
        QCOMPARE(w->scene()->selectedNodeIds(), std::vector<std::string>{"chests"});
        QCOMPARE(w->document()->undoStack()->count(), 0);
    }

    // The dashed clearing circle belongs to the selected layer only.
    void clearingCircleGoesWithTheSelection()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        w->selectNode("trees");
        QVERIFY(w->previewDock()->view()->hasCircle());
        w->selectNode("height");
        QVERIFY(!w->previewDock()->view()->hasCircle());
        QVERIFY(!w->previewDock()->layerTable()->currentItem());
        w->selectNode("rocks");
        QVERIFY(w->previewDock()->view()->hasCircle());
        w->selectNode("");
        QVERIFY(!w->previewDock()->view()->hasCircle());
        // A new snapshot does not bring a deselected layer's circle back.
        setParam(w->document(), "flowers", "radius", Value(7.0));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(!w->previewDock()->view()->hasCircle());
        // The column says what the circle's number is (the same words as check's `clearing`).
        const QString header = w->previewDock()->layerTable()->headerItem()->text(4);
        QVERIFY2(header.contains("diameter"), qPrintable(header));
    }

    // The previous run's error text goes as soon as a new run starts.
    void oldErrorTextGoesWhileANewRunIsGoing()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        setParam(w->document(), "flowers", "radius", Value(0.05));  // over the point budget
        QTRY_VERIFY_WITH_TIMEOUT(previewStatus(w.get())->isVisible() && !w->preview()->isRunning(), patientMs(30000));
        bool sawStale = false;
        connect(w->preview(), &PreviewController::progress, this, [&] {
            sawStale |= previewStatus(w.get())->isVisible() && previewStatus(w.get())->text().contains("limit");
        });
        setParam(w->document(), "flowers", "radius", Value(3.0));  // valid again
        QTRY_VERIFY_WITH_TIMEOUT(w->preview()->isRunning(), patientMs(30000));
        QVERIFY2(!previewStatus(w.get())->isVisible() || !previewStatus(w.get())->text().contains("limit"),
                 qPrintable(previewStatus(w.get())->text()));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(60000));
        QVERIFY(!sawStale);
    }

    // The overlay is a visible toggle, off by default; a noise node selected
    // does not cover the map until the designer asks for it.
    void overlayIsAVisibleToggleOffByDefault()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        auto *toggle = w->previewDock()->findChild<QAbstractButton *>("overlayToggle");
        QVERIFY(toggle);
        QVERIFY(toggle->isVisible());
        QVERIFY(toggle->isCheckable());
        QVERIFY(!toggle->isChecked());
        QVERIFY(!w->preview()->overlayEnabled());
        w->selectNode("height");
        QCoreApplication::processEvents();
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(w->preview()->snapshot()->overlay.isNull());
        QVERIFY(!w->previewDock()->view()->hasOverlay());
        toggle->click();
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && !w->preview()->snapshot()->overlay.isNull(), patientMs(30000));
        QVERIFY(w->previewDock()->view()->hasOverlay());
        toggle->click();
        QVERIFY(!w->previewDock()->view()->hasOverlay());
    }

    // The widest clearing lies in the layer's allowed area, never in the sea.
    void widestClearingLiesInTheAllowedArea()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        const EvalResult &result = w->preview()->snapshot()->result;
        for (const char *id : {"chests", "rocks", "trees", "flowers"}) {
            const PreviewLayer *layer = layerOf(w.get(), id);
            QVERIFY(layer && layer->stats.count > 0);
            const Node *node = w->document()->graph().node(id);
            const PortValue allowed = result.output(node->input("allowed")->node);
            const auto *mask = std::get_if<MaskPtr>(&allowed);
            QVERIFY(mask && *mask);
            const LayerStats &s = layer->stats;
            QVERIFY2((*mask)->at(s.clearingX, s.clearingY),
                     qPrintable(QString("%1: %2, %3").arg(id).arg(s.clearingX).arg(s.clearingY)));
            // The whole circle is allowed ground (to within a raster cell of its rim).
            const double r = s.clearingDiameter / 2 - 1.5;
            for (int a = 0; a < 32; ++a) {
                const double x = s.clearingX + r * std::cos(a * M_PI / 16), y = s.clearingY + r * std::sin(a * M_PI / 16);
                if (x >= 0 && y >= 0 && x < 880 && y < 480)
                    QVERIFY2((*mask)->at(x, y), qPrintable(QString("%1: rim at %2, %3").arg(id).arg(x).arg(y)));
            }
            QVERIFY(s.clearingDiameter > 0 && s.clearingDiameter < 400);
        }
    }

    // Trees at radius 84 come out empty, and the table and Problems say why.
    void emptyLayerSaysWhy()
    {
        auto w = openWindow(kIsland);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(row(w.get(), "trees")->toolTip(0).isEmpty() || !row(w.get(), "trees")->toolTip(0).contains("0 points"));
        setParam(w->document(), "trees", "radius", Value(84.0));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(layerOf(w.get(), "trees")->stats.count, size_t(0));
        const QString why = QString::fromStdString(layerOf(w.get(), "trees")->stats.why);
        QVERIFY2(why.contains("within 34 of") && why.contains("rocks") && why.contains("obstacles"), qPrintable(why));
        QTreeWidgetItem *trees = row(w.get(), "trees");
        QVERIFY(trees->text(trees->columnCount() - 1).contains("within 34 of"));
        auto *problems = w->findChild<ProblemsPanel *>();
        QVERIFY(problems);
        QVERIFY(!problems->findItems("trees: 0 points: every candidate", Qt::MatchContains).isEmpty());

        // An allowed area with nothing in it says so.
        setParam(w->document(), "trees", "radius", Value(11.0));
        setParam(w->document(), "forest", "min", Value(2.0));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(layerOf(w.get(), "trees")->stats.count, size_t(0));
        QVERIFY2(layerOf(w.get(), "trees")->stats.why.find("allowed area is empty") != std::string::npos,
                 layerOf(w.get(), "trees")->stats.why.c_str());
        // A healthy layer says nothing, and a fixed layer's note leaves Problems.
        QVERIFY(layerOf(w.get(), "rocks")->stats.why.empty());
        setParam(w->document(), "forest", "min", Value(0.52));
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QVERIFY(layerOf(w.get(), "trees")->stats.why.empty());
        QVERIFY(problems->findItems("trees: 0 points", Qt::MatchContains).isEmpty());
    }

    // Problems' lines are those of the file on disk (as grove-cli validate
    // gives them); a problem an unsaved edit made says "unsaved" rather than a line that does
    // not show it, and gets its line once saved.
    void problemLinesAreTheFilesOnDisk()
    {
        std::string text = kIsland;
        text.replace(text.find("      allowed: forest"), 21, "      allowed: woods");  // a missing node
        QString path;
        auto w = openWindowOn(m_dir, text, &path);
        Document *doc = w->document();
        auto *panel = w->findChild<ProblemsPanel *>();
        const Diagnostics onDisk = loadGraphFile(path.toStdString(), registry()).diagnostics;
        QCOMPARE(onDisk.size(), size_t(1));
        const QString line = QString("%1:%2").arg(onDisk[0].line).arg(onDisk[0].column);
        QVERIFY(!panel->findItems(line + "  trees: input 'allowed'", Qt::MatchStartsWith).isEmpty());
        // An unrelated unsaved edit: the disk's problem keeps the disk's line.
        setParam(doc, "flowers", "radius", Value(7.0));
        QTRY_VERIFY(doc->problems().size() == 1 && doc->problems()[0].line == onDisk[0].line);
        QVERIFY(!panel->findItems(line + "  trees: input 'allowed'", Qt::MatchStartsWith).isEmpty());
        // An unsaved edit makes a new problem: no line from a file that does not have it.
        setParam(doc, "rocks", "radius", Value(-5.0));
        QTRY_VERIFY(doc->problems().size() == 2);
        const QList<QListWidgetItem *> radius = panel->findItems("rocks: param 'radius'", Qt::MatchContains);
        QCOMPARE(radius.size(), 1);
        QVERIFY2(radius[0]->text().startsWith("unsaved"), qPrintable(radius[0]->text()));
        // Saved: every line is the new file's, as grove-cli reads it.
        QVERIFY(!doc->save(path));
        const Diagnostics saved = loadGraphFile(path.toStdString(), registry()).diagnostics;
        QCOMPARE(saved.size(), size_t(2));
        for (const Diagnostic &d : saved)
            QVERIFY2(!panel->findItems(QString("%1:%2  %3").arg(d.line).arg(d.column).arg(QString::fromStdString(d.nodeId)),
                                       Qt::MatchStartsWith).isEmpty(),
                     d.format().c_str());
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestPreviewLayers>(argc, argv);
}

#include "tst_preview_layers.moc"
