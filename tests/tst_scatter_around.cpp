// scatter_around: children in a ring around each parent, no two too close, each parent's children
// depending on that parent alone, its place in a layer chain, a house keeping its own radius, and
// the same children in chunked worlds.
#include "tst_scatter_extensions_support.h"

using namespace grove;
using namespace grove::test;
using namespace scatter_extensions_support;

class TestScatterAround : public QObject
{
    Q_OBJECT

private slots:
    void scatterAroundChildrenInTheirRing();
    void scatterAroundNothingTooClose();
    void scatterAroundDependsOnEachParentAlone();
    void scatterAroundInTheChain();
    void scatterAroundKeepsAHouseItsOwnRadius();
    void scatterAroundInChunkedWorlds();
};

void TestScatterAround::scatterAroundChildrenInTheirRing()
{
    // parents 100 apart: a child's parent is the only one within r_max
    const auto parents = gridParents(8, 6, 100, 10);
    const NodeRun d = evaluateNode("scatter_around", aroundParams(12, 35, 2, 5, 4), {{"parents", pointSet(parents)}},
                                  world(800, 600, 5));
    QVERIFY2(d.error.empty(), d.error.c_str());
    const auto children = layerPoints(d.outputs[0]);
    const auto owner = nearestParent(children, parents);
    std::vector<int> perParent(parents.size(), 0);
    for (size_t i = 0; i < children.size(); ++i) {
        const PointXYR &p = parents[owner[i]], &c = children[i];
        const double dx = c.x - p.x, dy = c.y - p.y, d2 = dx * dx + dy * dy;
        QVERIFY2(d2 >= 12.0 * 12.0 && d2 <= 35.0 * 35.0, std::to_string(std::sqrt(d2)).c_str());
        QCOMPARE(c.r, 4.0);
        ++perParent[owner[i]];
    }
    // children follow their parent in the output, parent after parent
    for (size_t i = 1; i < children.size(); ++i)
        QVERIFY(owner[i] >= owner[i - 1]);
    std::map<int, int> histogram;
    for (int n : perParent) {
        QVERIFY2(n >= 2 && n <= 5, std::to_string(n).c_str());
        ++histogram[n];
    }
    QCOMPARE(histogram.size(), size_t(4));  // every count in [2, 5] happens among 48 parents
    // a thin ring, [20, 20.001]: counts exact, every child in it
    const NodeRun e = evaluateNode("scatter_around", aroundParams(20, 20.001, 3, 3, 2), {{"parents", pointSet(parents)}},
                                  world(800, 600, 5));
    QVERIFY(e.error.empty());
    const auto onCircle = layerPoints(e.outputs[0]);
    QCOMPARE(onCircle.size(), parents.size() * 3);
    for (size_t i = 0; i < onCircle.size(); ++i) {
        const PointXYR &p = parents[i / 3], &c = onCircle[i];
        const double d2 = (c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y);
        QVERIFY(d2 >= 400.0 && d2 <= 20.001 * 20.001);
    }
}

void TestScatterAround::scatterAroundNothingTooClose()
{
    const EvalResult r = evaluateText(graphText("  trees:\n    type: place_layer\n    params: {radius: 20}\n"
                                       "  rocks:\n    type: place_layer\n    inputs: {obstacles: trees.all}\n    params: {radius: 8}\n"
                                       "  bushes:\n    type: scatter_around\n    inputs: {parents: trees.points, obstacles: rocks.all}\n"
                                       "    params: {count: [3, 6], r_min: 5, r_max: 25, radius: 5}\n",
                                       500, 400, 9));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const auto trees = pointsOf(r, "trees"), rocks = pointsOf(r, "rocks"), bushes = pointsOf(r, "bushes");
    QVERIFY(bushes.size() > trees.size());
    std::vector<PointXYR> all = trees;
    all.insert(all.end(), rocks.begin(), rocks.end());
    const size_t firstBush = all.size();
    all.insert(all.end(), bushes.begin(), bushes.end());
    int tooClose = 0;
    for (size_t i = firstBush; i < all.size(); ++i)
        for (size_t j = 0; j < i; ++j) {
            const double m = std::min(all[i].r, all[j].r);
            const double dx = all[i].x - all[j].x, dy = all[i].y - all[j].y;
            tooClose += dx * dx + dy * dy < m * m;
        }
    QCOMPARE(tooClose, 0);
    // every bush within r_max of a tree, and none nearer its nearest tree than r_min allows
    for (const PointXYR &b : bushes) {
        bool ringed = false;
        for (const PointXYR &t : trees) {
            const double d2 = (b.x - t.x) * (b.x - t.x) + (b.y - t.y) * (b.y - t.y);
            ringed = ringed || (d2 >= 25 && d2 <= 625);
        }
        QVERIFY(ringed);
        QVERIFY(b.x >= 0 && b.y >= 0 && b.x < 500 && b.y < 400);
    }
}

void TestScatterAround::scatterAroundDependsOnEachParentAlone()
{
    auto parents = gridParents(6, 5, 100, 10);
    const World w = world(600, 500, 5);
    const ValueMap params = aroundParams(10, 30, 1, 6, 5);
    const auto base = layerPoints(evaluateNode("scatter_around", params, {{"parents", pointSet(parents)}}, w).outputs[0]);
    const auto again = layerPoints(evaluateNode("scatter_around", params, {{"parents", pointSet(parents)}}, w).outputs[0]);
    QCOMPARE(again.size(), base.size());
    for (size_t i = 0; i < base.size(); ++i)
        QVERIFY(same(base[i].x, again[i].x) && same(base[i].y, again[i].y));
    // move parent 13 by (7, -3): its children move with it and only they change
    auto moved = parents;
    moved[13].x += 7;
    moved[13].y -= 3;
    const auto after = layerPoints(evaluateNode("scatter_around", params, {{"parents", pointSet(moved)}}, w).outputs[0]);
    QCOMPARE(after.size(), base.size());
    const auto ownerBefore = nearestParent(base, parents), ownerAfter = nearestParent(after, moved);
    int movedChildren = 0;
    for (size_t i = 0; i < base.size(); ++i) {
        QCOMPARE(ownerBefore[i], ownerAfter[i]);
        if (ownerBefore[i] == 13) {
            // the same offsets from the moved parent, up to rounding
            QVERIFY(std::fabs((after[i].x - moved[13].x) - (base[i].x - parents[13].x)) < 1e-9);
            QVERIFY(std::fabs((after[i].y - moved[13].y) - (base[i].y - parents[13].y)) < 1e-9);
            ++movedChildren;
        } else {
            QVERIFY(same(base[i].x, after[i].x) && same(base[i].y, after[i].y));
        }
    }
    QVERIFY(movedChildren >= 1);
    // parents with their own ids (a chunked layer's): taking parent 13 away takes only its
    // children away, every other parent keeps its stream (a stream shared in order would shift)
    auto withIds = [](const std::vector<PointXYR> &points, const std::vector<std::uint64_t> &ids) {
        auto layer = std::make_shared<PointLayer>();
        layer->points = points;
        layer->ids = ids;
        auto set = std::make_shared<PointSet>();
        set->layers.push_back(layer);
        return PointSetPtr(set);
    };
    std::vector<std::uint64_t> ids;
    for (size_t i = 0; i < parents.size(); ++i)
        ids.push_back(1000 + 7 * i);
    const auto full = layerPoints(evaluateNode("scatter_around", params, {{"parents", withIds(parents, ids)}}, w).outputs[0]);
    auto fewer = parents;
    auto fewerIds = ids;
    fewer.erase(fewer.begin() + 13);
    fewerIds.erase(fewerIds.begin() + 13);
    const auto less = layerPoints(evaluateNode("scatter_around", params, {{"parents", withIds(fewer, fewerIds)}}, w).outputs[0]);
    std::vector<PointXYR> kept;
    const auto ownerFull = nearestParent(full, parents);
    for (size_t i = 0; i < full.size(); ++i)
        if (ownerFull[i] != 13)
            kept.push_back(full[i]);
    QVERIFY(kept.size() < full.size());
    QCOMPARE(less.size(), kept.size());
    for (size_t i = 0; i < kept.size(); ++i)
        QVERIFY(same(kept[i].x, less[i].x) && same(kept[i].y, less[i].y));
    // another seed: other children
    const auto reseeded = layerPoints(evaluateNode("scatter_around", aroundParams(10, 30, 1, 6, 5, 1),
                                                   {{"parents", pointSet(parents)}}, w).outputs[0]);
    int differ = 0;
    for (size_t i = 0; i < std::min(base.size(), reseeded.size()); ++i)
        differ += !same(base[i].x, reseeded[i].x);
    QVERIFY(differ > int(base.size()) / 2);
}

void TestScatterAround::scatterAroundInTheChain()
{
    // bushes around trees, then flowers by place_layer on the bushes' chain: the flowers keep
    // clear of trees and bushes
    const EvalResult r = evaluateText(graphText("  trees:\n    type: place_layer\n    params: {radius: 25}\n"
                                       "  bushes:\n    type: scatter_around\n    inputs: {parents: trees.points, obstacles: trees.all}\n"
                                       "    params: {count: [2, 4], r_min: 8, r_max: 24, radius: 6}\n"
                                       "  flowers:\n    type: place_layer\n    inputs: {obstacles: bushes.all}\n    params: {radius: 4}\n",
                                       400, 300, 2));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const PortValue chain = r.outputWithRole("bushes", PortRole::LayerChain);
    const auto set = std::get<PointSetPtr>(chain);
    QCOMPARE(set->layers.size(), size_t(2));  // trees once (parents and obstacles), then bushes
    QCOMPARE(set->layers[0]->info.nodeId, std::string("trees"));
    QCOMPARE(set->layers[1]->info.nodeId, std::string("bushes"));
    const auto trees = pointsOf(r, "trees"), bushes = pointsOf(r, "bushes"), flowers = pointsOf(r, "flowers");
    QVERIFY(!bushes.empty() && !flowers.empty());
    for (const PointXYR &f : flowers) {
        for (const auto *layer : {&trees, &bushes})
            for (const PointXYR &p : *layer) {
                const double m = std::min(f.r, p.r);
                QVERIFY((f.x - p.x) * (f.x - p.x) + (f.y - p.y) * (f.y - p.y) >= m * m);
            }
    }
    // without obstacles wired, the parents still keep the children off
    const EvalResult lone = evaluateText(graphText("  trees:\n    type: place_layer\n    params: {radius: 25}\n"
                                          "  bushes:\n    type: scatter_around\n    inputs: {parents: trees.points}\n"
                                          "    params: {count: [2, 4], r_min: 0, r_max: 24, radius: 30}\n",
                                          400, 300, 2));
    QVERIFY(lone.ok());
    for (const PointXYR &b : pointsOf(lone, "bushes"))
        for (const PointXYR &t : pointsOf(lone, "trees"))
            QVERIFY((b.x - t.x) * (b.x - t.x) + (b.y - t.y) * (b.y - t.y) >= 25.0 * 25.0);
}

void TestScatterAround::scatterAroundKeepsAHouseItsOwnRadius()
{
    // a hand-placed house (keep_radius) 40 wide; parents next to it with a wide ring
    auto house = std::make_shared<PointLayer>();
    house->info.keepsRadius = true;
    house->points = {{200, 150, 40}};
    auto obstacles = std::make_shared<PointSet>();
    obstacles->layers.push_back(house);
    const auto parents = std::vector<PointXYR>{{200, 210, 5}, {150, 150, 5}, {260, 140, 5}};
    const NodeRun d = evaluateNode("scatter_around", aroundParams(0, 70, 20, 20, 3),
                                  {{"parents", pointSet(parents)}, {"obstacles", PortValue(PointSetPtr(obstacles))}},
                                  world(400, 300, 1));
    QVERIFY2(d.error.empty(), d.error.c_str());
    const auto children = layerPoints(d.outputs[0]);
    QVERIFY(children.size() > 30);
    for (const PointXYR &c : children)
        QVERIFY((c.x - 200) * (c.x - 200) + (c.y - 150) * (c.y - 150) >= 40.0 * 40.0);
    // without keep_radius the house keeps only the smaller radius, 3: children come closer
    house->info.keepsRadius = false;
    const NodeRun near = evaluateNode("scatter_around", aroundParams(0, 70, 20, 20, 3),
                                     {{"parents", pointSet(parents)}, {"obstacles", PortValue(PointSetPtr(obstacles))}},
                                     world(400, 300, 1));
    int inside = 0;
    for (const PointXYR &c : layerPoints(near.outputs[0]))
        inside += (c.x - 200) * (c.x - 200) + (c.y - 150) * (c.y - 150) < 40.0 * 40.0;
    QVERIFY(inside > 5);
}

void TestScatterAround::scatterAroundInChunkedWorlds()
{
    // a finite chunked world: the parents come placed whole, the chain goes on to place_layer
    const std::string nodes = "  trees:\n    type: place_layer\n    params: {radius: 20}\n"
                              "  bushes:\n    type: scatter_around\n    inputs: {parents: trees.points, obstacles: trees.all}\n"
                              "    params: {count: [2, 4], r_min: 6, r_max: 20, radius: 5}\n"
                              "  flowers:\n    type: place_layer\n    inputs: {obstacles: bushes.all}\n    params: {radius: 6}\n";
    const EvalResult r = evaluateText("grove: 1\nworld: {width: 600, height: 500, seed: 3, chunk: 128}\nnodes:\n" + nodes);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const auto trees = pointsOf(r, "trees"), bushes = pointsOf(r, "bushes");
    QVERIFY(trees.size() > 300 && bushes.size() > 2 * trees.size());
    std::vector<PointXYR> all = trees;
    all.insert(all.end(), bushes.begin(), bushes.end());
    for (size_t i = trees.size(); i < all.size(); ++i)
        for (size_t j = 0; j < i; ++j) {
            const double m = std::min(all[i].r, all[j].r);
            QVERIFY((all[i].x - all[j].x) * (all[i].x - all[j].x) + (all[i].y - all[j].y) * (all[i].y - all[j].y) >= m * m);
        }
    // an endless world: a located problem, not a crash
    const LoadResult endless = load("grove: 1\nworld: {seed: 3, chunk: 128}\nnodes:\n" + nodes);
    const std::string problems = formatAll(endless.diagnostics);
    QVERIFY2(problems.find("test.grove.yaml:7:3: error: node 'bushes' (scatter_around) needs the world's width and height")
                 != std::string::npos, problems.c_str());
}

QTEST_APPLESS_MAIN(TestScatterAround)
#include "tst_scatter_around.moc"
