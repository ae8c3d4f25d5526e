// Crash recovery: the real `grove` autosaves, is killed with SIGKILL, and the next start offers
// (or, with --recover, restores) the unsaved graph; saving or discarding clears it.
#include "tst_editor_support.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "window/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMessageBox>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>

#include <csignal>
#include <sys/types.h>

using namespace grove;
using namespace grove::test;

namespace {

QStringList recoveryFiles()
{
    return QDir(Autosave::folder()).entryList(QDir::Files, QDir::Name);
}

} // namespace

class TestEditorRecovery : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_original;
    std::string m_edited;  // the preset with chests.radius=99, as the editor saves it
    QString m_file;

    // Answers the next modal question by clicking `button`, remembering what it asked.
    void answerNextQuestion(const QString &button)
    {
        m_asked.clear();
        answerQuestions(this, {button}, &m_asked);
    }
    QStringList m_asked;
    QString question() const { return m_asked.isEmpty() ? QString() : m_asked.constLast(); }

    QProcessEnvironment editorEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("GROVE_AUTOSAVE_MS", "300");
        env.insert("QT_QPA_PLATFORM", "offscreen");
        return env;  // XDG_CONFIG_HOME and XDG_DATA_HOME are this process's private ones
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_original = kIsland;
        LoadResult loaded = load(m_original);
        QCOMPARE(applyOverrideText(loaded.graph, "chests.radius=99"), std::string());
        m_edited = saveGraphToString(loaded.graph, registry());
        QVERIFY(m_edited != m_original);
        QVERIFY(Autosave::folder().startsWith(qEnvironmentVariable("XDG_DATA_HOME")));
    }

    void init()
    {
        QDir(Autosave::folder()).removeRecursively();
        m_file = m_dir.filePath("island.grove.yaml");
        writeFile(m_file.toStdString(), m_original);
    }

    void killedEditorIsRecovered()
    {
        QProcess first;
        first.setProcessEnvironment(editorEnvironment());
        first.start(GROVE_EDITOR, {"--set", "chests.radius=99", m_file});
        QVERIFY(first.waitForStarted());
        // The autosave lands in the data folder, with exactly the edited graph's text.
        QTRY_VERIFY_WITH_TIMEOUT(recoveryFiles().filter(".grove.yaml").size() == 1, patientMs(120000));
        const QStringList files = recoveryFiles();
        QCOMPARE(files.size(), 2);  // the graph and the note of whose it is
        const QString recovery = Autosave::folder() + "/" + files.filter(".grove.yaml").value(0);
        QTRY_COMPARE_WITH_TIMEOUT(readFile(recovery.toStdString()), m_edited, patientMs(60000));

        QCOMPARE(::kill(static_cast<pid_t>(first.processId()), SIGKILL), 0);
        QVERIFY(first.waitForFinished(60000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        // The user's file is untouched and nothing was written beside it.
        QCOMPARE(readFile(m_file.toStdString()), m_original);
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"island.grove.yaml"});
        QCOMPARE(recoveryFiles(), files);

        // Started again with --recover, it restores without asking and says so.
        QProcess second;
        second.setProcessEnvironment(editorEnvironment());
        second.start(GROVE_EDITOR, {"--recover", m_file});
        QVERIFY(second.waitForStarted());
        QByteArray said;
        QTRY_VERIFY_WITH_TIMEOUT((said += second.readAllStandardError()).contains("grove: Recovered unsaved changes to "
                                                                                   "island.grove.yaml"),
                                 patientMs(120000));
        ::kill(static_cast<pid_t>(second.processId()), SIGKILL);
        second.waitForFinished(60000);
        QCOMPARE(readFile(m_file.toStdString()), m_original);
        QCOMPARE(readFile(recovery.toStdString()), m_edited);

        // Started without the flag (here in-process, same folders), it asks; Recover restores the
        // edited graph as unsaved changes on top of the file, which undo gets back.
        MainWindow w(registry());
        QVERIFY(w.openFile(m_file));
        answerNextQuestion("Recover");
        const QString message = w.offerRecovery(MainWindow::Recovery::Ask);
        QVERIFY2(question().contains("Grove closed without saving changes to island.grove.yaml"), qPrintable(question()));
        QVERIFY(message.startsWith("Recovered unsaved changes to island.grove.yaml"));
        QCOMPARE(bytes(w.document()), m_edited);
        QVERIFY(w.isWindowModified());
        QCOMPARE(w.document()->filePath(), m_file);
        w.document()->undoStack()->undo();
        QCOMPARE(bytes(w.document()), m_original);
        w.document()->undoStack()->redo();

        // A clean save clears the recovery.
        action(&w, "&Save")->trigger();
        QCOMPARE(readFile(m_file.toStdString()), m_edited);
        QCOMPARE(recoveryFiles(), QStringList());
    }

    // With the default settings an edit is saved after three quiet seconds (on a clock the test
    // moves), and the real editor with its shipped delay autosaves an edit that a kill -9 then
    // does not lose.
    void editIsAutosavedSecondsAfterIt()
    {
        {
            const QByteArray suiteDelay = qgetenv("GROVE_AUTOSAVE_MS");
            qunsetenv("GROVE_AUTOSAVE_MS");  // the shipped delay
            MainWindow w(registry());
            qputenv("GROVE_AUTOSAVE_MS", suiteDelay);
            QVERIFY(w.openFile(m_file));
            ManualClock clock;
            w.autosave()->setClock(&clock);
            int saves = 0;
            connect(w.autosave(), &Autosave::saved, this, [&saves] { ++saves; });
            QCOMPARE(w.applyOverride("chests.radius=99"), QString());
            clock.advance(2999);
            QCOMPARE(saves, 0);  // not before the edit had its quiet moment
            clock.advance(1);
            QCOMPARE(saves, 1);
            w.autosave()->discard();
        }
        QProcessEnvironment env = editorEnvironment();
        env.remove("GROVE_AUTOSAVE_MS");
        QProcess first;
        first.setProcessEnvironment(env);
        first.start(GROVE_EDITOR, {"--set", "chests.radius=99", m_file});
        QVERIFY(first.waitForStarted());
        // generous bounds: they wait for the save, they do not time it
        QTRY_VERIFY_WITH_TIMEOUT(recoveryFiles().filter(".grove.yaml").size() == 1, patientMs(120000));
        const QString recovery = Autosave::folder() + "/" + recoveryFiles().filter(".grove.yaml").value(0);
        QTRY_COMPARE_WITH_TIMEOUT(readFile(recovery.toStdString()), m_edited, patientMs(60000));
        QCOMPARE(::kill(static_cast<pid_t>(first.processId()), SIGKILL), 0);
        QVERIFY(first.waitForFinished(60000));
        QCOMPARE(readFile(m_file.toStdString()), m_original);

        MainWindow w(registry());
        QVERIFY(w.openFile(m_file));
        QVERIFY(w.offerRecovery(MainWindow::Recovery::Accept).startsWith("Recovered unsaved changes to island.grove.yaml"));
        QCOMPARE(bytes(w.document()), m_edited);
    }

    // Saves come a quiet moment after the last edit; a steady stream of edits still saves at the
    // longest delay, so a crash in the middle of a long slider drag loses little. The delays count
    // on a clock the test moves.
    void autosaveWaitsForAQuietMomentButNotForever()
    {
        MainWindow w(registry());
        QVERIFY(w.openFile(m_file));
        ManualClock clock;
        w.autosave()->setClock(&clock);
        w.autosave()->setDelays(300, 900);
        int saves = 0;
        connect(w.autosave(), &Autosave::saved, this, [&saves] { ++saves; });
        QCOMPARE(w.applyOverride("chests.radius=99"), QString());
        clock.advance(299);
        QCOMPARE(saves, 0);  // still typing, perhaps
        clock.advance(1);
        QCOMPARE(saves, 1);
        QCOMPARE(readFile(w.autosave()->currentRecoveryPath().toStdString()), m_edited);

        // A second edit before the quiet time is up: still typing, so no save 1.3 s after the
        // first edit (a fixed 1 s clock would have saved by then); then one, 1 s after the second.
        w.autosave()->setDelays(1000, 10000);
        QCOMPARE(w.applyOverride("chests.radius=98"), QString());
        clock.advance(700);
        QCOMPARE(w.applyOverride("chests.radius=97"), QString());
        clock.advance(600);
        QCOMPARE(saves, 1);
        clock.advance(399);
        QCOMPARE(saves, 1);
        clock.advance(1);
        QCOMPARE(saves, 2);
        w.autosave()->setDelays(300, 900);

        // Edits every 100 ms for three seconds never leave 300 ms of quiet, yet are saved at the
        // longest delay: 900, 1800 and 2700 ms in.
        const int before = saves;
        for (int i = 0; i < 30; ++i) {
            QCOMPARE(w.applyOverride(QString("rocks.radius=%1").arg(30 + i % 7)), QString());
            clock.advance(100);
        }
        QCOMPARE(saves - before, 3);
    }

    // Autosave in-process: only with unsaved changes, only when they changed, never beside the file.
    void autosaveWritesOnlyUnsavedChanges()
    {
        MainWindow w(registry());
        QVERIFY(w.openFile(m_file));
        QVERIFY(!w.autosave()->saveNow());  // nothing unsaved
        QCOMPARE(recoveryFiles(), QStringList());
        QCOMPARE(w.applyOverride("chests.radius=99"), QString());
        QVERIFY(w.autosave()->saveNow());
        QVERIFY(!w.autosave()->saveNow());  // unchanged since
        QCOMPARE(readFile(w.autosave()->currentRecoveryPath().toStdString()), m_edited);
        // Undo back to the saved state: nothing left to recover.
        w.document()->undoStack()->undo();
        QCOMPARE(recoveryFiles(), QStringList());
    }

    // Closing with unsaved changes and choosing Discard leaves nothing to recover.
    void closeDiscardingClearsRecovery()
    {
        MainWindow w(registry());
        w.show();
        QVERIFY(w.openFile(m_file));
        QCOMPARE(w.applyOverride("chests.radius=99"), QString());
        QVERIFY(w.autosave()->saveNow());
        QCOMPARE(recoveryFiles().size(), 2);
        answerNextQuestion("Discard");
        QVERIFY(w.close());
        QVERIFY(question().contains("unsaved changes"));
        QCOMPARE(recoveryFiles(), QStringList());
        QCOMPARE(readFile(m_file.toStdString()), m_original);
    }

    void discardRemovesRecovery()
    {
        {
            MainWindow crashed(registry());
            QVERIFY(crashed.openFile(m_file));
            QCOMPARE(crashed.applyOverride("chests.radius=99"), QString());
            QVERIFY(crashed.autosave()->saveNow());
        }  // gone without closing, as in a crash
        QCOMPARE(recoveryFiles().size(), 2);
        MainWindow w(registry());
        QVERIFY(w.openFile(m_file));
        answerNextQuestion("Discard");
        QCOMPARE(w.offerRecovery(MainWindow::Recovery::Ask), QString());
        QVERIFY(!question().isEmpty());
        QCOMPARE(bytes(w.document()), m_original);
        QCOMPARE(recoveryFiles(), QStringList());
    }

    // A recovery older than its document (saved since, by any program) is not offered.
    void staleRecoveryIsNotOffered()
    {
        {
            MainWindow crashed(registry());
            QVERIFY(crashed.openFile(m_file));
            QCOMPARE(crashed.applyOverride("chests.radius=99"), QString());
            QVERIFY(crashed.autosave()->saveNow());
        }
        QFile file(m_file);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(60), QFileDevice::FileModificationTime));
        file.close();
        MainWindow w(registry());
        QVERIFY(w.openFile(m_file));
        QCOMPARE(w.offerRecovery(MainWindow::Recovery::Accept), QString());
        QCOMPARE(bytes(w.document()), m_original);
        QCOMPARE(recoveryFiles(), QStringList());
    }

    // An untitled graph is recovered into an untitled window, when the editor starts empty.
    void untitledGraphIsRecovered()
    {
        std::string lost;
        {
            MainWindow crashed(registry());
            QApplication::clipboard()->setText("grove: 1\nnodes:\n  bump:\n    type: constant\n");
            action(&crashed, "&Paste")->trigger();
            lost = bytes(crashed.document());
            QVERIFY(crashed.autosave()->saveNow());
        }
        QVERIFY(lost.find("  bump:\n    type: constant\n") != std::string::npos);
        MainWindow w(registry());
        QVERIFY(!w.offerRecovery(MainWindow::Recovery::Accept).isEmpty());
        QCOMPARE(bytes(w.document()), lost);
        QVERIFY(w.document()->filePath().isEmpty());
        QVERIFY(w.isWindowModified());
    }
};

int main(int argc, char **argv)
{
    return runEditorSuite<TestEditorRecovery>(argc, argv);
}

#include "tst_editor_recovery.moc"
