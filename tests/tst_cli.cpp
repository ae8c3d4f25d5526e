// grove-cli as CI jobs use it: exit codes 0/1/2, located messages, nothing written on failure,
// the same bytes on every run.
#include "TestSupport.h"

#include <QProcess>
#include <QDir>
#include <QTemporaryDir>

#include <array>
#include <memory>

#include <nlohmann/json.hpp>

using namespace grove;
using namespace grove::test;

struct Run
{
    int code = -1;
    std::string out, err;
};

static Run cli(const QStringList &args, const QString &workingDirectory = {})
{
    QProcess p;
    p.setProgram(GROVE_CLI);
    if (!workingDirectory.isEmpty())
        p.setWorkingDirectory(workingDirectory);
    p.setArguments(args);
    p.start();
    p.closeWriteChannel();
    p.waitForFinished(120000);
    Run r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void helpAndVersion();
    void everyListedCommandRunsAndIsSuggested();
    void usageErrorsExitTwo_data();
    void usageErrorsExitTwo();
    void validateOkAndProblems();
    void invalidGraphExitsOneAndWritesNothing();
    void evalWritesJsonAsSpecified();
    void sameBytesEveryRun();
    void seedAndSetOverrides();
    void badOverrideExitsOneAndWritesNothing();
    void failedEvaluationIsLocatedAndWritesNothing();
    void splitWritesOneFilePerLayer();
    void splitClipsLongLayerNames();
    void folderAsDestinationWritesNothing();
    void splitOntoAFileWritesNothing();
    void layersFilter();
    void csvAndTiled();
    void exportsDoNotDependOnTheGraphsFolder();
    void nodesCatalog();
    void formatRewritesCanonically();
    void pngIsWrittenWithTheExport();
    void statsReportEveryLayer();
    void benchTimesAGraphsLayers();

private:
    std::unique_ptr<QTemporaryDir> m_dir;  // a fresh folder for each test function, removed after the last
    std::string path(const std::string &name) const { return m_dir->path().toStdString() + "/" + name; }
    std::string island() const { return testsDir() + "/data/canonical/island.grove.yaml"; }
};

void TestCli::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCli::helpAndVersion()
{
    Run h = cli({"--help"});
    QCOMPARE(h.code, 0);
    QVERIFY(h.out.find("grove-cli eval FILE [options]") != std::string::npos);
    for (const char *command : {"eval", "validate", "format", "bench", "nodes"}) {
        Run c = cli({command, "--help"});
        QCOMPARE(c.code, 0);
        QVERIFY2(c.out.find("grove-cli bench [FILE] [--runs N]") != std::string::npos, command);
        QVERIFY(c.err.empty());
    }
    Run v = cli({"--version"});
    QCOMPARE(v.code, 0);
    QCOMPARE(v.out, std::string("grove-cli 0.1.0\n"));
}

// --help lists each command once; each runs (a bad option is its own usage error, not an unknown
// command), and a typo of its name is answered with it.
void TestCli::everyListedCommandRunsAndIsSuggested()
{
    const Run h = cli({"--help"});
    QStringList listed;
    for (const QString &line : QString::fromStdString(h.out).split('\n'))
        if (line.startsWith("  grove-cli "))
            listed << line.mid(12).section(' ', 0, 0);
    QCOMPARE(listed, (QStringList{"validate", "eval", "check", "format", "merge", "inputs", "diff", "bench", "nodes", "--help"}));
    QVERIFY(h.out.find("  grove-cli --help | --version\n") != std::string::npos);
    listed.removeLast();
    for (const QString &command : listed) {
        const Run r = cli({command, "--no-such-option"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find(command.toStdString()) != std::string::npos && r.err.find("unknown command") == std::string::npos,
                 r.err.c_str());
        QString typo = command;
        std::swap(typo[1], typo[2]);
        const Run t = cli({typo});
        QCOMPARE(t.code, 2);
        QCOMPARE(QString::fromStdString(t.err), "grove-cli: unknown command '" + typo + "'; did you mean '" + command + "'?\n(see grove-cli --help)\n");
    }
}

void TestCli::usageErrorsExitTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no args") << QStringList{} << "usage:";
    QTest::newRow("unknown command") << QStringList{"evla"} << "grove-cli: unknown command 'evla'; did you mean 'eval'?";
    QTest::newRow("unknown option") << QStringList{"eval", "x.yaml", "--fromat", "csv"} << "grove-cli: unknown option for eval: --fromat";
    QTest::newRow("bad format") << QStringList{"eval", "x.yaml", "--format", "xml"} << "grove-cli: --format takes json, csv, tiled, gltf, godot, unreal or unreal-json, got 'xml'";
    QTest::newRow("bad seed") << QStringList{"eval", "x.yaml", "--seed", "12abc"} << "grove-cli: --seed takes a whole number from -2147483648 to 2147483647, got '12abc'";
    QTest::newRow("seed too big") << QStringList{"eval", "x.yaml", "--seed", "2147483648"} << "got '2147483648'";
    QTest::newRow("missing value") << QStringList{"eval", "x.yaml", "-o"} << "grove-cli: -o needs a PATH";
    QTest::newRow("no file") << QStringList{"eval"} << "grove-cli: eval needs a FILE";
    QTest::newRow("two files") << QStringList{"eval", "a", "b"} << "eval takes one FILE";
    QTest::newRow("split without out") << QStringList{"eval", "x.yaml", "--split"} << "--split needs -o FOLDER";
    QTest::newRow("validate nothing") << QStringList{"validate"} << "validate needs at least one FILE";
    QTest::newRow("nodes option") << QStringList{"nodes", "--yaml"} << "nodes takes --json or --markdown";
}

void TestCli::usageErrorsExitTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    Run r = cli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());
}

void TestCli::validateOkAndProblems()
{
    Run ok = cli({QString::fromStdString(island())});
    QCOMPARE(ok.code, 2);  // a file is not a command
    Run v = cli({"validate", QString::fromStdString(island())});
    QCOMPARE(v.code, 0);
    QVERIFY(v.out.find(": ok (4 nodes, sha256:") != std::string::npos);
    writeFile(path("bad.grove.yaml"), "grove: 1\nworld: {width: 10, height: 10}\nnodes:\n  a:\n    type: place_layer\n    params: {raduis: 2, k: 0}\n");
    Run bad = cli({"validate", QString::fromStdString(island()), QString::fromStdString(path("bad.grove.yaml"))});
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.err.find(path("bad.grove.yaml") + ":6:28: error: param 'k': 0 is out of range: must be >= 1 and <= 1000 (at nodes.a.params.k)") != std::string::npos, bad.err.c_str());
    QVERIFY2(bad.err.find(path("bad.grove.yaml") + ":6:22: error: unknown param 'raduis' for place_layer; did you mean 'radius'?") != std::string::npos, bad.err.c_str());
    QVERIFY(bad.err.find("2 problems") != std::string::npos);
    Run missing = cli({"validate", QString::fromStdString(path("nope.grove.yaml"))});
    QCOMPARE(missing.code, 1);
    QVERIFY(missing.err.find("nope.grove.yaml: error: cannot open: No such file or directory") != std::string::npos);
}

void TestCli::invalidGraphExitsOneAndWritesNothing()
{
    writeFile(path("bad.grove.yaml"), "grove: 1\nworld: {width: 10, height: 10}\nnodes:\n  a:\n    type: plase_layer\n");
    Run r = cli({"eval", QString::fromStdString(path("bad.grove.yaml")), "-o", QString::fromStdString(path("out.json"))});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.find(":5:11: error: unknown node type 'plase_layer'; did you mean 'place_layer'?") != std::string::npos, r.err.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(path("out.json"))));
    QVERIFY(r.out.empty());
}

void TestCli::evalWritesJsonAsSpecified()
{
    Run r = cli({"eval", QString::fromStdString(island()), "-o", QString::fromStdString(path("out.json"))});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.empty());
    const auto j = nlohmann::json::parse(readFile(path("out.json")));
    QCOMPARE(j["format"].get<std::string>(), std::string("grove.points"));
    QCOMPARE(j["formatVersion"].get<int>(), 1);
    QCOMPARE(j["graph"]["name"].get<std::string>(), std::string("Island world"));
    QCOMPARE(j["graph"]["seed"].get<int>(), 123456);
    QCOMPARE(j["graph"]["hash"].get<std::string>().substr(0, 7), std::string("sha256:"));
    QCOMPARE(j["bounds"]["maxX"].get<double>(), 880.0);
    QCOMPARE(j["layers"].size(), size_t(2));
    QCOMPARE(j["layers"][0]["name"].get<std::string>(), std::string("chests"));
    QCOMPARE(j["layers"][1]["name"].get<std::string>(), std::string("rocks"));
    for (const auto &layer : j["layers"]) {
        QCOMPARE(layer["count"].get<size_t>(), layer["points"].size());
        for (size_t i = 0; i < layer["points"].size(); ++i) {
            const auto &p = layer["points"][i];
            QCOMPARE(p["id"].get<size_t>(), i);
            QVERIFY(p["x"].get<double>() >= 0 && p["x"].get<double>() < 880);
            QVERIFY(p["y"].get<double>() >= 0 && p["y"].get<double>() < 480);
        }
    }
    // stdout by default, same bytes as the file
    Run s = cli({"eval", QString::fromStdString(island())});
    QCOMPARE(s.code, 0);
    QCOMPARE(s.out, readFile(path("out.json")));
}

void TestCli::sameBytesEveryRun()
{
    Run a = cli({"eval", QString::fromStdString(island()), "--format", "csv"});
    Run b = cli({"eval", QString::fromStdString(island()), "--format", "csv"});
    QCOMPARE(a.code, 0);
    QVERIFY(!a.out.empty());
    QCOMPARE(a.out, b.out);
}

void TestCli::seedAndSetOverrides()
{
    Run base = cli({"eval", QString::fromStdString(island())});
    Run seeded = cli({"eval", QString::fromStdString(island()), "--seed", "99"});
    QCOMPARE(seeded.code, 0);
    QVERIFY(seeded.out != base.out);
    QCOMPARE(nlohmann::json::parse(seeded.out)["graph"]["seed"].get<int>(), 99);
    Run set = cli({"eval", QString::fromStdString(island()), "--set", "rocks.radius=20", "--set=chests.export=false"});
    QCOMPARE(set.code, 0);
    const auto j = nlohmann::json::parse(set.out);
    QCOMPARE(j["layers"].size(), size_t(1));
    QCOMPARE(j["layers"][0]["points"][0]["r"].get<double>(), 20.0);
}

void TestCli::badOverrideExitsOneAndWritesNothing()
{
    const std::string out = path("out.json");
    writeFile(out, "previous export\n");
    Run r = cli({"eval", QString::fromStdString(island()), "--set", "rocks.raduis=20", "-o", QString::fromStdString(out)});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.find("error: --set rocks.raduis=20: unknown param 'raduis' for place_layer; did you mean 'radius'?") != std::string::npos, r.err.c_str());
    QCOMPARE(readFile(out), std::string("previous export\n"));
}

void TestCli::failedEvaluationIsLocatedAndWritesNothing()
{
    writeFile(path("huge.grove.yaml"), "grove: 1\nworld: {width: 1000000, height: 1000000}\nnodes:\n  dust:\n    type: place_layer\n    params: {radius: 0.001}\n");
    const std::string out = path("out.json");
    writeFile(out, "previous export\n");
    Run r = cli({"eval", QString::fromStdString(path("huge.grove.yaml")), "-o", QString::fromStdString(out)});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.find(path("huge.grove.yaml") + ":4:3: error: node 'dust' (place_layer): at radius 0.001 on a 1000000 x 1000000 world") == 0, r.err.c_str());
    QCOMPARE(readFile(out), std::string("previous export\n"));
    // the limit can be lowered from the command line
    Run low = cli({"eval", QString::fromStdString(island()), "--max-points", "3"});
    QCOMPARE(low.code, 1);
    QVERIFY2(low.err.find("this layer could make up to 38 points, over the limit of 3 per layer") != std::string::npos, low.err.c_str());
}

void TestCli::splitWritesOneFilePerLayer()
{
    const std::string folder = path("layers");
    Run r = cli({"eval", QString::fromStdString(island()), "--split", "-o", QString::fromStdString(folder)});
    QCOMPARE(r.code, 0);
    const auto chests = nlohmann::json::parse(readFile(folder + "/chests.json"));
    const auto rocks = nlohmann::json::parse(readFile(folder + "/rocks.json"));
    QCOMPARE(chests["layers"].size(), size_t(1));
    QCOMPARE(rocks["layers"][0]["name"].get<std::string>(), std::string("rocks"));
    Run csv = cli({"eval", QString::fromStdString(island()), "--split", "--format", "csv", "-o", QString::fromStdString(folder)});
    QCOMPARE(csv.code, 0);
    QVERIFY(readFile(folder + "/rocks.csv").rfind("layer,id,x,y,r,type,rot,scale\nrocks,0,", 0) == 0);
}

// A 300-byte layer name made the split export fail on its file name after the first layers
// were written (half results); names are clipped to fit instead.
void TestCli::splitClipsLongLayerNames()
{
    const std::string longName(300, 'x');
    writeFile(path("long.grove.yaml"), "grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n"
                                       "  a:\n    type: place_layer\n    params: {radius: 40}\n"
                                       "  b:\n    type: place_layer\n    params: {radius: 40, name: " + longName + "}\n"
                                       "  c:\n    type: place_layer\n    params: {radius: 40, name: " + longName + "y}\n");
    const std::string folder = path("layers");
    Run r = cli({"eval", QString::fromStdString(path("long.grove.yaml")), "--split", "--format", "tiled", "-o",
                 QString::fromStdString(folder)});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err, std::string());
    QVERIFY(!readFile(folder + "/a.tiled.json").empty());
    const auto b = nlohmann::json::parse(readFile(folder + "/" + std::string(200, 'x') + ".tiled.json"));
    QCOMPARE(b["layers"][0]["name"].get<std::string>(), longName);  // the export keeps the whole name
    QVERIFY(!readFile(folder + "/" + std::string(200, 'x') + "_2.tiled.json").empty());
}

// `-o out.json --png FOLDER` wrote out.json, then failed on the PNG: both are checked first now.
void TestCli::folderAsDestinationWritesNothing()
{
    const QString out = QString::fromStdString(path("out.json"));
    const QString folder = m_dir->path();
    Run png = cli({"eval", QString::fromStdString(island()), "-o", out, "--png", folder});
    QCOMPARE(png.code, 1);
    QCOMPARE(png.err, "grove-cli: cannot write " + folder.toStdString() + ": it is a folder\n");
    QVERIFY(!QFile::exists(out));
    Run json = cli({"eval", QString::fromStdString(island()), "-o", folder});
    QCOMPARE(json.code, 1);
    QCOMPARE(json.err, "grove-cli: cannot write " + folder.toStdString() + ": it is a folder\n");
    QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), qsizetype(0));
}

// --split onto a file is refused before anything is written, with the reason the editor's export
// dialog gives (tst_preview_dock holds both to one writer), and the file is left as it was.
void TestCli::splitOntoAFileWritesNothing()
{
    const std::string taken = path("taken");
    writeFile(taken, "keep me");
    Run r = cli({"eval", QString::fromStdString(island()), "--split", "-o", QString::fromStdString(taken), "--png",
                 QString::fromStdString(path("map.png"))});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err, "grove-cli: cannot write into " + taken + ": it is a file, and one file per layer needs a folder\n");
    QCOMPARE(readFile(taken), std::string("keep me"));
    QVERIFY(!QFile::exists(QString::fromStdString(path("map.png"))));
    Run dash = cli({"eval", QString::fromStdString(island()), "--split", "-o", "-"});
    QCOMPARE(dash.code, 2);
    QVERIFY2(dash.err.find("--split needs -o FOLDER") != std::string::npos, dash.err.c_str());
}

void TestCli::layersFilter()
{
    Run r = cli({"eval", QString::fromStdString(island()), "--layers", "rocks"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["layers"].size(), size_t(1));
    QCOMPARE(j["layers"][0]["node"].get<std::string>(), std::string("rocks"));
    Run bad = cli({"eval", QString::fromStdString(island()), "--layers", "rokcs"});
    QCOMPARE(bad.code, 1);
    QVERIFY(bad.err.find("--layers: no exported layer 'rokcs'; did you mean 'rocks'?") != std::string::npos);
}

void TestCli::csvAndTiled()
{
    Run csv = cli({"eval", QString::fromStdString(island()), "--format", "csv"});
    QCOMPARE(csv.code, 0);
    QVERIFY(csv.out.rfind("layer,id,x,y,r,type,rot,scale\nchests,0,", 0) == 0);
    Run tiled = cli({"eval", QString::fromStdString(island()), "--format", "tiled"});
    QCOMPARE(tiled.code, 0);
    const auto j = nlohmann::json::parse(tiled.out);
    QCOMPARE(j["type"].get<std::string>(), std::string("map"));
    QCOMPARE(j["layers"][0]["type"].get<std::string>(), std::string("objectgroup"));
    QCOMPARE(j["layers"][0]["objects"][0]["point"].get<bool>(), true);
    QCOMPARE(j["layers"][1]["name"].get<std::string>(), std::string("rocks"));
}

// The same graph from two checkouts gives the same bytes: an export names the graph's file, never
// its folders (which once leaked local paths into game data).
void TestCli::exportsDoNotDependOnTheGraphsFolder()
{
    const std::string text = readFile(sourceDir() + "/presets/island_world.grove.yaml");
    const QString near = QString::fromStdString(path("checkout-a"));
    const QString deep = QString::fromStdString(path("deeper/still/checkout-b"));
    QVERIFY(QDir().mkpath(near) && QDir().mkpath(deep));
    writeFile(near.toStdString() + "/island_world.grove.yaml", text);
    writeFile(deep.toStdString() + "/island_world.grove.yaml", text);
    for (const char *format : {"json", "csv", "tiled"}) {
        Run a = cli({"eval", near + "/island_world.grove.yaml", "--format", format});
        Run b = cli({"eval", "still/checkout-b/island_world.grove.yaml", "--format", format},
                    QString::fromStdString(path("deeper")));
        QCOMPARE(a.code, 0);
        QCOMPARE(b.code, 0);
        QVERIFY(a.out.size() > 1000);
        QVERIFY2(a.out == b.out, format);
        for (const std::string &folder : {m_dir->path().toStdString(), std::string("checkout"), std::string("deeper")})
            QVERIFY2(a.out.find(folder) == std::string::npos, (format + (": names " + folder)).c_str());
    }
    Run json = cli({"eval", near + "/island_world.grove.yaml"});
    QCOMPARE(nlohmann::json::parse(json.out)["graph"]["path"].get<std::string>(), std::string("island_world.grove.yaml"));
}

void TestCli::nodesCatalog()
{
    Run j = cli({"nodes", "--json"});
    QCOMPARE(j.code, 0);
    const auto catalog = nlohmann::json::parse(j.out);
    std::vector<std::string> types;
    for (const auto &n : catalog["nodes"])
        types.push_back(n["type"]);
    for (const char *t : {"value_noise", "threshold", "allowed_rule", "density", "place_layer"})
        QVERIFY2(std::find(types.begin(), types.end(), t) != types.end(), t);
    QCOMPARE(types.size(), registry().all().size());
    Run md = cli({"nodes", "--markdown"});
    QCOMPARE(md.code, 0);
    QVERIFY(md.out.find("### `place_layer` — Place Layer (exact)") != std::string::npos);
    QVERIFY(md.out.find("| `radius` | number | `20` | (0, 10000000] |") != std::string::npos);
    // records list their fields, and roles tell other tools what a port or param is for
    QVERIFY2(md.out.find("| `types` | record list | `[]` | {name, weight >= 0}, name unique |") != std::string::npos,
             md.out.c_str());
    QVERIFY(md.out.find("| `all` | points | the obstacles followed by this layer: wire it into the next layer (role: layer chain) |")
            != std::string::npos);
    for (const auto &n : catalog["nodes"]) {
        if (n["type"] != "place_layer")
            continue;
        QCOMPARE(n["outputs"][1]["role"].get<std::string>(), std::string("layer chain"));
        for (const auto &p : n["params"]) {
            if (p["name"] == "types") {
                QCOMPARE(p["fields"][1]["name"].get<std::string>(), std::string("weight"));
                QCOMPARE(p["fields"][1]["default"].get<double>(), 1.0);
                QCOMPARE(p["fields"][0]["required"].get<bool>(), true);
            }
            if (p["name"] == "export")
                QCOMPARE(p["role"].get<std::string>(), std::string("export switch"));
            if (p["name"] == "start_x")
                QCOMPARE(p["role"].get<std::string>(), std::string("position x"));
        }
    }
}

void TestCli::formatRewritesCanonically()
{
    const std::string messy = path("messy.grove.yaml");
    writeFile(messy, readFile(testsDir() + "/data/canonical/messy.grove.yaml"));
    Run check = cli({"format", "--check", QString::fromStdString(messy)});
    QCOMPARE(check.code, 1);
    Run fmt = cli({"format", QString::fromStdString(messy)});
    QCOMPARE(fmt.code, 0);
    QCOMPARE(readFile(messy), readFile(testsDir() + "/data/canonical/messy.expected.yaml"));
    QCOMPARE(cli({"format", "--check", QString::fromStdString(messy)}).code, 0);
}

void TestCli::statsReportEveryLayer()
{
    Run r = cli({"eval", QString::fromStdString(sourceDir() + "/presets/island_world.grove.yaml"), "--stats", "-o",
                 QString::fromStdString(path("out.json"))});
    QCOMPARE(r.code, 0);
    QStringList lines = QString::fromStdString(r.err).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QVERIFY(lines[0].startsWith("layer "));
    QVERIFY(lines[0].contains("tightest") && lines[0].contains("too close") && lines[0].contains("widest clearing"));
    const QStringList names{"chests", "rocks", "trees", "flowers"};
    for (int i = 0; i < 4; ++i) {
        const QStringList cols = lines[i + 1].split(' ', Qt::SkipEmptyParts);
        QCOMPARE(cols[0], names[i]);
        QVERIFY(cols[1].toInt() > 0);
        QCOMPARE(cols[3], QString("0"));  // pairs too close
    }
}

void TestCli::pngIsWrittenWithTheExport()
{
    const QString preset = QString::fromStdString(sourceDir() + "/presets/island_world.grove.yaml");
    Run r = cli({"eval", preset, "--png", QString::fromStdString(path("a.png")), "--png-size", "440", "-o",
                 QString::fromStdString(path("a.json"))});
    QCOMPARE(r.code, 0);
    const std::string png = readFile(path("a.png"));
    QCOMPARE(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    // IHDR: 440 x 240 (the world's aspect, longer side 440)
    auto be32 = [&](size_t at) {
        return (unsigned(std::uint8_t(png[at])) << 24) | (unsigned(std::uint8_t(png[at + 1])) << 16)
               | (unsigned(std::uint8_t(png[at + 2])) << 8) | unsigned(std::uint8_t(png[at + 3]));
    };
    QCOMPARE(be32(16), 440u);
    QCOMPARE(be32(20), 240u);
    Run again = cli({"eval", preset, "--png", QString::fromStdString(path("b.png")), "--png-size", "440", "-o", "-"});
    QCOMPARE(again.code, 0);
    QCOMPARE(readFile(path("b.png")), png);
    QCOMPARE(again.out, readFile(path("a.json")));
    // an unwritable picture writes nothing at all
    Run bad = cli({"eval", preset, "--png", "/nonexistent-grove/x.png", "-o", QString::fromStdString(path("c.json"))});
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.err.find("cannot write /nonexistent-grove/x.png") != std::string::npos, bad.err.c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(path("c.json"))));
    QCOMPARE(cli({"eval", preset, "--png-size", "3"}).code, 2);
}

void TestCli::benchTimesAGraphsLayers()
{
    Run r = cli({"bench", QString::fromStdString(sourceDir() + "/presets/scatter_methods.grove.yaml"), "--runs", "2"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.find("2 cold evaluations, medians") != std::string::npos, r.out.c_str());
    for (const char *layer : {"\nbridson ", "\ndarts ", "\njittered ", "\nrandom ", "\nwhole graph "})
        QVERIFY2(r.out.find(layer) != std::string::npos, layer);
    QVERIFY(r.out.find("points/s") != std::string::npos);
    QCOMPARE(cli({"bench", "--runs", "0"}).code, 2);
    QCOMPARE(cli({"bench", "--fast"}).code, 2);
}

QTEST_APPLESS_MAIN(TestCli)
#include "tst_cli.moc"
