// grove-cli check end to end: every outcome and exit status, each expectation's line located at
// its `expect` item, the metrics against values computed here independently (brute force, a grid
// worked out by hand, the theory of uniform random points), the spectrum's PNG, bad input.
#include "CliRun.h"
#include "core/base/NumberText.h"
#include "TestSupport.h"

#include "core/eval/Evaluator.h"

#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace grove;
using namespace grove::test;

namespace {

Run check(const QStringList &args) { return cli(QStringList{"check"} + args); }

std::string checkDir() { return testsDir() + "/check"; }
std::string gridGraph() { return checkDir() + "/grid.grove.yaml"; }
std::string blueWhiteGraph() { return checkDir() + "/blue_white.grove.yaml"; }

// A place_layer graph small enough to check by brute force, with `expect` items on lines 8 and 9.
const char *kTrees = R"(grove: 1
world: {width: 300, height: 200, seed: 11}
nodes:
  trees:
    type: place_layer
    params: {radius: 12}
    expect:
      - count >= 1
      - count >= 99999
)";

// The value check prints for one metric of one layer (the line's "METRIC VALUE" part: 4
// decimals below 1, 2 above), whatever the graph's own expectations say.
double measured(const std::string &graph, const std::string &layer, const std::string &metric)
{
    const Run r = check({q(graph), "--expect", q(layer + "." + metric + " >= -1e300")});
    const std::string key = ": " + layer + ": " + metric + " ";
    const auto at = r.out.find(key);
    if (r.code > 1 || at == std::string::npos)
        return NAN;
    const std::size_t from = at + key.size(), to = r.out.find_first_of(" \n", from);
    double v = NAN;
    parseNumber(r.out.substr(from, to - from), v);  // the text as any reader takes it, in any locale
    return v;
}

} // namespace

class TestCliCheck : public QObject
{
    Q_OBJECT

private slots:
    void everyExpectationHoldsExitsZero();
    void aFailedExpectationIsLocatedAndExitsOne();
    void aFailedCommandLineExpectationExitsOne();
    void severalGraphsReportEach();
    void nothingToCheckIsANote();
    void badExpectationsInTheGraphAreLocated();
    void badCommandLineIsUsage_data();
    void badCommandLineIsUsage();
    void countAndTightestEqualBruteForce();
    void gridDensityAndCoverageWorkedOutByHand();
    void uniformRandomMatchesTheory();
    void blueNoiseHasLittleLowFrequencyPower();
    void spectrumIsPainted();
    void regionsAreMeasured();
    void aWrappedWorldIsMeasuredAcrossItsSeams();
    void presetsCarryExpectations();

private:
    QTemporaryDir m_dir;
    std::string write(const std::string &name, const std::string &text)
    {
        const std::string path = m_dir.path().toStdString() + "/" + name;
        writeFile(path, text);
        return path;
    }
};

void TestCliCheck::everyExpectationHoldsExitsZero()
{
    const Run r = check({q(gridGraph())});
    QCOMPARE(r.code, 0);
    const std::string f = gridGraph();
    QCOMPARE(q(r.out), q(f + ":15:14: grid: count 1600 == 1600 ok\n" + f + ":15:29: grid: tightest 10.00 >= 10 ok\n" + f
                         + ":15:45: grid: coverage 1.00 >= 0.999 ok\n"));
    QCOMPARE(q(r.err), QString());
    const Run quiet = check({q(gridGraph()), "--quiet"});
    QCOMPARE(quiet.code, 0);
    QCOMPARE(q(quiet.out), QString());
}

void TestCliCheck::aFailedExpectationIsLocatedAndExitsOne()
{
    const std::string f = write("trees.grove.yaml", kTrees);
    const Run r = check({q(f)});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.find(f + ":8:9: trees: count ") != std::string::npos && r.out.find(" >= 1 ok\n") != std::string::npos, r.out.c_str());
    QVERIFY2(r.out.find(f + ":9:9: trees: count ") != std::string::npos && r.out.find(" >= 99999 failed\n") != std::string::npos,
             r.out.c_str());
    QCOMPARE(q(r.err), q(f + ": 1 of 2 expectations failed\n"));
    const Run quiet = check({q(f), "--quiet"});  // only the failure
    QCOMPARE(quiet.code, 1);
    QVERIFY(quiet.out.find(" ok\n") == std::string::npos && quiet.out.find(":9:9: ") != std::string::npos);
}

void TestCliCheck::aFailedCommandLineExpectationExitsOne()
{
    const std::string f = gridGraph();
    Run r = check({q(f), "--quiet", "--expect", "grid.count > 1600"});
    QCOMPARE(r.code, 1);
    QCOMPARE(q(r.out), q(f + ": --expect 'grid.count > 1600': grid: count 1600 > 1600 failed\n"));
    QCOMPARE(q(r.err), q(f + ": 1 of 4 expectations failed\n"));
    r = check({q(f), "--quiet", "--expect", "grid.count != 1599"});  // a layer is named by id or export name
    QCOMPARE(r.code, 0);
}

void TestCliCheck::severalGraphsReportEach()
{
    const std::string bad = write("trees.grove.yaml", kTrees);
    const Run r = check({q(gridGraph()), q(bad), "--quiet"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.find(bad + ":9:9: ") != std::string::npos);
    QVERIFY(r.out.find(gridGraph()) == std::string::npos);
    QCOMPARE(q(r.err), q(bad + ": 1 of 2 expectations failed\n"));
}

// No expect and no --expect: nothing failed, so exit 0, and the note says nothing was checked.
void TestCliCheck::nothingToCheckIsANote()
{
    const std::string f = write("plain.grove.yaml", "grove: 1\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n  a:\n    type: place_layer\n");
    const Run r = check({q(f)});
    QCOMPARE(r.code, 0);
    QCOMPARE(q(r.out), QString());
    QCOMPARE(q(r.err), q(f + ": nothing to check (no expect in the graph and no --expect)\n"));
}

void TestCliCheck::badExpectationsInTheGraphAreLocated()
{
    const std::string f = write("bad.grove.yaml", R"(grove: 1
world: {width: 100, height: 100, seed: 1}
nodes:
  height:
    type: value_noise
    expect: [count >= 1]
  trees:
    type: place_layer
    expect: [cuont >= 4, count >= many]
)");
    const std::string want = f + ":6:13: error: node 'height' (value_noise) makes no layer: only layer nodes take expect (at nodes.height.expect)\n"
                             + f + ":9:14: error: expectation 'cuont >= 4': unknown metric 'cuont'; did you mean 'count'? (at nodes.trees.expect[0])\n"
                             + f + ":9:26: error: expectation 'count >= many': 'many' is not a number; write METRIC OP NUMBER, such as 'count >= 400' (OP: >= <= > < == !=) (at nodes.trees.expect[1])\n";
    for (const char *command : {"check", "validate"}) {
        const Run r = cli({command, q(f)});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.rfind(want, 0) == 0, r.err.c_str());
    }
}

void TestCliCheck::badCommandLineIsUsage_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString g = q(gridGraph());
    QTest::newRow("unknown metric") << QStringList{g, "--expect", "grid.cuont >= 1"}
                                    << "grove-cli: --expect 'grid.cuont >= 1': unknown metric 'cuont'; did you mean 'count'?";
    QTest::newRow("unknown layer") << QStringList{g, "--expect", "gird.count >= 1"}
                                   << "grove-cli: --expect 'gird.count >= 1': " + g + " has no layer 'gird'; did you mean 'grid'?";
    QTest::newRow("no layer") << QStringList{g, "--expect", "count >= 1"}
                              << "grove-cli: --expect 'count >= 1': write LAYER.METRIC OP NUMBER, such as 'trees.count >= 400'";
    QTest::newRow("no number") << QStringList{g, "--expect", "grid.count >="}
                               << "grove-cli: --expect 'grid.count >=': no number after >=; write METRIC OP NUMBER, such as 'count >= 400' (OP: >= <= > < == !=)";
    QTest::newRow("not finite") << QStringList{g, "--expect", "grid.count >= inf"}
                                << "grove-cli: --expect 'grid.count >= inf': the number must be finite, got 'inf'";
    QTest::newRow("unknown flag") << QStringList{g, "--expcet", "grid.count >= 1"} << "grove-cli: unknown option for check: --expcet";
    QTest::newRow("no file") << QStringList{"--expect", "grid.count >= 1"} << "grove-cli: check needs at least one FILE";
    QTest::newRow("spectrum of which layer") << QStringList{q(blueWhiteGraph()), "--spectrum", "out.png"}
                                             << "grove-cli: --spectrum out.png: " + q(blueWhiteGraph()) + " has 3 layers; name one with --spectrum LAYER=FILE.png";
    QTest::newRow("spectrum of no layer") << QStringList{g, "--spectrum", "gird=out.png"}
                                          << "grove-cli: --spectrum: " + g + " has no layer 'gird'; did you mean 'grid'?";
}

void TestCliCheck::badCommandLineIsUsage()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = cli(QStringList{"check"} + args);
    QCOMPARE(r.code, 2);
    QCOMPARE(q(r.err), message + "\n(see grove-cli --help)\n");
    QCOMPARE(q(r.out), QString());
}

// count is the export's count; tightest the closest pair found by trying every pair of the
// exported points; too_close 0 for Bridson.
void TestCliCheck::countAndTightestEqualBruteForce()
{
    const std::string f = write("trees.grove.yaml", kTrees);
    const Run eval = cli({"eval", q(f)});
    QCOMPARE(eval.code, 0);
    const auto json = nlohmann::json::parse(eval.out);
    const auto &points = json["layers"][0]["points"];
    std::vector<std::pair<double, double>> xy;
    for (const auto &p : points)
        xy.emplace_back(p["x"].get<double>(), p["y"].get<double>());
    QVERIFY(xy.size() > 50);
    double tight = INFINITY;
    for (size_t i = 0; i < xy.size(); ++i)
        for (size_t j = i + 1; j < xy.size(); ++j)
            tight = std::min(tight, std::hypot(xy[i].first - xy[j].first, xy[i].second - xy[j].second));
    QCOMPARE(measured(f, "trees", "count"), double(xy.size()));
    QCOMPARE(json["layers"][0]["count"].get<double>(), double(xy.size()));
    // the exact value, through expectations on either side of it
    char lo[64], hi[64];
    std::snprintf(lo, sizeof lo, "trees.tightest >= %.17g", tight * (1 - 1e-12));
    std::snprintf(hi, sizeof hi, "trees.tightest <= %.17g", tight * (1 + 1e-12));
    const Run r = check({q(f), "--quiet", "--expect", lo, "--expect", hi, "--expect", "trees.too_close == 0"});
    QVERIFY2(r.out.find("tightest") == std::string::npos && r.out.find("too_close") == std::string::npos, r.out.c_str());
    QVERIFY(tight >= 12);
}

// grid.csv: 40 x 40 points 10 apart, r 10, in a 400 x 400 world. density = 1600 * 10^2 / 400^2
// = 1. Coverage is sampled at cell centres r/4 = 2.5 apart: the full grid covers all of them. With
// the 10 x 10 points of x, y in [100, 200) erased, the centres more than 10 from the points left
// are those with 105 < x, y < 195 (the corners' nearest points are sqrt(2) * 10 away): 36 x 36 of
// 160 x 160 cells, so coverage = 1 - 1296 / 25600 exactly.
void TestCliCheck::gridDensityAndCoverageWorkedOutByHand()
{
    QCOMPARE(measured(gridGraph(), "grid", "density"), 1.0);
    QCOMPARE(measured(gridGraph(), "grid", "coverage"), 1.0);
    std::string csv = "x,y\n";
    for (int j = 0; j < 40; ++j)
        for (int i = 0; i < 40; ++i)
            if (!(i >= 10 && i < 20 && j >= 10 && j < 20))
                csv += std::to_string(5 + 10 * i) + "," + std::to_string(5 + 10 * j) + "\n";
    write("holed.csv", csv);
    std::string graph = readFile(gridGraph());
    graph.replace(graph.find("path: grid.csv"), 14, "path: holed.csv");
    graph.replace(graph.find("[count == 1600, tightest >= 10, coverage >= 0.999]"), 50, "[count == 1500]");
    const std::string f = write("holed.grove.yaml", graph);
    const double want = 1 - 1296.0 / 25600.0;
    char lo[64], hi[64];
    std::snprintf(lo, sizeof lo, "grid.coverage >= %.17g", want - 1e-12);
    std::snprintf(hi, sizeof hi, "grid.coverage <= %.17g", want + 1e-12);
    const Run r = check({q(f), "--expect", lo, "--expect", hi});
    QVERIFY2(r.code == 0, (r.out + r.err).c_str());
    // the widest clearing: centred in the hole, touching (95, 145) and its seven mirror images
    const double clearing = measured(f, "grid", "clearing");
    QVERIFY2(std::fabs(clearing - 2 * std::hypot(55.0, 5.0)) < 0.01, std::to_string(clearing).c_str());
    QVERIFY(std::fabs(measured(gridGraph(), "grid", "clearing") - 2 * std::hypot(5.0, 5.0)) < 0.01);  // a cell's diagonal
}

// Poisson points at intensity lambda leave a spot uncovered by discs of radius r with
// probability exp(-lambda pi r^2) = exp(-pi density); their periodogram is white: E P(f) = 1 at
// every frequency of the window, and each value scatters like an exponential variable, so the
// variance over an annulus equals its mean squared (0 dB). The low band holds about 2,000 values
// (1,000 independent: the standard error of their mean is about 0.03), so +-0.2 is over six
// standard errors; the anisotropy averages 126 annuli of 6 to 800 values each: +-1 dB.
void TestCliCheck::uniformRandomMatchesTheory()
{
    const double density = measured(blueWhiteGraph(), "random", "density");
    QVERIFY(std::fabs(density - 15000.0 * 100 / (1600.0 * 1600)) < 1e-4);  // as printed; no mask: A is the world
    const double coverage = measured(blueWhiteGraph(), "random", "coverage");
    QVERIFY2(std::fabs(coverage - (1 - std::exp(-M_PI * density))) < 0.01, std::to_string(coverage).c_str());
    const double lowFreq = measured(blueWhiteGraph(), "random", "low_freq");
    QVERIFY2(std::fabs(lowFreq - 1) < 0.2, std::to_string(lowFreq).c_str());
    const double anisotropy = measured(blueWhiteGraph(), "random", "anisotropy");
    QVERIFY2(std::fabs(anisotropy) < 1, std::to_string(anisotropy).c_str());
}

// Bridson's Poisson disk at the same spacing: nearly no power below 0.5 / r, and coverage near
// 1 (maximal); the jittered grid sits between; a regular grid's peaks make it anisotropic.
void TestCliCheck::blueNoiseHasLittleLowFrequencyPower()
{
    const double bridson = measured(blueWhiteGraph(), "bridson", "low_freq");
    const double jittered = measured(blueWhiteGraph(), "jittered", "low_freq");
    const double random = measured(blueWhiteGraph(), "random", "low_freq");
    QVERIFY2(bridson < 0.2, std::to_string(bridson).c_str());
    QVERIFY2(bridson < jittered && jittered < random, (std::to_string(jittered) + " " + std::to_string(random)).c_str());
    QVERIFY(measured(blueWhiteGraph(), "bridson", "coverage") > 0.99);
    QVERIFY(std::fabs(measured(blueWhiteGraph(), "bridson", "anisotropy")) < 1);
    const double grid = measured(gridGraph(), "grid", "anisotropy");
    QVERIFY2(grid > 10, std::to_string(grid).c_str());
}

// --spectrum writes a PNG: the (2m + 1)^2 periodogram scaled by an integer beside the radial
// plot. grid.grove.yaml: a 400 window at r 10 gives m = 100, 201 cells at 2 px, 402 + 8 + 402.
void TestCliCheck::spectrumIsPainted()
{
    const std::string png = m_dir.path().toStdString() + "/grid.png";
    const Run r = check({q(gridGraph()), "--spectrum", q(png)});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.find("grid: spectrum of 1600 points in 400 x 400 at 0,0, |k| <= 100: low_freq 0.0000, anisotropy ")
                 != std::string::npos, r.out.c_str());
    const std::string bytes = readFile(png);
    QVERIFY(bytes.size() > 100);
    QCOMPARE(bytes.substr(1, 3), std::string("PNG"));
    auto be32 = [&](size_t at) {
        return (std::uint32_t(std::uint8_t(bytes[at])) << 24) | (std::uint32_t(std::uint8_t(bytes[at + 1])) << 16)
               | (std::uint32_t(std::uint8_t(bytes[at + 2])) << 8) | std::uint32_t(std::uint8_t(bytes[at + 3]));
    };
    QCOMPARE(be32(16), 812u);  // IHDR width
    QCOMPARE(be32(20), 402u);  // IHDR height
    // a folder that does not exist: exit 1, nothing written
    const Run bad = check({q(gridGraph()), "--spectrum", q(m_dir.path().toStdString() + "/no/such/dir/x.png")});
    QCOMPARE(bad.code, 1);
    QVERIFY(!bad.err.empty());
}

// An endless world is measured on the 4 x 4 chunks from the origin unless --region says otherwise:
// the counts equal eval's export of the same rectangle. A region off the world is an error.
void TestCliCheck::regionsAreMeasured()
{
    const std::string endless = sourceDir() + "/presets/endless.grove.yaml";
    auto exported = [&](const QString &region) {
        const Run r = cli({"eval", q(endless), "--region", region, "--layers", "rocks"});
        return r.code == 0 ? nlohmann::json::parse(r.out)["layers"][0]["count"].get<double>() : -1.0;
    };
    QCOMPARE(measured(endless, "rocks", "count"), exported("0,0,1024,1024"));
    const Run r = check({q(endless), "--region", "-300,-200,500,100", "--expect", "rocks.count >= 0"});
    const double want = exported("-300,-200,500,100");
    QVERIFY(want > 0);
    QVERIFY2(r.out.find("rocks: count " + std::to_string(static_cast<long long>(want)) + " >= 0 ok") != std::string::npos, r.out.c_str());
    const Run off = check({q(gridGraph()), "--region", "0,0,500,100"});
    QCOMPARE(off.code, 1);
    QCOMPARE(q(off.err), q(gridGraph() + ": error: --region reaches outside the world (0,0 to 400,400)\n"));
    const Run far = check({q(endless), "--region", "-1e12,0,10,10"});
    QCOMPARE(far.code, 1);
    QVERIFY(far.err.find("--region reaches beyond chunk 32768") != std::string::npos);
}

// A wrapped world is measured on its torus, as it was placed: in a 100 x 100 world with wrap:
// true, points from a file (r 10) hold a pair 5 apart across the x seam (95 apart in the plane):
// that is the tightest pair and the one too close, and coverage counts the cells that points
// across a seam cover, worked out here by brute force on the torus. --region measures the plane.
void TestCliCheck::aWrappedWorldIsMeasuredAcrossItsSeams()
{
    std::vector<std::pair<double, double>> xy{{2, 50}, {97, 50}};
    const auto wrapped2 = [](double ax, double ay, double bx, double by) {
        const double dx = std::remainder(ax - bx, 100.0), dy = std::remainder(ay - by, 100.0);
        return dx * dx + dy * dy;
    };
    std::uint32_t state = 12345;
    const auto next = [&] { return (state = state * 1664525u + 1013904223u) / 4294967296.0 * 100.0; };
    for (int k = 0; k < 80; ++k) {
        const double x = next(), y = next();
        if (std::all_of(xy.begin(), xy.end(), [&](const auto &p) { return wrapped2(x, y, p.first, p.second) >= 100; }))
            xy.emplace_back(x, y);
    }
    std::string csv = "x,y\n";
    for (const auto &[x, y] : xy)
        csv += formatNumber(x) + "," + formatNumber(y) + "\n";
    write("torus.csv", csv);
    const std::string f = write("torus.grove.yaml", "grove: 1\nworld: {width: 100, height: 100, seed: 1, wrap: true}\nnodes:\n"
                                                    "  dots: {type: points_file, params: {path: torus.csv, radius: 10, export: true}}\n");
    // cells r / 4 = 2.5 wide, measured at their centres, covered within r of a point on the torus
    std::size_t covered = 0;
    for (int j = 0; j < 40; ++j)
        for (int i = 0; i < 40; ++i)
            covered += std::any_of(xy.begin(), xy.end(), [&](const auto &p) {
                return wrapped2((i + 0.5) * 2.5, (j + 0.5) * 2.5, p.first, p.second) < 100;
            });
    const double want = static_cast<double>(covered) / 1600;
    QVERIFY(want < 1);
    char lo[64], hi[64];
    std::snprintf(lo, sizeof lo, "dots.coverage >= %.17g", want - 1e-12);
    std::snprintf(hi, sizeof hi, "dots.coverage <= %.17g", want + 1e-12);
    const Run r = check({q(f), "--expect", lo, "--expect", hi, "--expect", "dots.too_close == 1", "--expect", "dots.tightest <= 5.0001",
                         "--expect", "dots.tightest >= 4.9999"});
    QVERIFY2(r.code == 0, (r.out + r.err).c_str());
    // in the plane (a region, even the whole of it) the pair is 95 apart and the seams cover nothing
    const Run plane = check({q(f), "--region", "0,0,100,100", "--expect", "dots.too_close == 0", "--expect",
                              q("dots.coverage < " + formatNumber(want))});
    QVERIFY2(plane.code == 0, (plane.out + plane.err).c_str());
}

// CI runs grove-cli check on presets/*.grove.yaml (CTest presets_check): each preset must give it
// something to check, on every layer it exports.
void TestCliCheck::presetsCarryExpectations()
{
    for (const auto &name : listDir(sourceDir() + "/presets")) {
        if (name.size() < 11 || name.substr(name.size() - 11) != ".grove.yaml")
            continue;
        LoadResult loaded = loadGraphFile(sourceDir() + "/presets/" + name, registry());
        QVERIFY2(loaded.ok(), name.c_str());
        for (const auto &id : exportedLayers(loaded.graph, registry()))
            QVERIFY2(!loaded.graph.node(id)->expect.empty(), (name + ": " + id).c_str());
    }
}

QTEST_APPLESS_MAIN(TestCliCheck)
#include "tst_cli_check.moc"
