// The editor and its files: saving and opening again, a file's problems at their lines, the World
// panel's edits of the graph's own fields.
#include "tst_editor_support.h"

#include "document/Document.h"
#include "document/NodeCommands.h"
#include "document/ValueCommands.h"
#include "window/MainWindow.h"
#include "window/ProblemsPanel.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QPointer>
#include <QTabBar>
#include <QTabWidget>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>

using namespace grove;
using namespace grove::test;

namespace {

// A hand-written graph with a misspelt param and a link to a misspelt node.
const std::string kBroken = R"yaml(grove: 1
world: {width: 100, height: 100, seed: 1}
nodes:
  height:
    type: value_noise
    params: {frequnecy: 0.01}
  land:
    type: allowed_rule
    inputs: {field: hieght}
)yaml";

} // namespace

class TestEditorFiles : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    const std::string m_original = kIsland;

    std::unique_ptr<MainWindow> openWindow(QString *path = nullptr) { return openWindowOn(m_dir, m_original, path); }

private slots:
    // Save writes the canonical text, clears the modified mark, and opening it again gives the same graph.
    void saveAndOpenRoundTrip()
    {
        QString path;
        auto w = openWindow(&path);
        Document *doc = w->document();
        QCOMPARE(w->windowTitle(), QFileInfo(path).fileName() + "[*] — Grove");
        QVERIFY(!w->isWindowModified());
        QCOMPARE(w->applyOverride("chests.radius=120"), QString());
        QCOMPARE(w->applyOverride("chests.radius=-1").isEmpty(), false);
        QVERIFY(w->isWindowModified());
        QCOMPARE(readFile(path.toStdString()), m_original);  // nothing written yet
        action(w.get(), "&Save")->trigger();
        QVERIFY(!w->isWindowModified());
        const std::string saved = readFile(path.toStdString());
        QCOMPARE(saved, bytes(doc));
        QVERIFY(nodeBlock(saved, "chests").find("      radius: 120\n") != std::string::npos);

        MainWindow other(registry());
        QVERIFY(other.openFile(path));
        QCOMPARE(bytes(other.document()), saved);
        QVERIFY(other.document()->graph() == doc->graph());
    }

    // A file with errors opens with the loader's problems at their line:col (as grove-cli validate
    // gives them); an edit that fixes one drops it, the file's own (an unknown param) stays until saved.
    void problemsOfAFileKeepTheirLines()
    {
        QString path;
        auto w = openWindowOn(m_dir, kBroken, &path);
        Document *doc = w->document();
        auto rows = [&w] {
            QStringList texts;
            for (int i = 0; i < w->findChild<ProblemsPanel *>()->count(); ++i)
                texts << w->findChild<ProblemsPanel *>()->item(i)->text();
            return texts;
        };
        const QString unknownParam = "6:25  height: unknown param 'frequnecy' for value_noise; did you mean 'frequency'?";
        const QString badLink = "9:21  land: input 'field' links to missing node 'hieght'; did you mean 'height'?";
        QCOMPARE(rows(), (QStringList{unknownParam, badLink}));
        QCOMPARE(QString::fromStdString(doc->problems().back().format()),
                 path + ":9:21: error: input 'field' links to missing node 'hieght'; did you mean 'height'? "
                        "(at nodes.land.inputs.field)");

        doc->undoStack()->push(new SetInputCommand(doc, "land", "field", Link{"height", ""}));
        QTRY_COMPARE(rows(), QStringList{unknownParam});
        doc->undoStack()->undo();
        QTRY_COMPARE(rows(), (QStringList{unknownParam, badLink}));

        // Saved, the unknown param (dropped on load) is gone and the link's problem is at its new line.
        action(w.get(), "&Save")->trigger();
        QCOMPARE(rows(), QStringList{"12:14  land: input 'field' links to missing node 'hieght'; did you mean 'height'?"});
        QCOMPARE(QString::fromStdString(readFile(path.toStdString())).split('\n').value(11), QString("      field: hieght"));
    }

    // File > Open: a file gets a tab of its own (the first tab keeps its edits, unasked), a file
    // open already comes forward, one that cannot be read is explained and takes no tab.
    void fileOpenGivesAFileATabOfItsOwn()
    {
        QString first;
        auto w = openWindow(&first);
        QCOMPARE(w->tabCount(), 1);
        QCOMPARE(w->applyOverride("chests.radius=120"), QString());
        const QString second = m_dir.filePath("second.grove.yaml");
        writeFile(second.toStdString(), m_original);
        QVERIFY(w->openInTab(second));
        QCOMPARE(w->tabCount(), 2);
        QCOMPARE(w->currentTab(), 1);
        QCOMPARE(w->document()->filePath(), second);
        QVERIFY(!w->document()->isModified());
        w->setCurrentTab(0);
        QCOMPARE(w->document()->filePath(), first);
        QVERIFY(w->document()->isModified());
        QVERIFY(w->openInTab(second));
        QCOMPARE(w->tabCount(), 2);
        QCOMPARE(w->currentTab(), 1);
        // the front tab's own file, opened again, is where it is: no second, empty tab
        bool cameForward = false;
        QVERIFY(w->openInTab(second, &cameForward));
        QVERIFY(cameForward);
        QCOMPARE(w->tabCount(), 2);
        QCOMPARE(w->currentTab(), 1);
        QCOMPARE(w->document()->filePath(), second);
        QStringList asked;
        answerQuestions(w.get(), {"OK"}, &asked);
        QVERIFY(!w->openInTab(m_dir.filePath("missing.grove.yaml")));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains("missing.grove.yaml"), qPrintable(asked[0]));
        QCOMPARE(w->tabCount(), 2);
        QCOMPARE(w->currentTab(), 1);
        // the editor's first tab, untitled and untouched, takes the first file opened
        MainWindow fresh(registry());
        QVERIFY(fresh.openInTab(second));
        QCOMPARE(fresh.tabCount(), 1);
    }

    // A tab's right-click menu: Copy Path puts its file's path on the clipboard; Close Others asks
    // about each modified tab (Cancel keeps them all) and closes every other tab.
    void theTabMenuCopiesThePathAndClosesTheOthers()
    {
        auto w = openWindow();
        QStringList paths;
        for (const char *name : {"menu_b.grove.yaml", "menu_c.grove.yaml"}) {
            paths << m_dir.filePath(name);
            writeFile(paths.back().toStdString(), m_original);
            QVERIFY(w->openInTab(paths.back()));
        }
        QCOMPARE(w->applyOverride("chests.radius=120"), QString());  // the third tab, modified
        QCOMPARE(w->tabCount(), 3);
        auto *bar = w->findChild<QTabWidget *>("graphTabs")->tabBar();
        // the menu as a right click pops it up; closed (deleted later, after the action ran), as a
        // click on an item closes it
        auto menuAction = [bar](int tab, const char *name) {
            const QPoint at = bar->tabRect(tab).center();
            QContextMenuEvent event(QContextMenuEvent::Mouse, at, bar->mapToGlobal(at));
            QApplication::sendEvent(bar, &event);
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            QPointer<QAction> a = menu ? menu->findChild<QAction *>(name) : nullptr;
            if (menu)
                menu->close();
            return a;
        };
        QAction *copy = menuAction(1, "tabCopyPath");
        QVERIFY(copy && copy->isEnabled());
        copy->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QDir::toNativeSeparators(QFileInfo(paths[0]).absoluteFilePath()));
        QStringList asked;
        answerQuestions(w.get(), {"Cancel"}, &asked);
        menuAction(1, "tabCloseOthers")->trigger();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(w->tabCount(), 3);
        answerQuestions(w.get(), {"Discard"}, &asked);
        menuAction(1, "tabCloseOthers")->trigger();
        QCOMPARE(w->tabCount(), 1);
        QCOMPARE(w->document()->filePath(), paths[0]);
        QVERIFY(!menuAction(0, "tabCloseOthers")->isEnabled());  // the last tab stays
    }

    // Undo after a Save As into another folder: the file paths the undone edits bring back reach
    // the same files from the new folder, as the paths Save As rewrote do.
    void undoAfterSaveAsKeepsFilePathsReachingTheirFiles()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("project/masks") && QDir(m_dir.path()).mkpath("elsewhere"));
        for (const char *name : {"a.png", "b.png"}) {
            QImage mask(4, 4, QImage::Format_Grayscale8);
            mask.fill(128);
            QVERIFY(mask.save(m_dir.filePath(QString("project/masks/") + name)));
        }
        const QString path = m_dir.filePath("project/masks.grove.yaml");
        writeFile(path.toStdString(), "grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n"
                                      "  one: {type: image, params: {path: masks/a.png}}\n"
                                      "  two: {type: image, params: {path: masks/a.png}}\n");
        MainWindow w(registry());
        QVERIFY(w.openFile(path));
        Document *d = w.document();
        d->undoStack()->push(new DeleteNodesCommand(d, {"two"}));
        setParam(d, "one", "path", Value("masks/b.png"));
        QCOMPARE(d->save(m_dir.filePath("elsewhere/masks.grove.yaml")), std::nullopt);
        auto pathOf = [d](const char *node) { return d->graph().node(node)->param("path")->toString(); };
        QCOMPARE(pathOf("one"), std::string("../project/masks/b.png"));
        d->undoStack()->undo();
        QCOMPARE(pathOf("one"), std::string("../project/masks/a.png"));
        d->undoStack()->undo();
        QCOMPARE(pathOf("two"), std::string("../project/masks/a.png"));
        d->undoStack()->redo();
        d->undoStack()->redo();
        QCOMPARE(pathOf("one"), std::string("../project/masks/b.png"));
        QVERIFY(QFileInfo::exists(m_dir.filePath("elsewhere/" + QString::fromStdString(pathOf("one")))));
    }

    // Save on a new graph offers the graph's own name as the file's ("Loot and camps":
    // loot_and_camps.grove.yaml), as Save as Preset does; it offered "untitled" for every one.
    void saveOffersTheGraphsName()
    {
        MainWindow w(registry());
        w.show();
        Diagnostics diagnostics;
        QVERIFY(w.document()->loadAsNew(GROVE_SOURCE_DIR "/presets/loot_and_camps.grove.yaml", &diagnostics));
        QVERIFY(w.document()->filePath().isEmpty());
        QString offered;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                offered = dialog->selectedFiles().value(0);
                dialog->reject();
            }
        });
        answer.start(20);
        action(&w, "&Save")->trigger();
        QVERIFY(w.document()->filePath().isEmpty());  // the dialog turned down: nothing saved
        QCOMPARE(QFileInfo(offered).fileName(), QString("loot_and_camps.grove.yaml"));
        QVERIFY2(QFileInfo(offered).absolutePath() != "/", qPrintable(offered));  // never the root folder
    }

    // The World panel edits the graph's name, notes and world through undoable commands.
    void worldPanelEditsAreUndoable()
    {
        auto w = openWindow();
        Document *doc = w->document();
        auto *seed = w->findChild<QLineEdit *>("worldSeed");
        auto *width = w->findChild<QLineEdit *>("worldWidth");
        auto *name = w->findChild<QLineEdit *>("worldName");
        QVERIFY(seed && width && name);
        QCOMPARE(seed->text(), QString("123456"));
        QCOMPARE(width->text(), QString("880"));
        QCOMPARE(name->text(), QString("Island world"));

        seed->setText("42");
        emit seed->editingFinished();
        QVERIFY(bytes(doc).find("world:\n  width: 880\n  height: 480\n  seed: 42\n") != std::string::npos);
        width->setText("1024");
        emit width->editingFinished();
        QVERIFY(bytes(doc).find("  width: 1024\n") != std::string::npos);
        name->setText("Archipelago");
        emit name->editingFinished();
        QVERIFY(bytes(doc).find("name: Archipelago\n") != std::string::npos);
        QCOMPARE(doc->undoStack()->count(), 3);
        QCOMPARE(doc->undoStack()->text(0), QString("Change world seed"));

        for (int i = 0; i < 3; ++i)
            doc->undoStack()->undo();
        QCOMPARE(bytes(doc), m_original);
        QCOMPARE(seed->text(), QString("123456"));  // the panel follows undo
        QCOMPARE(name->text(), QString("Island world"));
    }
};

int main(int argc, char **argv)
{
    return runEditorSuite<TestEditorFiles>(argc, argv);
}

#include "tst_editor_files.moc"
