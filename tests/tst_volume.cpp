// place_volume (Bridson in 3D) and the 3D fields behind it: exact log and cube root, spacing in
// 3D (brute force), 3D value noise, world.depth in files, exports with z, stats in 3D, errors.
// The bit-for-bit match with tests/oracle/volume.mjs is tst_golden's volume/ subject.
#include "CliRun.h"
#include "core/base/NumberText.h"
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/math/ExactLog.h"
#include "core/graph/GraphWriter.h"
#include "core/analysis/LayerStats.h"
#include "core/formats/PointsExport.h"
#include "core/fields/SimplexNoise.h"
#include "core/fields/ValueNoise.h"
#include "core/base/CpuFeatures.h"
#include "core/sampling/VolumePlacement.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>

#include <cmath>
#include <cstring>

using namespace grove;
using namespace grove::test;

class TestVolume : public QObject
{
    Q_OBJECT
private slots:
    void exactLogMatchesLongDouble();
    void exactCbrtMatchesLongDouble();
    void vectorCandidatesAreTheScalarOnes();
    void noPairCloserThanRadius_data();
    void noPairCloserThanRadius();
    void sameGraphSameVolume();
    void goldensCoverTheCases();
    void valueNoise3AtDepthZeroIsThe2DNoise();
    void valueNoise3IsInRangeContinuousAndUsesZ();
    void simplexNoise3IsInRangeContinuousAndUsesZ();
    void allowedRuleAndDensityAskIn3D();
    void depthRoundTrip();
    void depthErrorsAreLocated();
    void obstaclesFrom2DLayerRefused();
    void budgetRefusedBeforeAllocating();
    void statsMeasureIn3D();
    void exportsCarryDepth();
};

static std::string graphText(const std::string &world, const std::string &nodes)
{
    return "grove: 1\nworld:\n" + world + "nodes:\n" + nodes;
}

static EvalResult evaluate(const std::string &text)
{
    return evaluateText(text);
}

static PointLayerPtr layerOf(const EvalResult &r, const std::string &node)
{
    const auto layers = layersOf(r, {node});
    return layers.size() == 1 ? layers[0] : nullptr;
}

void TestVolume::exactLogMatchesLongDouble()
{
    // the Gaussians' ln s for s in (0, 1), down to the smallest s two draws can make (~1e-19)
    double worst = 0;
    for (int i = 1; i <= 100000; ++i) {
        const double s = i / 100001.0;
        const long double want = std::log(static_cast<long double>(s));
        worst = std::max(worst, static_cast<double>(std::fabs((exactLog(s) - want) / want)));
    }
    for (double s = 1e-19; s < 1; s *= 1.37) {
        const long double want = std::log(static_cast<long double>(s));
        worst = std::max(worst, static_cast<double>(std::fabs((exactLog(s) - want) / want)));
    }
    QVERIFY2(worst < 4.5e-16, std::to_string(worst).c_str());  // two ulp
    QCOMPARE(exactLog(1.0), 0.0);
    QCOMPARE(exactLog(0.5), -0.6931471805599453);
    QVERIFY(std::isnan(exactLog(-1)));
}

void TestVolume::exactCbrtMatchesLongDouble()
{
    double worst = 0;
    for (int i = 0; i <= 100000; ++i) {
        const double x = 0.125 + 0.875 * i / 100000.0;
        const long double want = std::cbrt(static_cast<long double>(x));
        worst = std::max(worst, static_cast<double>(std::fabs((exactCbrtUnit(x) - want) / want)));
    }
    QVERIFY2(worst < 2.3e-16, std::to_string(worst).c_str());  // one ulp
    QCOMPARE(exactCbrtUnit(0.125), 0.5);
    QCOMPARE(exactCbrtUnit(1.0), 1.0);
}


// A step's candidates in AVX2 lanes (four at a time, from draws read ahead) against the scalar
// path: the same points, bit for bit, for every k (lanes left over), start and size.
void TestVolume::vectorCandidatesAreTheScalarOnes()
{
    if (!cpuHasAvx2())
        QSKIP("this CPU has no AVX2: only the scalar path runs");
    struct Case
    {
        double side, radius;
        int k;
        StartMode start;
        std::int32_t seed;
    };
    const Case cases[] = {{120, 7, 30, StartMode::Random, 1}, {90, 5, 3, StartMode::Patches, -7},
                          {60, 2.5, 1, StartMode::Patches, 99}, {150, 11, 6, StartMode::Random, 5}};
    for (const Case &c : cases) {
        VolumeSettings s;
        s.width = c.side;
        s.height = c.side * 0.75;
        s.depth = c.side * 0.5;
        s.radius = c.radius;
        s.k = c.k;
        s.start = c.start;
        s.seed = c.seed;
        std::vector<PointXYZR> lanes, scalar;
        setVolumeSimd(true);
        QCOMPARE(placeVolume(s, {}, lanes), PlacementStatus::Done);
        setVolumeSimd(false);
        QCOMPARE(placeVolume(s, {}, scalar), PlacementStatus::Done);
        setVolumeSimd(true);
        QVERIFY2(lanes.size() > 50, (std::to_string(c.k) + ": " + std::to_string(lanes.size())).c_str());
        QCOMPARE(lanes.size(), scalar.size());
        for (std::size_t i = 0; i < lanes.size(); ++i)
            if (std::memcmp(&lanes[i], &scalar[i], sizeof(PointXYZR)) != 0)
                QFAIL(("k " + std::to_string(c.k) + ": point " + std::to_string(i) + " differs").c_str());
    }
}
void TestVolume::noPairCloserThanRadius_data()
{
    QTest::addColumn<QString>("nodes");
    QTest::newRow("patches") << "  rocks: {type: place_volume, params: {radius: 9, start: patches}}\n";
    QTest::newRow("random k 5") << "  rocks: {type: place_volume, params: {radius: 8, k: 5, start: random, seed: 3}}\n";
    QTest::newRow("chain") << "  big: {type: place_volume, params: {radius: 21, seed: 1}}\n"
                              "  rocks: {type: place_volume, inputs: {obstacles: big.all}, params: {radius: 7, seed: 2}}\n";
    QTest::newRow("density 3D") << "  n: {type: value_noise, params: {frequency: 0.03}}\n"
                                   "  d: {type: density, inputs: {field: n}, params: {min_radius: 7, max_radius: 19}}\n"
                                   "  rocks: {type: place_volume, inputs: {radius: d}, params: {radius: 7}}\n";
}

void TestVolume::noPairCloserThanRadius()
{
    QFETCH(QString, nodes);
    const EvalResult r = evaluate(graphText("  width: 150\n  height: 120\n  depth: 90\n  seed: 4\n", nodes.toStdString()));
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const PortValue all = r.outputWithRole("rocks", PortRole::LayerChain);
    const auto &set = *std::get<PointSetPtr>(all);
    struct P
    {
        double x, y, z, r;
    };
    std::vector<P> pts;
    for (const auto &layer : set.layers) {
        QVERIFY(layer->info.volume);
        QCOMPARE(layer->z.size(), layer->points.size());
        for (std::size_t i = 0; i < layer->points.size(); ++i)
            pts.push_back({layer->points[i].x, layer->points[i].y, layer->z[i], layer->points[i].r});
    }
    QVERIFY2(pts.size() > 150, std::to_string(pts.size()).c_str());
    std::size_t tooClose = 0;
    double tightest = HUGE_VAL;
    for (std::size_t a = 0; a < pts.size(); ++a) {
        QVERIFY(pts[a].x >= 0 && pts[a].x < 150 && pts[a].y >= 0 && pts[a].y < 120 && pts[a].z >= 0 && pts[a].z < 90);
        for (std::size_t b = a + 1; b < pts.size(); ++b) {
            const double dx = pts[a].x - pts[b].x, dy = pts[a].y - pts[b].y, dz = pts[a].z - pts[b].z;
            const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
            tightest = std::min(tightest, d);
            tooClose += d < std::min(pts[a].r, pts[b].r);
        }
    }
    QCOMPARE(tooClose, std::size_t(0));
    QVERIFY(tightest >= 7);
}

void TestVolume::sameGraphSameVolume()
{
    const std::string text = graphText("  width: 100\n  height: 100\n  depth: 100\n  seed: 9\n",
                                       "  rocks: {type: place_volume, params: {radius: 10}}\n");
    const auto a = layerOf(evaluate(text), "rocks"), b = layerOf(evaluate(text), "rocks");
    QVERIFY(a && b);
    QCOMPARE(a->points.size(), b->points.size());
    for (std::size_t i = 0; i < a->points.size(); ++i)
        QVERIFY(a->points[i].x == b->points[i].x && a->points[i].y == b->points[i].y && a->z[i] == b->z[i]);
    // a different seed is a different volume
    const auto c = layerOf(evaluate(graphText("  width: 100\n  height: 100\n  depth: 100\n  seed: 10\n",
                                              "  rocks: {type: place_volume, params: {radius: 10}}\n")), "rocks");
    QVERIFY(c && c->points[0].x != a->points[0].x);
}

void TestVolume::goldensCoverTheCases()
{
    // the oracle's cases: every start mode, an obstacle chain and a 3D allowed rule among them
    std::string all;
    int cases = 0;
    for (const auto &c : listDir(testsDir() + "/golden/volume")) {
        all += readFile(testsDir() + "/golden/volume/" + c + "/graph.grove.yaml");
        ++cases;
    }
    QVERIFY(cases >= 12);
    for (const char *needle : {"start: patches", "start: random", "start: point", "obstacles:", "allowed:", "radius: spacing"})
        QVERIFY2(all.find(needle) != std::string::npos, needle);
}

void TestVolume::valueNoise3AtDepthZeroIsThe2DNoise()
{
    // z = 0 is lattice plane 0, where the 3D hash is seed 002's hash2 and the z blend weight 0
    for (int i = 0; i < 2000; ++i) {
        const double x = i * 0.731 - 300, y = i * 0.377 - 100;
        const double v2 = valueFbm(x, y, 42, 4, 2, 0.5), v3 = valueFbm3(x, y, 0, 42, 4, 2, 0.5);
        QVERIFY2(v2 == v3, (std::to_string(x) + ", " + std::to_string(y)).c_str());
    }
}

void TestVolume::valueNoise3IsInRangeContinuousAndUsesZ()
{
    int differs = 0;
    double lo = 1, hi = 0;
    for (int i = 0; i < 20000; ++i) {
        const double x = (i % 97) * 0.61 - 20, y = (i % 89) * 0.53, z = (i % 83) * 0.47 + 0.3;
        const double v = valueFbm3(x, y, z, 7, 3, 2, 0.5);
        QVERIFY(v >= 0 && v < 1);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        // continuous: a step of 1e-6 along z moves the value by little (the blend's slope is bounded)
        QVERIFY(std::fabs(valueFbm3(x, y, z + 1e-6, 7, 3, 2, 0.5) - v) < 1e-4);
        differs += valueFbm3(x, y, z + 3.5, 7, 3, 2, 0.5) != v;
    }
    QVERIFY(lo < 0.25 && hi > 0.75);  // it spans the range
    QVERIFY(differs > 19000);         // depth matters
}

void TestVolume::simplexNoise3IsInRangeContinuousAndUsesZ()
{
    const EvalResult r = evaluate(graphText("  width: 100\n  height: 100\n  depth: 100\n  seed: 0\n",
                                            "  s: {type: simplex_noise, params: {frequency: 0.05, octaves: 1}}\n"));
    QVERIFY(r.ok());
    const FieldPtr f = std::get<FieldPtr>(r.output("s"));
    int differs = 0;
    double lo = 1, hi = 0;
    for (int i = 0; i < 20000; ++i) {
        const double x = (i % 97) * 1.61 - 20, y = (i % 89) * 1.53, z = (i % 83) * 1.47 + 0.3;
        const double v = f->at3(x, y, z);
        QVERIFY(v >= 0 && v <= 1);
        QCOMPARE(v, simplexNoise3(x * 0.05, y * 0.05, z * 0.05, 0));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        QVERIFY(std::fabs(f->at3(x, y, z + 1e-6) - v) < 1e-4);
        differs += f->at3(x, y, z + 7) != v;
    }
    QVERIFY2(lo < 0.2 && hi > 0.8, (std::to_string(lo) + " " + std::to_string(hi)).c_str());
    QVERIFY(differs > 19000);
}

void TestVolume::allowedRuleAndDensityAskIn3D()
{
    const EvalResult r = evaluate(graphText("  width: 100\n  height: 100\n  depth: 100\n  seed: 0\n",
                                            "  n: {type: value_noise, params: {frequency: 0.05}}\n"
                                            "  a: {type: allowed_rule, inputs: {field: n}, params: {min: 0.5}}\n"
                                            "  d: {type: density, inputs: {field: n}, params: {min_radius: 5, max_radius: 25, gain: 1, bias: 0}}\n"));
    QVERIFY(r.ok());
    const FieldPtr n = std::get<FieldPtr>(r.output("n")), d = std::get<FieldPtr>(r.output("d"));
    const MaskPtr a = std::get<MaskPtr>(r.output("a"));
    int maskDiffers = 0, densityDiffers = 0;
    for (int i = 0; i < 500; ++i) {
        const double x = i * 0.7, y = i * 0.3, z = 20 + i * 0.1;
        QCOMPARE(a->at3(x, y, z), n->at3(x, y, z) >= 0.5);
        maskDiffers += a->at3(x, y, z) != a->at(x, y);
        densityDiffers += d->at3(x, y, z) != d->at(x, y);
        QCOMPARE(n->at3(x, y, 0), n->at(x, y));
    }
    // math and remap pass z through too
    const EvalResult m = evaluate(graphText("  width: 100\n  height: 100\n  depth: 100\n  seed: 0\n",
                                            "  n: {type: value_noise, params: {frequency: 0.05}}\n"
                                            "  r: {type: remap, inputs: {field: n}, params: {out_min: 1, out_max: 2}}\n"
                                            "  m: {type: math, inputs: {a: r, b: n}, params: {op: multiply}}\n"));
    QVERIFY2(m.ok(), formatAll(m.diagnostics).c_str());
    const FieldPtr mf = std::get<FieldPtr>(m.output("m")), nf = std::get<FieldPtr>(m.output("n"));
    QCOMPARE(mf->at3(3, 4, 55), (1 + nf->at3(3, 4, 55)) * nf->at3(3, 4, 55));
    QVERIFY(mf->at3(3, 4, 55) != mf->at(3, 4));
    QVERIFY(maskDiffers > 50);
    QVERIFY(densityDiffers > 400);
}

void TestVolume::depthRoundTrip()
{
    LoadResult a = load(graphText("  width: 300\n  height: 200\n  depth: 75.5\n  seed: 1\n", "  r: {type: place_volume}\n"));
    QVERIFY2(a.ok(), formatAll(a.diagnostics).c_str());
    QCOMPARE(a.graph.world.depth, 75.5);
    const std::string saved = saveGraphToString(a.graph, registry());
    QVERIFY(saved.find("  depth: 75.5\n") != std::string::npos);
    LoadResult b = load(saved);
    QVERIFY(b.ok());
    QVERIFY(b.graph == a.graph);
    QCOMPARE(saveGraphToString(b.graph, registry()), saved);
    // a 2D world writes no depth
    LoadResult flat = load(graphText("  width: 300\n  height: 200\n  seed: 1\n", ""));
    QCOMPARE(flat.graph.world.depth, 0.0);
    QVERIFY(saveGraphToString(flat.graph, registry()).find("depth") == std::string::npos);
}

void TestVolume::depthErrorsAreLocated()
{
    LoadResult noDepth = load(graphText("  width: 300\n  height: 200\n  seed: 1\n", "  rocks:\n    type: place_volume\n"));
    QCOMPARE(formatAll(noDepth.diagnostics),
             std::string("test.grove.yaml:7:3: error: node 'rocks' (place_volume) places in a volume and needs world.depth > 0 "
                         "(the world's third side); this world is 2D (at nodes.rocks)\n"));
    LoadResult negative = load(graphText("  width: 300\n  height: 200\n  depth: -4\n  seed: 1\n", ""));
    QCOMPARE(formatAll(negative.diagnostics),
             std::string("test.grove.yaml:5:10: error: world depth must be a finite number > 0, got -4 (at world.depth)\n"));
}

void TestVolume::obstaclesFrom2DLayerRefused()
{
    const EvalResult r = evaluate(graphText("  width: 300\n  height: 200\n  depth: 50\n  seed: 1\n",
                                            "  trees: {type: place_layer, params: {radius: 30}}\n"
                                            "  rocks: {type: place_volume, inputs: {obstacles: trees.all}}\n"));
    QVERIFY(!r.ok());
    QVERIFY2(formatAll(r.diagnostics).find("obstacles: layer 'trees' is 2D") != std::string::npos, formatAll(r.diagnostics).c_str());
}

void TestVolume::budgetRefusedBeforeAllocating()
{
    const EvalResult r = evaluate(graphText("  width: 10000\n  height: 10000\n  depth: 10000\n  seed: 1\n",
                                            "  rocks: {type: place_volume, params: {radius: 1}}\n"));
    QVERIFY(!r.ok());
    QVERIFY2(formatAll(r.diagnostics).find("over the limit of 20000000 per layer") != std::string::npos,
             formatAll(r.diagnostics).c_str());
}

void TestVolume::statsMeasureIn3D()
{
    // two points on one column, 3 apart in x and y but 30 apart in depth: too close in 2D, not in 3D
    PointLayer layer;
    layer.info.volume = true;
    layer.points = {{10, 10, 10}, {13, 10, 10}, {50, 50, 10}};
    layer.z = {5, 35, 5};
    const LayerStats st = computeVolumeStats(layer, {}, 100, 100, 40);
    QVERIFY(st.volume);
    QCOMPARE(st.tooClose, std::size_t(0));
    QCOMPARE(st.tightest, std::sqrt(9.0 + 900.0));
    QCOMPARE(st.density, 3 * 1000.0 / (100 * 100 * 40.0));
    layer.z = {5, 8, 5};
    QCOMPARE(computeVolumeStats(layer, {}, 100, 100, 40).tooClose, std::size_t(1));
    // an earlier volume's point counts
    auto earlier = std::make_shared<PointLayer>();
    earlier->info.volume = true;
    earlier->points = {{50, 52, 10}};
    earlier->z = {6};
    QCOMPARE(computeVolumeStats(layer, {earlier}, 100, 100, 40).tooClose, std::size_t(2));

    // random points with mixed radii (a few very wide, as a radius input can make) against brute force
    PointLayer mixed;
    mixed.info.volume = true;
    std::uint64_t h = 7;
    auto next = [&h] {
        h = h * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(h >> 11) / 9007199254740992.0;
    };
    for (int i = 0; i < 2000; ++i) {
        const double r = i % 37 == 0 ? 30 + 30 * next() : 2;
        mixed.points.push_back({next() * 100, next() * 100, r});
        mixed.z.push_back(next() * 100);
    }
    const LayerStats m = computeVolumeStats(mixed, {}, 100, 100, 100);
    std::size_t tooClose = 0;
    double tightest2 = HUGE_VAL;
    for (std::size_t a = 0; a < mixed.points.size(); ++a)
        for (std::size_t b = a + 1; b < mixed.points.size(); ++b) {
            const double dx = mixed.points[a].x - mixed.points[b].x, dy = mixed.points[a].y - mixed.points[b].y;
            const double dz = mixed.z[a] - mixed.z[b];
            const double d2 = dx * dx + dy * dy + dz * dz, r = std::min(mixed.points[a].r, mixed.points[b].r);
            tooClose += d2 < r * r;
            tightest2 = std::min(tightest2, d2);
        }
    QCOMPARE(m.tooClose, tooClose);
    QCOMPARE(m.tightest, std::sqrt(tightest2));
}

void TestVolume::exportsCarryDepth()
{
    QTemporaryDir dir;
    const std::string graph = dir.path().toStdString() + "/v.grove.yaml";
    writeFile(graph, graphText("  width: 120\n  height: 100\n  depth: 60\n  seed: 2\n",
                               "  rocks: {type: place_volume, params: {radius: 12}}\n"));
    const std::string out = dir.path().toStdString() + "/v.json";
    const Run run = cli({"eval", q(graph), "-o", q(out)});
    QVERIFY2(run.code == 0, run.err.c_str());
    const nlohmann::json j = nlohmann::json::parse(readFile(out));
    const auto &layer = j["layers"][0];
    QCOMPARE(layer["z"].get<std::string>(), std::string("depth"));
    QVERIFY(layer["points"].size() > 20);
    const auto expected = layerOf(evaluate(readFile(graph)), "rocks");
    QCOMPARE(layer["points"].size(), expected->points.size());
    for (std::size_t i = 0; i < expected->points.size(); ++i) {
        const double z = layer["points"][i]["z"];
        QCOMPARE(z, expected->z[i]);
        QVERIFY(z >= 0 && z < 60);
    }
    // CSV: a z column
    const std::string csv = dir.path().toStdString() + "/v.csv";
    const Run runCsv = cli({"eval", q(graph), "--format", "csv", "-o", q(csv)});
    QVERIFY2(runCsv.code == 0, runCsv.err.c_str());
    const std::string text = readFile(csv);
    QVERIFY2(text.substr(0, text.find('\n')).find(",z") != std::string::npos, text.substr(0, 200).c_str());
    // check's density: N r^3 / V
    const Run check = cli({"check", q(graph), "--expect", "rocks.density > 0"});
    QVERIFY2(check.code == 0, check.err.c_str());
    const std::size_t at = check.out.rfind("density ");
    QVERIFY2(at != std::string::npos, check.out.c_str());
    double density = NAN;
    parseNumber(check.out.substr(at + 8, check.out.find_first_of(" \n", at + 8) - (at + 8)), density);
    QVERIFY(std::fabs(density - expected->points.size() * 1728.0 / (120 * 100 * 60.0)) < 1e-4);
    // stats measure in 3D
    const Run stats = cli({"eval", q(graph), "--stats", "-o", q(out)});
    QVERIFY2(stats.err.find("volume: tightest and too close in 3D; density N r^3/V = ") != std::string::npos, stats.err.c_str());
}

QTEST_GUILESS_MAIN(TestVolume)
#include "tst_volume.moc"
