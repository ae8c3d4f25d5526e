// The evaluator: exactly the downstream nodes re-evaluate after an edit, long chains work,
// cancellation and limits stop work cleanly, results never depend on the cache.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/graph/GraphWriter.h"
#include "core/analysis/LayerStats.h"
#include "core/base/Sha256.h"
#include "core/formats/PointsExport.h"


#include <atomic>

using namespace grove;
using namespace grove::test;

class TestEvaluator : public QObject
{
    Q_OBJECT

private slots:
    void firstRunComputesEverything();
    void editReevaluatesExactlyDownstream_data();
    void editReevaluatesExactlyDownstream();
    void cachedResultsEqualFreshResults();
    void twoAlikeLayersAreTwoLayers();
    void targetsEvaluateOnlyTheirInputs();
    void twentyThousandNodeChain();
    void cancelStopsAndLeavesNoPartialResult();
    void progressReachesTheEnd();
    void pointBudgetRefusesBeforeAllocating();
    void invalidGraphIsNotEvaluated();
    void sharedOccupancyKeepsLayersApart();
    void layerStatsOnAKnownSquare();
    void fastMethodIsDenseSpacedAndStable();
    void partialRunSkipsOnlyWhatDependsOnABrokenNode();
    void partialRunGoesOnPastAFailedNode();
    void placementCountsWhyCandidatesFailed();
    void statsStopWhenCancelled();
};

static Graph island()
{
    LoadResult r = load(readFile(testsDir() + "/data/canonical/island.grove.yaml"));
    return r.graph;
}

static std::vector<std::string> sorted(std::vector<std::string> v)
{
    std::sort(v.begin(), v.end());
    return v;
}

void TestEvaluator::firstRunComputesEverything()
{
    Evaluator ev(registry());
    Graph g = island();
    EvalResult r = ev.evaluate(g);
    QVERIFY(r.ok());
    QCOMPARE(r.computed, (std::vector<std::string>{"height", "land", "chests", "rocks"}));
    EvalResult again = ev.evaluate(g);
    QVERIFY(again.ok());
    QVERIFY(again.computed.empty());
    QCOMPARE(again.nodes.size(), size_t(4));
}

void TestEvaluator::editReevaluatesExactlyDownstream_data()
{
    QTest::addColumn<QString>("assignment");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("last layer") << "rocks.radius=30" << QStringList{"rocks"};
    QTest::newRow("first layer") << "chests.radius=120" << QStringList{"chests", "rocks"};
    QTest::newRow("rule") << "land.min=0.5" << QStringList{"chests", "land", "rocks"};
    QTest::newRow("noise") << "height.octaves=3" << QStringList{"chests", "height", "land", "rocks"};
    QTest::newRow("export flag") << "rocks.export=false" << QStringList{"rocks"};
}

void TestEvaluator::editReevaluatesExactlyDownstream()
{
    QFETCH(QString, assignment);
    QFETCH(QStringList, expected);
    Evaluator ev(registry());
    Graph g = island();
    QVERIFY(ev.evaluate(g).ok());
    QCOMPARE(applyOverrideText(g, assignment.toStdString()), std::string());
    EvalResult r = ev.evaluate(g);
    QVERIFY(r.ok());
    std::vector<std::string> want;
    for (const auto &s : expected)
        want.push_back(s.toStdString());
    QCOMPARE(sorted(r.computed), want);
    // layout edits never re-evaluate anything
    g.layout["rocks"].x += 50;
    QVERIFY(ev.evaluate(g).computed.empty());
}

void TestEvaluator::cachedResultsEqualFreshResults()
{
    Evaluator warm(registry());
    Graph g = island();
    QVERIFY(warm.evaluate(g).ok());
    QCOMPARE(applyOverrideText(g, "rocks.radius=25"), std::string());
    EvalResult incremental = warm.evaluate(g);
    Evaluator cold(registry());
    EvalResult fresh = cold.evaluate(g);
    ExportInfo info;
    info.world = g.world;
    const auto ids = exportedLayers(g, registry());
    QCOMPARE(exportPoints(ExportFormat::Json, info, layersOf(incremental, ids)),
             exportPoints(ExportFormat::Json, info, layersOf(fresh, ids)));
    // undoing the edit is served from the cache (the previous run is kept)
    QCOMPARE(applyOverrideText(g, "rocks.radius=34"), std::string());
    QVERIFY(warm.evaluate(g).computed.empty());
}

// A pasted copy of an unwired layer exported under the original's node id and name: the cache
// served both nodes one result. Each layer node is its own result.
void TestEvaluator::twoAlikeLayersAreTwoLayers()
{
    const LoadResult loaded = load("grove: 1\nworld: {width: 200, height: 200, seed: 3}\nnodes:\n"
                                   "  rocks_2:\n    type: place_layer\n    params: {radius: 30}\n"
                                   "  rocks_3:\n    type: place_layer\n    params: {radius: 30}\n");
    QVERIFY(loaded.ok());
    Evaluator evaluator(registry());
    const EvalResult r = evaluator.evaluate(loaded.graph);
    QVERIFY(r.ok());
    const auto layers = layersOf(r, {"rocks_2", "rocks_3"});
    QCOMPARE(layers.size(), size_t(2));
    QCOMPARE(layers[0]->info.nodeId, std::string("rocks_2"));
    QCOMPARE(layers[0]->info.name, std::string("rocks_2"));
    QCOMPARE(layers[1]->info.nodeId, std::string("rocks_3"));
    QCOMPARE(layers[1]->info.name, std::string("rocks_3"));
    QCOMPARE(layers[0]->points.size(), layers[1]->points.size());  // alike in all else
    QCOMPARE(r.computed.size(), size_t(2));
}

void TestEvaluator::targetsEvaluateOnlyTheirInputs()
{
    Evaluator ev(registry());
    Graph g = island();
    EvalRequest req;
    req.targets = {"land"};
    EvalResult r = ev.evaluate(g, req);
    QVERIFY(r.ok());
    QCOMPARE(r.computed, (std::vector<std::string>{"height", "land"}));
    QVERIFY(!r.nodes.count("chests"));
}

void TestEvaluator::twentyThousandNodeChain()
{
    // value_noise -> allowed_rule -> 20,000 allowed_rule masks -> place_layer, written as YAML
    // with ids in reverse alphabetical order so no naive order works.
    const int n = 20000;
    std::string text = "grove: 1\nworld: {width: 200, height: 100, seed: 3}\nnodes:\n";
    auto id = [&](int i) { return "m" + std::to_string(100000 - i); };
    text += "  noise:\n    type: value_noise\n";
    text += "  " + id(0) + ":\n    type: allowed_rule\n    inputs: {field: noise}\n    params: {min: 0.3}\n";
    for (int i = 1; i < n; ++i)
        text += "  " + id(i) + ":\n    type: allowed_rule\n    inputs: {mask: " + id(i - 1) + "}\n";
    text += "  trees:\n    type: place_layer\n    inputs: {allowed: " + id(n - 1) + "}\n    params: {radius: 8}\n";
    LoadResult loaded = load(text);
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).substr(0, 2000).c_str());
    QCOMPARE(loaded.graph.nodes.size(), size_t(n + 2));
    const std::string saved = saveGraphToString(loaded.graph, registry());
    QVERIFY(saved.find("  noise:") < saved.find("  " + id(0) + ":"));
    QVERIFY(saved.find("  " + id(n - 1) + ":") < saved.find("  trees:"));
    Evaluator ev(registry());
    EvalResult r = ev.evaluate(loaded.graph);
    QVERIFY(r.ok());
    QCOMPARE(r.computed.size(), size_t(n + 2));
    const auto layers = layersOf(r, {"trees"});
    QCOMPARE(layers.size(), size_t(1));
    QVERIFY(!layers[0]->points.empty());
    // the long chain gives the same points as the one rule it amounts to
    Graph shortGraph = load("grove: 1\nworld: {width: 200, height: 100, seed: 3}\nnodes:\n  noise:\n    type: value_noise\n"
                            "  rule:\n    type: allowed_rule\n    inputs: {field: noise}\n    params: {min: 0.3}\n"
                            "  trees:\n    type: place_layer\n    inputs: {allowed: rule}\n    params: {radius: 8}\n").graph;
    EvalResult s = evaluateGraph(shortGraph);
    QVERIFY(s.ok());
    const auto shortLayers = layersOf(s, {"trees"});
    QCOMPARE(shortLayers[0]->points.size(), layers[0]->points.size());
    for (size_t i = 0; i < layers[0]->points.size(); ++i) {
        QCOMPARE(layers[0]->points[i].x, shortLayers[0]->points[i].x);
        QCOMPARE(layers[0]->points[i].y, shortLayers[0]->points[i].y);
    }
}

void TestEvaluator::cancelStopsAndLeavesNoPartialResult()
{
    Graph g = load("grove: 1\nworld: {width: 2000, height: 2000, seed: 1}\nnodes:\n"
                   "  big:\n    type: place_layer\n    params: {radius: 2}\n").graph;
    Evaluator ev(registry());
    std::atomic<bool> cancel{false};
    EvalRequest req;
    req.cancel = &cancel;
    int calls = 0;
    req.progress = [&](const EvalProgress &p) {
        if (p.fraction > 0.05 && ++calls == 1)
            cancel = true;  // the user pressed Cancel mid-layer
    };
    EvalResult r = ev.evaluate(g, req);
    QCOMPARE(int(r.status), int(EvalResult::Status::Cancelled));
    QVERIFY(r.nodes.empty());
    QCOMPARE(ev.cacheSize(), size_t(0));
    // a later run computes the whole layer, not a cached half
    EvalResult full = ev.evaluate(g);
    QVERIFY(full.ok());
    QCOMPARE(full.computed, std::vector<std::string>{"big"});
    QVERIFY(layersOf(full, {"big"})[0]->points.size() > 200000);
}

void TestEvaluator::progressReachesTheEnd()
{
    Graph g = island();
    Evaluator ev(registry());
    EvalRequest req;
    std::vector<double> fractions;
    req.progress = [&](const EvalProgress &p) { fractions.push_back(p.fraction); };
    QVERIFY(ev.evaluate(g, req).ok());
    QVERIFY(!fractions.empty());
    QCOMPARE(fractions.back(), 1.0);
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
}

void TestEvaluator::pointBudgetRefusesBeforeAllocating()
{
    Graph g = load("grove: 1\nworld: {width: 1000000, height: 1000000, seed: 1}\nnodes:\n"
                   "  dust:\n    type: place_layer\n    params: {radius: 1.0e-9}\n").graph;
    Evaluator ev(registry());
    EvalResult r = ev.evaluate(g);
    QCOMPARE(int(r.status), int(EvalResult::Status::Failed));
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].path, std::string("nodes.dust"));
    QVERIFY2(r.diagnostics[0].message.find("node 'dust' (place_layer): at radius 1e-9 on a 1000000 x 1000000 world, "
                                           "this layer could make up to ") == 0,
             r.diagnostics[0].message.c_str());
    QVERIFY(r.diagnostics[0].message.find("over the limit of 20000000 per layer") != std::string::npos);
    // a lower limit is honoured too, checked against the packing bound before anything runs
    Graph small = load("grove: 1\nworld: {width: 300, height: 300}\nnodes:\n  t:\n    type: place_layer\n    params: {radius: 5}\n").graph;
    EvalRequest req;
    req.limits.maxPointsPerLayer = 100;
    EvalResult limited = ev.evaluate(small, req);
    QCOMPARE(int(limited.status), int(EvalResult::Status::Failed));
    QVERIFY(limited.diagnostics[0].message.find("over the limit of 100 per layer") != std::string::npos);
}

void TestEvaluator::invalidGraphIsNotEvaluated()
{
    Graph g = island();
    g.node("rocks")->setInput("allowed", Link{"nowhere", ""});
    Evaluator ev(registry());
    EvalResult r = ev.evaluate(g);
    QCOMPARE(int(r.status), int(EvalResult::Status::Invalid));
    QVERIFY(r.nodes.empty());
    QCOMPARE(r.diagnostics[0].message, std::string("input 'allowed' links to missing node 'nowhere'"));
}

void TestEvaluator::sharedOccupancyKeepsLayersApart()
{
    Graph g = island();
    EvalResult r = evaluateGraph(g);
    QVERIFY(r.ok());
    std::vector<PointXYR> all;
    for (const auto &layer : layersOf(r, {"chests", "rocks"}))
        all.insert(all.end(), layer->points.begin(), layer->points.end());
    QVERIFY(all.size() > 20);
    size_t tooClose = 0;
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t j = i + 1; j < all.size(); ++j) {
            const double m = std::min(all[i].r, all[j].r);
            const double dx = all[i].x - all[j].x, dy = all[i].y - all[j].y;
            tooClose += dx * dx + dy * dy < m * m;
        }
    QCOMPARE(tooClose, size_t(0));
}

void TestEvaluator::layerStatsOnAKnownSquare()
{
    PointLayer square;
    square.points = {{0, 0, 11}, {10, 0, 11}, {0, 10, 11}, {10, 10, 11}};
    LayerStats s = computeLayerStats(square, {}, 10, 10);
    QCOMPARE(s.count, size_t(4));
    QCOMPARE(s.tightest, 10.0);
    QCOMPARE(s.tooClose, size_t(4));  // the four sides are closer than 11; the diagonals are not
    QVERIFY(std::fabs(s.clearingDiameter - 2 * std::sqrt(50.0)) < 1e-6);
    QVERIFY(std::fabs(s.clearingX - 5) < 1e-3 && std::fabs(s.clearingY - 5) < 1e-3);
    // a point of a later layer inside an earlier point's radius counts once
    auto first = std::make_shared<PointLayer>(square);
    PointLayer late;
    late.points = {{5, 5, 8}};
    LayerStats l = computeLayerStats(late, {first}, 10, 10);
    QCOMPARE(l.tooClose, size_t(4));  // 7.07 < min(8, 11) from all four corners
    QCOMPARE(l.tightest, 0.0);        // fewer than two points of its own
}

void TestEvaluator::fastMethodIsDenseSpacedAndStable()
{
    const std::string text = "grove: 1\nworld: {width: 300, height: 200, seed: 11}\nnodes:\n"
                             "  p:\n    type: place_layer\n    params: {radius: 1, start: random, method: fast}\n";
    Graph g = load(text).graph;
    EvalResult a = evaluateGraph(g);
    EvalResult b = evaluateGraph(g);
    QVERIFY(a.ok() && b.ok());
    const auto la = layersOf(a, {"p"}), lb = layersOf(b, {"p"});
    const auto &pts = la[0]->points;
    const double density = static_cast<double>(pts.size()) / (300.0 * 200.0);
    QVERIFY2(density >= 0.86, std::to_string(density).c_str());
    QCOMPARE(computeLayerStats(*la[0], {}, 300, 200).tooClose, size_t(0));
    ExportInfo info;
    info.world = g.world;
    const std::string bytes = exportPoints(ExportFormat::Csv, info, la);
    QCOMPARE(bytes, exportPoints(ExportFormat::Csv, info, lb));
    // pinned: the fast method's points are part of the contract too (exact arithmetic only)
    QCOMPARE(QString::fromStdString(Sha256::hex(bytes)), QString(FAST_METHOD_CSV_SHA256));
    // and it differs from the exact method, which is the tutorial's
    g.node("p")->setParam("method", "exact");
    EvalResult exact = evaluateGraph(g);
    QVERIFY(layersOf(exact, {"p"})[0]->points.size() < pts.size());
}

// The preview evaluates what does not depend on a broken node; grove-cli's
// (non-partial) evaluation refuses the graph as before.
void TestEvaluator::partialRunSkipsOnlyWhatDependsOnABrokenNode()
{
    Graph g = island();
    g.node("rocks")->setInput("allowed", Link{"nowhere", ""});
    Evaluator ev(registry());
    QCOMPARE(int(ev.evaluate(g).status), int(EvalResult::Status::Invalid));
    EvalRequest partial;
    partial.partial = true;
    EvalResult r = ev.evaluate(g, partial);
    QVERIFY(r.ok());
    QCOMPARE(r.skipped, std::vector<std::string>{"rocks"});
    QVERIFY(!r.nodes.count("rocks"));
    QCOMPARE(layersOf(r, {"chests"})[0]->points.size(), layersOf(evaluateGraph(island()), {"chests"})[0]->points.size());
    QCOMPARE(r.diagnostics[0].message, std::string("input 'allowed' links to missing node 'nowhere'"));
    // Upstream breakage skips the whole chain below it; a cycle is skipped, the rest is not.
    Graph up = island();
    up.node("land")->setParam("min", Value(std::string("high")));
    EvalResult u = ev.evaluate(up, partial);
    QVERIFY(u.ok());
    QCOMPARE(sorted(u.skipped), (std::vector<std::string>{"chests", "land", "rocks"}));
    QVERIFY(u.nodes.count("height"));
    Graph cycle = island();
    cycle.node("chests")->setInput("obstacles", Link{"rocks", "all"});
    EvalResult c = ev.evaluate(cycle, partial);
    QVERIFY(c.ok());
    QCOMPARE(sorted(c.skipped), (std::vector<std::string>{"chests", "rocks"}));
    QVERIFY(c.nodes.count("land"));
    // A problem of the graph as a whole leaves nothing to evaluate.
    Graph world = island();
    world.world.width = -1;
    QCOMPARE(int(ev.evaluate(world, partial).status), int(EvalResult::Status::Invalid));
}

void TestEvaluator::partialRunGoesOnPastAFailedNode()
{
    Graph g = island();
    g.node("chests")->setParam("radius", Value(1.0e-9));  // over the point budget
    EvalRequest partial;
    partial.partial = true;
    EvalResult r = evaluateGraph(g, partial);
    QVERIFY(r.ok());
    QCOMPARE(sorted(r.skipped), (std::vector<std::string>{"chests", "rocks"}));
    QCOMPARE(r.failures.size(), size_t(1));
    QCOMPARE(r.failures[0].nodeId, std::string("chests"));
    QVERIFY(r.nodes.count("land"));
    QCOMPARE(int(evaluateGraph(g).status), int(EvalResult::Status::Failed));
}

// The sampler counts why candidates failed, without moving a point.
void TestEvaluator::placementCountsWhyCandidatesFailed()
{
    Graph g = island();
    EvalResult r = evaluateGraph(g);
    const PointLayer &rocks = *layersOf(r, {"rocks"})[0];
    const PlacementTally &t = rocks.tally;
    QVERIFY(t.counted);
    QCOMPARE(t.radius, 34.0);
    QCOMPARE(t.candidates, t.offMap + t.tooClose + t.notAllowed + rocks.points.size());
    QVERIFY(t.offMap > 0 && t.tooClose > 0 && t.notAllowed > 0);
    QVERIFY(computeLayerStats(r, "rocks", layersOf(r, {"rocks"})[0], g.world).why.empty());
    // Rocks too big to fit between the chests: none placed, and the stats say why.
    g.node("rocks")->setParam("radius", Value(400.0));
    g.node("chests")->setParam("radius", Value(30.0));
    EvalResult big = evaluateGraph(g);
    const PointLayerPtr none = layersOf(big, {"rocks"})[0];
    QCOMPARE(none->points.size(), size_t(0));
    const LayerStats s = computeLayerStats(big, "rocks", none, g.world);
    QVERIFY2(s.why == "0 points: every candidate in the allowed area is within 30 of chests (obstacles)", s.why.c_str());
    // An allowed area that allows nothing says so.
    Graph empty = island();
    empty.node("land")->setParam("min", Value(2.0));
    EvalResult e = evaluateGraph(empty);
    const LayerStats es = computeLayerStats(e, "chests", layersOf(e, {"chests"})[0], empty.world);
    QCOMPARE(es.why, std::string("0 points: the allowed area is empty"));
}

// Stats of a big layer stop at once when cancelled.
void TestEvaluator::statsStopWhenCancelled()
{
    PointLayer big;
    for (int i = 0; i < 2000000; ++i)
        big.points.push_back({(i % 2000) * 1.0, (i / 2000) * 1.0, 0.5});
    std::atomic<bool> cancel{false};
    std::vector<double> fractions;
    StatsControl control{&cancel, [&](double f) {
                             fractions.push_back(f);
                             if (f >= 0.4)
                                 cancel = true;
                         }};
    const LayerStats s = computeLayerStats(big, {}, 2000, 1000, nullptr, control);
    QVERIFY(s.cancelled);
    // the work after the cancel was never done: no step past the one that asked to stop
    QVERIFY(!fractions.empty());
    QCOMPARE(fractions.back(), 0.4);
    const LayerStats full = computeLayerStats(big, {}, 2000, 1000);
    QVERIFY(!full.cancelled && full.count == big.points.size());
}

QTEST_APPLESS_MAIN(TestEvaluator)
#include "tst_evaluator.moc"
