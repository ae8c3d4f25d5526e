// Files a graph reads, in the editor: the Inspector's file picker, and the preview following a
// file changed on disk (a mask repainted and saved elsewhere) without any edit in the editor.
#include "tst_editor_support.h"

#include "document/InputWatcher.h"
#include "inspector/ParamEditors.h"
#include "window/PreviewDock.h"

#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"
#include "core/render/PreviewPipeline.h"

#include <QDir>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QFileSystemWatcher>
#include <QSignalSpy>
#include <QStandardPaths>

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

// The mask as a painting program saves it: a new file renamed over the old one.
void paintMask(const QString &path, int grey)
{
    QImage img(20, 10, QImage::Format_Grayscale8);
    img.fill(grey);
    const QString temp = path + ".saving.png";
    QVERIFY(img.save(temp));
    QVERIFY(::rename(temp.toLocal8Bit().constData(), path.toLocal8Bit().constData()) == 0);
}

const std::string kGraph = "grove: 1\nworld: {width: 200, height: 100, seed: 5}\nnodes:\n"
                           "  mask:\n    type: image\n    params: {path: inputs/mask.png}\n"
                           "  ok:\n    type: allowed_rule\n    inputs: {field: mask}\n    params: {min: 0.5}\n"
                           "  trees:\n    type: place_layer\n    inputs: {allowed: ok}\n    params: {radius: 5, start: patches}\n";

} // namespace

class TestEditorInputs : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thePreviewFollowsARepaintedMask()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("inputs"));
        const QString mask = m_dir.filePath("inputs/mask.png");
        paintMask(mask, 0);  // black: nowhere allowed
        auto w = openWindowOn(m_dir, kGraph);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()), patientMs(30000));
        QCOMPARE(countOf(w->preview()->snapshot(), "trees"), size_t(0));
        QCOMPARE(w->inputWatcher()->files(), QStringList{QFileInfo(mask).absoluteFilePath()});
        const int undoSteps = w->document()->undoStack()->count();

        paintMask(mask, 255);  // white: everywhere
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "trees") > 200, patientMs(15000));
        // the file changed, not the graph: nothing to undo, nothing unsaved
        QCOMPARE(w->document()->undoStack()->count(), undoSteps);
        QVERIFY(w->document()->undoStack()->isClean());

        // a file beside it that the graph does not read changes nothing
        QSignalSpy spy(w->inputWatcher(), &InputWatcher::inputChanged);
        auto *watcher = w->inputWatcher()->findChild<QFileSystemWatcher *>();
        QVERIFY(watcher);
        QSignalSpy folderSeen(watcher, &QFileSystemWatcher::directoryChanged);
        writeFile(m_dir.filePath("inputs/notes.txt").toStdString(), "hello");
        QVERIFY(folderSeen.wait(60000));  // the watcher saw the folder change and judged it
        QVERIFY(!w->inputWatcher()->isSettling());
        QCOMPARE(spy.count(), 0);

        // and back to black, twice in a row (a watch survives each replacement)
        paintMask(mask, 0);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "trees") == 0, patientMs(15000));
        paintMask(mask, 255);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp(w.get()) && countOf(w->preview()->snapshot(), "trees") > 200, patientMs(15000));
    }

    // Saved into another folder (a preset saved into a project), the graph still finds its files:
    // their paths are rewritten relative to the new folder, and the saved file evaluates.
    void saveAsElsewhereKeepsItsInputs()
    {
        QVERIFY(QDir(m_dir.path()).mkpath("inputs"));
        QVERIFY(QDir(m_dir.path()).mkpath("project/maps"));
        const QString mask = m_dir.filePath("inputs/mask.png");
        paintMask(mask, 255);
        auto w = openWindowOn(m_dir, kGraph);
        const QString target = m_dir.filePath("project/maps/valley.grove.yaml");
        QVERIFY(!w->document()->save(target));
        const std::string saved = readFile(target.toStdString());
        QVERIFY2(saved.find("path: \"../../inputs/mask.png\"") != std::string::npos, saved.c_str());
        LoadResult again = loadGraphFile(target.toStdString(), registry());
        QVERIFY(again.ok());
        Evaluator ev(registry());
        EvalResult r = ev.evaluate(again.graph);
        QVERIFY(r.ok());
        QVERIFY(layersOf(r, {"trees"}).front()->points.size() > 200);
        // the open document now lives there too: its preview still finds the mask
        QCOMPARE(w->inputWatcher()->files(), QStringList{QFileInfo(mask).absoluteFilePath()});
        QVERIFY(w->document()->undoStack()->isClean());
    }

    void aPathParamHasAFilePicker()
    {
        const NodeDescriptor *image = registry().find("image");
        QVERIFY(image);
        const ParamSpec *path = image->param("path");
        QVERIFY(path && path->role == ParamRole::FilePath);
        std::unique_ptr<ParamEditor> editor(ParamEditor::create(*path, nullptr, m_dir.path()));
        const auto buttons = editor->findChildren<QPushButton *>();
        QCOMPARE(buttons.size(), 1);
        QCOMPARE(buttons.front()->text(), QString("Choose…"));
        // typing a path still works, and is what is stored
        std::vector<std::string> edited;
        connect(editor.get(), &ParamEditor::edited, this, [&](const Value &v) { edited.push_back(v.toString()); });
        auto *line = editor->findChild<QLineEdit *>();
        QVERIFY(line);
        line->setText("inputs/other.png");
        emit line->editingFinished();
        QCOMPARE(edited, std::vector<std::string>{"inputs/other.png"});
    }
};

int main(int argc, char **argv)
{
    return grove::test::runEditorSuite<TestEditorInputs>(argc, argv);
}

#include "tst_editor_inputs.moc"
