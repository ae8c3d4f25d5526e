// The bad-input suite: every hostile or broken graph in tests/bad-input gets exactly the
// diagnostics in its .expect file (located, clear), from the loader or from evaluation.
#include "TestSupport.h"

#include "CliApp.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GroupGraph.h"

#include <QDir>
#include <QTemporaryDir>

using namespace grove;
using namespace grove::test;

class TestBadInput : public QObject
{
    Q_OBJECT

private slots:
    void diagnostics_data();
    void diagnostics();
    void suiteIsLargeEnough();
    void cliCases_data();
    void cliCases();
};

static QString suiteDir() { return QString::fromStdString(testsDir() + "/bad-input"); }

void TestBadInput::diagnostics_data()
{
    QTest::addColumn<QString>("name");
    for (const QString &file : QDir(suiteDir()).entryList({"*.grove.yaml"}, QDir::Files, QDir::Name))
        QTest::newRow(file.toUtf8().constData()) << file;
}

void TestBadInput::diagnostics()
{
    QFETCH(QString, name);
    const std::string file = name.toStdString();
    const std::string base = suiteDir().toStdString() + "/" + file;
    const std::string expect = readFile(base.substr(0, base.size() - std::string(".grove.yaml").size()) + ".expect");
    QVERIFY2(!expect.empty(), "every bad input needs its .expect");

    // group files are found beside the graph, as grove-cli finds them
    LoadResult loaded = loadGraphFromString(readFile(base), file, registry(), suiteDir().toStdString());
    loaded.graph.baseDir = suiteDir().toStdString();  // as grove-cli runs it: files beside the graph
    if (loaded.ok())
        expandLoadedGroups(loaded, file, registry());  // and group nodes become their files' nodes
    std::string got = formatAll(loaded.diagnostics);
    if (loaded.ok()) {
        // valid on paper: then evaluation must refuse it, located at the node
        Evaluator ev(registry());
        EvalResult r = ev.evaluate(loaded.graph);
        QVERIFY2(!r.ok(), "a bad input that loads and evaluates cleanly is not a bad input");
        for (Diagnostic d : r.diagnostics) {
            d.file = file;
            locate(loaded, d);
            got += d.format() + "\n";
        }
    }
    QCOMPARE(QString::fromStdString(got), QString::fromStdString(expect));
}

void TestBadInput::suiteIsLargeEnough()
{
    QVERIFY(QDir(suiteDir()).entryList({"*.grove.yaml"}, QDir::Files).size() >= 60);
}

// Bad flags and bad shard parts, in-process through grove-cli's runCli: cli/NAME.args holds the
// exit status, then one argument a line (OUT: the output file); cli/NAME.expect the messages.
void TestBadInput::cliCases_data()
{
    QTest::addColumn<QString>("name");
    const QDir dir(suiteDir() + "/cli");
    for (const QString &file : dir.entryList({"*.args"}, QDir::Files, QDir::Name))
        QTest::newRow(file.toUtf8().constData()) << file.chopped(5);
    QVERIFY(dir.entryList({"*.args"}, QDir::Files).size() >= 16);
}

void TestBadInput::cliCases()
{
    QFETCH(QString, name);
    const std::string base = suiteDir().toStdString() + "/cli/" + name.toStdString();
    std::istringstream lines(readFile(base + ".args"));
    std::string status, line;
    std::getline(lines, status);
    QTemporaryDir scratch;
    std::vector<std::string> args;
    while (std::getline(lines, line))
        args.push_back(line == "OUT" ? scratch.path().toStdString() + "/out.json" : line);
    const QString before = QDir::currentPath();
    QDir::setCurrent(suiteDir());  // the messages name the files as the .args do
    std::ostringstream out, err;
    const int code = runCli(args, out, err);
    QDir::setCurrent(before);
    QCOMPARE(code, std::stoi(status));
    std::string expect = readFile(base + ".expect");
    while (!expect.empty() && expect.back() == '\n')
        expect.pop_back();
    std::string got = err.str();
    while (!got.empty() && got.back() == '\n')
        got.pop_back();
    QCOMPARE(QString::fromStdString(got), QString::fromStdString(expect));
    QVERIFY(out.str().empty());
    QVERIFY(listDir(scratch.path().toStdString()).empty());
}

QTEST_APPLESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
