// The bad-input suite: every hostile or broken graph in tests/bad-input gets exactly the
// diagnostics in its .expect file (located, clear), from the loader or from evaluation.
#include "TestSupport.h"

#include "core/Evaluator.h"

#include <QDir>

using namespace grove;
using namespace grove::test;

class TestBadInput : public QObject
{
    Q_OBJECT

private slots:
    void diagnostics_data();
    void diagnostics();
    void suiteIsLargeEnough();
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

    LoadResult loaded = loadGraphFromString(readFile(base), file, registry());
    loaded.graph.baseDir = suiteDir().toStdString();  // as grove-cli runs it: files beside the graph
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

QTEST_APPLESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
