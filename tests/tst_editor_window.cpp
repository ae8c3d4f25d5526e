// The editor window as a designer meets it: what the status bar and the cursor say, File › New's
// first choice, the export dialog's end.
#include "tst_editor_support.h"

#include "core/PreviewPipeline.h"

#include "ExportDialog.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "NodeItem.h"
#include "PresetBrowser.h"
#include "PreviewController.h"
#include "WireItem.h"

#include <QApplication>
#include <QGraphicsSimpleTextItem>
#include <QListWidget>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace grove;
using namespace grove::test;

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
        QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
        QVERIFY(!ok);
        QVERIFY(alive && dialog->isVisible());

        done = false;
        dialog->setDestination(m_dir.filePath("island.json"));
        dialog->start();
        QTRY_VERIFY_WITH_TIMEOUT(done, 60000);
        QVERIFY(ok);
        QVERIFY(QFileInfo::exists(m_dir.filePath("island.json")));
        QTRY_VERIFY(!alive || !alive->isVisible());
        QVERIFY(w->statusBar()->currentMessage().startsWith("Wrote 1 file(s) to "));
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
};

int main(int argc, char **argv)
{
    // Private settings and data folders, under a test organisation: never the user's layout.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", (home.path() + "/config").toUtf8());
    qputenv("XDG_DATA_HOME", (home.path() + "/data").toUtf8());
    qputenv("GROVE_AUTOSAVE_MS", "3600000");
    QApplication app(argc, argv);
    QApplication::setOrganizationName("GroveWindowTest");
    QApplication::setApplicationName("GroveWindowTest");
    TestEditorWindow test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_editor_window.moc"
