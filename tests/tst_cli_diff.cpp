// grove-cli diff end to end: every outcome and exit status (0 same, 1 different, 2 trouble), the
// counts against a brute-force matching, the JSON for tools, the PNG's pixels, git revisions, a
// chunked world's untouched chunks kept with their ids, and clear errors for bad input. The
// matching itself: tst_pointdiff.
#include "CliRun.h"
#include "TestSupport.h"

#include "core/analysis/DiffImage.h"
#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

using namespace grove;
using namespace grove::test;

namespace {

// git in a scratch folder, with an identity and no system or global configuration; what it
// said when it failed
std::string gitFailure(const QString &dir, const QStringList &args)
{
    QProcess p;
    p.setProgram("git");
    p.setArguments(QStringList{"-c", "user.name=grove", "-c", "user.email=grove@example.org", "-c", "commit.gpgsign=false"} + args);
    p.setWorkingDirectory(dir);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("GIT_CONFIG_NOSYSTEM", "1");
    // an empty file of its own, not /dev/null: the test must not depend on the device being there
    const QString config = dir + "/../gitconfig";
    QFile(config).open(QIODevice::WriteOnly | QIODevice::Append);
    env.insert("GIT_CONFIG_GLOBAL", config);
    p.setProcessEnvironment(env);
    p.start();
    if (!p.waitForFinished(60000))
        return "git " + args.join(' ').toStdString() + ": " + p.errorString().toStdString();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return "git " + args.join(' ').toStdString() + ": exit " + std::to_string(p.exitCode()) + ": "
               + p.readAllStandardError().toStdString();
    return {};
}

#define GIT(dir, ...)                                                                                                  \
    do {                                                                                                               \
        const std::string failure = gitFailure(dir, __VA_ARGS__);                                                      \
        QVERIFY2(failure.empty(), failure.c_str());                                                                    \
    } while (false)

std::string island()
{
    return sourceDir() + "/presets/island_world.grove.yaml";
}

std::string replaced(std::string text, const std::string &from, const std::string &to)
{
    const std::size_t at = text.find(from);
    if (at == std::string::npos)
        qFatal("'%s' not in the text", from.c_str());
    return text.replace(at, from.size(), to);
}

// The line of `out` that starts with `prefix`.
std::string lineOf(const std::string &out, const std::string &prefix)
{
    std::size_t at = out.rfind("\n" + prefix, std::string::npos);
    at = out.rfind(prefix, 0) == 0 ? 0 : (at == std::string::npos ? at : at + 1);
    if (at == std::string::npos)
        return "(no line " + prefix + ")";
    return out.substr(at, out.find('\n', at) - at);
}

// A graph's exported layers, evaluated in-process.
std::vector<PointLayerPtr> layersOfGraph(const std::string &file)
{
    LoadResult loaded = loadGraphFile(file, registry());
    if (!loaded.ok())
        qFatal("%s", formatAll(loaded.diagnostics).c_str());
    const std::vector<std::string> ids = exportedLayers(loaded.graph, registry());
    EvalRequest request;
    request.targets = ids;
    Evaluator evaluator(registry());
    const EvalResult result = evaluator.evaluate(loaded.graph, request);
    if (!result.ok())
        qFatal("%s", formatAll(result.diagnostics).c_str());
    return layersOf(result, ids);
}

// The counts line of two layers by brute force: exact positions first (same id first), then every
// pair within the tolerance sorted by (squared distance, old index, new index), taken greedily.
std::string bruteForceLine(const PointLayer &a, const PointLayer &b)
{
    const std::size_t na = a.points.size(), nb = b.points.size();
    std::vector<long> om(na, -1), nm(nb, -1);
    auto same = [](const PointXYR &p, const PointXYR &s) {
        return std::bit_cast<std::uint64_t>(p.x) == std::bit_cast<std::uint64_t>(s.x)
               && std::bit_cast<std::uint64_t>(p.y) == std::bit_cast<std::uint64_t>(s.y);
    };
    std::size_t kept = 0, sameId = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < na; ++i)
            for (std::size_t j = 0; j < nb && om[i] < 0; ++j)
                if (nm[j] < 0 && same(a.points[i], b.points[j]) && (pass == 1 || a.idOf(i) == b.idOf(j))) {
                    om[i] = long(j), nm[j] = long(i);
                    ++kept;
                    sameId += a.idOf(i) == b.idOf(j);
                }
    double tolerance = 0;
    for (const auto *l : {&a, &b})
        for (const PointXYR &p : l->points)
            tolerance = std::max(tolerance, p.r);
    struct Pair
    {
        double d2;
        std::size_t i, j;
    };
    std::vector<Pair> pairs;
    for (std::size_t i = 0; i < na; ++i)
        for (std::size_t j = 0; j < nb; ++j) {
            const double dx = b.points[j].x - a.points[i].x, dy = b.points[j].y - a.points[i].y, d2 = dx * dx + dy * dy;
            if (om[i] < 0 && nm[j] < 0 && d2 <= tolerance * tolerance)
                pairs.push_back({d2, i, j});
        }
    std::sort(pairs.begin(), pairs.end(), [](const Pair &l, const Pair &r) {
        return std::tie(l.d2, l.i, l.j) < std::tie(r.d2, r.i, r.j);
    });
    std::size_t moved = 0;
    for (const Pair &p : pairs)
        if (om[p.i] < 0 && nm[p.j] < 0) {
            om[p.i] = long(p.j), nm[p.j] = long(p.i);
            ++moved;
        }
    std::string line = a.info.name + ": " + std::to_string(kept) + " kept (" + std::to_string(sameId) + " same id";
    if (kept != sameId)
        line += ", " + std::to_string(kept - sameId) + " renumbered";
    return line + "), " + std::to_string(moved) + " moved, " + std::to_string(nb - kept - moved) + " added, "
           + std::to_string(na - kept - moved) + " removed";
}

// A grove.points export with one layer "trees" of (id, x, y) points of radius r.
std::string jsonExport(const std::vector<std::array<double, 3>> &points, double r = 5, const std::string &layer = "trees")
{
    std::string text = "{\n  \"format\": \"grove.points\",\n  \"formatVersion\": 1,\n"
                       "  \"bounds\": {\"minX\": 0, \"minY\": 0, \"maxX\": 400, \"maxY\": 200},\n"
                       "  \"layers\": [{\"name\": \"" + layer + "\", \"node\": \"n\", \"count\": 0, \"types\": [], \"points\": [";
    for (std::size_t i = 0; i < points.size(); ++i)
        text += (i ? ",\n    " : "\n    ") + std::string("{\"id\": ") + formatNumber(points[i][0]) + ", \"x\": "
                + formatNumber(points[i][1]) + ", \"y\": " + formatNumber(points[i][2]) + ", \"r\": " + formatNumber(r)
                + ", \"t\": 0, \"rot\": 0, \"s\": 1}";
    return text + "]}]\n}\n";
}

// The hand-made pair: ids 0 and 5 kept, 3 kept renumbered (as 7), 1 moved by exactly the radius 5,
// 2 moved by 6 (beyond the radius: removed and added as 2), 4 removed, 9 added.
const std::vector<std::array<double, 3>> kOld = {{0, 10, 10}, {1, 50, 50}, {2, 100, 100}, {3, 200, 100}, {4, 300, 150}, {5, 380, 20}};
const std::vector<std::array<double, 3>> kNew = {{0, 10, 10}, {1, 53, 54}, {2, 106, 100}, {7, 200, 100}, {5, 380, 20}, {9, 30, 180}};

} // namespace

class TestCliDiff : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void identicalGraphsAreTheSame();
    void radiusChangeCountsAsBruteForce();
    void movedWithinTheToleranceExactly();
    void layerRenamedIsRemovedAndAdded();
    void jsonForTools();
    void pngPaintsTheChanges();
    void csvExportsAsJsonExports();
    void gitRevisions();
    void chunkedEditKeepsFarPointsWithTheirIds();
    void badInputIsTrouble_data();
    void badInputIsTrouble();
    void brokenGraphsAndExportsAreLocated();

private:
    std::unique_ptr<QTemporaryDir> m_dir;  // a fresh folder for each test function, removed after the last
    std::string path(const std::string &name) const { return m_dir->path().toStdString() + "/" + name; }
};

void TestCliDiff::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCliDiff::identicalGraphsAreTheSame()
{
    const Run r = cli({"diff", q(island()), q(island())});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    QCOMPARE(lineOf(r.out, "trees:"), std::string("trees: 454 kept (454 same id), 0 moved, 0 added, 0 removed"));
    QCOMPARE(lineOf(r.out, "total:"), std::string("total: 1588 kept (1588 same id), 0 moved, 0 added, 0 removed: the same"));
    // --set and --seed go to both sides: still the same
    QCOMPARE(cli({"diff", q(island()), q(island()), "--set", "trees.radius=14", "--seed", "9"}).code, 0);
}

void TestCliDiff::radiusChangeCountsAsBruteForce()
{
    writeFile(path("new.grove.yaml"), replaced(readFile(island()), "      radius: 11\n", "      radius: 12\n"));
    const Run r = cli({"diff", q(island()), q(path("new.grove.yaml"))});
    QCOMPARE(r.code, 1);
    const auto before = layersOfGraph(island()), after = layersOfGraph(path("new.grove.yaml"));
    QCOMPARE(before.size(), std::size_t(4));
    for (std::size_t i = 0; i < before.size(); ++i)
        QCOMPARE(lineOf(r.out, before[i]->info.name + ":"), bruteForceLine(*before[i], *after[i]));
    // trees and the flowers placed around them change; chests and rocks come before them
    QCOMPARE(lineOf(r.out, "rocks:"), std::string("rocks: 103 kept (103 same id), 0 moved, 0 added, 0 removed"));
    QVERIFY(lineOf(r.out, "total:").ends_with(": different"));
}

void TestCliDiff::movedWithinTheToleranceExactly()
{
    writeFile(path("old.json"), jsonExport(kOld));
    writeFile(path("new.json"), jsonExport(kNew));
    Run r = cli({"diff", q(path("old.json")), q(path("new.json"))});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.out, std::string("trees: 3 kept (2 same id, 1 renumbered), 1 moved, 2 added, 2 removed\n"
                                "total: 3 kept (2 same id, 1 renumbered), 1 moved, 2 added, 2 removed: different\n"));
    // a wider tolerance matches the point that moved by 6
    r = cli({"diff", q(path("old.json")), q(path("new.json")), "--tolerance", "6"});
    QCOMPARE(lineOf(r.out, "trees:"), std::string("trees: 3 kept (2 same id, 1 renumbered), 2 moved, 1 added, 1 removed"));
    // 0: only exact positions
    r = cli({"diff", q(path("old.json")), q(path("new.json")), "--tolerance=0"});
    QCOMPARE(lineOf(r.out, "trees:"), std::string("trees: 3 kept (2 same id, 1 renumbered), 0 moved, 3 added, 3 removed"));
    // only renumbered: different (ids are what engines keep), exit 1
    writeFile(path("renumbered.json"), jsonExport({{0, 10, 10}, {8, 50, 50}}));
    writeFile(path("base.json"), jsonExport({{0, 10, 10}, {1, 50, 50}}));
    r = cli({"diff", q(path("base.json")), q(path("renumbered.json"))});
    QCOMPARE(r.code, 1);
    QCOMPARE(lineOf(r.out, "trees:"), std::string("trees: 2 kept (1 same id, 1 renumbered), 0 moved, 0 added, 0 removed"));
    // two old points as near to one new point: the lower old index takes it
    writeFile(path("tieOld.json"), jsonExport({{0, 100, 100}, {1, 104, 100}}));
    writeFile(path("tieNew.json"), jsonExport({{0, 102, 100}}));
    const auto j = nlohmann::json::parse(cli({"diff", q(path("tieOld.json")), q(path("tieNew.json")), "--json"}).out);
    QCOMPARE(j["layers"][0]["moved"][0]["from"]["id"].get<int>(), 0);
    QCOMPARE(j["layers"][0]["removed"][0]["id"].get<int>(), 1);
}

void TestCliDiff::layerRenamedIsRemovedAndAdded()
{
    std::string renamed = readFile(island());
    renamed.replace(renamed.find("      radius: 34\n"), 17, "      radius: 34\n      name: stones\n");
    writeFile(path("renamed.grove.yaml"), renamed);
    const Run r = cli({"diff", q(island()), q(path("renamed.grove.yaml"))});
    QCOMPARE(r.code, 1);
    QCOMPARE(lineOf(r.out, "rocks:"), std::string("rocks: only in OLD, 103 removed"));
    QCOMPARE(lineOf(r.out, "stones:"), std::string("stones: only in NEW, 103 added"));
    QCOMPARE(lineOf(r.out, "trees:"), std::string("trees: 454 kept (454 same id), 0 moved, 0 added, 0 removed"));
    // and the other way round, with the layer left out of the export
    writeFile(path("unexported.grove.yaml"),
              replaced(readFile(island()), "      scale: [0.9, 1.2]\n    expect: [count >= 380",
                       "      scale: [0.9, 1.2]\n      export: false\n    expect: [count >= 380"));
    const Run u = cli({"diff", q(island()), q(path("unexported.grove.yaml"))});
    QCOMPARE(u.code, 1);
    QCOMPARE(lineOf(u.out, "trees:"), std::string("trees: only in OLD, 454 removed"));
}

void TestCliDiff::jsonForTools()
{
    writeFile(path("old.json"), jsonExport(kOld));
    writeFile(path("new.json"), jsonExport(kNew));
    const Run r = cli({"diff", q(path("old.json")), q(path("new.json")), "--json"});
    QCOMPARE(r.code, 1);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["format"].get<std::string>(), std::string("grove.diff"));
    QCOMPARE(j["formatVersion"].get<int>(), 1);
    QCOMPARE(j["old"].get<std::string>(), path("old.json"));
    QCOMPARE(j["same"].get<bool>(), false);
    QCOMPARE(j["layers"].size(), std::size_t(1));
    const auto &l = j["layers"][0];
    QCOMPARE(l["name"].get<std::string>(), std::string("trees"));
    QCOMPARE(l["tolerance"].get<double>(), 5.0);
    QCOMPARE(l["oldCount"].get<int>(), 6);
    QCOMPARE(l["newCount"].get<int>(), 6);
    const nlohmann::json counts = {{"kept", 3}, {"keptSameId", 2}, {"renumbered", 1}, {"moved", 1}, {"added", 2}, {"removed", 2}};
    QCOMPARE(l["counts"], counts);
    QCOMPARE(j["total"], counts);
    QCOMPARE(l["renumbered"].size(), std::size_t(1));
    QCOMPARE(l["renumbered"][0]["from"]["id"].get<int>(), 3);
    QCOMPARE(l["renumbered"][0]["to"]["id"].get<int>(), 7);
    QCOMPARE(l["moved"].size(), std::size_t(1));
    QCOMPARE(l["moved"][0]["from"]["id"].get<int>(), 1);
    QCOMPARE(l["moved"][0]["to"]["x"].get<double>(), 53.0);
    QCOMPARE(l["moved"][0]["to"]["y"].get<double>(), 54.0);
    QCOMPARE(l["moved"][0]["distance"].get<double>(), 5.0);
    // removed in old order, added in new order, each with id, x, y, r
    QCOMPARE(l["removed"][0]["id"].get<int>(), 2);
    QCOMPARE(l["removed"][1]["id"].get<int>(), 4);
    QCOMPARE(l["added"][0]["id"].get<int>(), 2);
    QCOMPARE(l["added"][0]["x"].get<double>(), 106.0);
    QCOMPARE(l["added"][1]["id"].get<int>(), 9);
    QCOMPARE(l["added"][1]["r"].get<double>(), 5.0);
    // the same graphs: "same" and empty lists
    const auto s = nlohmann::json::parse(cli({"diff", q(island()), q(island()), "--json"}).out);
    QCOMPARE(s["same"].get<bool>(), true);
    QCOMPARE(s["layers"].size(), std::size_t(4));
    QCOMPARE(s["layers"][2]["added"].size(), std::size_t(0));
}

void TestCliDiff::pngPaintsTheChanges()
{
    writeFile(path("old.json"), jsonExport(kOld));
    writeFile(path("new.json"), jsonExport(kNew));
    const Run r = cli({"diff", q(path("old.json")), q(path("new.json")), "--png", q(path("diff.png"))});
    QCOMPARE(r.code, 1);
    QImage image(q(path("diff.png")));
    QCOMPARE(image.size(), QSize(1024, 512));  // the bounds 400 x 200, the longer side 1024
    const double scale = 1024.0 / 400;
    auto at = [&](double x, double y) {
        const QRgb c = image.pixel(int(x * scale), int(y * scale));
        return Rgb{std::uint8_t(qRed(c)), std::uint8_t(qGreen(c)), std::uint8_t(qBlue(c))};
    };
    QCOMPARE(at(300, 150), kDiffRemoved);  // id 4, removed
    QCOMPARE(at(30, 180), kDiffAdded);     // id 9, added
    QCOMPARE(at(10, 10), kDiffKept);       // kept
    QCOMPARE(at(380, 20), kDiffKept);
    QCOMPARE(at(51.5, 52), kDiffMoved);    // on the arrow from (50, 50) to (53, 54)
    QCOMPARE(at(250, 50), kDiffBackground);
    // nothing else in the folder: written atomically
    QCOMPARE(listDir(m_dir->path().toStdString()), (std::vector<std::string>{"diff.png", "new.json", "old.json"}));
    // a graph's picture has the world's proportions: 880 x 480
    QCOMPARE(cli({"diff", q(island()), q(island()), "--png", q(path("same.png")), "--png-size", "440"}).code, 0);
    QCOMPARE(QImage(q(path("same.png"))).size(), QSize(440, 240));
}

void TestCliDiff::csvExportsAsJsonExports()
{
    writeFile(path("new.grove.yaml"), replaced(readFile(island()), "      radius: 6\n", "      radius: 6.5\n"));
    for (const char *format : {"json", "csv"}) {
        QCOMPARE(cli({"eval", q(island()), "--format", format, "-o", q(path(std::string("a.") + format))}).code, 0);
        QCOMPARE(cli({"eval", q(path("new.grove.yaml")), "--format", format, "-o", q(path(std::string("b.") + format))}).code, 0);
    }
    const Run graphs = cli({"diff", q(island()), q(path("new.grove.yaml"))});
    const Run json = cli({"diff", q(path("a.json")), q(path("b.json"))});
    const Run csv = cli({"diff", q(path("a.csv")), q(path("b.csv"))});
    QCOMPARE(graphs.code, 1);
    QCOMPARE(json.code, 1);
    QCOMPARE(csv.code, 1);
    QCOMPARE(json.out, graphs.out);  // the exports' numbers are the core's doubles, bit for bit
    QCOMPARE(csv.out, graphs.out);
    QCOMPARE(lineOf(graphs.out, "trees:"), std::string("trees: 454 kept (454 same id), 0 moved, 0 added, 0 removed"));
    QVERIFY(!lineOf(graphs.out, "flowers:").starts_with("flowers: 1024 kept"));
}

void TestCliDiff::gitRevisions()
{
    if (QStandardPaths::findExecutable("git").isEmpty())
        QSKIP("git is not installed");
    const QString repo = m_dir->path() + "/repo";
    QVERIFY(QDir().mkpath(repo + "/sub"));
    // a graph that reads a file next to it: a revision resolves it in the working tree
    const std::string graph = "grove: 1\nworld: {width: 400, height: 300, seed: 3}\nnodes:\n"
                              "  houses:\n    type: points_file\n    params: {path: houses.csv}\n"
                              "  trees:\n    type: place_layer\n    inputs: {obstacles: houses}\n    params: {radius: 9}\n";
    writeFile(repo.toStdString() + "/sub/world.grove.yaml", graph);
    writeFile(repo.toStdString() + "/sub/houses.csv", "x,y,r\n100,100,30\n");
    GIT(repo, {"init", "-q"});
    GIT(repo, {"add", "."});
    GIT(repo, {"commit", "-q", "-m", "world"});

    Run r = cli({"diff", "HEAD:sub/world.grove.yaml", "sub/world.grove.yaml"}, repo);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.empty(), r.err.c_str());
    // git's rule: ./ is relative to the current folder
    QCOMPARE(cli({"diff", "HEAD:./world.grove.yaml", "world.grove.yaml"}, repo + "/sub").code, 0);
    // a change in the working tree
    writeFile(repo.toStdString() + "/sub/world.grove.yaml", replaced(graph, "radius: 9", "radius: 10"));
    r = cli({"diff", "HEAD:sub/world.grove.yaml", "sub/world.grove.yaml"}, repo);
    QCOMPARE(r.code, 1);
    QVERIFY(lineOf(r.out, "total:").ends_with(": different"));
    QVERIFY2(lineOf(r.out, "trees:").find("0 kept") != std::string::npos, r.out.c_str());  // every tree grew
    // two revisions
    GIT(repo, {"commit", "-q", "-a", "-m", "bigger trees"});
    QCOMPARE(cli({"diff", "HEAD~1:sub/world.grove.yaml", "HEAD:sub/world.grove.yaml"}, repo).out, r.out);

    // trouble, in one line with git's reason
    r = cli({"diff", "nosuchrev:sub/world.grove.yaml", "sub/world.grove.yaml"}, repo);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, std::string("grove-cli: diff: OLD nosuchrev:sub/world.grove.yaml: git cannot give it: invalid object name 'nosuchrev'.\n"));
    r = cli({"diff", "HEAD:sub/gone.grove.yaml", "sub/world.grove.yaml"}, repo);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, std::string("grove-cli: diff: OLD HEAD:sub/gone.grove.yaml: git cannot give it: path 'sub/gone.grove.yaml' does not exist in 'HEAD'\n"));
    r = cli({"diff", "HEAD:sub", "sub/world.grove.yaml"}, repo);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, std::string("grove-cli: diff: OLD HEAD:sub: git cannot give it: HEAD:sub is a tree in git, not a file\n"));
    // a broken graph in a revision: its located errors, named by the revision
    writeFile(repo.toStdString() + "/sub/broken.grove.yaml", replaced(graph, "radius: 9", "radius: -9"));
    GIT(repo, {"add", "."});
    GIT(repo, {"commit", "-q", "-m", "broken"});
    r = cli({"diff", "HEAD:sub/broken.grove.yaml", "sub/world.grove.yaml"}, repo);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.starts_with("HEAD:sub/broken.grove.yaml:10:22: error: param 'radius': -9 is out of range"), r.err.c_str());

    // outside any repository (git stops looking above the scratch folder)
    const QString outside = m_dir->path() + "/outside";
    QVERIFY(QDir().mkpath(outside));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("GIT_CEILING_DIRECTORIES", m_dir->path());
    writeFile(outside.toStdString() + "/world.grove.yaml", graph);
    r = cli({"diff", "HEAD:world.grove.yaml", "world.grove.yaml"}, outside, env);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, std::string("grove-cli: diff: OLD HEAD:world.grove.yaml: git cannot give it: not a git repository "
                                "(or any of the parent directories): .git\n"));
}

void TestCliDiff::chunkedEditKeepsFarPointsWithTheirIds()
{
    // as tst_chunks idsStayWhenAHouseIsAddedFarAway, through grove-cli: a house added in chunk
    // (10, 6) changes the chunks near it; every point more than four chunks away is kept, same id
    auto graphWith = [&](const std::string &name, const std::string &rows) {
        writeFile(path(name + ".csv"), "x,y,r\n" + rows);
        writeFile(path(name + ".grove.yaml"), "grove: 1\nworld: {width: 1536, height: 1024, seed: 4, chunk: 128}\nnodes:\n"
                                              "  houses:\n    type: points_file\n    params: {path: " + name + ".csv}\n"
                                              "  trees:\n    type: place_layer\n    inputs: {obstacles: houses}\n"
                                              "    params: {radius: 6}\n");
        return q(path(name + ".grove.yaml"));
    };
    const QString before = graphWith("before", "100,100,20\n"), after = graphWith("after", "100,100,20\n1300,800,30\n");
    const Run r = cli({"diff", before, after, "--json", "--threads", "2"});
    QCOMPARE(r.code, 1);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["layers"].size(), std::size_t(1));  // points_file does not export by default
    const auto &trees = j["layers"][0];
    QCOMPARE(trees["name"].get<std::string>(), std::string("trees"));
    const auto &c = trees["counts"];
    auto near = [](const nlohmann::json &p) {
        const int i = int(std::floor(p["x"].get<double>() / 128)), k = int(std::floor(p["y"].get<double>() / 128));
        return std::max(std::abs(i - 10), std::abs(k - 6)) <= 4;
    };
    QVERIFY(c["kept"].get<std::size_t>() > 2000);
    QVERIFY(c["moved"].get<int>() + c["added"].get<int>() + c["removed"].get<int>() > 0);
    // near the house a point can land where another was: kept, renumbered; never far away
    QCOMPARE(trees["renumbered"].size(), c["renumbered"].get<std::size_t>());
    for (const auto &m : trees["renumbered"])
        QVERIFY2(near(m["from"]), m.dump().c_str());
    for (const char *list : {"added", "removed"})
        for (const auto &p : trees[list])
            QVERIFY2(near(p), p.dump().c_str());
    for (const auto &m : trees["moved"])
        QVERIFY2(near(m["from"]) && near(m["to"]), m.dump().c_str());

    // the same with a region of a chunked world: only the chunks asked for are placed
    const Run region = cli({"diff", before, after, "--region", "0,0,512,512"});
    QCOMPARE(region.code, 0);
    QVERIFY2(lineOf(region.out, "trees:").find(" 0 moved, 0 added, 0 removed") != std::string::npos, region.out.c_str());
}

void TestCliDiff::badInputIsTrouble_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString a = q(sourceDir() + "/presets/island_world.grove.yaml");
    QTest::newRow("one input") << QStringList{"diff", a} << "grove-cli: diff: diff needs two inputs: OLD NEW";
    QTest::newRow("three inputs") << QStringList{"diff", a, a, a} << "diff takes two inputs, OLD and NEW (a third:";
    QTest::newRow("unknown flag") << QStringList{"diff", a, a, "--colour"} << "unknown option for diff: --colour";
    QTest::newRow("bad tolerance") << QStringList{"diff", a, a, "--tolerance", "-1"} << "--tolerance takes a distance";
    QTest::newRow("nan tolerance") << QStringList{"diff", a, a, "--tolerance", "nan"} << "--tolerance takes a distance";
    QTest::newRow("png without file") << QStringList{"diff", a, a, "--png"} << "--png needs a FILE";
    QTest::newRow("bad threads") << QStringList{"diff", a, a, "--threads", "0"} << "--threads";
    QTest::newRow("missing file") << QStringList{"diff", "/no/such/world.grove.yaml", a}
                                  << "grove-cli: diff: OLD /no/such/world.grove.yaml: cannot read it: No such file or directory";
    QTest::newRow("a folder") << QStringList{"diff", a, q(sourceDir())} << "is a folder, not a file";
}

void TestCliDiff::badInputIsTrouble()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = cli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());
}

void TestCliDiff::brokenGraphsAndExportsAreLocated()
{
    writeFile(path("a.json"), jsonExport(kOld));
    QCOMPARE(cli({"eval", q(island()), "--format", "csv", "-o", q(path("a.csv"))}).code, 0);
    QCOMPARE(cli({"eval", q(island()), "--format", "tiled", "-o", q(path("a.tiled.json"))}).code, 0);
    Run r = cli({"diff", q(path("a.json")), q(path("a.csv"))});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, "grove-cli: diff: OLD " + path("a.json") + " is a grove.points JSON export, NEW " + path("a.csv")
                        + " is a CSV export: compare two graphs, or two exports of one format\n");
    r = cli({"diff", q(island()), q(path("a.json"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.find("is a graph, NEW " + path("a.json") + " is a grove.points JSON export") != std::string::npos, r.err.c_str());
    r = cli({"diff", q(path("a.tiled.json")), q(path("a.tiled.json"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.find("is JSON that is not a grove.points export") != std::string::npos, r.err.c_str());
    // a point without x, a syntax error: FILE:LINE:COL
    std::string noX = jsonExport({{0, 1, 2}, {1, 3, 4}});
    noX = replaced(noX, "\"x\": 3, ", "");
    writeFile(path("nox.json"), noX);
    r = cli({"diff", q(path("nox.json")), q(path("a.json"))});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, path("nox.json") + ":7:5: error: point 1 of layer 'trees' has no x\n");
    writeFile(path("cut.json"), jsonExport(kOld).substr(0, 200));
    r = cli({"diff", q(path("a.json")), q(path("cut.json"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.starts_with(path("cut.json") + ":"), r.err.c_str());
    QVERIFY2(r.err.find(": error: not valid JSON") != std::string::npos, r.err.c_str());
    writeFile(path("bad.csv"), "layer,id,x,y,r\ntrees,0,1,2,3\ntrees,1,one,2,3\n");
    r = cli({"diff", q(path("bad.csv")), q(path("a.csv"))});
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err, path("bad.csv") + ":3:1: error: x 'one' is not a number\n");
    // a graph that does not validate: its located diagnostics, exit 2 (not 1: that is "different")
    const std::string bad = replaced(readFile(island()), "      radius: 11\n", "      radius: eleven\n");
    writeFile(path("bad.grove.yaml"), bad);
    const auto badLine = std::count(bad.begin(), bad.begin() + static_cast<std::ptrdiff_t>(bad.find("radius: eleven")), '\n') + 1;
    r = cli({"diff", q(island()), q(path("bad.grove.yaml"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.starts_with(path("bad.grove.yaml") + ":" + std::to_string(badLine) + ":15: error:"), r.err.c_str());
    // an endless world needs a region
    r = cli({"diff", q(testsDir() + "/data/chunks/endless.grove.yaml"), q(testsDir() + "/data/chunks/endless.grove.yaml")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.find("give the rectangle to compare with --region") != std::string::npos, r.err.c_str());
    QCOMPARE(cli({"diff", q(testsDir() + "/data/chunks/endless.grove.yaml"), q(testsDir() + "/data/chunks/endless.grove.yaml"),
                  "--region", "-300,-300,300,300"}).code, 0);
}

QTEST_GUILESS_MAIN(TestCliDiff)
#include "tst_cli_diff.moc"
