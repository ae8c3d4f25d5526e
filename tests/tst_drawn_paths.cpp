// Paths drawn in the editor, as the graph keeps them (place_path's `paths`): read and written one
// path a line, refused with the file, line, path and vertex at fault, and walked exactly as the
// same geometry in a shapes file, each path's points its own.
#include "TestSupport.h"

#include "core/graph/GraphWriter.h"
#include "core/graph/PathValue.h"

#include <QTemporaryDir>

using namespace grove;
using namespace grove::test;

namespace {

std::string graphWith(const std::string &params, const std::string &paths)
{
    return "grove: 1\nworld: {width: 300, height: 200, seed: 11}\nnodes:\n  p:\n    type: place_path\n    params:\n"
           + params + "      paths:\n" + paths;
}

struct Placed
{
    std::vector<std::uint64_t> ids;
    std::vector<PointXYR> points;
    std::vector<double> turns;
};

Placed placedOf(const EvalResult &r)
{
    Placed out;
    const PointSetPtr set = outputOf<PointSetPtr>(r, "p", "points");
    if (!set || set->layers.empty())
        return out;
    const PointLayer &l = *set->layers.front();
    for (std::size_t i = 0; i < l.points.size(); ++i) {
        out.ids.push_back(l.idOf(i));
        out.points.push_back(l.points[i]);
        out.turns.push_back(l.attributes(l.idOf(i)).rotation);
    }
    return out;
}

bool samePoints(const Placed &a, const Placed &b)
{
    if (a.ids != b.ids || a.turns != b.turns || a.points.size() != b.points.size())
        return false;
    for (std::size_t i = 0; i < a.points.size(); ++i)
        if (a.points[i].x != b.points[i].x || a.points[i].y != b.points[i].y || a.points[i].r != b.points[i].r)
            return false;
    return true;
}

} // namespace

class TestDrawnPaths : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    LoadResult loadIn(const std::string &text)
    {
        return loadGraphFromString(text, "drawn.grove.yaml", registry(), m_dir.path().toStdString());
    }

    Placed run(const std::string &text)
    {
        LoadResult loaded = loadIn(text);
        if (!loaded.ok())
            qFatal("%s", formatAll(loaded.diagnostics).c_str());
        const EvalResult r = evaluateGraph(loaded.graph);
        if (!r.ok())
            qFatal("%s", formatAll(r.diagnostics).c_str());
        return placedOf(r);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // One path a line in flow style (a moved vertex changes one line of a diff), closed always
    // written; the text read back saves to the same bytes, and the values are what was drawn.
    void drawnPathsRoundTripOnePathALine()
    {
        const std::string text = graphWith("      radius: 6\n", "        - {points: [[10, 20.5], [200, 30], [250, 150]], closed: false}\n"
                                                                  "        - {points: [[40, 60], [90, 60], [60, 110]], closed: true}\n");
        LoadResult loaded = loadIn(text);
        QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
        const std::string saved = saveGraphToString(loaded.graph, registry());
        QVERIFY2(saved.find("      paths:\n        - {points: [[10, 20.5], [200, 30], [250, 150]], closed: false}\n"
                            "        - {points: [[40, 60], [90, 60], [60, 110]], closed: true}\n") != std::string::npos,
                 saved.c_str());
        QCOMPARE(saveGraphToString(loadIn(saved).graph, registry()), saved);
        const std::vector<std::optional<DrawnPath>> paths = readPathList(*loaded.graph.node("p")->param("paths"));
        QCOMPARE(paths.size(), std::size_t(2));
        QVERIFY(paths[0] && !paths[0]->closed && paths[0]->points.size() == 3 && paths[0]->points[0].y == 20.5);
        QVERIFY(paths[1] && paths[1]->closed && paths[1]->points[2].x == 60);
        // closed may be left out (an open path), and is then written as read
        LoadResult bare = loadIn(graphWith("      radius: 6\n", "        - {points: [[10, 20], [200, 30]]}\n"));
        QVERIFY2(bare.ok(), formatAll(bare.diagnostics).c_str());
        QVERIFY(saveGraphToString(bare.graph, registry()).find("        - {points: [[10, 20], [200, 30]]}\n") != std::string::npos);
        QVERIFY(!readDrawnPath(bare.graph.node("p")->param("paths")->toList()[0])->closed);
        // a node without drawn paths saves no paths key: graphs from before keep their bytes
        LoadResult none = loadIn("grove: 1\nworld: {width: 300, height: 200, seed: 11}\nnodes:\n  p:\n    type: place_path\n"
                                 "    params: {path: a.geojson, paths: []}\n");
        QVERIFY2(none.ok(), formatAll(none.diagnostics).c_str());
        QVERIFY(saveGraphToString(none.graph, registry()).find("paths") == std::string::npos);
    }

    void badValuesAreLocated_data()
    {
        QTest::addColumn<QString>("paths");    // the lines under `paths:` (the first is line 9)
        QTest::addColumn<QString>("where");    // the diagnostic's YAML path
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        const QString ok = "        - {points: [[10, 20], [30, 40]], closed: false}\n";
        QTest::newRow("vertex not a pair") << ok + "        - {points: [[1, 2], [3, 4], [5]], closed: false}\n"
                                           << "nodes.p.params.paths[1].points[2]" << 10 << "path 1: vertex 2 must be [x, y], got 1 values";
        QTest::newRow("vertex not finite") << ok + ok + "        - {points: [[1, 2], [.inf, 4]]}\n"
                                           << "nodes.p.params.paths[2].points[1]" << 11 << "path 2: vertex 1 x must be a";
        QTest::newRow("vertex a string") << "        - {points: [[1, 2], [3, four]]}\n"
                                         << "nodes.p.params.paths[0].points[1]" << 9 << "path 0: vertex 1 y must be a number, got a string";
        QTest::newRow("open with one vertex") << ok + "        - {points: [[1, 2]]}\n" << "nodes.p.params.paths[1].points" << 10
                                              << "path 1: an open path needs 2 or more vertices, got 1";
        QTest::newRow("closed with two") << "        - {points: [[1, 2], [5, 6]], closed: true}\n" << "nodes.p.params.paths[0].points"
                                         << 9 << "path 0: a closed path needs 3 or more vertices, got 2";
        QTest::newRow("closed not a bool") << "        - {points: [[1, 2], [5, 6]], closed: 3}\n" << "nodes.p.params.paths[0].closed"
                                           << 9 << "path 0: closed must be true or false, got a number";
        QTest::newRow("unknown key") << ok + "        - {points: [[1, 2], [5, 6]], close: true}\n" << "nodes.p.params.paths[1].close"
                                     << 10 << "unknown key 'close' in a path (a path has points and closed); did you mean 'closed'?";
        QTest::newRow("no points") << "        - {closed: true}\n" << "nodes.p.params.paths[0]" << 9 << "a path needs points";
        QTest::newRow("not a map") << "        - [[1, 2], [3, 4]]\n" << "nodes.p.params.paths[0]" << 9 << "path 0: expected {points:";
        std::string many = "        - {points: [";
        for (int i = 0; i < 50'001; ++i)
            many += (i ? ", [" : "[") + std::to_string(i % 300) + ", 5]";
        QTest::newRow("too many vertices") << QString::fromStdString(many + "]}\n") << "nodes.p.params.paths[0].points" << 9
                                           << "a path holds at most 50000 vertices, got 50001";
        QString lots;
        for (int i = 0; i < 10'001; ++i)
            lots += ok;
        QTest::newRow("too many paths") << lots << "nodes.p.params.paths" << 9 << "a node keeps at most 10000 drawn paths, got 10001";
    }

    // A bad value is refused at load with the file, the line of the path (or vertex) at fault, and
    // which path and vertex it is; nothing is placed.
    void badValuesAreLocated()
    {
        QFETCH(QString, paths);
        QFETCH(QString, where);
        QFETCH(int, line);
        QFETCH(QString, message);
        const LoadResult loaded = loadIn(graphWith("      radius: 6\n", paths.toStdString()));
        QVERIFY(!loaded.ok());
        bool found = false;
        for (const Diagnostic &d : loaded.diagnostics)
            found = found || (d.file == "drawn.grove.yaml" && d.path == where.toStdString() && d.line == line
                              && d.message.find(message.toStdString()) != std::string::npos);
        QVERIFY2(found, formatAll(loaded.diagnostics).c_str());
    }

    // Drawn paths walk exactly as the same polyline and polygon in a GeoJSON file: the same
    // points, ids and turns, bit for bit.
    void drawnPathsPlaceAsTheSameGeometryInAFile()
    {
        writeFile(m_dir.filePath("same.geojson").toStdString(),
                  R"({"type": "FeatureCollection", "features": [)"
                  R"({"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[20, 30], [150.5, 60], [280, 20]]}}, )"
                  R"({"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[60, 100], [200, 110], [130, 180], [60, 100]]]}}]})");
        const std::string params = "      radius: 7\n      jitter: 0.6\n      offset: 2\n      side: both\n      start_margin: 5\n"
                                   "      types: [{name: oak, weight: 1}, {name: elm, weight: 2}]\n      rotation: [0, 20]\n";
        const Placed fromFile = run("grove: 1\nworld: {width: 300, height: 200, seed: 11}\nnodes:\n  p:\n    type: place_path\n"
                                    "    params:\n      path: same.geojson\n" + params);
        const Placed drawn = run(graphWith(params, "        - {points: [[20, 30], [150.5, 60], [280, 20]], closed: false}\n"
                                                   "        - {points: [[60, 100], [200, 110], [130, 180]], closed: true}\n"));
        QVERIFY(fromFile.points.size() > 40);
        QVERIFY(samePoints(drawn, fromFile));
        // a drawn closed path that repeats its first vertex at the end is the same ring
        const Placed repeated = run(graphWith(params, "        - {points: [[20, 30], [150.5, 60], [280, 20]], closed: false}\n"
                                                      "        - {points: [[60, 100], [200, 110], [130, 180], [60, 100]], closed: true}\n"));
        QVERIFY(samePoints(repeated, fromFile));
    }

    // Moving a vertex of one drawn path changes that path's points only: the other path keeps its
    // points, ids and turns (they stand far apart, so nothing of one is within the radius of the other).
    void editingOneDrawnPathLeavesTheOthersPoints()
    {
        const std::string params = "      radius: 6\n      jitter: 1\n      types: [{name: oak, weight: 1}, {name: elm, weight: 2}]\n"
                                   "      rotation: [0, 30]\n";
        const std::string other = "        - {points: [[180, 150], [290, 190]], closed: false}\n";
        const Placed before = run(graphWith(params, "        - {points: [[10, 10], [100, 30]], closed: false}\n" + other));
        const Placed after = run(graphWith(params, "        - {points: [[10, 10], [60, 50], [110, 20]], closed: false}\n" + other));
        const auto farOnes = [](const Placed &p) {
            Placed out;
            for (std::size_t i = 0; i < p.points.size(); ++i)
                if (p.points[i].x > 150) {
                    out.ids.push_back(p.ids[i]);
                    out.points.push_back(p.points[i]);
                    out.turns.push_back(p.turns[i]);
                }
            return out;
        };
        QVERIFY(farOnes(before).points.size() >= 8);
        QVERIFY(samePoints(farOnes(before), farOnes(after)));
        QVERIFY(!samePoints(before, after));  // the edited path did change
    }

    // The file is optional beside drawn paths. With neither, the node is a located problem that
    // says what to do; a drawn path with no length is one at that path.
    void aNodeWithoutPathsSaysWhatToDo()
    {
        const LoadResult empty = loadIn("grove: 1\nworld: {width: 300, height: 200, seed: 11}\nnodes:\n  p:\n    type: place_path\n"
                                        "    params: {radius: 6}\n");
        QVERIFY(!empty.ok());
        QVERIFY2(formatAll(empty.diagnostics).find("drawn.grove.yaml:6:") != std::string::npos
                     && formatAll(empty.diagnostics).find("no paths: set path to a shapes file") != std::string::npos
                     && formatAll(empty.diagnostics).find("Path tool") != std::string::npos,
                 formatAll(empty.diagnostics).c_str());
        QVERIFY(!run(graphWith("      radius: 6\n", "        - {points: [[10, 10], [100, 30]]}\n")).points.empty());
        LoadResult still = loadIn(graphWith("      radius: 6\n", "        - {points: [[10, 10], [100, 30]]}\n"
                                                                  "        - {points: [[50, 50], [50, 50], [50, 50]]}\n"));
        QVERIFY(still.ok());
        const EvalResult r = evaluateGraph(still.graph);
        QVERIFY(!r.ok());
        bool found = false;
        for (Diagnostic d : r.diagnostics) {
            locate(still, d);  // as grove-cli and the editor place it
            found = found || (d.path == "nodes.p.params.paths[1]" && d.line == 10 && d.message.find("drawn path 1 has no length") != std::string::npos);
        }
        QVERIFY2(found, formatAll(r.diagnostics).c_str());
        // a drawn path too long for its radius is named as drawn, not as a file's
        LoadResult dense = loadIn(graphWith("      radius: 0.000001\n", "        - {points: [[10, 10], [290, 190]]}\n"));
        QVERIFY(dense.ok());
        const std::string refused = formatAll(evaluateGraph(dense.graph).diagnostics);
        QVERIFY2(refused.find("(place_path): drawn path 0 of length") != std::string::npos, refused.c_str());
    }
};

QTEST_APPLESS_MAIN(TestDrawnPaths)
#include "tst_drawn_paths.moc"
