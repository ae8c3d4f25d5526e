// Graph YAML v1: canonical byte-stable saves, every load problem with its line and column,
// atomic saves that never damage the old file, and the graph hash; the JSON text of exports and
// the catalog, and the value keys of the evaluation cache.
#include "TestSupport.h"

#include "core/base/SafeFile.h"
#include "core/formats/CatalogExport.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GraphWriter.h"
#include "core/formats/PointsExport.h"
#include "core/base/Sha256.h"
#include "core/base/TextEscape.h"
#include "core/base/YamlValue.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <csignal>
#include <dirent.h>
#include <limits>
#include <set>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace grove;
using namespace grove::test;

class TestGraphIO : public QObject
{
    Q_OBJECT

private slots:
    void canonicalFileSavesToItsOwnBytes();
    void messyFileSavesCanonically();
    void messyFileRoundTripsToTheSameGraph();
    void saveLoadRoundTripKeepsEverything();
    void saveLoadRoundTripKeepsAwkwardStrings();
    void loadProblems_data();
    void loadProblems();
    void everyProblemIsReportedNotOnlyTheFirst();
    void newerFormatIsRefused();
    void endlessFileIsRefusedAtTheSizeLimit();
    void missingParamsTakeDefaults();
    void overridesAreCheckedLikeTheFile();
    void failedSaveLeavesOldFileByteIdentical();
    void saveIntoMissingFolderFailsCleanly();
    void hashIgnoresLayoutButNotParams();
    void expectRoundTripsAndStaysOutOfTheHash();
    void cycleNamesItsNodes();
    void jsonQuoteEscapesEveryControlCharacter();
    void catalogJsonKeepsControlCharacters();
    void pointsExportKeepsControlCharactersInNames();
    void valueKeysTellApartWhatEvaluatesDifferently();
};

static std::string dataPath(const std::string &name) { return testsDir() + "/data/" + name; }

void TestGraphIO::canonicalFileSavesToItsOwnBytes()
{
    const std::string bytes = readFile(dataPath("canonical/island.grove.yaml"));
    QVERIFY(!bytes.empty());
    LoadResult r = load(bytes);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    QCOMPARE(saveGraphToString(r.graph, registry()), bytes);
}

void TestGraphIO::messyFileSavesCanonically()
{
    LoadResult r = load(readFile(dataPath("canonical/messy.grove.yaml")));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const std::string saved = saveGraphToString(r.graph, registry());
    QCOMPARE(saved, readFile(dataPath("canonical/messy.expected.yaml")));
    // and saving is a fixed point
    LoadResult again = load(saved);
    QVERIFY(again.ok());
    QCOMPARE(saveGraphToString(again.graph, registry()), saved);
}

// Found by fuzz_graph: a file listing its nodes out of topological order loaded into a graph
// that differed from load(save(g)) only in the order of `nodes`, which a YAML map does not have.
void TestGraphIO::messyFileRoundTripsToTheSameGraph()
{
    LoadResult r = load(readFile(dataPath("canonical/messy.grove.yaml")));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    QCOMPARE(r.graph.nodes.front().id, std::string("rocks"));  // file order is kept on load
    LoadResult back = load(saveGraphToString(r.graph, registry()));
    QVERIFY(back.ok());
    QCOMPARE(back.graph.nodes.front().id, std::string("height"));  // canonical order on save
    QVERIFY(back.graph == r.graph);
    // but a real difference still counts
    back.graph.node("rocks")->setParam("radius", 35.0);
    QVERIFY(!(back.graph == r.graph));
    back = load(saveGraphToString(r.graph, registry()));
    back.graph.node("rocks")->removeInput("obstacles");
    QVERIFY(!(back.graph == r.graph));
}

void TestGraphIO::saveLoadRoundTripKeepsEverything()
{
    LoadResult r = load(readFile(dataPath("canonical/island.grove.yaml")));
    QVERIFY(r.ok());
    Graph g = r.graph;
    g.world.width = 100.5;
    g.world.seed = -2147483648;
    g.node("chests")->setParam("radius", 0.1 + 0.2);  // 0.30000000000000004 must survive
    g.node("chests")->setParam("types", ValueList{ValueMap{{"name", "gold chest"}, {"weight", 3.0}},
                                                  ValueMap{{"name", "trap"}, {"weight", 0.5}}});
    g.node("chests")->setParam("special", ValueMap{{"type", "gold chest"}, {"count", 2.0}});
    g.layout["chests"] = NodeLayout{-12.25, 1e6, true};
    const std::string text = saveGraphToString(g, registry());
    LoadResult back = load(text);
    QVERIFY2(back.ok(), formatAll(back.diagnostics).c_str());
    QVERIFY(back.graph == g);
    QVERIFY(text.find("radius: 0.30000000000000004\n") != std::string::npos);
}

void TestGraphIO::saveLoadRoundTripKeepsAwkwardStrings()
{
    LoadResult r = load(readFile(dataPath("canonical/island.grove.yaml")));
    QVERIFY(r.ok());
    const std::vector<std::string> awkward = {
        "yes", "null", "123", "0.5", "-1", "a: b", "#hash", "quote\"d", "back\\slash", "tab\there",
        "ünïcødé wörld 島", " leading", "trailing ", "[list]", "{map}", "- dash", "", "~"};
    for (const auto &s : awkward) {
        Graph g = r.graph;
        g.name = s;
        g.notes = "line one\n  indented line\n\n" + s + "\n";
        g.node("chests")->setParam("name", s);
        LoadResult back = load(saveGraphToString(g, registry()));
        QVERIFY2(back.ok(), (s + ": " + formatAll(back.diagnostics)).c_str());
        QCOMPARE(back.graph.name, s);
        QCOMPARE(back.graph.notes, g.notes);
        QCOMPARE(back.graph.node("chests")->param("name")->toString(), s);
    }
    // notes without a final newline, with several, and with one leading space
    for (const std::string notes : {"no newline\nat end", "many\n\n\n", " starts with a space\nx", "\nstarts empty"}) {
        Graph g = r.graph;
        g.notes = notes;
        LoadResult back = load(saveGraphToString(g, registry()));
        QVERIFY(back.ok());
        QCOMPARE(back.graph.notes, notes);
    }
}

static const char *kBase = R"(grove: 1
world:
  width: 400
  height: 300
  seed: 7
nodes:
)";

void TestGraphIO::loadProblems_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");  // the whole formatted output

    QTest::newRow("not yaml") << "grove: 1\nworld: [1, 2\n"
                              << "test.grove.yaml:3:1: error: not valid YAML: end of sequence flow not found\n";
    QTest::newRow("empty") << ""
                           << "test.grove.yaml:1:1: error: not a grove graph: the file is empty (expected 'grove: 1' and the graph)\n";
    QTest::newRow("not a map") << "- 1\n- 2\n"
                               << "test.grove.yaml:1:1: error: not a grove graph: expected a map starting with 'grove: 1'\n";
    QTest::newRow("not grove") << "name: x\nworld: {width: 1, height: 1}\n"
                               << "test.grove.yaml:1:1: error: not a grove graph: 'grove: 1' is missing\n";
    QTest::newRow("nul byte") << QString::fromLatin1("grove: 1\nna\0me: x\n", 18)
                              << "test.grove.yaml:2:3: error: not a grove graph: the file contains a NUL byte (is it binary?)\n";
    QTest::newRow("unknown top key") << QString(kBase) + "wrold: 3\n"
                                     << "test.grove.yaml:7:8: error: unknown key 'wrold'; did you mean 'world'? (at wrold)\n";
    QTest::newRow("unknown type") << QString(kBase) + "  n:\n    type: value_nosie\n"
                                  << "test.grove.yaml:8:11: error: unknown node type 'value_nosie'; did you mean 'value_noise'? (at nodes.n.type)\n";
    QTest::newRow("unknown param") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      raduis: 3\n"
                                   << "test.grove.yaml:10:15: error: unknown param 'raduis' for place_layer; did you mean 'radius'? (at nodes.trees.params.raduis)\n";
    QTest::newRow("ill-typed param") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      radius: big\n"
                                     << "test.grove.yaml:10:15: error: param 'radius': expected a number, got a string (at nodes.trees.params.radius)\n";
    QTest::newRow("quoted number is a string") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      k: \"30\"\n"
                                               << "test.grove.yaml:10:10: error: param 'k': expected an integer, got a string (at nodes.trees.params.k)\n";
    QTest::newRow("out of range") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      radius: -4\n"
                                  << "test.grove.yaml:10:15: error: param 'radius': -4 is out of range: must be > 0 and <= 10000000 (at nodes.trees.params.radius)\n";
    QTest::newRow("not an integer") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      k: 2.5\n"
                                    << "test.grove.yaml:10:10: error: param 'k': expected an integer, got 2.5 (at nodes.trees.params.k)\n";
    QTest::newRow("nan") << QString(kBase) + "  n:\n    type: value_noise\n    params:\n      frequency: .nan\n"
                         << "test.grove.yaml:10:18: error: param 'frequency': must be a number, not NaN (at nodes.n.params.frequency)\n";
    QTest::newRow("bad enum") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      start: patchs\n"
                              << "test.grove.yaml:10:14: error: param 'start': 'patchs' is not one of patches, random, point; did you mean 'patches'? (at nodes.trees.params.start)\n";
    QTest::newRow("missing node") << QString(kBase) + "  trees:\n    type: place_layer\n    inputs:\n      allowed: lnad\n  land:\n    type: allowed_rule\n"
                                  << "test.grove.yaml:10:16: error: input 'allowed' links to missing node 'lnad'; did you mean 'land'? (at nodes.trees.inputs.allowed)\n";
    QTest::newRow("missing port") << QString(kBase) + "  a:\n    type: place_layer\n  b:\n    type: place_layer\n    inputs:\n      obstacles: a.al\n"
                                  << "test.grove.yaml:12:18: error: node 'a' (place_layer) has no output 'al'; did you mean 'all'? (at nodes.b.inputs.obstacles)\n";
    QTest::newRow("unknown input") << QString(kBase) + "  a:\n    type: place_layer\n  b:\n    type: place_layer\n    inputs:\n      obstacle: a.all\n"
                                   << "test.grove.yaml:12:17: error: unknown input 'obstacle' for place_layer; did you mean 'obstacles'? (at nodes.b.inputs.obstacle)\n";
    QTest::newRow("type mismatch") << QString(kBase) + "  n:\n    type: value_noise\n  b:\n    type: place_layer\n    inputs:\n      allowed: n\n"
                                   << "test.grove.yaml:12:16: error: type mismatch: input 'allowed' takes mask, but n gives field (at nodes.b.inputs.allowed)\n";
    QTest::newRow("two links into one input") << QString(kBase) + "  n:\n    type: value_noise\n  m:\n    type: value_noise\n  t:\n    type: threshold\n    inputs:\n      field: n\n      field: m\n"
                                              << "test.grove.yaml:15:7: error: duplicate key 'field' (first at line 14) (at nodes.t.inputs.field)\n";
    QTest::newRow("duplicate id") << QString(kBase) + "  n:\n    type: value_noise\n  n:\n    type: constant\n"
                                  << "test.grove.yaml:9:3: error: duplicate key 'n' (first at line 7) (at nodes.n)\n";
    QTest::newRow("self link") << QString(kBase) + "  r:\n    type: allowed_rule\n    inputs:\n      mask: r\n"
                               << "test.grove.yaml:10:13: error: input 'mask' links node 'r' to itself (at nodes.r.inputs.mask)\n";
    QTest::newRow("required input") << QString(kBase) + "  t:\n    type: threshold\n"
                                    << "test.grove.yaml:7:3: error: required input 'field' (field) is not connected (at nodes.t.inputs)\n";
    QTest::newRow("bad id") << QString(kBase) + "  Trees:\n    type: constant\n"
                            << "test.grove.yaml:7:3: error: node id 'Trees' is not valid: use a-z, 0-9 and _, starting with a letter, at most 128 characters (at nodes.Trees)\n";
    QTest::newRow("world size") << "grove: 1\nworld:\n  width: 0\n  height: 300\nnodes: {}\n"
                                << "test.grove.yaml:3:10: error: world width must be a finite number > 0, got 0 (at world.width)\n";
    QTest::newRow("seed beyond int32") << "grove: 1\nworld:\n  width: 10\n  height: 10\n  seed: 2147483648\n"
                                       << "test.grove.yaml:5:9: error: world seed must be a whole number from -2147483648 to 2147483647, got 2147483648 (at world.seed)\n";
    QTest::newRow("cuts and labels") << QString(kBase) + "  n:\n    type: value_noise\n  t:\n    type: threshold\n    inputs:\n      field: n\n    params:\n      cuts: [0.5, 0.2]\n      labels: [a, b]\n      colors: [\"#ffffff\"]\n"
                                     << "test.grove.yaml:14:13: error: param 'cuts': cuts must ascend, but 0.2 follows 0.5 (at nodes.t.params.cuts)\n"
                                        "test.grove.yaml:15:15: error: param 'labels': 2 cuts make 3 bands, but 2 labels are given (at nodes.t.params.labels)\n"
                                        "test.grove.yaml:16:15: error: param 'colors': give one colour per label (2) or none (at nodes.t.params.colors)\n";
    QTest::newRow("bad type list") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      types: [{name: oak, wieght: 2}]\n"
                                   << "test.grove.yaml:10:35: error: param 'types': item 0: unknown key 'wieght'; did you mean 'weight'? (at nodes.trees.params.types[0].wieght)\n";
    QTest::newRow("special not a type") << QString(kBase) + "  trees:\n    type: place_layer\n    params:\n      types: [{name: oak}, {name: pine}]\n      special: {type: pien, count: 3}\n"
                                        << "test.grove.yaml:11:16: error: param 'special': special type 'pien' is not one of the types; did you mean 'pine'? (at nodes.trees.params.special)\n";
    QTest::newRow("expect: unknown metric") << QString(kBase) + "  trees:\n    type: place_layer\n    expect: [count >= 1, cuont >= 4]\n"
                                            << "test.grove.yaml:9:26: error: expectation 'cuont >= 4': unknown metric 'cuont'; did you mean 'count'? (at nodes.trees.expect[1])\n";
    QTest::newRow("expect: malformed") << QString(kBase) + "  trees:\n    type: place_layer\n    expect:\n      - coverage >> 0.9\n      - count\n"
                                       << "test.grove.yaml:10:9: error: expectation 'coverage >> 0.9': '> 0.9' is not a number; write METRIC OP NUMBER, such as 'count >= 400' (OP: >= <= > < == !=) (at nodes.trees.expect[0])\n"
                                          "test.grove.yaml:11:9: error: expectation 'count': no comparison after 'count'; write METRIC OP NUMBER, such as 'count >= 400' (OP: >= <= > < == !=) (at nodes.trees.expect[1])\n";
    QTest::newRow("expect: not a layer") << QString(kBase) + "  n:\n    type: value_noise\n    expect: [count >= 1]\n"
                                         << "test.grove.yaml:9:13: error: node 'n' (value_noise) makes no layer: only layer nodes take expect (at nodes.n.expect)\n";
    QTest::newRow("expect: not a list") << QString(kBase) + "  trees:\n    type: place_layer\n    expect: count >= 1\n"
                                        << "test.grove.yaml:9:13: error: expect must be a list such as [count >= 400, too_close == 0] (at nodes.trees.expect)\n";
    QTest::newRow("deep nesting") << QString(kBase) + "  c:\n    type: constant\n    params:\n      value: " + QString("[").repeated(100) + QString("]").repeated(100) + "\n"
                                  << "test.grove.yaml:10:78: error: nested too deeply (more than 64 levels) (at nodes.c.params.value[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0])\n";
}

void TestGraphIO::loadProblems()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QByteArray bytes = text.toUtf8();
    LoadResult r = load(std::string(bytes.constData(), static_cast<size_t>(bytes.size())));
    QCOMPARE(QString::fromStdString(formatAll(r.diagnostics)), expected);
    QVERIFY(!r.ok());
}

void TestGraphIO::everyProblemIsReportedNotOnlyTheFirst()
{
    const std::string text = std::string(kBase) + "  a:\n    type: place_layer\n    params:\n      raduis: 3\n      k: 0\n"
                                                  "  b:\n    type: nope\n  c:\n    type: place_layer\n    inputs:\n      allowed: zz\n";
    LoadResult r = load(text);
    const std::string all = formatAll(r.diagnostics);
    QCOMPARE(r.diagnostics.size(), size_t(4));
    QVERIFY(all.find(":10:15: error: unknown param 'raduis'") != std::string::npos);
    QVERIFY(all.find(":11:10: error: param 'k': 0 is out of range: must be >= 1 and <= 1000") != std::string::npos);
    QVERIFY(all.find(":13:11: error: unknown node type 'nope'") != std::string::npos);
    QVERIFY(all.find(":17:16: error: input 'allowed' links to missing node 'zz'") != std::string::npos);
}

// `grove-cli validate /dev/zero` read until memory ran out: a device or pipe has no size to
// check up front, so the limit must hold while reading.
void TestGraphIO::endlessFileIsRefusedAtTheSizeLimit()
{
    LoadResult r = loadGraphFile("/dev/zero", registry());
    QCOMPARE(formatAll(r.diagnostics), std::string("/dev/zero: error: the file is larger than the 64 MiB graph limit\n"));
    QVERIFY(r.graph.nodes.empty());
}

void TestGraphIO::newerFormatIsRefused()
{
    LoadResult r = load("grove: 2\nworld: {width: 1, height: 1}\nfuture_key: 1\n");
    QCOMPARE(QString::fromStdString(formatAll(r.diagnostics)),
             QString("test.grove.yaml:1:8: error: this graph is format version 2, newer than this Grove reads (1); "
                     "update Grove to open it (at grove)\n"));
}

void TestGraphIO::missingParamsTakeDefaults()
{
    LoadResult r = load(std::string(kBase) + "  trees:\n    type: place_layer\n");
    QVERIFY(r.ok());
    const Node *n = r.graph.node("trees");
    QCOMPARE(n->params.size(), registry().find("place_layer")->params.size());
    QCOMPARE(n->param("radius")->toNumber(), 20.0);
    QCOMPARE(n->param("k")->toNumber(), 30.0);
    QCOMPARE(n->param("start")->toString(), std::string("patches"));
}

void TestGraphIO::overridesAreCheckedLikeTheFile()
{
    LoadResult r = load(readFile(dataPath("canonical/island.grove.yaml")));
    Graph g = r.graph;
    QCOMPARE(applyOverrideText(g, "chests.raduis=3"),
             std::string("unknown param 'raduis' for place_layer; did you mean 'radius'?"));
    QCOMPARE(applyOverrideText(g, "chets.radius=3"), std::string("no node 'chets'; did you mean 'chests'?"));
    QCOMPARE(applyOverrideText(g, "chests.radius=-1"),
             std::string("param 'radius': -1 is out of range: must be > 0 and <= 10000000"));
    QCOMPARE(applyOverrideText(g, "chests.radius"), std::string("expected NODE.PARAM=VALUE"));
    QCOMPARE(applyOverrideText(g, "chests.radius=[1, 2"), std::string("param 'radius': not a valid value: end of sequence flow not found"));
    QVERIFY(g == r.graph);  // nothing changed by failed overrides
    QCOMPARE(applyOverrideText(g, "chests.radius=99.5"), std::string());
    QCOMPARE(g.node("chests")->param("radius")->toNumber(), 99.5);
    QCOMPARE(applyOverrideText(g, "chests.types=[{name: a, weight: 2}]"), std::string());
    QCOMPARE(toFlowYaml(*g.node("chests")->param("types")), std::string("[{name: a, weight: 2}]"));
}

// Runs in a forked child: with a 64-byte file size limit, the write fails as on a full disk.
static bool saveFailsWithTinyDisk(const std::string &path, const std::string &bytes, std::string *reason)
{
    int pipefd[2];
    if (::pipe(pipefd) != 0)
        return false;
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(pipefd[0]);
        std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim{64, 64};
        ::setrlimit(RLIMIT_FSIZE, &lim);
        auto err = writeFileAtomically(path, bytes);
        const std::string msg = err ? *err : std::string();
        (void)!::write(pipefd[1], msg.data(), msg.size());
        ::_exit(err ? 0 : 1);
    }
    ::close(pipefd[1]);
    char buf[512];
    ssize_t n = ::read(pipefd[0], buf, sizeof buf);
    ::close(pipefd[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (n > 0)
        reason->assign(buf, static_cast<size_t>(n));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void TestGraphIO::failedSaveLeavesOldFileByteIdentical()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/world.grove.yaml";
    const std::string old = readFile(dataPath("canonical/island.grove.yaml"));
    writeFile(path, old);
    const std::string bigger = old + old;  // well over the 64-byte limit
    std::string reason;
    QVERIFY(saveFailsWithTinyDisk(path, bigger, &reason));
    QVERIFY2(reason.find("cannot write " + path) == 0, reason.c_str());
    QCOMPARE(readFile(path), old);
    QCOMPARE(listDir(dir.path().toStdString()), std::vector<std::string>{"world.grove.yaml"});  // no temp file left

    // a read-only folder (only meaningful when not root: root writes anywhere)
    if (::geteuid() != 0) {
        ::chmod(dir.path().toUtf8().constData(), 0555);
        auto err = writeFileAtomically(path, bigger);
        ::chmod(dir.path().toUtf8().constData(), 0755);
        QVERIFY(err.has_value());
        QCOMPARE(readFile(path), old);
    }
    // and a successful save replaces it whole, keeping its permissions
    ::chmod(path.c_str(), 0640);
    QVERIFY(!writeFileAtomically(path, bigger));
    QCOMPARE(readFile(path), bigger);
    struct stat st{};
    ::stat(path.c_str(), &st);
    QCOMPARE(int(st.st_mode & 0777), 0640);
}

void TestGraphIO::saveIntoMissingFolderFailsCleanly()
{
    auto err = writeFileAtomically("/nonexistent-grove-folder/x.grove.yaml", "grove: 1\n");
    QVERIFY(err.has_value());
    QVERIFY2(err->find("cannot create a temporary file in /nonexistent-grove-folder") == 0, err->c_str());
}

void TestGraphIO::hashIgnoresLayoutButNotParams()
{
    LoadResult r = load(readFile(dataPath("canonical/island.grove.yaml")));
    Graph g = r.graph;
    const std::string h = graphHash(g, registry());
    QCOMPARE(h.substr(0, 7), std::string("sha256:"));
    QCOMPARE(h.size(), size_t(7 + 64));
    g.layout["chests"].x += 100;
    QCOMPARE(graphHash(g, registry()), h);
    g.node("chests")->setParam("radius", 141.0);
    QVERIFY(graphHash(g, registry()) != h);
}

// expect: saved last in its node as a flow list, plain where YAML reads it back the same and
// quoted where not; load(save(g)) == g, and the hash (what the graph computes) ignores it.
void TestGraphIO::expectRoundTripsAndStaysOutOfTheHash()
{
    LoadResult r = load(readFile(dataPath("canonical/island.grove.yaml")));
    QVERIFY(r.ok());
    Graph g = r.graph;
    const std::string hashBefore = graphHash(g, registry());
    g.node("chests")->expect = {"count >= 3", "too_close == 0", "coverage>=0.95", "true >= 1e-3"};
    const std::string text = saveGraphToString(g, registry());
    QVERIFY(text.find("      radius: 140\n    expect: [count >= 3, too_close == 0, coverage>=0.95, \"true >= 1e-3\"]\n  rocks:")
            != std::string::npos);
    LoadResult back = load(text);
    QVERIFY(!back.ok());  // "true >= 1e-3" names no metric: a located problem, yet the text is read
    QCOMPARE(QString::fromStdString(formatAll(back.diagnostics)).count("unknown metric 'true'"), 1);
    QVERIFY(back.graph == g);
    QCOMPARE(saveGraphToString(back.graph, registry()), text);  // byte-identical round trip
    g.node("chests")->expect.pop_back();
    const std::string good = saveGraphToString(g, registry());
    LoadResult clean = load(good);
    QVERIFY2(clean.ok(), formatAll(clean.diagnostics).c_str());
    QCOMPARE(saveGraphToString(clean.graph, registry()), good);
    QCOMPARE(graphHash(clean.graph, registry()), hashBefore);
    // but expectations are part of the graph a document compares
    clean.graph.node("chests")->expect[0] = "count >= 4";
    QVERIFY(!(clean.graph == g));
}

void TestGraphIO::cycleNamesItsNodes()
{
    LoadResult r = load(std::string(kBase)
                        + "  a:\n    type: allowed_rule\n    inputs:\n      mask: c\n"
                          "  b:\n    type: allowed_rule\n    inputs:\n      mask: a\n"
                          "  c:\n    type: allowed_rule\n    inputs:\n      mask: b\n"
                          "  d:\n    type: allowed_rule\n    inputs:\n      mask: c\n");
    QCOMPARE(QString::fromStdString(formatAll(r.diagnostics)),
             QString("test.grove.yaml:7:3: error: cycle: a -> b -> c -> a (at nodes.a)\n"));
    // and the editor's question gets the same answer before the link exists
    LoadResult ok = load(std::string(kBase) + "  a:\n    type: allowed_rule\n  b:\n    type: allowed_rule\n    inputs:\n      mask: a\n");
    QVERIFY(ok.ok());
    QCOMPARE(connectionProblem(ok.graph, registry(), Link{"b", ""}, "a", "mask").value_or(""),
             std::string("cycle: a already feeds b"));
    QCOMPARE(connectionProblem(ok.graph, registry(), Link{"a", ""}, "b", "field").value_or(""),
             std::string("type mismatch: field takes field, a gives mask"));
}

void TestGraphIO::jsonQuoteEscapesEveryControlCharacter()
{
    QCOMPARE(jsonQuote("a\"b\\c"), std::string("\"a\\\"b\\\\c\""));
    QCOMPARE(jsonQuote(std::string("\0\b\f\n\r\t\x01\x1f\x7f", 9)),
             std::string("\"\\u0000\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\""));
    QCOMPARE(jsonQuote("Grüße 🌲"), std::string("\"Grüße 🌲\""));  // UTF-8 passes through
    std::string every;
    for (int c = 0; c < 0x80; ++c)
        every += static_cast<char>(c);
    every += "é漢🌲";
    const std::string quoted = jsonQuote(every);
    for (unsigned char c : quoted.substr(1, quoted.size() - 2))
        QVERIFY2(c >= 0x20, "a raw control character in a JSON string");
    QCOMPARE(nlohmann::json::parse(quoted).get<std::string>(), every);
}

// The catalog once turned control characters into spaces and left tabs and CRs raw (invalid JSON).
void TestGraphIO::catalogJsonKeepsControlCharacters()
{
    NodeRegistry odd;
    NodeDescriptor d;
    d.typeId = "odd";
    d.displayName = "Odd\tnode";
    d.category = "Fields";
    d.description = "tab\there, CR\rthere, bell\x07, \"quote\" and back\\slash, ünïcode";
    ParamSpec p;
    p.name = "label";
    p.kind = ParamKind::String;
    p.defaultValue = Value("a\tb\x1f");
    p.description = "line\r\nbreak";
    d.params.push_back(p);
    odd.add(d);
    const std::string text = catalogJson(odd);
    QVERIFY2(text.find("\"description\": \"tab\\there, CR\\rthere, bell\\u0007, \\\"quote\\\" and back\\\\slash, "
                       "ünïcode\"") != std::string::npos, text.c_str());
    const auto j = nlohmann::json::parse(text);
    const auto &node = j["nodes"][0];
    QCOMPARE(node["displayName"].get<std::string>(), d.displayName);
    QCOMPARE(node["description"].get<std::string>(), d.description);
    QCOMPARE(node["params"][0]["default"].get<std::string>(), p.defaultValue.toString());
    QCOMPARE(node["params"][0]["description"].get<std::string>(), p.description);
}

void TestGraphIO::pointsExportKeepsControlCharactersInNames()
{
    auto layer = std::make_shared<PointLayer>();
    layer->info.name = "trees\tnorth\r\x01 \"old\" \\ é";
    layer->info.nodeId = "trees";
    layer->points = {{1.5, 2, 3}};
    ExportInfo info;
    info.graphName = "Island\tworld";
    info.graphFile = "island.grove.yaml";
    info.world = {100, 50, 7};
    const std::string json = exportPoints(ExportFormat::Json, info, {layer});
    QVERIFY2(json.find("\"name\": \"trees\\tnorth\\r\\u0001 \\\"old\\\" \\\\ é\"") != std::string::npos, json.c_str());
    const auto j = nlohmann::json::parse(json);
    QCOMPARE(j["graph"]["name"].get<std::string>(), info.graphName);
    QCOMPARE(j["layers"][0]["name"].get<std::string>(), layer->info.name);
    QCOMPARE(j["layers"][0]["types"][0]["name"].get<std::string>(), layer->info.name);
    const auto tiled = nlohmann::json::parse(exportPoints(ExportFormat::Tiled, info, {layer}));
    QCOMPARE(tiled["properties"][0]["value"].get<std::string>(), info.graphName);
    QCOMPARE(tiled["layers"][0]["name"].get<std::string>(), layer->info.name);
    QCOMPARE(tiled["layers"][0]["objects"][0]["type"].get<std::string>(), layer->info.name);
}

static std::string keyOf(const Value &value)
{
    Sha256 h;
    hashValue(h, value);
    const auto digest = h.finish();
    return std::string(digest.begin(), digest.end());
}

// The evaluation cache keys params by hashValue: values that may evaluate differently never share
// a key, equal values always do.
void TestGraphIO::valueKeysTellApartWhatEvaluatesDifferently()
{
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<Value> distinct = {
        Value(), Value(false), Value(true), Value(0.0), Value(-0.0), Value(1.0), Value(std::nextafter(1.0, 2.0)),
        Value(inf), Value(-inf), Value(std::numeric_limits<double>::quiet_NaN()), Value(""), Value("1"),
        Value("true"), Value("null"), Value("ab"), Value(ValueList{}), Value(ValueMap{}),
        Value(ValueList{Value("ab")}), Value(ValueList{Value("a"), Value("b")}),
        Value(ValueList{Value(ValueList{Value(1.0)}), Value(2.0)}), Value(ValueList{Value(1.0), Value(ValueList{Value(2.0)})}),
        Value(ValueMap{{"a", Value("b")}}), Value(ValueMap{{"ab", Value("")}}), Value(ValueMap{{"a", Value(1.0)}}),
        Value(ValueList{Value(ValueMap{{"name", Value("oak")}, {"weight", Value(1.0)}})}),
        Value(ValueList{Value(ValueMap{{"name", Value("oak")}, {"weight", Value(2.0)}})}),
    };
    std::set<std::string> keys;
    for (const Value &v : distinct)
        keys.insert(keyOf(v));
    QCOMPARE(keys.size(), distinct.size());
    // the same value, built twice, has the same key; every NaN is the same NaN
    QCOMPARE(keyOf(Value(ValueMap{{"a", Value(ValueList{Value(0.1), Value("x")})}})),
             keyOf(Value(ValueMap{{"a", Value(ValueList{Value(0.1), Value("x")})}})));
    QCOMPARE(keyOf(Value(std::bit_cast<double>(std::uint64_t(0x7ff8000000000123)))),
             keyOf(Value(std::numeric_limits<double>::quiet_NaN())));
    QCOMPARE(keyOf(Value(-std::numeric_limits<double>::quiet_NaN())), keyOf(Value(std::nan(""))));
}

QTEST_APPLESS_MAIN(TestGraphIO)
#include "tst_graphio.moc"
