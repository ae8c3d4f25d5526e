// The distance node: exact distances to points and to a mask against brute force, the nearest index,
// flowers kept clear of trees, a graph's distance field, its limits (one input, a bounded raster) and
// its progress and cancellation.
#include "tst_terrain_nodes_support.h"

using namespace grove;
using namespace grove::test;
using namespace terrain_nodes_support;

class TestDistanceNodes : public QObject
{
    Q_OBJECT

private slots:
    void distanceToPointsIsExact();
    void distanceToPointsInAGraph();
    void nearestIndexMatchesBruteForce();
    void flowersKeepClearOfTrees();
    void distanceTransformIsExact();
    void distanceToAMaskMatchesBruteForce();
    void distanceInsideAMask();
    void distanceWithNothingNear();
    void distanceNeedsExactlyOneInput();
    void distanceRefusesAHugeRaster();
    void distanceCancelsAndReportsProgress();
};

void TestDistanceNodes::distanceToPointsIsExact()
{
    std::mt19937_64 rng(30);
    std::uniform_real_distribution<double> u(0, 1);
    struct Case
    {
        const char *name;
        std::vector<PointXYR> points;
    };
    std::vector<Case> cases;
    auto make = [&](const char *name, int n, auto position) {
        Case c{name, {}};
        for (int i = 0; i < n; ++i) {
            auto [x, y] = position(i);
            c.points.push_back({x, y, 1});
        }
        cases.push_back(std::move(c));
    };
    make("uniform", 5000, [&](int) { return std::pair{u(rng) * 1000, u(rng) * 800}; });
    make("clustered", 3000, [&](int i) {
        const double cx = (i % 3) * 400 + 100, cy = (i % 3) * 300 + 50;
        return std::pair{cx + (u(rng) - 0.5) * 20, cy + (u(rng) - 0.5) * 20};
    });
    make("one", 1, [&](int) { return std::pair{400.0, 300.0}; });
    make("same spot", 50, [&](int) { return std::pair{12.5, 12.5}; });
    make("a line", 400, [&](int) { return std::pair{u(rng) * 1000, 250.0}; });
    make("a column", 400, [&](int) { return std::pair{600.0, u(rng) * 800}; });
    make("off the map", 300, [&](int) { return std::pair{-500 + u(rng) * 100, 2000 + u(rng) * 3000}; });
    make("two far apart", 2, [&](int i) { return std::pair{i * 1e6, i * -3e5}; });
    make("a grid with ties", 900, [&](int i) { return std::pair{(i % 30) * 10.0, (i / 30) * 10.0}; });
    for (const Case &c : cases) {
        NearestPoints nearest(c.points);
        QCOMPARE(nearest.size(), c.points.size());
        for (int q = 0; q < 3000; ++q) {
            // inside the world mostly, some far outside, some on the points themselves
            double x = u(rng) * 1200 - 100, y = u(rng) * 1000 - 100;
            if (q % 10 == 0) {
                x = (u(rng) - 0.5) * 1e5;
                y = (u(rng) - 0.5) * 1e5;
            }
            if (q % 10 == 1) {
                const PointXYR &p = c.points[static_cast<size_t>(q) % c.points.size()];
                x = p.x;
                y = p.y;
            }
            const double got = nearest.distance(x, y), want = bruteNearest(c.points, x, y);
            QVERIFY2(same(got, want), qPrintable(QString("%1: at %2, %3: %4 vs brute force %5")
                                                     .arg(c.name).arg(x).arg(y).arg(got, 0, 'g', 17).arg(want, 0, 'g', 17)));
        }
    }
    // no points: infinitely far; NaN in, NaN out; non-finite points are left out
    QVERIFY(std::isinf(NearestPoints(std::vector<PointXYR>{}).distance(1, 2)));
    QVERIFY(std::isnan(NearestPoints(cases[0].points).distance(std::nan(""), 2)));
    const std::vector<PointXYR> withBad{{1, 1, 1}, {std::nan(""), 3, 1}, {HUGE_VAL, 0, 1}, {4, 5, 1}};
    NearestPoints bad(withBad);
    QCOMPARE(bad.size(), size_t(2));
    QCOMPARE(bad.distance(4, 1), 3.0);
}

// nearestIndex (the voronoi node's nearest site) is brute force's answer, the lower index on a
// tie: points repeated on the spot of earlier and later ones, on a lattice (many equal
// distances), NaN and infinite points between them (indices kept), and points far off the world,
// with and without a core that keeps those out of the grid; and the distance is unchanged by it.
void TestDistanceNodes::nearestIndexMatchesBruteForce()
{
    std::mt19937_64 rng(31);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<PointXYR> points;
    for (int i = 0; i < 3000; ++i) {
        if (i % 7 == 3)  // a repeat of an earlier point: the earlier index wins
            points.push_back(points[static_cast<std::size_t>(u(rng) * static_cast<double>(points.size()))]);
        else if (i % 5 == 1)  // on a lattice of 10: ties between points, and between points and spots
            points.push_back({std::floor(u(rng) * 50) * 10, std::floor(u(rng) * 40) * 10, 1});
        else
            points.push_back({u(rng) * 500, u(rng) * 400, 1});
        if (i % 97 == 0)
            points.push_back({std::nan(""), u(rng) * 400, 1});
        if (i % 131 == 0)
            points.push_back({u(rng) * 500, HUGE_VAL, 1});
        if (i % 400 == 0)  // far off the world, twice on one spot
            points.insert(points.end(), 2, {-5000 - u(rng) * 1e6, u(rng) * 1e5, 1});
    }
    points.push_back(points[5]);  // a repeat after its original and after the far points
    points.insert(points.begin(), points[40]);  // and one before: it is now the lower index
    const Region core{-500, -400, 1000, 800};
    std::vector<PointXYR> second(points.begin() + 1000, points.end());
    std::vector<PointXYR> first(points.begin(), points.begin() + 1000);
    const std::vector<const std::vector<PointXYR> *> layers{&first, &second};
    const NearestPoints plain(points), cored(points, &core), layered(layers, &core);
    std::size_t finite = 0;
    for (const PointXYR &p : points)
        finite += std::isfinite(p.x) && std::isfinite(p.y);
    QCOMPARE(plain.size(), finite);
    QCOMPARE(cored.size(), finite);
    QCOMPARE(layered.size(), finite);
    int ties = 0, far = 0;
    for (int q = 0; q < 6000; ++q) {
        double x = u(rng) * 700 - 100, y = u(rng) * 600 - 100;
        if (q % 4 == 1) {  // on a point (a repeated one, often)
            const PointXYR &p = points[static_cast<std::size_t>(q) % points.size()];
            x = p.x;
            y = p.y;
        } else if (q % 4 == 2) {  // between lattice points: equally far from two or four
            x = std::floor(u(rng) * 50) * 10 + 5;
            y = std::floor(u(rng) * 40) * 10 + (q % 8 == 2 ? 5 : 0);
        } else if (q % 20 == 3) {  // out where the far points are
            x = -5000 - u(rng) * 1e6;
            y = u(rng) * 1e5;
        }
        if (!std::isfinite(x) || !std::isfinite(y))
            continue;
        double want2;
        const long long want = bruteNearestIndex(points, x, y, want2);
        for (const NearestPoints *n : {&plain, &cored, &layered}) {
            double got2 = -1;
            const long long got = n->nearestIndex(x, y, &got2);
            QVERIFY2(got == want && same(got2, want2),
                     qPrintable(QString("at %1, %2: %3 (%4) vs brute force %5 (%6)")
                                    .arg(x, 0, 'g', 17).arg(y, 0, 'g', 17).arg(got).arg(got2, 0, 'g', 17)
                                    .arg(want).arg(want2, 0, 'g', 17)));
            QVERIFY(same(n->nearestSquared(x, y), want2));
        }
        const auto w = static_cast<std::size_t>(want);
        for (std::size_t i = 0; i < w; ++i)
            if (points[i].x == points[w].x && points[i].y == points[w].y)
                QFAIL("a lower index on the same spot");
        for (std::size_t i = w + 1; i < points.size(); ++i) {
            const double dx = points[i].x - x, dy = points[i].y - y;
            ties += dx * dx + dy * dy == want2;
        }
        far += points[w].x < -500;
    }
    QVERIFY(ties > 1000);  // the lower index was really chosen between equals, often
    QVERIFY(far > 100);    // and points outside the core were found
    // a NaN spot or no points: -1, +infinity
    double d2 = 0;
    QCOMPARE(plain.nearestIndex(std::nan(""), 3, &d2), -1LL);
    QVERIFY(std::isinf(d2));
    QCOMPARE(NearestPoints(std::vector<PointXYR>{}).nearestIndex(1, 2), -1LL);
    // only far points: no grid at all
    const std::vector<PointXYR> farOnly{{5000, 0, 1}, {std::nan(""), 0, 1}, {-5000, 0, 1}, {5000, 0, 1}};
    QCOMPARE(NearestPoints(farOnly, &core).nearestIndex(1, 2), 0LL);
    QCOMPARE(NearestPoints(farOnly, &core).nearestIndex(-1, 2), 2LL);
    QCOMPARE(NearestPoints(farOnly, &core).nearestIndex(0, 2), 0LL);
}

void TestDistanceNodes::distanceToPointsInAGraph()
{
    // every layer on the wire counts: chests.all carries the rocks and the chests
    const EvalResult r = evaluateText(graphText("  chests:\n    type: place_layer\n    params: {radius: 40}\n"
                                       "  rocks:\n    type: place_layer\n    inputs: {obstacles: chests.all}\n"
                                       "    params: {radius: 12, seed: 1}\n"
                                       "  near:\n    type: distance\n    inputs: {points: rocks.all}\n"
                                       "    params: {max_distance: 25}\n",
                                       400, 300));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    std::vector<PointXYR> all;
    for (const auto &layer : outputOf<PointSetPtr>(r, "rocks", "all")->layers)
        all.insert(all.end(), layer->points.begin(), layer->points.end());
    FieldPtr near = outputOf<FieldPtr>(r, "near");
    QCOMPARE(near->upperBound(), 25.0);
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> u(0, 1);
    bool capped = false;
    for (int q = 0; q < 3000; ++q) {
        const double x = u(rng) * 400, y = u(rng) * 300;
        const double want = std::min(bruteNearest(all, x, y), 25.0);
        QVERIFY(same(near->at(x, y), want));
        capped = capped || want == 25;
    }
    // sampleRow is the same as single samples
    std::vector<double> row(300);
    near->sampleRow(0.5, 1.3, 77.7, 300, row.data());
    for (int i = 0; i < 300; ++i)
        QVERIFY(same(row[static_cast<size_t>(i)], near->at(0.5 + i * 1.3, 77.7)));
    Q_UNUSED(capped);
}

void TestDistanceNodes::flowersKeepClearOfTrees()
{
    // "flowers at least 15 from trees": distance -> allowed_rule (min 15) -> place_layer
    const EvalResult r = evaluateText(graphText("  trees:\n    type: place_layer\n    params: {radius: 30}\n"
                                       "  from_trees:\n    type: distance\n    inputs: {points: trees.points}\n"
                                       "  open:\n    type: allowed_rule\n    inputs: {field: from_trees}\n"
                                       "    params: {min: 15}\n"
                                       "  flowers:\n    type: place_layer\n    inputs: {obstacles: trees.all, allowed: open}\n"
                                       "    params: {radius: 4, seed: 2}\n",
                                       400, 300));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const auto &trees = outputOf<PointSetPtr>(r, "trees", "points")->layers[0]->points;
    const auto &flowers = outputOf<PointSetPtr>(r, "flowers", "points")->layers[0]->points;
    QVERIFY(trees.size() > 50 && flowers.size() > 200);
    for (const PointXYR &f : flowers)
        QVERIFY2(bruteNearest(trees, f.x, f.y) >= 15, qPrintable(QString("a flower at %1, %2").arg(f.x).arg(f.y)));
}

void TestDistanceNodes::distanceTransformIsExact()
{
    std::mt19937_64 rng(44);
    std::uniform_real_distribution<double> u(0, 1);
    const int shapes[][2] = {{1, 1}, {1, 40}, {40, 1}, {37, 23}, {64, 64}, {5, 90}, {120, 3}};
    const double densities[] = {0, -1, 0.002, 0.02, 0.3, 0.97, 1};  // -1: a single target
    const double inf = std::numeric_limits<double>::infinity();
    for (const auto &shape : shapes)
        for (double density : densities) {
            const int cols = shape[0], rows = shape[1];
            std::vector<double> cells(static_cast<size_t>(cols * rows), inf);
            for (auto &c : cells)
                if (u(rng) < density)
                    c = 0;
            if (density < 0)
                cells[static_cast<size_t>(rng() % cells.size())] = 0;
            const std::vector<double> targets = cells;
            QVERIFY(squaredDistanceTransform(cells, cols, rows));
            for (int j = 0; j < rows; ++j)
                for (int i = 0; i < cols; ++i) {
                    double best = inf;
                    for (int b = 0; b < rows; ++b)
                        for (int a = 0; a < cols; ++a)
                            if (targets[static_cast<size_t>(b * cols + a)] == 0)
                                best = std::min(best, double((a - i) * (a - i) + (b - j) * (b - j)));
                    QVERIFY2(same(cells[static_cast<size_t>(j * cols + i)], best),
                             qPrintable(QString("%1x%2 density %3 at %4,%5: %6 vs %7")
                                            .arg(cols).arg(rows).arg(density).arg(i).arg(j)
                                            .arg(cells[static_cast<size_t>(j * cols + i)]).arg(best)));
                }
        }
    // long lines: squared distances in the millions stay exact
    {
        const int cols = 3000, rows = 2;
        std::vector<double> cells(static_cast<size_t>(cols * rows), inf);
        cells[0] = 0;
        QVERIFY(squaredDistanceTransform(cells, cols, rows));
        QCOMPARE(cells[static_cast<size_t>(2 * cols - 1)], double(2999 * 2999 + 1));
    }
    // a cancel stops it
    std::atomic<bool> cancel{true};
    std::vector<double> cells(100 * 100, inf);
    QVERIFY(!squaredDistanceTransform(cells, 100, 100, &cancel));
}

void TestDistanceNodes::distanceToAMaskMatchesBruteForce()
{
    // "rocks within 30 of water": the distance to the water mask, sampled on a raster
    for (double resolution : {1.0, 2.5, 0.75}) {
        const std::string text = graphText(
            "  height:\n    type: value_noise\n    params: {frequency: 0.03, octaves: 3}\n"
            "  water:\n    type: allowed_rule\n    inputs: {field: height}\n    params: {max: 0.35}\n"
            "  from_water:\n    type: distance\n    inputs: {mask: water}\n    params: {resolution: "
                + formatNumber(resolution) + "}\n"
            "  shore:\n    type: allowed_rule\n    inputs: {field: from_water}\n    params: {max: 30}\n"
            "  rocks:\n    type: place_layer\n    inputs: {allowed: shore}\n    params: {radius: 6}\n",
            120, 90);
        const EvalResult r = evaluateText(text);
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        MaskPtr water = outputOf<MaskPtr>(r, "water");
        FieldPtr d = outputOf<FieldPtr>(r, "from_water");
        const int cols = static_cast<int>(std::ceil(120 / resolution)), rows = static_cast<int>(std::ceil(90 / resolution));
        const std::vector<PointXYR> wet = cellCentres(*water, cols, rows, resolution);
        QVERIFY(wet.size() > 50 && wet.size() < size_t(cols * rows) * 3 / 4);
        // at each cell centre, the raster's own distance (exactly, where the centres are exact)
        for (int j = 0; j < rows; ++j)
            for (int i = 0; i < cols; ++i) {
                const double x = (i + 0.5) * resolution, y = (j + 0.5) * resolution;
                const double want = bruteNearest(wet, x, y);
                if (resolution == 1.0)
                    QVERIFY2(same(d->at(x, y), want), qPrintable(QString("%1 vs %2").arg(d->at(x, y)).arg(want)));
                else
                    QVERIFY(std::fabs(d->at(x, y) - want) < 1e-9 * (1 + want));
            }
        // anywhere in the world: within resolution * sqrt(2) / 2 of the brute-force distance
        std::mt19937_64 rng(5);
        std::uniform_real_distribution<double> u(0, 1);
        for (int q = 0; q < 3000; ++q) {
            const double x = u(rng) * 120, y = u(rng) * 90;
            const double got = d->at(x, y), want = bruteNearest(wet, x, y);
            QVERIFY2(std::fabs(got - want) <= resolution * std::sqrt(0.5) + 1e-9,
                     qPrintable(QString("resolution %1 at %2, %3: %4 vs %5").arg(resolution).arg(x).arg(y).arg(got).arg(want)));
        }
        // every rock within 30 of water, as precise as the raster
        for (const PointXYR &p : outputOf<PointSetPtr>(r, "rocks", "points")->layers[0]->points)
            QVERIFY(bruteNearest(wet, p.x, p.y) < 30 + resolution * std::sqrt(0.5) + 1e-9);
    }
}

void TestDistanceNodes::distanceInsideAMask()
{
    const EvalResult r = evaluateText(graphText("  height:\n    type: value_noise\n    params: {frequency: 0.03, octaves: 3}\n"
                                       "  forest:\n    type: allowed_rule\n    inputs: {field: height}\n    params: {min: 0.5}\n"
                                       "  depth:\n    type: distance\n    inputs: {mask: forest}\n    params: {inside: true}\n",
                                       100, 80));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    MaskPtr forest = outputOf<MaskPtr>(r, "forest");
    FieldPtr depth = outputOf<FieldPtr>(r, "depth");
    const std::vector<PointXYR> clearings = cellCentres(*forest, 100, 80, 1, false);
    int inside = 0;
    for (int j = 0; j < 80; ++j)
        for (int i = 0; i < 100; ++i) {
            const double x = i + 0.5, y = j + 0.5;
            const double got = depth->at(x, y);
            if (forest->at(x, y)) {
                ++inside;
                QVERIFY(same(got, bruteNearest(clearings, x, y)));  // to the nearest cell outside
                QVERIFY(got >= 1);
            } else {
                QCOMPARE(got, 0.0);
            }
        }
    QVERIFY(inside > 1000 && inside < 7000);
}

void TestDistanceNodes::distanceWithNothingNear()
{
    // no points, an empty mask, a full mask inside: max_distance everywhere
    auto empty = std::make_shared<PointSet>();
    auto layer = std::make_shared<PointLayer>();
    empty->layers.push_back(layer);
    World w;
    w.width = 50;
    w.height = 40;
    NodeRun d = evaluateNode("distance", {{"max_distance", 77.0}}, {{"points", PointSetPtr(empty)}}, w);
    QVERIFY(d.error.empty());
    QCOMPARE(std::get<FieldPtr>(d.output)->at(10, 10), 77.0);
    d = evaluateNode("distance", {}, {{"mask", MaskPtr(std::make_shared<FixedMask>(false))}}, w);
    QCOMPARE(std::get<FieldPtr>(d.output)->at(10, 10), 1e6);
    d = evaluateNode("distance", {{"inside", true}}, {{"mask", MaskPtr(std::make_shared<FixedMask>(true))}}, w);
    QCOMPARE(std::get<FieldPtr>(d.output)->at(10, 10), 1e6);
    QVERIFY(std::isfinite(std::get<FieldPtr>(d.output)->at(-1e9, std::nan(""))));
    // a full mask: 0 everywhere; the cap holds for a far-away spot
    d = evaluateNode("distance", {{"max_distance", 5.0}}, {{"mask", MaskPtr(std::make_shared<FixedMask>(true))}}, w);
    QCOMPARE(std::get<FieldPtr>(d.output)->at(20, 20), 0.0);
    d = evaluateNode("distance", {{"max_distance", 5.0}}, {{"points", PointSetPtr(empty)}}, w);
    QCOMPARE(std::get<FieldPtr>(d.output)->upperBound(), 5.0);
}

void TestDistanceNodes::distanceNeedsExactlyOneInput()
{
    const EvalResult none = evaluateText(graphText("  d:\n    type: distance\n"));
    QCOMPARE(int(none.status), int(EvalResult::Status::Failed));
    QCOMPARE(QString::fromStdString(formatAll(none.diagnostics)),
             QString("<graph>: error: node 'd' (distance): wire points or mask: the distance is to the nearest "
                     "point or to the mask (at nodes.d)\n"));
    const EvalResult both = evaluateText(graphText("  t:\n    type: place_layer\n  m:\n    type: allowed_rule\n"
                                          "  d:\n    type: distance\n    inputs: {points: t, mask: m}\n"));
    QCOMPARE(int(both.status), int(EvalResult::Status::Failed));
    QVERIFY2(formatAll(both.diagnostics).find("both points and mask are wired: wire exactly one") != std::string::npos,
             formatAll(both.diagnostics).c_str());
}

void TestDistanceNodes::distanceRefusesAHugeRaster()
{
    // refused before anything is allocated, with the numbers and the way out
    const EvalResult r = evaluateText(graphText("  m:\n    type: allowed_rule\n"
                                       "  d:\n    type: distance\n    inputs: {mask: m}\n    params: {resolution: 0.01}\n",
                                       1e6, 1e6));
    QCOMPARE(int(r.status), int(EvalResult::Status::Failed));
    QVERIFY2(formatAll(r.diagnostics).find("node 'd' (distance): at resolution 0.01 on a 1000000 x 1000000 world, the "
                                           "distance raster would hold 100000000 x 100000000 cells, over the limit of "
                                           "67108864 cells and 1048576 a side; raise resolution")
                 != std::string::npos,
             formatAll(r.diagnostics).c_str());
    // a long thin world: few cells, but too many along one side
    const EvalResult thin = evaluateText(graphText("  m:\n    type: allowed_rule\n"
                                          "  d:\n    type: distance\n    inputs: {mask: m}\n",
                                          2e6, 10));
    QCOMPARE(int(thin.status), int(EvalResult::Status::Failed));
    QVERIFY2(formatAll(thin.diagnostics).find("would hold 2000000 x 10 cells") != std::string::npos,
             formatAll(thin.diagnostics).c_str());
    // slope params out of range are load problems with their place
    const LoadResult bad = load(graphText("  h:\n    type: constant\n"
                                          "  s:\n    type: slope\n    inputs: {field: h}\n    params: {height_scale: 0, step: -1}\n"));
    const std::string all = formatAll(bad.diagnostics);
    QVERIFY2(all.find(":9:28: error: param 'height_scale': 0 is out of range: must be > 0") != std::string::npos, all.c_str());
    QVERIFY2(all.find(":9:37: error: param 'step': -1 is out of range: must be > 0") != std::string::npos, all.c_str());
}

void TestDistanceNodes::distanceCancelsAndReportsProgress()
{
    World w;
    w.width = 600;
    w.height = 500;
    std::atomic<bool> cancel{false};
    std::vector<double> seen;
    NodeRun d = evaluateNode("distance", {}, {{"mask", MaskPtr(std::make_shared<FixedMask>(false))}}, w, &cancel,
                            [&](double f) { seen.push_back(f); });
    QVERIFY(d.error.empty() && std::holds_alternative<FieldPtr>(d.output));
    QVERIFY(seen.size() > 10);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), 1.0);
    // cancelled part way: no output and no error (the evaluator reports Cancelled)
    int calls = 0;
    d = evaluateNode("distance", {}, {{"mask", MaskPtr(std::make_shared<FixedMask>(false))}}, w, &cancel, [&](double f) {
        if (f > 0.2 && ++calls == 1)
            cancel = true;
    });
    QVERIFY(d.error.empty());
    QVERIFY(std::holds_alternative<std::monostate>(d.output));
}

QTEST_APPLESS_MAIN(TestDistanceNodes)
#include "tst_distance_nodes.moc"
