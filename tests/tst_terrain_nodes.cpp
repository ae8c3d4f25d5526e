// The terrain nodes: slope (and aspect) of a height field, and distance to points or
// to a mask. What a designer would notice: a plane's and a cone's slope, aspect pointing
// downhill, exact distances against brute force, "no trees above 35 degrees" holding for every
// tree, the same degrees on every machine (atan without libm), rows equal to single samples, and
// pinned values (tests/data/terrain).
#include "TestSupport.h"

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
    void pinnedValues();
    void descriptorsAreComplete();
};

namespace {

constexpr double kPi = 3.14159265358979323846;

bool same(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string graphText(const std::string &nodes, double width = 200, double height = 150, int seed = 3)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

FieldPtr slopeOf(FieldPtr height, const ValueMap &params)
{
    const NodeRun d = evaluateNode("slope", params, {{"field", height}});
    const auto *f = std::get_if<FieldPtr>(&d.output);
    return f ? *f : nullptr;
}

class PlaneField final : public Field
{
public:
    PlaneField(double a, double b, double c) : m_a(a), m_b(b), m_c(c) {}
    double at(double x, double y) const override { return m_a * x + m_b * y + m_c; }

private:
    double m_a, m_b, m_c;
};

// A hill: height `top` at (cx, cy), falling by `fall` per world unit in every direction.
class ConeField final : public Field
{
public:
    ConeField(double cx, double cy, double top, double fall) : m_cx(cx), m_cy(cy), m_top(top), m_fall(fall) {}
    double at(double x, double y) const override
    {
        return m_top - m_fall * std::sqrt((x - m_cx) * (x - m_cx) + (y - m_cy) * (y - m_cy));
    }

private:
    double m_cx, m_cy, m_top, m_fall;
};

class FixedMask final : public Mask
{
public:
    explicit FixedMask(bool value) : m_value(value) {}
    bool at(double, double) const override { return m_value; }

private:
    bool m_value;
};

// The slope a designer would compute by hand, with libm.
double bruteSlope(const Field &h, double x, double y, double scale, double step)
{
    const double gx = (h.at(x + step, y) - h.at(x - step, y)) / (2 * step);
    const double gy = (h.at(x, y + step) - h.at(x, y - step)) / (2 * step);
    return std::atan(scale * std::sqrt(gx * gx + gy * gy)) * 180 / kPi;
}

double angleDifference(double a, double b)
{
    double d = std::fmod(std::fabs(a - b), 360.0);
    return d > 180 ? 360 - d : d;
}

// Centres of true (or, with `value` false, false) cells of a cols x rows raster of `cell` units.
std::vector<PointXYR> cellCentres(const Mask &mask, int cols, int rows, double cell, bool value = true)
{
    std::vector<PointXYR> out;
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < cols; ++i) {
            const double x = (i + 0.5) * cell, y = (j + 0.5) * cell;
            if (mask.at(x, y) == value)
                out.push_back({x, y, 0});
        }
    return out;
}

double bruteNearest(const std::vector<PointXYR> &points, double x, double y)
{
    double best = std::numeric_limits<double>::infinity();
    for (const PointXYR &p : points) {
        const double dx = p.x - x, dy = p.y - y;
        best = std::min(best, dx * dx + dy * dy);
    }
    return std::sqrt(best);
}

// The index of the nearest finite point, the lower on a tie (-1 with none), and its dx*dx + dy*dy.
long long bruteNearestIndex(const std::vector<PointXYR> &points, double x, double y, double &best)
{
    long long found = -1;
    best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!std::isfinite(points[i].x) || !std::isfinite(points[i].y))
            continue;
        const double dx = points[i].x - x, dy = points[i].y - y;
        const double d2 = dx * dx + dy * dy;
        if (d2 < best) {
            best = d2;
            found = static_cast<long long>(i);
        }
    }
    return found;
}

} // namespace

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

void TestTerrainNodes::distanceToPointsIsExact()
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
void TestTerrainNodes::nearestIndexMatchesBruteForce()
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

void TestTerrainNodes::distanceToPointsInAGraph()
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

void TestTerrainNodes::flowersKeepClearOfTrees()
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

void TestTerrainNodes::distanceTransformIsExact()
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

void TestTerrainNodes::distanceToAMaskMatchesBruteForce()
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

void TestTerrainNodes::distanceInsideAMask()
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

void TestTerrainNodes::distanceWithNothingNear()
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

void TestTerrainNodes::distanceNeedsExactlyOneInput()
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

void TestTerrainNodes::distanceRefusesAHugeRaster()
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

void TestTerrainNodes::distanceCancelsAndReportsProgress()
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
