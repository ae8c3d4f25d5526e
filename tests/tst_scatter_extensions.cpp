// The scatter extensions: caves (a cellular-automaton mask), best_candidate (Mitchell's
// sampler) and scatter_around (children in a ring around each parent). What a designer would
// notice: the same caves for the same seed and the documented rule on a hand-computed grid,
// crystals only on the cave floor; best_candidate equal to a brute-force Mitchell bit for bit and
// far tighter than random points; every child in its ring, counts in range, nothing too close
// (brute force); scatter_around's own tests are in tst_scatter_around.
#include "tst_scatter_extensions_support.h"

#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/base/Limits.h"
#include "core/math/SeededRandom.h"
#include "nodes/CaveAutomaton.h"

#include <cmath>
#include <cstring>
#include <map>
#include <vector>

using namespace grove;
using namespace grove::test;

class TestScatterExtensions : public QObject
{
    Q_OBJECT

private slots:
    void caveRuleOnAHandMadeGrid();
    void caveRuleText();
    void cavesFollowTheDocumentedFillAndRule();
    void cavesSameMaskForSameSeed();
    void cavesInvert();
    void crystalsOnlyOnTheCaveFloor();
    void bestCandidateEqualsBruteForce();
    void bestCandidateIsTighterThanRandom();
    void badParamsAreLocated();
    void descriptorsAreComplete();
};

using namespace scatter_extensions_support;

void TestScatterExtensions::caveRuleOnAHandMadeGrid()
{
    // 1 = wall; worked by hand with B5678/S45678, counting the border as wall: e.g. the top-left
    // corner has 5 border neighbours and the wall at (1, 1): 6, born; the wall at (1, 1) has 2
    // wall neighbours, dies; the bottom-right corner has 5 border + 2 walls: 7, survives.
    const std::vector<std::uint8_t> grid = {
        0, 0, 0, 0, 0,
        0, 1, 1, 0, 0,
        0, 1, 0, 0, 0,
        0, 0, 0, 0, 1,
        0, 0, 0, 1, 1,
    };
    const std::vector<std::uint8_t> expected = {
        1, 1, 1, 0, 1,
        1, 0, 0, 0, 0,
        1, 0, 0, 0, 0,
        0, 0, 0, 0, 1,
        1, 0, 0, 1, 1,
    };
    const auto rule = cave::parseRule("B5678/S45678");
    QVERIFY(rule);
    QCOMPARE(cave::step(grid, 5, 5, *rule), expected);
    // Conway's life (B3/S23): a blinker turns. The border counts as wall, which only the edge
    // cells see, so the inner 3 x 3 is Life's own answer.
    const std::vector<std::uint8_t> blinker = {0, 0, 0, 0, 0,  0, 0, 1, 0, 0,  0, 0, 1, 0, 0,  0, 0, 1, 0, 0,  0, 0, 0, 0, 0};
    const std::vector<std::uint8_t> turned = {0, 0, 0, 0, 0,  0, 0, 0, 0, 0,  0, 1, 1, 1, 0,  0, 0, 0, 0, 0,  0, 0, 0, 0, 0};
    const auto life = cave::parseRule("B3/S23");
    QVERIFY(life);
    const auto stepped = cave::step(blinker, 5, 5, *life);
    for (int r = 1; r < 4; ++r)
        for (int c = 1; c < 4; ++c)
            QCOMPARE(stepped[static_cast<size_t>(r * 5 + c)], turned[static_cast<size_t>(r * 5 + c)]);
}

void TestScatterExtensions::caveRuleText()
{
    const auto classic = cave::parseRule(cave::kClassicRule);
    QVERIFY(classic);
    QCOMPARE(int(classic->birth), 0b111100000);
    QCOMPARE(int(classic->survival), 0b111110000);
    const auto empty = cave::parseRule("B/S");
    QVERIFY(empty && empty->birth == 0 && empty->survival == 0);
    for (const char *bad : {"", "B5678", "S45678/B5678", "B9/S4", "B55/S4", "B5/S4x", "5678/45678", "B5/4"}) {
        std::string why;
        QVERIFY2(!cave::parseRule(bad, &why), bad);
        QVERIFY(!why.empty());
    }
}

void TestScatterExtensions::cavesFollowTheDocumentedFillAndRule()
{
    // the first fill is pointHash01(seed, col + row * 2^32, salt) < fill, then the rule: rebuilt
    // here from the hash alone and stepped by a plain loop, it must give the node's mask
    const int cols = 23, rows = 17;
    const double cell = 4;
    const std::int32_t seed = effectiveSeed(11, 5);
    for (int iterations : {1, 3}) {
        std::vector<std::uint8_t> walls;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                walls.push_back(pointHash01(seed, std::uint64_t(c) + (std::uint64_t(r) << 32), 0x63617665u) < 0.45);
        for (int i = 0; i < iterations; ++i) {
            std::vector<std::uint8_t> next(walls.size());
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < cols; ++c) {
                    int n = 0;
                    for (int dr = -1; dr <= 1; ++dr)
                        for (int dc = -1; dc <= 1; ++dc) {
                            if (!dr && !dc)
                                continue;
                            const int rr = r + dr, cc = c + dc;
                            n += rr < 0 || cc < 0 || rr >= rows || cc >= cols ? 1 : walls[size_t(rr * cols + cc)];
                        }
                    const bool wall = walls[size_t(r * cols + c)];
                    next[size_t(r * cols + c)] = wall ? n >= 4 : n >= 5;
                }
            walls = next;
        }
        std::vector<std::uint8_t> floor;
        for (auto w : walls)
            floor.push_back(!w);
        const NodeRun d = evaluateNode("caves", {{"cell_size", Value(cell)}, {"iterations", Value(double(iterations))},
                                                {"seed", Value(5.0)}},
                                      {}, world(cols * cell, rows * cell, 11));
        QVERIFY2(d.error.empty(), d.error.c_str());
        const MaskPtr mask = std::get<MaskPtr>(d.outputs[0]);
        QCOMPARE(sampleCells(*mask, cols, rows, cell), floor);
    }
}

void TestScatterExtensions::cavesSameMaskForSameSeed()
{
    const std::string text = graphText("  cave:\n    type: caves\n    params: {cell_size: 5, seed: 3}\n");
    const EvalResult a = evaluateText(text), b = evaluateText(text);
    QVERIFY(a.ok() && b.ok());
    const auto cellsA = sampleCells(*maskOf(a, "cave"), 80, 60, 5), cellsB = sampleCells(*maskOf(b, "cave"), 80, 60, 5);
    QCOMPARE(cellsA, cellsB);
    // a cave, not all wall or all floor
    const auto open = std::count(cellsA.begin(), cellsA.end(), 1);
    QVERIFY2(open > 800 && open < 4000, std::to_string(open).c_str());
    const EvalResult other = evaluateText(graphText("  cave:\n    type: caves\n    params: {cell_size: 5, seed: 4}\n"));
    QVERIFY(other.ok());
    const auto cellsC = sampleCells(*maskOf(other, "cave"), 80, 60, 5);
    int differ = 0;
    for (size_t i = 0; i < cellsA.size(); ++i)
        differ += cellsA[i] != cellsC[i];
    QVERIFY2(differ > 500, std::to_string(differ).c_str());
    // the world's size does not move a cell: a bigger world has the same cells where both reach
    const EvalResult wider = evaluateText(graphText("  cave:\n    type: caves\n    params: {cell_size: 5, seed: 3, iterations: 1}\n", 600, 300));
    const EvalResult narrow = evaluateText(graphText("  cave:\n    type: caves\n    params: {cell_size: 5, seed: 3, iterations: 1}\n", 400, 300));
    QVERIFY(wider.ok() && narrow.ok());
    // one step reaches one cell: away from the narrow world's right border, the two agree
    const auto w = sampleCells(*maskOf(wider, "cave"), 78, 60, 5), n = sampleCells(*maskOf(narrow, "cave"), 78, 60, 5);
    QCOMPARE(w, n);
}

void TestScatterExtensions::cavesInvert()
{
    const EvalResult a = evaluateText(graphText("  cave:\n    type: caves\n    params: {cell_size: 5}\n"));
    const EvalResult b = evaluateText(graphText("  cave:\n    type: caves\n    params: {cell_size: 5, invert: true}\n"));
    QVERIFY(a.ok() && b.ok());
    const auto ca = sampleCells(*maskOf(a, "cave"), 80, 60, 5), cb = sampleCells(*maskOf(b, "cave"), 80, 60, 5);
    for (size_t i = 0; i < ca.size(); ++i)
        QCOMPARE(ca[i], std::uint8_t(!cb[i]));
    // beyond the world is wall
    QVERIFY(!maskOf(a, "cave")->at(-1, 10) && !maskOf(a, "cave")->at(10, 300.5) && !maskOf(a, "cave")->at(NAN, 3));
    QVERIFY(maskOf(b, "cave")->at(-1, 10));
}

void TestScatterExtensions::crystalsOnlyOnTheCaveFloor()
{
    const EvalResult r = evaluateText(graphText("  cave:\n    type: caves\n    params: {cell_size: 6, seed: 2}\n"
                                       "  crystals:\n    type: place_layer\n    inputs: {allowed: cave.mask}\n"
                                       "    params: {radius: 5}\n"));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const MaskPtr mask = maskOf(r, "cave");
    const auto crystals = pointsOf(r, "crystals");
    QVERIFY(crystals.size() > 300);
    // the cell each crystal stands in is open: ceil(400 / 6) x ceil(300 / 6) cells, sampled at their centres
    const auto cells = sampleCells(*mask, 67, 50, 6);
    for (const PointXYR &p : crystals)
        QCOMPARE(cells[size_t(std::floor(p.y / 6)) * 67 + size_t(std::floor(p.x / 6))], std::uint8_t(1));
    // and the floor is not all the map: the crystals grow in caves, not everywhere
    const auto open = std::count(cells.begin(), cells.end(), 1);
    QVERIFY(open < 67 * 50 * 3 / 4);

    // rocks scattered around the crystals with the cave as their allowed area stay on the floor;
    // without it, some land on the wall
    for (const bool withAllowed : {true, false}) {
        const EvalResult around = evaluateText(graphText(
            "  cave:\n    type: caves\n    params: {cell_size: 6, seed: 2}\n"
            "  crystals:\n    type: place_layer\n    inputs: {allowed: cave.mask}\n    params: {radius: 12}\n"
            "  rocks:\n    type: scatter_around\n    inputs: {parents: crystals.points, obstacles: crystals.all"
            + std::string(withAllowed ? ", allowed: cave.mask" : "") + "}\n    params: {count: [2, 4], r_min: 4, r_max: 24, radius: 3}\n"));
        QVERIFY2(around.ok(), formatAll(around.diagnostics).c_str());
        const auto rocks = pointsOf(around, "rocks");
        QVERIFY(rocks.size() > 200);
        int onWall = 0;
        for (const PointXYR &p : rocks)
            onWall += !mask->at(p.x, p.y);
        if (withAllowed)
            QCOMPARE(onWall, 0);
        else
            QVERIFY2(onWall > 20, std::to_string(onWall).c_str());
    }
}

void TestScatterExtensions::bestCandidateEqualsBruteForce()
{
    struct Case { int count, m; double w, h; int worldSeed, seed; };
    for (const Case c : {Case{1, 1, 100, 100, 1, 0}, Case{50, 10, 300, 200, 7, 0}, Case{200, 5, 1000, 50, 3, 9},
                         Case{300, 20, 64, 640, 123456, -4}, Case{120, 1, 500, 500, 2, 1}, Case{150, 8, 5000, 3, 5, 2},
                         Case{400, 12, 0.001, 700, 6, 0}}) {
        const NodeRun d = evaluateNode("best_candidate",
                                      {{"count", Value(double(c.count))}, {"candidates", Value(double(c.m))},
                                       {"radius", Value(4.0)}, {"seed", Value(double(c.seed))}},
                                      {}, world(c.w, c.h, c.worldSeed));
        QVERIFY2(d.error.empty(), d.error.c_str());
        const auto got = layerPoints(d.outputs[0]);
        const auto want = bruteMitchell(c.count, c.m, c.w, c.h, effectiveSeed(c.worldSeed, c.seed), 4);
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
            QVERIFY2(same(got[i].x, want[i].x) && same(got[i].y, want[i].y) && same(got[i].r, 4.0),
                     (std::to_string(c.count) + " points, m " + std::to_string(c.m) + ": point " + std::to_string(i)).c_str());
    }
}

void TestScatterExtensions::bestCandidateIsTighterThanRandom()
{
    // scatter_methods' comparison: 280 points at radius 26 on 720 x 400
    const EvalResult r = evaluateText(graphText("  best:\n    type: best_candidate\n    params: {count: 280, candidates: 10, radius: 26}\n"
                                       "  random:\n    type: random_points\n    params: {count: 280, radius: 26}\n",
                                       720, 400, 123456));
    QVERIFY(r.ok());
    const auto best = pointsOf(r, "best"), random = pointsOf(r, "random");
    QCOMPARE(best.size(), size_t(280));
    QCOMPARE(random.size(), size_t(280));
    const double tb = tightest(best), tr = tightest(random);
    const int cb = pairsCloserThan(best, 26), cr = pairsCloserThan(random, 26);
    qInfo("tightest pair: best_candidate %.2f, random %.2f; pairs closer than 26: %d against %d", tb, tr, cb, cr);
    QVERIFY(tb > 5 * tr);
    QVERIFY(cb * 2 < cr);
}

void TestScatterExtensions::badParamsAreLocated()
{
    struct Case { std::string node, expected; };
    const std::vector<Case> cases = {
        {"  a:\n    type: scatter_around\n    inputs: {parents: t.points}\n    params: {r_min: 30, r_max: 10}\n",
         "test.grove.yaml:9:32: error: param 'r_max': r_max 10 is below r_min 30 (at nodes.a.params.r_max)"},
        {"  a:\n    type: scatter_around\n    inputs: {parents: t.points}\n    params: {count: [2.5, 4]}\n",
         "test.grove.yaml:9:21: error: param 'count': count 2.5 is not a whole number (at nodes.a.params.count)"},
        {"  a:\n    type: caves\n    params: {rule: B9/S4}\n",
         "test.grove.yaml:8:20: error: param 'rule': rule 'B9/S4': the B part holds '9': only the digits 0 to 8 count neighbours (at nodes.a.params.rule)"},
    };
    for (const Case &c : cases) {
        const LoadResult loaded = load(graphText("  t:\n    type: place_layer\n" + c.node));
        QVERIFY(!loaded.ok());
        const std::string got = formatAll(loaded.diagnostics);
        QVERIFY2(got.find(c.expected) != std::string::npos, got.c_str());
    }
    // too many cells, and too many candidates: refused where they are set
    const EvalResult cells = evaluateText(graphText("  a:\n    type: caves\n    params: {cell_size: 0.01}\n"));
    QVERIFY(!cells.ok());
    QVERIFY2(formatAll(cells.diagnostics).find("param 'cell_size'") != std::string::npos
                 || formatAll(cells.diagnostics).find("params.cell_size") != std::string::npos,
             formatAll(cells.diagnostics).c_str());
    const EvalResult many = evaluateText(graphText("  a:\n    type: best_candidate\n    params: {count: 10000000, candidates: 100}\n"));
    QVERIFY(!many.ok());
    QVERIFY2(formatAll(many.diagnostics).find("candidates, more than") != std::string::npos, formatAll(many.diagnostics).c_str());
}

void TestScatterExtensions::descriptorsAreComplete()
{
    for (const char *type : {"caves", "best_candidate", "scatter_around"}) {
        const NodeDescriptor *d = registry().find(type);
        QVERIFY2(d, type);
        QVERIFY(!d->displayName.empty() && !d->description.empty());
        for (const auto &p : d->params) {
            QVERIFY2(!p.description.empty(), (std::string(type) + "." + p.name).c_str());
            QVERIFY2(!checkParamValue(p, p.defaultValue), (std::string(type) + "." + p.name).c_str());
        }
        for (const auto &port : d->inputs)
            QVERIFY(!port.description.empty());
        for (const auto &port : d->outputs)
            QVERIFY(!port.description.empty());
        QVERIFY(d->needsWorldSize);
        QVERIFY(!d->chunked);
    }
    QCOMPARE(registry().find("caves")->category, std::string("Labels & masks"));
    QVERIFY(registry().find("best_candidate")->makesLayer());
    const NodeDescriptor *around = registry().find("scatter_around");
    QVERIFY(around->makesLayer());
    QCOMPARE(around->outputWithRole(PortRole::LayerChain)->name, std::string("all"));
    QCOMPARE(around->inputWithRole(PortRole::AllowedArea)->name, std::string("allowed"));
    QCOMPARE(registry().find("caves")->param("iterations")->min, 1.0);
    QCOMPARE(registry().find("caves")->param("iterations")->max, 100.0);
}

QTEST_APPLESS_MAIN(TestScatterExtensions)

#include "tst_scatter_extensions.moc"
