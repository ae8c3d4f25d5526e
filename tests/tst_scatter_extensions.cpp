// The scatter extensions: caves (a cellular-automaton mask), best_candidate (Mitchell's
// sampler) and scatter_around (children in a ring around each parent). What a designer would
// notice: the same caves for the same seed and the documented rule on a hand-computed grid,
// crystals only on the cave floor; best_candidate equal to a brute-force Mitchell bit for bit and
// far tighter than random points; every child in its ring, counts in range, nothing too close
// (brute force), and a parent's children depending on that parent alone.
#include "TestSupport.h"

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
    void scatterAroundChildrenInTheirRing();
    void scatterAroundNothingTooClose();
    void scatterAroundDependsOnEachParentAlone();
    void scatterAroundInTheChain();
    void scatterAroundKeepsAHouseItsOwnRadius();
    void scatterAroundInChunkedWorlds();
    void badParamsAreLocated();
    void descriptorsAreComplete();
};

namespace {

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

std::string graphText(const std::string &nodes, double width = 400, double height = 300, int seed = 7)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

std::vector<PointXYR> pointsOf(const EvalResult &r, const std::string &node)
{
    const PortValue v = r.outputWithRole(node, PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    if (!set || !*set || (*set)->layers.empty())
        return {};
    return (*set)->layers.back()->points;
}

MaskPtr maskOf(const EvalResult &r, const std::string &node)
{
    const PortValue v = r.output(node);
    const auto *m = std::get_if<MaskPtr>(&v);
    return m ? *m : nullptr;
}

World world(double width, double height, int seed)
{
    World w;
    w.width = width;
    w.height = height;
    w.seed = seed;
    return w;
}

PointSetPtr pointSet(std::vector<PointXYR> points)
{
    auto layer = std::make_shared<PointLayer>();
    layer->info.name = "parents";
    layer->points = std::move(points);
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(layer);
    return set;
}

std::vector<PointXYR> layerPoints(const PortValue &v)
{
    const auto *set = std::get_if<PointSetPtr>(&v);
    return set && *set && !(*set)->layers.empty() ? (*set)->layers.back()->points : std::vector<PointXYR>{};
}

// The mask at every cell centre of a cols x rows grid of `cell` (1 = true).
std::vector<std::uint8_t> sampleCells(const Mask &mask, int cols, int rows, double cell)
{
    std::vector<std::uint8_t> out;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            out.push_back(mask.at((c + 0.5) * cell, (r + 0.5) * cell));
    return out;
}

// Mitchell's best-candidate, brute force: every candidate against every kept point.
std::vector<PointXYR> bruteMitchell(int count, int m, double width, double height, std::int32_t seed, double r)
{
    SeededRandom random(seed);
    std::vector<PointXYR> kept;
    for (int i = 0; i < count; ++i) {
        double bx = 0, by = 0, best = -1;
        for (int j = 0; j < m; ++j) {
            const double x = random.nextFloat() * width, y = random.nextFloat() * height;
            double nearest = HUGE_VAL;
            for (const PointXYR &p : kept)
                nearest = std::min(nearest, (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y));
            if (nearest > best) {
                best = nearest;
                bx = x;
                by = y;
            }
        }
        kept.push_back({bx, by, r});
    }
    return kept;
}

double tightest(const std::vector<PointXYR> &points)
{
    double best = HUGE_VAL;
    for (size_t i = 0; i < points.size(); ++i)
        for (size_t j = i + 1; j < points.size(); ++j) {
            const double dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
            best = std::min(best, dx * dx + dy * dy);
        }
    return std::sqrt(best);
}

int pairsCloserThan(const std::vector<PointXYR> &points, double d)
{
    int n = 0;
    for (size_t i = 0; i < points.size(); ++i)
        for (size_t j = i + 1; j < points.size(); ++j) {
            const double dx = points[i].x - points[j].x, dy = points[i].y - points[j].y;
            n += dx * dx + dy * dy < d * d;
        }
    return n;
}

// The parent (index) nearest each child.
std::vector<size_t> nearestParent(const std::vector<PointXYR> &children, const std::vector<PointXYR> &parents)
{
    std::vector<size_t> out;
    for (const PointXYR &c : children) {
        size_t best = 0;
        double bestD = HUGE_VAL;
        for (size_t i = 0; i < parents.size(); ++i) {
            const double d = (parents[i].x - c.x) * (parents[i].x - c.x) + (parents[i].y - c.y) * (parents[i].y - c.y);
            if (d < bestD) {
                bestD = d;
                best = i;
            }
        }
        out.push_back(best);
    }
    return out;
}

// Parents on a grid `gap` apart, starting at (gap/2, gap/2).
std::vector<PointXYR> gridParents(int cols, int rows, double gap, double r)
{
    std::vector<PointXYR> out;
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < cols; ++i)
            out.push_back({gap / 2 + i * gap, gap / 2 + j * gap, r});
    return out;
}

ValueMap aroundParams(double rMin, double rMax, double low, double high, double radius, int seed = 0)
{
    return {{"r_min", Value(rMin)}, {"r_max", Value(rMax)}, {"count", Value(ValueList{Value(low), Value(high)})},
            {"radius", Value(radius)}, {"seed", Value(static_cast<double>(seed))}};
}

} // namespace

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

void TestScatterExtensions::scatterAroundChildrenInTheirRing()
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

void TestScatterExtensions::scatterAroundNothingTooClose()
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

void TestScatterExtensions::scatterAroundDependsOnEachParentAlone()
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

void TestScatterExtensions::scatterAroundInTheChain()
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

void TestScatterExtensions::scatterAroundKeepsAHouseItsOwnRadius()
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

void TestScatterExtensions::scatterAroundInChunkedWorlds()
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
