// relax (Lloyd rounds on Boost.Polygon's Voronoi cells) and voronoi (nearest-site regions and
// their borders). What a designer would notice: the cells tile the world, relaxed points keep
// their spacing and spread out (tightest pair up, widest clearing down), the same bytes every
// run, labels that are the nearest site and borders exactly where the bisector distance is below
// the width (both against brute force), and bad params refused at their line.
#include "TestSupport.h"

#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/analysis/LayerStats.h"
#include "core/base/Limits.h"
#include "core/geometry/SiteIndex.h"
#include "core/geometry/VoronoiCells.h"

#include <atomic>
#include <cmath>
#include <functional>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace grove;
using namespace grove::test;

class TestRelaxVoronoi : public QObject
{
    Q_OBJECT

private slots:
    void cellsTileTheWorld();
    void cellsOfFewOrCollinearSites();
    void relaxKeepsSpacing();
    void relaxSpreadsRandomPoints();
    void relaxIsDeterministicAndKeepsIds();
    void relaxStaysInsideAllowed();
    void relaxReportsProgressAndCancels();
    void voronoiLabelsAreTheNearestSite();
    void nearestFromFarAway();
    void voronoiTiesGoToTheLowerSite();
    void voronoiNamesCycle();
    void voronoiFeedsBiomeTable();
    void bordersAreWhereTheBisectorIsNear();
    void badParamsAreLocated();
    void noSitesIsAnError();
};

namespace {

std::string graphText(const std::string &nodes, double width = 400, double height = 300, int seed = 5)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

PointLayerPtr layerOf(const EvalResult &r, const std::string &node)
{
    const PointSetPtr set = outputOf<PointSetPtr>(r, node, "points");
    return set && !set->layers.empty() ? set->layers.back() : nullptr;
}

// pairs closer than the smaller of their radii, every pair tested
std::size_t tooClosePairs(const std::vector<PointXYR> &p)
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            const double r = std::min(p[i].r, p[j].r);
            const double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
            n += dx * dx + dy * dy < r * r;
        }
    return n;
}

std::vector<Vec2> randomSites(std::size_t n, double w, double h, unsigned seed)
{
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> ux(0, w), uy(0, h);
    std::vector<Vec2> s(n);
    for (auto &p : s)
        p = {ux(gen), uy(gen)};
    return s;
}

// brute force: the nearest site, the lower index on a tie; and the smallest bisector distance
long long bruteNearest(const std::vector<Vec2> &sites, double x, double y, double *d2out = nullptr)
{
    long long best = -1;
    double bd = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const double dx = sites[i].x - x, dy = sites[i].y - y;
        const double d2 = dx * dx + dy * dy;
        if (d2 < bd) {
            bd = d2;
            best = static_cast<long long>(i);
        }
    }
    if (d2out)
        *d2out = bd;
    return best;
}

double bruteBorderDistance(const std::vector<Vec2> &sites, double x, double y)
{
    double da;
    const long long a = bruteNearest(sites, x, y, &da);
    double best = std::numeric_limits<double>::infinity();
    const Vec2 s = sites[static_cast<std::size_t>(a)];
    for (const Vec2 &b : sites) {
        const double ex = b.x - s.x, ey = b.y - s.y;
        const double ab = std::sqrt(ex * ex + ey * ey);
        if (ab == 0)
            continue;
        const double dx = b.x - x, dy = b.y - y;
        best = std::min(best, (dx * dx + dy * dy - da) / (2 * ab));
    }
    return best;
}

PointSetPtr pointSet(const std::vector<Vec2> &sites, double r = 1)
{
    auto layer = std::make_shared<PointLayer>();
    for (const Vec2 &s : sites)
        layer->points.push_back({s.x, s.y, r});
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(layer);
    return set;
}

double tilingError(const std::vector<Vec2> &sites, double w, double h, std::size_t *cells = nullptr)
{
    double sum = 0;
    std::size_t n = 0;
    forEachVoronoiCell(sites, w, h, [&](std::size_t, const std::vector<Vec2> &polygon) {
        sum += polygonArea(polygon);
        ++n;
    });
    if (cells)
        *cells = n;
    return std::fabs(sum - w * h) / (w * h);
}

} // namespace

void TestRelaxVoronoi::cellsTileTheWorld()
{
    for (unsigned seed : {1u, 2u, 3u}) {
        const double w = 1000 + 37 * seed, h = 700;
        const std::vector<Vec2> sites = randomSites(3000, w, h, seed);
        std::size_t cells = 0;
        const double err = tilingError(sites, w, h, &cells);
        QCOMPARE(cells, sites.size());
        QVERIFY2(err < 1e-6, std::to_string(err).c_str());
        // every cell is where its site is nearest: each vertex no nearer another site (within rounding)
        const double s = voronoiScale(w, h);
        SiteIndex index(sites);
        std::size_t checked = 0;
        forEachVoronoiCell(sites, w, h, [&](std::size_t site, const std::vector<Vec2> &polygon) {
            if (site % 50)
                return;
            const Vec2 c = polygonCentroid(polygon);
            QCOMPARE(static_cast<std::size_t>(index.nearest(c.x, c.y)), site);
            for (const Vec2 &v : polygon) {
                double d2;
                bruteNearest(sites, v.x, v.y, &d2);
                const double dx = sites[site].x - v.x, dy = sites[site].y - v.y;
                QVERIFY(std::sqrt(dx * dx + dy * dy) - std::sqrt(d2) < 4 / s);
            }
            ++checked;
        });
        QCOMPARE(checked, std::size_t(60));
    }
}

void TestRelaxVoronoi::cellsOfFewOrCollinearSites()
{
    // one site: the whole world; two: two halves split at x = 50
    std::size_t cells = 0;
    QCOMPARE(tilingError({{30, 40}}, 100, 80, &cells), 0.0);
    QCOMPARE(cells, std::size_t(1));
    double area0 = 0;
    forEachVoronoiCell({{25, 40}, {75, 40}}, 100, 80, [&](std::size_t site, const std::vector<Vec2> &p) {
        if (site == 0)
            area0 = polygonArea(p);
    });
    QCOMPARE(area0, 50.0 * 80);
    // collinear sites (every Boost edge infinite at both ends), duplicates, and sites off the world
    std::vector<Vec2> line;
    for (int k = 0; k < 10; ++k)
        line.push_back({10.0 + 9 * k, 10.0 + 6 * k});
    line.push_back(line[3]);
    line.push_back({-5, 20});
    line.push_back({std::nan(""), 3});
    QVERIFY(tilingError(line, 100, 80, &cells) < 1e-9);
    QCOMPARE(cells, std::size_t(10));
}

void TestRelaxVoronoi::relaxKeepsSpacing()
{
    const std::string nodes = "  trees:\n    type: place_layer\n    params: {radius: 9}\n"
                              "  kept:\n    type: relax\n    inputs: {points: trees}\n    params: {rounds: 4}\n"
                              "  loose:\n    type: relax\n    inputs: {points: trees}\n    params: {rounds: 4, keep_spacing: false}\n";
    const EvalResult r = evaluateText(graphText(nodes));
    QVERIFY(r.ok());
    const PointLayerPtr trees = layerOf(r, "trees"), kept = layerOf(r, "kept"), loose = layerOf(r, "loose");
    QVERIFY(trees && kept && loose);
    QVERIFY(trees->points.size() > 500);
    QCOMPARE(tooClosePairs(trees->points), std::size_t(0));
    QCOMPARE(tooClosePairs(kept->points), std::size_t(0));
    // without the option Lloyd pulls some pairs closer: the option is what holds the spacing
    QVERIFY(tooClosePairs(loose->points) > 0);
    QCOMPARE(kept->points.size(), trees->points.size());
}

void TestRelaxVoronoi::relaxSpreadsRandomPoints()
{
    const std::string nodes = "  camps:\n    type: random_points\n    params: {count: 400, radius: 6}\n"
                              "  even:\n    type: relax\n    inputs: {points: camps}\n    params: {rounds: 5}\n";
    const EvalResult r = evaluateText(graphText(nodes));
    QVERIFY(r.ok());
    const PointLayerPtr camps = layerOf(r, "camps"), even = layerOf(r, "even");
    const LayerStats before = computeLayerStats(*camps, {}, 400, 300);
    const LayerStats after = computeLayerStats(*even, {}, 400, 300);
    QVERIFY2(after.tightest > 2 * before.tightest,
             (std::to_string(before.tightest) + " -> " + std::to_string(after.tightest)).c_str());
    QVERIFY2(after.clearingDiameter < 0.75 * before.clearingDiameter,
             (std::to_string(before.clearingDiameter) + " -> " + std::to_string(after.clearingDiameter)).c_str());
    // a pair too close in the input may stay so, but no new one appears
    QVERIFY(tooClosePairs(even->points) <= tooClosePairs(camps->points));
    for (const PointXYR &p : even->points)
        QVERIFY(p.x >= 0 && p.x <= 400 && p.y >= 0 && p.y <= 300 && p.r == 6);
}

void TestRelaxVoronoi::relaxIsDeterministicAndKeepsIds()
{
    const std::string nodes = "  trees:\n    type: place_layer\n    params: {radius: 7}\n"
                              "  even:\n    type: relax\n    inputs: {points: trees}\n";
    const EvalResult a = evaluateText(graphText(nodes)), b = evaluateText(graphText(nodes));
    QVERIFY(a.ok() && b.ok());
    const PointLayerPtr trees = layerOf(a, "trees"), ea = layerOf(a, "even"), eb = layerOf(b, "even");
    QCOMPARE(ea->points.size(), trees->points.size());
    QCOMPARE(eb->points.size(), ea->points.size());
    QVERIFY(std::memcmp(ea->points.data(), eb->points.data(), ea->points.size() * sizeof(PointXYR)) == 0);
    std::size_t moved = 0;
    for (std::size_t i = 0; i < trees->points.size(); ++i) {
        moved += ea->points[i].x != trees->points[i].x || ea->points[i].y != trees->points[i].y;
        QCOMPARE(ea->idOf(i), trees->idOf(i));
    }
    QVERIFY2(moved > trees->points.size() * 9 / 10, std::to_string(moved).c_str());
}

void TestRelaxVoronoi::relaxStaysInsideAllowed()
{
    // only the regions named "wild" of a voronoi are allowed: points there stay there, and cells'
    // centroids use that part only
    const std::string nodes = "  sites:\n    type: random_points\n    params: {count: 8, seed: 4}\n"
                              "  areas:\n    type: voronoi\n    inputs: {sites: sites}\n    params: {names: [wild, farm]}\n"
                              "  left:\n    type: allowed_rule\n    inputs: {labels: areas.labels}\n    params: {include: [wild]}\n"
                              "  camps:\n    type: random_points\n    params: {count: 300, radius: 4}\n"
                              "  even:\n    type: relax\n    inputs: {points: camps, allowed: left}\n    params: {rounds: 3}\n";
    const EvalResult r = evaluateText(graphText(nodes));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const PointLayerPtr camps = layerOf(r, "camps"), even = layerOf(r, "even");
    const MaskPtr left = outputOf<MaskPtr>(r, "left");
    QVERIFY(left);
    std::size_t inside = 0, moved = 0;
    for (std::size_t i = 0; i < camps->points.size(); ++i) {
        const PointXYR &a = camps->points[i], &b = even->points[i];
        if (left->at(a.x, a.y)) {
            ++inside;
            QVERIFY(left->at(b.x, b.y));
            moved += a.x != b.x || a.y != b.y;
        }
    }
    QVERIFY(inside > 50);
    QVERIFY(moved > inside / 2);
}

void TestRelaxVoronoi::relaxReportsProgressAndCancels()
{
    World world;
    world.width = 400;
    world.height = 300;
    const PointSetPtr sites = pointSet(randomSites(5000, 400, 300, 8), 2);
    std::vector<double> seen;
    const NodeRun done = evaluateNode("relax", {{"rounds", 4.0}}, {{"points", sites}}, world, nullptr,
                                     [&](double f) { seen.push_back(f); });
    QVERIFY(done.error.empty());
    QCOMPARE(seen, (std::vector<double>{0.25, 0.5, 0.75, 1.0}));
    QCOMPARE(std::get<PointSetPtr>(done.outputs[0])->size(), std::size_t(5000));
    // cancelled: no layer and no error (the evaluator reports the cancel)
    std::atomic<bool> cancel{true};
    const NodeRun stopped = evaluateNode("relax", {{"rounds", 4.0}}, {{"points", sites}}, world, &cancel);
    QVERIFY(stopped.error.empty());
    QVERIFY(std::holds_alternative<std::monostate>(stopped.outputs[0]));
}

void TestRelaxVoronoi::voronoiLabelsAreTheNearestSite()
{
    const std::string nodes = "  camps:\n    type: random_points\n    params: {count: 500}\n"
                              "  regions:\n    type: voronoi\n    inputs: {sites: camps}\n";
    const EvalResult r = evaluateText(graphText(nodes, 800, 600));
    QVERIFY(r.ok());
    const PointLayerPtr camps = layerOf(r, "camps");
    const LabelsPtr labels = outputOf<LabelsPtr>(r, "regions", "labels");
    QVERIFY(labels);
    QCOMPARE(labels->names.size(), std::size_t(500));
    QCOMPARE(labels->names[17], std::string("region 17"));
    QCOMPARE(labels->colors.size(), std::size_t(500));
    std::vector<Vec2> sites;
    for (const PointXYR &p : camps->points)
        sites.push_back({p.x, p.y});
    std::mt19937_64 gen(11);
    std::uniform_real_distribution<double> ux(-20, 820), uy(-20, 620);
    for (int k = 0; k < 100000; ++k) {
        const double x = ux(gen), y = uy(gen);
        const long long want = bruteNearest(sites, x, y);
        if (labels->at(x, y) != want)
            QFAIL(("at " + std::to_string(x) + "," + std::to_string(y) + ": " + std::to_string(labels->at(x, y))
                   + " != " + std::to_string(want)).c_str());
    }
}

void TestRelaxVoronoi::nearestFromFarAway()
{
    // sites crowded into one corner, asked about from all over (and beyond) the world
    std::vector<Vec2> sites = randomSites(2000, 50, 50, 4);
    sites.push_back({900, 20});
    const SiteIndex index(sites);
    std::mt19937_64 gen(5);
    std::uniform_real_distribution<double> u(-500, 1500);
    for (int k = 0; k < 20000; ++k) {
        const double x = u(gen), y = u(gen);
        if (index.nearest(x, y) != bruteNearest(sites, x, y))
            QFAIL(("at " + std::to_string(x) + "," + std::to_string(y)).c_str());
    }
    // a few sites far off the world stay out of the grid and are still found
    std::vector<Vec2> withFar = randomSites(3000, 100, 100, 6);
    withFar.push_back({1e9, -1e9});
    withFar.push_back({-400, 50});
    withFar.push_back({-400, 50});
    const Region core{-100, -100, 200, 200};
    const SiteIndex cored(withFar, &core);
    QCOMPARE(cored.size(), withFar.size());
    for (int k = 0; k < 20000; ++k) {
        const double x = u(gen), y = u(gen);
        if (cored.nearest(x, y) != bruteNearest(withFar, x, y))
            QFAIL(("cored at " + std::to_string(x) + "," + std::to_string(y)).c_str());
        if (cored.nearBorder(x, y, 7) != (bruteBorderDistance(withFar, x, y) < 7))
            QFAIL(("cored border at " + std::to_string(x) + "," + std::to_string(y)).c_str());
    }
    QCOMPARE(cored.nearest(-390, 50), 3001LL);
    QCOMPARE(index.nearest(std::nan(""), 3), -1LL);
    QCOMPARE(SiteIndex({}).nearest(1, 2), -1LL);
}

void TestRelaxVoronoi::voronoiTiesGoToTheLowerSite()
{
    World world;
    world.width = 100;
    world.height = 100;
    // sites 1 and 2 on one spot, 0 and 3 mirror images about x = 50
    const NodeRun d = evaluateNode("voronoi", {}, {{"sites", pointSet({{30, 50}, {10, 10}, {10, 10}, {70, 50}})}}, world);
    QVERIFY2(d.error.empty(), d.error.c_str());
    const auto labels = std::get<LabelsPtr>(d.outputs[0]);
    QCOMPARE(labels->at(50, 50), 0);
    QCOMPARE(labels->at(50, 90), 0);
    QCOMPARE(labels->at(10, 10), 1);
    QCOMPARE(labels->at(12, 8), 1);
    QCOMPARE(labels->at(51, 50), 3);
}

void TestRelaxVoronoi::voronoiNamesCycle()
{
    World world;
    world.width = 100;
    world.height = 100;
    ValueMap params = {{"names", ValueList{std::string("farm"), std::string("forest"), std::string("town")}},
                       {"palette", ValueList{std::string("#ff0000"), std::string("#00ff00")}}};
    const NodeRun d = evaluateNode("voronoi", params,
                                  {{"sites", pointSet({{10, 10}, {90, 10}, {10, 90}, {90, 90}, {50, 50}})}}, world);
    QVERIFY2(d.error.empty(), d.error.c_str());
    const auto labels = std::get<LabelsPtr>(d.outputs[0]);
    QCOMPARE(labels->names, (std::vector<std::string>{"farm", "forest", "town"}));
    QCOMPARE(labels->colors[2], (Rgb{255, 0, 0}));  // the palette cycles
    QCOMPARE(labels->at(5, 5), 0);
    QCOMPARE(labels->at(95, 5), 1);
    QCOMPARE(labels->at(5, 95), 2);
    QCOMPARE(labels->at(95, 95), 0);  // site 3 takes names[3 mod 3]
    QCOMPARE(labels->at(52, 50), 1);  // site 4 takes names[1]
    // a name given twice is refused at its param
    const LoadResult twice = load(graphText("  c:\n    type: random_points\n  v:\n    type: voronoi\n    inputs: {sites: c}\n"
                                            "    params: {names: [farm, farm]}\n"));
    QVERIFY(!twice.ok());
    QVERIFY2(formatAll(twice.diagnostics).find("test.grove.yaml:9:21: error: param 'names': names 'farm' twice") != std::string::npos,
             formatAll(twice.diagnostics).c_str());
}

void TestRelaxVoronoi::voronoiFeedsBiomeTable()
{
    // kingdoms (voronoi rows) x height bands (threshold columns): each spot's biome is the table's
    const std::string nodes = "  capitals:\n    type: random_points\n    params: {count: 12, seed: 2}\n"
                              "  kingdoms:\n    type: voronoi\n    inputs: {sites: capitals}\n    params: {names: [north, south]}\n"
                              "  height:\n    type: value_noise\n    params: {frequency: 0.02}\n"
                              "  bands:\n    type: threshold\n    inputs: {field: height}\n    params: {cuts: [0.5], labels: [low, high]}\n"
                              "  land:\n    type: biome_table\n    inputs: {rows: kingdoms.labels, columns: bands}\n"
                              "    params: {table: [n_low, n_high, s_low, s_high], columns: 2}\n";
    const EvalResult r = evaluateText(graphText(nodes));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const LabelsPtr kingdoms = outputOf<LabelsPtr>(r, "kingdoms", "labels"), bands = outputOf<LabelsPtr>(r, "bands");
    const LabelsPtr land = outputOf<LabelsPtr>(r, "land");
    QVERIFY(kingdoms && bands && land);
    QCOMPARE(land->names, (std::vector<std::string>{"n_low", "n_high", "s_low", "s_high"}));
    std::mt19937_64 gen(3);
    std::uniform_real_distribution<double> ux(0, 400), uy(0, 300);
    int seen[4] = {};
    for (int k = 0; k < 5000; ++k) {
        const double x = ux(gen), y = uy(gen);
        const int want = kingdoms->at(x, y) * 2 + bands->at(x, y);
        QCOMPARE(land->at(x, y), want);
        ++seen[want];
    }
    for (int b = 0; b < 4; ++b)
        QVERIFY(seen[b] > 0);
}

void TestRelaxVoronoi::bordersAreWhereTheBisectorIsNear()
{
    const std::vector<Vec2> sites = randomSites(300, 500, 400, 9);
    World world;
    world.width = 500;
    world.height = 400;
    for (double width : {0.0, 3.0, 9.0}) {
        const NodeRun d = evaluateNode("voronoi", {{"width", width}}, {{"sites", pointSet(sites)}}, world);
        QVERIFY2(d.error.empty(), d.error.c_str());
        const auto borders = std::get<MaskPtr>(d.outputs[1]);
        std::mt19937_64 gen(21);
        std::uniform_real_distribution<double> ux(0, 500), uy(0, 400);
        std::size_t on = 0;
        const int samples = width == 3.0 ? 100000 : 20000;
        for (int k = 0; k < samples; ++k) {
            const double x = ux(gen), y = uy(gen);
            const bool want = bruteBorderDistance(sites, x, y) < width;
            on += want;
            if (borders->at(x, y) != want)
                QFAIL(("at " + std::to_string(x) + "," + std::to_string(y)).c_str());
        }
        if (width == 0)
            QCOMPARE(on, std::size_t(0));
        else
            QVERIFY(on > 0 && on < static_cast<std::size_t>(samples));
    }
}

void TestRelaxVoronoi::badParamsAreLocated()
{
    const auto errors = [](const std::string &params, const std::string &node = "relax") {
        const std::string input = node == "relax" ? "points" : "sites";
        const LoadResult l = load(graphText("  c:\n    type: random_points\n  n:\n    type: " + node + "\n    inputs: {"
                                            + input + ": c}\n    params: {" + params + "}\n"));
        return formatAll(l.diagnostics);
    };
    QCOMPARE(QString::fromStdString(errors("rounds: 0")),
             QString("test.grove.yaml:9:22: error: param 'rounds': 0 is out of range: must be >= 1 and <= 100 (at nodes.n.params.rounds)\n"));
    QVERIFY(errors("rounds: 1000000000").find(":9:22: error: param 'rounds': 1000000000 is out of range") != std::string::npos);
    QVERIFY(errors("resolution: -1").find(":9:26: error: param 'resolution'") != std::string::npos);
    QVERIFY2(errors("width: .nan", "voronoi").find(":9:21: error: param 'width'") != std::string::npos,
             errors("width: .nan", "voronoi").c_str());
    QVERIFY(errors("width: -1", "voronoi").find(":9:21: error: param 'width': -1 is out of range") != std::string::npos);
    // an unwired sites input
    const LoadResult unwired = load(graphText("  v:\n    type: voronoi\n"));
    QVERIFY(!unwired.ok());
    QVERIFY2(formatAll(unwired.diagnostics).find("sites") != std::string::npos, formatAll(unwired.diagnostics).c_str());
}

void TestRelaxVoronoi::noSitesIsAnError()
{
    const EvalResult r = evaluateText(graphText("  c:\n    type: random_points\n    params: {count: 0}\n"
                                       "  v:\n    type: voronoi\n    inputs: {sites: c}\n"
                                       "  even:\n    type: relax\n    inputs: {points: c}\n"));
    QVERIFY(!r.ok());
    QVERIFY2(formatAll(r.diagnostics).find("<graph>: error: node 'v' (voronoi): the sites input holds no points") != std::string::npos,
             formatAll(r.diagnostics).c_str());
    // relax of no points is an empty layer
    const EvalResult e = evaluateText(graphText("  c:\n    type: random_points\n    params: {count: 0}\n"
                                       "  even:\n    type: relax\n    inputs: {points: c}\n"));
    QVERIFY(e.ok());
    QCOMPARE(layerOf(e, "even")->points.size(), std::size_t(0));
}

QTEST_APPLESS_MAIN(TestRelaxVoronoi)
#include "tst_relax_voronoi.moc"
