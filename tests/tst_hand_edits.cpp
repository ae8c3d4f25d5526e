// Hand edits on place_layer: pins are placed first, exported at exactly their x and y
// with their own type, rotation and scale, and kept clear of by their layer and every later one;
// erased areas stay empty and the rest fills as if they were not allowed; both survive upstream
// changes; in a chunked world an edit changes only the chunks near it, every other point keeping
// its position and id; saves stay readable and without edits unchanged.
#include "PointChecks.h"
#include "TestSupport.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphWriter.h"
#include "core/analysis/LayerStats.h"

#include "CliRun.h"

#include <QProcess>
#include <nlohmann/json.hpp>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

using namespace grove;
using namespace grove::test;

class TestHandEdits : public QObject
{
    Q_OBJECT

private slots:
    void pinsLeadTheLayerAndExportExactly();
    void theLayerAndLaterLayersKeepClearOfPins();
    void erasedAreasStayEmptyAndTheRestFillsAsIfNotAllowed();
    void editsSurviveAnUpstreamChange();
    void chunkedPinsAndIds();
    void aChunkedEraseChangesOnlyNearbyChunks();
    void groveCliDiffShowsTheEraseStayedLocal();
    void savesOmitEmptyEditsAndRoundTrip();
};

namespace {

EvalResult evaluate(const Graph &graph)
{
    EvalRequest request;
    request.limits.threads = 2;
    EvalResult r = evaluateGraph(graph, request);
    if (!r.ok())
        qFatal("%s", formatAll(r.diagnostics).c_str());
    return r;
}

PointLayerPtr layerOf(const EvalResult &result, const std::string &node)
{
    const PortValue v = result.outputWithRole(node, PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    return set && *set && !(*set)->layers.empty() ? (*set)->layers.back() : nullptr;
}

// Crossing number, edges half-open in y: the test a designer's polygon means.
bool insidePolygon(const std::vector<std::pair<double, double>> &poly, double x, double y)
{
    bool in = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        const auto [xi, yi] = poly[i];
        const auto [xj, yj] = poly[j];
        if ((yi > y) != (yj > y) && x < xi + (y - yi) * (xj - xi) / (yj - yi))
            in = !in;
    }
    return in;
}

const std::vector<std::pair<double, double>> kTriangle{{40, 40}, {260, 60}, {120, 230}};

// A chain: noise -> allowed rule -> trees (with the edits) -> rocks on trees' occupancy.
std::string islandWithEdits(double frequency, const std::string &world = "{width: 640, height: 480, seed: 11}")
{
    return "grove: 1\nworld: " + world + "\nnodes:\n"
           "  noise:\n    type: value_noise\n    params: {frequency: " + formatNumber(frequency) + ", seed: 3}\n"
           "  land:\n    type: allowed_rule\n    inputs: {field: noise}\n    params: {min: 0.3}\n"
           "  trees:\n    type: place_layer\n    inputs: {allowed: land}\n    params:\n"
           "      radius: 14\n"
           "      types:\n        - {name: oak, weight: 1}\n        - {name: pine, weight: 2}\n"
           "      rotation: [0, 360]\n      scale: [0.8, 1.2]\n"
           "      pins:\n"
           "        - {x: 120.5, y: 88.123456789, type: oak, rotation: 30, scale: 1.1}\n"
           "        - {x: 333.25, y: 401.75}\n"
           "        - {x: 500, y: 300, type: pine}\n"
           "        - {x: 610.001, y: 20.5, scale: 0.5}\n"
           "      erase:\n"
           "        - {circle: [420, 180, 70]}\n"
           "        - {polygon: [[40, 40], [260, 60], [120, 230]]}\n"
           "  rocks:\n    type: place_layer\n    inputs: {obstacles: trees.all}\n    params: {radius: 6, seed: 1}\n";
}

const double kPins[4][2] = {{120.5, 88.123456789}, {333.25, 401.75}, {500, 300}, {610.001, 20.5}};

// `pinsFirst`: a whole world's layer starts with its pins (a chunked one starts each chunk with its own)
void checkEdits(const EvalResult &r, bool pinsFirst = true)
{
    const PointLayerPtr trees = layerOf(r, "trees"), rocks = layerOf(r, "rocks");
    QVERIFY(trees && rocks);
    QVERIFY(trees->points.size() > 100);
    // every pin, bit for bit, once
    std::set<std::size_t> pinAt;
    for (int k = 0; k < 4; ++k)
        for (std::size_t i = 0; i < trees->points.size(); ++i)
            if (trees->points[i].x == kPins[k][0] && trees->points[i].y == kPins[k][1]) {
                QVERIFY(!pinsFirst || i == static_cast<std::size_t>(k));
                pinAt.insert(i);
            }
    QCOMPARE(pinAt.size(), std::size_t(4));
    // nothing grown inside an erased area (pins are placed by hand, so they may be)
    for (std::size_t i = 0; i < trees->points.size(); ++i) {
        if (pinAt.count(i))
            continue;
        const PointXYR &p = trees->points[i];
        QVERIFY2(std::hypot(p.x - 420, p.y - 180) >= 70 - 1e-9, qPrintable(QString("(%1, %2) in the circle").arg(p.x).arg(p.y)));
        QVERIFY2(!insidePolygon(kTriangle, p.x, p.y), qPrintable(QString("(%1, %2) in the triangle").arg(p.x).arg(p.y)));
    }
    // 0 pairs too close in the layer and against the layer after it
    std::vector<PointXYR> all = trees->points;
    all.insert(all.end(), rocks->points.begin(), rocks->points.end());
    QCOMPARE(pairsTooClose(all, 14), 0);
}

} // namespace

void TestHandEdits::pinsLeadTheLayerAndExportExactly()
{
    const EvalResult r = evaluate(graphOf(islandWithEdits(0.01)));
    const PointLayerPtr trees = layerOf(r, "trees");
    QVERIFY(trees);
    checkEdits(r);
    // the attributes a pin gives are its own; those it leaves out come from the hash like any point's
    const PointAttributes oak = trees->attributes(trees->idOf(0));
    QCOMPARE(oak.type, 0);
    QCOMPARE(oak.rotation, 30.0);
    QCOMPARE(oak.scale, 1.1);
    QCOMPARE(trees->attributes(trees->idOf(2)).type, 1);
    QCOMPARE(trees->attributes(trees->idOf(3)).scale, 0.5);
    const PointAttributes free = trees->attributes(trees->idOf(1));
    QVERIFY(free.rotation >= 0 && free.rotation < 360 && free.scale >= 0.8 && free.scale <= 1.2);
    QVERIFY(free.rotation != 30.0);

    // and grove-cli writes them so: the CSV rows of the pins, every digit
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/edits.grove.yaml";
    writeFile(path, islandWithEdits(0.01));
    QProcess p;
    p.start(GROVE_CLI, {"eval", QString::fromStdString(path), "--format", "csv"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList rows = QString::fromUtf8(p.readAllStandardOutput()).split('\n');
    QVERIFY(rows.size() > 6);
    QCOMPARE(rows[0], QString("layer,id,x,y,r,type,rot,scale"));
    QCOMPARE(rows[1], QString("trees,0,120.5,88.123456789,14,oak,30,1.1"));
    QVERIFY2(rows[2].startsWith("trees,1,333.25,401.75,14,"), qPrintable(rows[2]));
    QVERIFY2(rows[3].startsWith("trees,2,500,300,14,pine,"), qPrintable(rows[3]));
    QVERIFY2(rows[4].startsWith("trees,3,610.001,20.5,14,") && rows[4].endsWith(",0.5"), qPrintable(rows[4]));
}

void TestHandEdits::theLayerAndLaterLayersKeepClearOfPins()
{
    const EvalResult r = evaluate(graphOf(islandWithEdits(0.01)));
    const PointLayerPtr trees = layerOf(r, "trees"), rocks = layerOf(r, "rocks");
    // the pins are on the shared occupancy: nothing of either layer comes within its spacing of one
    for (int k = 0; k < 4; ++k) {
        double nearestTree = HUGE_VAL, nearestRock = HUGE_VAL;
        for (std::size_t i = 4; i < trees->points.size(); ++i)
            nearestTree = std::min(nearestTree, std::hypot(trees->points[i].x - kPins[k][0], trees->points[i].y - kPins[k][1]));
        for (const PointXYR &q : rocks->points)
            nearestRock = std::min(nearestRock, std::hypot(q.x - kPins[k][0], q.y - kPins[k][1]));
        QVERIFY2(nearestTree >= 14, qPrintable(QString("a tree %1 from pin %2").arg(nearestTree).arg(k)));
        QVERIFY2(nearestRock >= 6, qPrintable(QString("a rock %1 from pin %2").arg(nearestRock).arg(k)));
    }
    // and the layer grew around them: trees within two radii of the pin in open land
    int around = 0;
    for (std::size_t i = 4; i < trees->points.size(); ++i)
        around += std::hypot(trees->points[i].x - kPins[2][0], trees->points[i].y - kPins[2][1]) < 28;
    QVERIFY2(around >= 2, qPrintable(QString::number(around)));
}

void TestHandEdits::erasedAreasStayEmptyAndTheRestFillsAsIfNotAllowed()
{
    // an erased polygon places exactly what the same polygon as a keep-out mask places
    QTemporaryDir dir;
    writeFile(dir.path().toStdString() + "/zone.geojson",
              R"({"type": "Polygon", "coordinates": [[[40, 40], [260, 60], [120, 230], [40, 40]]]})");
    const std::string head = "grove: 1\nworld: {width: 400, height: 300, seed: 5}\nnodes:\n";
    Graph erased = graphOf(head + "  t:\n    type: place_layer\n    params:\n      radius: 9\n"
                                  "      erase:\n        - {polygon: [[40, 40], [260, 60], [120, 230]]}\n");
    Graph masked = graphOf(head + "  zone:\n    type: shapes\n    params: {path: zone.geojson, invert: true}\n"
                                  "  t:\n    type: place_layer\n    inputs: {allowed: zone}\n    params: {radius: 9}\n");
    masked.baseDir = dir.path().toStdString();
    const PointLayerPtr a = layerOf(evaluate(erased), "t"), b = layerOf(evaluate(masked), "t");
    QVERIFY(a && b && a->points.size() > 300);
    QCOMPARE(a->points.size(), b->points.size());
    QVERIFY(std::memcmp(a->points.data(), b->points.data(), a->points.size() * sizeof(PointXYR)) == 0);
    // and against no erase at all, the area is empty where it used to hold points
    Graph plain = graphOf(head + "  t:\n    type: place_layer\n    params: {radius: 9}\n");
    const PointLayerPtr c = layerOf(evaluate(plain), "t");
    int before = 0, after = 0;
    for (const PointXYR &p : c->points)
        before += insidePolygon(kTriangle, p.x, p.y);
    for (const PointXYR &p : a->points)
        after += insidePolygon(kTriangle, p.x, p.y);
    QVERIFY(before > 50);
    QCOMPARE(after, 0);
    // the statistics measure within where the layer may grow: the erased triangle is no clearing
    const EvalResult er = evaluate(erased);
    const LayerStats st = computeLayerStats(er, "t", layerOf(er, "t"), erased.world);
    QVERIFY2(st.clearingDiameter < 4 * 9, qPrintable(QString::number(st.clearingDiameter)));
    PointLayer withoutMask = *layerOf(er, "t");
    withoutMask.grownIn = nullptr;
    QVERIFY(computeLayerStats(withoutMask, {}, 400, 300).clearingDiameter > 100);  // the hole, measured as one
}

void TestHandEdits::editsSurviveAnUpstreamChange()
{
    // a designer retunes the noise: the allowed area moves, the hand edits stay
    std::set<std::size_t> counts;
    for (double frequency : {0.004, 0.01, 0.013, 0.02, 0.05}) {
        const EvalResult r = evaluate(graphOf(islandWithEdits(frequency)));
        checkEdits(r);
        if (QTest::currentTestFailed())
            return;
        counts.insert(layerOf(r, "trees")->points.size());
    }
    QVERIFY(counts.size() >= 4);  // the upstream change did change the layer
}

void TestHandEdits::chunkedPinsAndIds()
{
    const EvalResult r = evaluate(graphOf(islandWithEdits(0.01, "{width: 640, height: 480, seed: 11, chunk: 160}")));
    checkEdits(r, false);
    if (QTest::currentTestFailed())
        return;
    const PointLayerPtr trees = layerOf(r, "trees");
    std::map<std::uint64_t, std::size_t> byId;
    for (std::size_t i = 0; i < trees->points.size(); ++i)
        byId[trees->idOf(i)] = i;
    // each pin is point 0 of its chunk, with its own attributes
    for (int k = 0; k < 4; ++k) {
        const int ci = static_cast<int>(kPins[k][0] / 160), cj = static_cast<int>(kPins[k][1] / 160);
        const auto it = byId.find(chunkPointId(ci, cj, 0));
        QVERIFY(it != byId.end());
        QCOMPARE(trees->points[it->second].x, kPins[k][0]);
        QCOMPARE(trees->points[it->second].y, kPins[k][1]);
    }
    const PointAttributes oak = trees->attributes(chunkPointId(0, 0, 0));
    QCOMPARE(oak.rotation, 30.0);
    QCOMPARE(oak.scale, 1.1);
}

void TestHandEdits::aChunkedEraseChangesOnlyNearbyChunks()
{
    // 24 x 24 chunks of 128; one erase circle in chunk (12, 12) and one pin in chunk (5, 17)
    const std::string head = "grove: 1\nworld: {width: 3072, height: 3072, seed: 2, chunk: 128}\nnodes:\n";
    const std::string rocks = "  rocks:\n    type: place_layer\n    inputs: {obstacles: trees.all}\n    params: {radius: 5, seed: 1}\n";
    const std::string before = head + "  trees:\n    type: place_layer\n    params: {radius: 10}\n" + rocks;
    const std::string after = head + "  trees:\n    type: place_layer\n    params:\n      radius: 10\n"
                                     "      erase: [{circle: [1600, 1600, 40]}]\n      pins: [{x: 700, y: 2200}]\n" + rocks;
    const EvalResult a = evaluate(graphOf(before)), b = evaluate(graphOf(after));
    const std::vector<std::pair<int, int>> touched{{12, 12}, {5, 17}};
    // the cone: a chunk reads its lower-phase neighbours (three phases deep); a later layer adds
    // its own cone on top of the chunks it reads
    for (const auto &[layer, reach] : {std::pair{std::string("trees"), 3}, {std::string("rocks"), 7}}) {
        const PointLayerPtr la = layerOf(a, layer), lb = layerOf(b, layer);
        std::map<std::uint64_t, std::pair<double, double>> ma, mb;
        for (std::size_t i = 0; i < la->points.size(); ++i)
            ma[la->idOf(i)] = {la->points[i].x, la->points[i].y};
        for (std::size_t i = 0; i < lb->points.size(); ++i)
            mb[lb->idOf(i)] = {lb->points[i].x, lb->points[i].y};
        const int cone = reach;  // a structured binding cannot be captured by Clang 14's lambdas
        const auto far = [&](std::uint64_t id) {
            const ChunkCoord c = chunkOfId(id);
            for (const auto &[ti, tj] : touched)
                if (std::max(std::abs(c.i - ti), std::abs(c.j - tj)) <= cone)
                    return false;
            return true;
        };
        std::size_t farPoints = 0, changedNear = 0;
        for (const auto &[id, pos] : ma) {
            const auto it = mb.find(id);
            const bool same = it != mb.end() && it->second == pos;
            if (far(id)) {
                ++farPoints;
                QVERIFY2(same, qPrintable(QString("%1 point %2 far from the edit changed").arg(layer.c_str()).arg(id)));
            } else {
                changedNear += !same;
            }
        }
        for (const auto &[id, pos] : mb)
            QVERIFY2(!far(id) || ma.count(id), qPrintable(QString("%1 point %2 far from the edit is new").arg(layer.c_str()).arg(id)));
        QVERIFY2(farPoints > ma.size() / 4, qPrintable(QString("%1 of %2").arg(farPoints).arg(ma.size())));
        QVERIFY(changedNear > 0);  // the edit did change something
    }
    // nothing in the erased circle but the pin's layer kept its pin
    const PointLayerPtr trees = layerOf(b, "trees");
    bool pinFound = false;
    for (const PointXYR &p : trees->points) {
        QVERIFY(std::hypot(p.x - 1600, p.y - 1600) >= 40 - 1e-9);
        pinFound |= p.x == 700 && p.y == 2200;
    }
    QVERIFY(pinFound);
}

// The same through grove-cli diff, as a designer checks an edit: one erase circle in chunk
// (12, 12) of the 24 x 24 chunk world in tests/diff; everything diff reports changed lies within
// the cone (3 chunks each way), and every point outside it is kept with its id.
void TestHandEdits::groveCliDiffShowsTheEraseStayedLocal()
{
    const Run r = cli({"diff", q(testsDir() + "/diff/chunked_before.grove.yaml"), q(testsDir() + "/diff/chunked_erase.grove.yaml"),
                       "--json"});
    QCOMPARE(r.code, 1);  // different
    const auto d = nlohmann::json::parse(r.out);
    const auto &layer = d["layers"][0];
    const auto inCone = [](const nlohmann::json &p) {
        const int i = static_cast<int>(std::floor(p["x"].get<double>() / 128)), j = static_cast<int>(std::floor(p["y"].get<double>() / 128));
        return std::abs(i - 12) <= 3 && std::abs(j - 12) <= 3;
    };
    std::size_t changed = 0;
    for (const char *list : {"added", "removed"})
        for (const auto &p : layer[list]) {
            QVERIFY2(inCone(p), p.dump().c_str());
            ++changed;
        }
    for (const char *list : {"moved", "renumbered"})
        for (const auto &pair : layer[list]) {
            QVERIFY2(inCone(pair["from"]) && inCone(pair["to"]), pair.dump().c_str());
            ++changed;
        }
    QVERIFY(changed > 100);
    // the points outside the cone: all kept, all with their ids
    const auto old = cli({"eval", q(testsDir() + "/diff/chunked_before.grove.yaml"), "--format", "csv"});
    QCOMPARE(old.code, 0);
    std::size_t outside = 0;
    for (const QString &row : QString::fromStdString(old.out).split('\n').mid(1)) {
        const QStringList f = row.split(',');
        if (f.size() < 4)
            continue;
        outside += !inCone(nlohmann::json{{"x", f[2].toDouble()}, {"y", f[3].toDouble()}});
    }
    const auto &counts = layer["counts"];
    QVERIFY(outside > 50000);
    QVERIFY(counts["keptSameId"].get<std::size_t>() >= outside);
    QCOMPARE(counts["kept"].get<std::size_t>() - counts["renumbered"].get<std::size_t>(), counts["keptSameId"].get<std::size_t>());
}

void TestHandEdits::savesOmitEmptyEditsAndRoundTrip()
{
    // a layer without edits saves no edit lists, so graphs from before hash the same
    const Graph plain = graphOf("grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n"
                                "  t:\n    type: place_layer\n    params: {radius: 9, pins: [], erase: []}\n");
    const std::string saved = saveGraphToString(plain, registry());
    QVERIFY(saved.find("pins") == std::string::npos && saved.find("erase") == std::string::npos);
    // edits are saved one per line, in flow style a person can read and diff; a pin's absent
    // fields stay absent
    const Graph edited = graphOf(islandWithEdits(0.01));
    const std::string text = saveGraphToString(edited, registry());
    QVERIFY2(text.find("      pins:\n        - {x: 120.5, \"y\": 88.123456789, type: oak, rotation: 30, scale: 1.1}\n"
                       "        - {x: 333.25, \"y\": 401.75}\n") != std::string::npos, text.c_str());
    QVERIFY2(text.find("      erase:\n        - {circle: [420, 180, 70]}\n        - {polygon: [[40, 40], [260, 60], [120, 230]]}\n")
                 != std::string::npos, text.c_str());
    QCOMPARE(saveGraphToString(graphOf(text), registry()), text);
}

QTEST_APPLESS_MAIN(TestHandEdits)
#include "tst_hand_edits.moc"
