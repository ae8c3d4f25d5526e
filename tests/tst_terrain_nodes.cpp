// The terrain nodes: slope (and aspect) of a height field. What a designer would notice: a plane's
// and a cone's slope, aspect pointing downhill, "no trees above 35 degrees" holding for every tree,
// the same degrees on every machine (atan without libm), rows equal to single samples, and pinned
// values of slope and distance (tests/data/terrain). Distance's own tests: tst_distance_nodes.
#include "tst_terrain_nodes_support.h"

#include "core/geometry/DistanceTransform.h"
#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/math/ExactAtan.h"
#include "core/base/Limits.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace grove;
using namespace grove::test;

class TestTerrainNodes : public QObject
{
    Q_OBJECT

private slots:
    void exactAtanMatchesLibm();
    void exactAtan2CoversEveryQuadrant();
    void slopeOfAPlaneIsEverywhereTheSame();
    void slopeOfAConeIsItsFlank();
    void aspectPointsDownhill();
    void slopeRowsEqualSingleSamples();
    void slopeKeepsTreesOffSteepGround();
    void pinnedValues();
    void descriptorsAreComplete();
};

using namespace terrain_nodes_support;

void TestTerrainNodes::exactAtanMatchesLibm()
{
    std::mt19937_64 rng(15);
    std::uniform_real_distribution<double> unit(0, 1);
    double worstLibm = 0, worstTrue = 0;
    for (int i = 0; i < 400000; ++i) {
        double x;
        switch (i % 4) {
        case 0: x = unit(rng); break;                          // the reduction's table
        case 1: x = std::exp(unit(rng) * 80 - 40); break;      // tiny to huge
        case 2: x = -std::exp(unit(rng) * 1380 - 690); break;  // the whole double range, negative
        default: x = unit(rng) * 4 - 2; break;                 // either side of 1
        }
        const double got = atanDegrees(x);
        const double libm = std::atan(x) * (180 / kPi);
        const long double truth = atanl(x) * (180.0L / 3.141592653589793238462643383279502884L);
        worstLibm = std::max(worstLibm, std::fabs(got - libm) / std::fabs(libm));
        worstTrue = std::max(worstTrue, static_cast<double>(fabsl(got - truth) / fabsl(truth)));
    }
    qInfo("atanDegrees: worst relative difference %.3g from libm, %.3g from long double", worstLibm, worstTrue);
    QVERIFY2(worstLibm < 1e-15, qPrintable(QString::number(worstLibm)));
    QVERIFY2(worstTrue < 5e-16, qPrintable(QString::number(worstTrue)));  // under 3 ulp
    // the ends and the table's own points are exact
    QCOMPARE(atanDegrees(0), 0.0);
    QCOMPARE(atanDegrees(1), 45.0);
    QCOMPARE(atanDegrees(-1), -45.0);
    QCOMPARE(atanDegrees(std::numeric_limits<double>::infinity()), 90.0);
    QCOMPARE(atanDegrees(-std::numeric_limits<double>::infinity()), -90.0);
    QVERIFY(std::isnan(atanDegrees(std::nan(""))));
    QVERIFY(atanDegrees(1e300) <= 90 && atanDegrees(1e-300) > 0);
    // monotonic across the table's seams (k/8 +- a few ulp)
    for (int k = 1; k <= 8; ++k) {
        double x = (k - 0.5) / 8;
        double prev = atanDegrees(std::nextafter(x, 0.0));
        for (int s = 0; s < 4; ++s, x = std::nextafter(x, 2.0)) {
            const double v = atanDegrees(x);
            QVERIFY2(v >= prev, qPrintable(QString::number(x, 'g', 17)));
            prev = v;
        }
    }
}

void TestTerrainNodes::exactAtan2CoversEveryQuadrant()
{
    std::mt19937_64 rng(151);
    std::uniform_real_distribution<double> u(-1, 1);
    double worst = 0;
    for (int i = 0; i < 200000; ++i) {
        const double y = u(rng) * std::exp(u(rng) * 30), x = u(rng) * std::exp(u(rng) * 30);
        const double got = atan2Degrees(y, x);
        const long double truth = atan2l(y, x) * (180.0L / 3.141592653589793238462643383279502884L);
        worst = std::max(worst, static_cast<double>(fabsl(got - truth) / fabsl(truth)));
    }
    QVERIFY2(worst < 5e-16, qPrintable(QString::number(worst)));
    QCOMPARE(atan2Degrees(0, 1), 0.0);
    QCOMPARE(atan2Degrees(1, 0), 90.0);
    QCOMPARE(atan2Degrees(0, -1), 180.0);
    QCOMPARE(atan2Degrees(-1, 0), -90.0);
    QCOMPARE(atan2Degrees(1, 1), 45.0);
    QCOMPARE(atan2Degrees(-2, -2), -135.0);
    QCOMPARE(atan2Degrees(0, 0), 0.0);
    const double inf = std::numeric_limits<double>::infinity();
    QCOMPARE(atan2Degrees(inf, inf), 45.0);
    QCOMPARE(atan2Degrees(1, -inf), 180.0);
}

void TestTerrainNodes::slopeOfAPlaneIsEverywhereTheSame()
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1, 1), spot(-50, 1050);
    for (int plane = 0; plane < 40; ++plane) {
        const double a = u(rng) * 0.02, b = u(rng) * 0.02, scale = 10 + 90 * (u(rng) + 1), step = 0.5 + (u(rng) + 1) * 4;
        auto h = std::make_shared<PlaneField>(a, b, 0.5);
        FieldPtr slope = slopeOf(h, {{"height_scale", scale}, {"step", step}});
        FieldPtr aspect = slopeOf(h, {{"height_scale", scale}, {"step", step}, {"output", "aspect"}});
        QVERIFY(slope && aspect);
        const double expected = std::atan(scale * std::sqrt(a * a + b * b)) * 180 / kPi;
        const double downhill = std::fmod(std::atan2(-b, -a) * 180 / kPi + 360, 360.0);
        for (int i = 0; i < 200; ++i) {
            const double x = spot(rng), y = spot(rng);
            const double s = slope->at(x, y);
            QVERIFY2(std::fabs(s - expected) < 1e-9, qPrintable(QString("%1 vs %2").arg(s).arg(expected)));
            QVERIFY(angleDifference(aspect->at(x, y), downhill) < 1e-7);
        }
    }
    // a 45 degree ramp: rising 1 field unit over height_scale world units
    FieldPtr ramp = slopeOf(std::make_shared<PlaneField>(0.01, 0, 0), {{"height_scale", 100.0}});
    QVERIFY(std::fabs(ramp->at(10, 10) - 45) < 1e-12);
    // flat ground: slope 0, aspect 0
    FieldPtr flat = slopeOf(std::make_shared<PlaneField>(0, 0, 0.3), {{"output", "aspect"}});
    QCOMPARE(flat->at(5, 5), 0.0);
    QCOMPARE(slopeOf(std::make_shared<PlaneField>(0, 0, 0.3), {})->at(5, 5), 0.0);
    // a wall is 90, never more; the bounds placement may rely on
    FieldPtr wall = slopeOf(std::make_shared<PlaneField>(1e300, 0, 0), {{"height_scale", 1e12}});
    QCOMPARE(wall->at(1, 1), 90.0);
    QCOMPARE(wall->upperBound(), 90.0);
    QCOMPARE(flat->upperBound(), 360.0);
}

void TestTerrainNodes::slopeOfAConeIsItsFlank()
{
    // a hill 0.5 high (field units) falling 0.004 per world unit: with height_scale 100 its flank
    // rises 0.4 per unit, atan(0.4) = 21.8 degrees, everywhere away from the top
    auto cone = std::make_shared<ConeField>(500, 400, 0.9, 0.004);
    FieldPtr slope = slopeOf(cone, {{"height_scale", 100.0}, {"step", 1.0}});
    FieldPtr aspect = slopeOf(cone, {{"height_scale", 100.0}, {"step", 1.0}, {"output", "aspect"}});
    const double flank = std::atan(0.4) * 180 / kPi;
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(0, 1000);
    int tested = 0;
    for (int i = 0; i < 5000; ++i) {
        const double x = u(rng), y = u(rng);
        const double r = std::hypot(x - 500, y - 400);
        if (r < 100)
            continue;  // near the top the differences straddle it
        ++tested;
        QVERIFY2(std::fabs(slope->at(x, y) - flank) < 0.01, qPrintable(QString::number(slope->at(x, y))));
        // downhill is away from the top: the direction from the top to the spot, y down
        const double away = std::fmod(std::atan2(y - 400, x - 500) * 180 / kPi + 360, 360.0);
        QVERIFY2(angleDifference(aspect->at(x, y), away) < 0.01,
                 qPrintable(QString("%1 vs %2").arg(aspect->at(x, y)).arg(away)));
    }
    QVERIFY(tested > 3000);
    // right at the top the four heights are equal: flat
    QCOMPARE(slope->at(500, 400), 0.0);
}

void TestTerrainNodes::aspectPointsDownhill()
{
    const EvalResult r = evaluateText(graphText("  height:\n    type: value_noise\n    params: {frequency: 0.02, octaves: 3}\n"
                                       "  facing:\n    type: slope\n    inputs: {field: height}\n"
                                       "    params: {output: aspect, step: 0.5}\n",
                                       300, 300));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    FieldPtr h = outputOf<FieldPtr>(r, "height"), facing = outputOf<FieldPtr>(r, "facing");
    std::mt19937_64 rng(4);
    std::uniform_real_distribution<double> u(5, 295);
    int downhill = 0, tested = 0;
    for (int i = 0; i < 4000; ++i) {
        const double x = u(rng), y = u(rng);
        const double a = facing->at(x, y) * kPi / 180;
        QVERIFY(facing->at(x, y) >= 0 && facing->at(x, y) < 360);
        const double gx = (h->at(x + 0.5, y) - h->at(x - 0.5, y)), gy = (h->at(x, y + 0.5) - h->at(x, y - 0.5));
        if (std::hypot(gx, gy) < 1e-4)
            continue;  // too flat to tell
        ++tested;
        // a small step along the aspect goes down; against it goes up
        const double d = 0.05;
        if (h->at(x + d * std::cos(a), y + d * std::sin(a)) < h->at(x, y)
            && h->at(x - d * std::cos(a), y - d * std::sin(a)) > h->at(x, y))
            ++downhill;
    }
    QVERIFY(tested > 3000);
    // value noise is piecewise smooth and the differences span a cell's corner now and then
    QVERIFY2(downhill > tested * 98 / 100, qPrintable(QString("%1 of %2").arg(downhill).arg(tested)));
}

void TestTerrainNodes::slopeRowsEqualSingleSamples()
{
    const EvalResult r = evaluateText(graphText("  height:\n    type: value_noise\n    params: {frequency: 0.03, octaves: 4}\n"));
    QVERIFY(r.ok());
    const FieldPtr noise = outputOf<FieldPtr>(r, "height");
    const std::vector<FieldPtr> heights{noise, std::make_shared<PlaneField>(0.013, -0.007, 0.2),
                                        std::make_shared<ConeField>(50, 60, 1, 0.01)};
    const double steps[] = {1, 0.3, 0.1, 2.5, 7.77, 1e-3};
    const double dxs[] = {1, 0.1, 0.3125, 1.7, 0.07};
    const double x0s[] = {0.5, -3.3, 0.05, 123.456};
    int mismatchedRows = 0;
    for (const auto &h : heights)
        for (const char *output : {"slope", "aspect"})
            for (double step : steps) {
                FieldPtr f = slopeOf(h, {{"height_scale", 50.0}, {"step", step}, {"output", output}});
                for (double dx : dxs)
                    for (double x0 : x0s)
                        for (double y : {0.5, 17.25, -2.0}) {
                            const int n = 97;
                            std::vector<double> row(n);
                            f->sampleRow(x0, dx, y, n, row.data());
                            bool all = true;
                            for (int i = 0; i < n; ++i)
                                if (!same(row[i], f->at(x0 + i * dx, y)))
                                    all = false;
                            if (!all)
                                ++mismatchedRows;
                            // the shifted rows alone would not always match: the fix-up is tested
                        }
            }
    QCOMPARE(mismatchedRows, 0);
    // and an empty row is fine
    slopeOf(noise, {})->sampleRow(0, 1, 0, 0, nullptr);
}

void TestTerrainNodes::slopeKeepsTreesOffSteepGround()
{
    // "no trees above 35 degrees": slope -> allowed_rule (max 35) -> place_layer
    const std::string text = graphText("  height:\n    type: value_noise\n    params: {frequency: 0.02, octaves: 4}\n"
                                       "  steepness:\n    type: slope\n    inputs: {field: height}\n"
                                       "    params: {height_scale: 60, step: 1}\n"
                                       "  gentle:\n    type: allowed_rule\n    inputs: {field: steepness}\n"
                                       "    params: {max: 35}\n"
                                       "  trees:\n    type: place_layer\n    inputs: {allowed: gentle}\n"
                                       "    params: {radius: 3}\n",
                                       400, 300);
    const EvalResult r = evaluateText(text);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    FieldPtr h = outputOf<FieldPtr>(r, "height");
    PointSetPtr trees = outputOf<PointSetPtr>(r, "trees", "points");
    QVERIFY(trees && trees->size() > 500);
    for (const PointXYR &p : trees->layers[0]->points) {
        const double s = bruteSlope(*h, p.x, p.y, 60, 1);
        QVERIFY2(s < 35 + 1e-9, qPrintable(QString("a tree at %1, %2 on %3 degrees").arg(p.x).arg(p.y).arg(s)));
    }
    // the rule matters: a good part of this world is steeper than 35
    int steep = 0, total = 0;
    for (double y = 1; y < 300; y += 3)
        for (double x = 1; x < 400; x += 3, ++total)
            steep += bruteSlope(*h, x, y, 60, 1) > 35;
    QVERIFY2(steep > total / 10 && steep < total * 9 / 10, qPrintable(QString("%1 of %2").arg(steep).arg(total)));
}

void TestTerrainNodes::pinnedValues()
{
    // Small graphs of each node, sampled on a grid: these values may change only on purpose.
    // GROVE_UPDATE_TERRAIN_GOLDENS=1 rewrites the files (then review the diff).
    const std::string slopeGraph = graphText(
        "  height:\n    type: value_noise\n    params: {frequency: 0.05, octaves: 3}\n"
        "  steep:\n    type: slope\n    inputs: {field: height}\n    params: {height_scale: 40, step: 1.5}\n"
        "  facing:\n    type: slope\n    inputs: {field: height}\n    params: {output: aspect}\n",
        64, 48, 5);
    const std::string distanceGraph = graphText(
        "  height:\n    type: value_noise\n    params: {frequency: 0.05, octaves: 3}\n"
        "  trees:\n    type: place_layer\n    params: {radius: 8}\n"
        "  from_trees:\n    type: distance\n    inputs: {points: trees.points}\n"
        "  lake:\n    type: allowed_rule\n    inputs: {field: height}\n    params: {max: 0.4}\n"
        "  from_lake:\n    type: distance\n    inputs: {mask: lake}\n    params: {resolution: 1.5}\n"
        "  in_lake:\n    type: distance\n    inputs: {mask: lake}\n    params: {inside: true, max_distance: 6}\n",
        64, 48, 5);
    struct Golden
    {
        std::string file, graph;
        std::vector<std::string> fields;
    };
    const Golden goldens[] = {{"slope.txt", slopeGraph, {"steep", "facing"}},
                              {"distance.txt", distanceGraph, {"from_trees", "from_lake", "in_lake"}}};
    const bool update = std::getenv("GROVE_UPDATE_TERRAIN_GOLDENS") != nullptr;
    for (const Golden &g : goldens) {
        const EvalResult r = evaluateText(g.graph);
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        std::string text = "# tst_terrain_nodes pinnedValues: x y";
        for (const auto &f : g.fields)
            text += " " + f;
        text += "\n";
        for (double y = 0.25; y < 48; y += 4.75)
            for (double x = 0.5; x < 64; x += 5.5) {
                text += formatNumber(x) + " " + formatNumber(y);
                for (const auto &f : g.fields)
                    text += " " + formatNumber(outputOf<FieldPtr>(r, f)->at(x, y));
                text += "\n";
            }
        const std::string path = testsDir() + "/data/terrain/" + g.file;
        if (update)
            writeFile(path, text);
        QVERIFY2(readFile(path) == text, qPrintable(QString::fromStdString("tests/data/terrain/" + g.file
                                                                            + " differs; now:\n" + text)));
    }
}

void TestTerrainNodes::descriptorsAreComplete()
{
    for (const char *type : {"slope", "distance"}) {
        const NodeDescriptor *d = registry().find(type);
        QVERIFY2(d, type);
        QCOMPARE(d->category, std::string("Fields"));
        QVERIFY(!d->displayName.empty() && !d->description.empty());
        QCOMPARE(d->outputs.size(), size_t(1));
        for (const auto &p : d->params) {
            QVERIFY2(!p.description.empty(), (std::string(type) + "." + p.name).c_str());
            QVERIFY2(!checkParamValue(p, p.defaultValue), (std::string(type) + "." + p.name).c_str());
        }
        for (const auto &port : d->inputs)
            QVERIFY(!port.description.empty());
    }
    const auto ids = registry().typeIds();
    auto pos = [&](const std::string &id) { return std::find(ids.begin(), ids.end(), id) - ids.begin(); };
    // among the fields, after remap; distance right after slope
    QVERIFY(pos("slope") > pos("remap") && pos("slope") < pos("threshold"));
    QCOMPARE(pos("distance"), pos("slope") + 1);
    const NodeDescriptor *slope = registry().find("slope");
    QCOMPARE(slope->param("height_scale")->defaultValue.toNumber(), 100.0);
    QVERIFY(slope->param("height_scale")->minExclusive && slope->param("step")->minExclusive);
    QCOMPARE(slope->param("output")->enumValues, (std::vector<std::string>{"slope", "aspect"}));
    const NodeDescriptor *distance = registry().find("distance");
    QVERIFY(distance->input("points")->optional && distance->input("mask")->optional);
    QCOMPARE(distance->param("max_distance")->defaultValue.toNumber(), 1e6);
    QCOMPARE(distance->param("resolution")->defaultValue.toNumber(), 1.0);
}

QTEST_APPLESS_MAIN(TestTerrainNodes)
#include "tst_terrain_nodes.moc"
