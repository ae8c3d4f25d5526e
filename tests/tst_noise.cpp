// Noise and field nodes: ranges, smoothness, seed independence, pinned values, and the semantics
// and error messages of domain_warp, radial_falloff, math, remap and biome_table.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/fields/GradientNoise.h"
#include "core/base/Limits.h"
#include "core/fields/NoiseLattice.h"
#include "core/math/SeededRandom.h"
#include "core/fields/SimplexNoise.h"
#include "core/fields/ValueNoise.h"
#include "core/fields/WorleyNoise.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace grove;
using namespace grove::test;

class TestNoise : public QObject
{
    Q_OBJECT

private slots:
    void valuesStayInUnitRange_data();
    void valuesStayInUnitRange();
    void smallStepsGiveSmallChanges_data();
    void smallStepsGiveSmallChanges();
    void seedsAreIndependent_data();
    void seedsAreIndependent();
    void sameSeedSameValues_data();
    void sameSeedSameValues();
    void rowSamplingMatchesPointSampling_data();
    void rowSamplingMatchesPointSampling();
    void valueFbmRowsAreBitExactOnEveryPath();
    void valueFbmPointLanesAreTheScalarPath();
    void pinnedValues();
    void latticeWrapsAndBadCoordinatesStayInRange();
    void worleyFindsTheTrulyNearestPoints();
    void worldSeedAndParamSeedAdd();
    void domainWarpShiftsBySampledOffsets();
    void radialFalloffMakesAnIsland();
    void mathOperations_data();
    void mathOperations();
    void remapIsLinearAndClamps();
    void remapRejectsAnEmptyInputRange();
    void biomeTableLooksUpRowAndColumn();
    void biomeTableNamesEachBiomeOnce();
    void biomeTableSizeMismatchFailsClearly();
    void biomeTableParamErrors();
    void unknownFractalIsRejected();
    void descriptorsAreComplete();
};

namespace {

std::string graphText(const std::string &nodes, double width = 1000, double height = 1000, int seed = 0)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

EvalResult run(const std::string &nodes, double width = 1000, double height = 1000, int seed = 0)
{
    return evaluateText(graphText(nodes, width, height, seed));
}

FieldPtr fieldOf(const std::string &nodes, const std::string &id, double width = 1000, double height = 1000, int seed = 0)
{
    EvalResult r = run(nodes, width, height, seed);
    if (!r.ok())
        qWarning("%s", formatAll(r.diagnostics).c_str());
    const PortValue v = r.output(id);
    const auto *f = std::get_if<FieldPtr>(&v);
    return f ? *f : nullptr;
}

// One noise node (id `n` unless given) with the given params (a YAML flow map's contents).
std::string noiseNode(const std::string &type, const std::string &params, const std::string &id = "n")
{
    return "  " + id + ":\n    type: " + type + "\n    params: {" + params + "}\n";
}

// A constant field node.
std::string constant(const std::string &id, double v)
{
    return "  " + id + ":\n    type: constant\n    params: {value: " + formatNumber(v) + "}\n";
}

// The noise variants every property test runs over: each noise type with each fractal sum.
void addNoiseRows()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("params");
    const char *types[][2] = {{"gradient_noise", ""},
                              {"simplex_noise", ""},
                              {"worley_noise", "mode: f1, "},
                              {"worley_noise", "mode: f2_minus_f1, "}};
    for (const auto &t : types)
        for (const char *fractal : {"fbm", "ridged", "billow"})
            for (const char *octaves : {"1", "4"}) {
                const QString params = QString(t[1]) + "fractal: " + fractal + ", octaves: " + octaves;
                QTest::newRow(qPrintable(QString(t[0]) + " " + params)) << QString(t[0]) << params;
            }
}

double correlation(const std::vector<double> &a, const std::vector<double> &b)
{
    double ma = 0, mb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= double(a.size());
    mb /= double(b.size());
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

} // namespace

void TestNoise::valuesStayInUnitRange_data() { addNoiseRows(); }

void TestNoise::valuesStayInUnitRange()
{
    QFETCH(QString, type);
    QFETCH(QString, params);
    // frequency 1 puts world coordinates straight on the lattice: large ones wrap the 32-bit cell index
    FieldPtr f = fieldOf(noiseNode(type.toStdString(), "frequency: 1, " + params.toStdString()), "n");
    QVERIFY(f);
    SeededRandom rng(7);
    double lo = 1, hi = 0, sum = 0, sumSq = 0;
    const int n = 60000;
    for (int i = 0; i < n; ++i) {
        const double scale = i % 3 == 0 ? 50 : i % 3 == 1 ? 1e6 : 3e12;
        const double x = (rng.nextFloat() * 2 - 1) * scale, y = (rng.nextFloat() * 2 - 1) * scale;
        const double v = f->at(x, y);
        if (!(v >= 0 && v <= 1))
            QFAIL(qPrintable(QString("value %1 at (%2, %3)").arg(v, 0, 'g', 17).arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum += v;
        sumSq += v * v;
    }
    // not a constant, and using a good part of the range
    const double mean = sum / n, sd = std::sqrt(sumSq / n - mean * mean);
    QVERIFY2(sd > 0.04, qPrintable(QString("sd %1").arg(sd)));
    QVERIFY2(hi - lo > 0.4, qPrintable(QString("range [%1, %2]").arg(lo).arg(hi)));
}

void TestNoise::smallStepsGiveSmallChanges_data() { addNoiseRows(); }

void TestNoise::smallStepsGiveSmallChanges()
{
    QFETCH(QString, type);
    QFETCH(QString, params);
    // cells of 20 world units at the first octave, 2.5 at the fourth; steps of 0.01 world units
    FieldPtr f = fieldOf(noiseNode(type.toStdString(), "frequency: 0.05, " + params.toStdString()), "n");
    QVERIFY(f);
    SeededRandom rng(11);
    const double e = 0.01;
    double worst = 0, total = 0, farTotal = 0;
    const int n = 40000;
    for (int i = 0; i < n; ++i) {
        const double x = (rng.nextFloat() * 2 - 1) * 5000, y = (rng.nextFloat() * 2 - 1) * 5000;
        const double v = f->at(x, y);
        const double step = std::max(std::fabs(f->at(x + e, y) - v), std::fabs(f->at(x, y + e) - v));
        worst = std::max(worst, step);
        total += step;
        farTotal += std::fabs(f->at(x + 37, y + 11) - v);
    }
    // no jumps anywhere (a lattice seam or a missed Worley neighbour would show here) ...
    QVERIFY2(worst < 0.02, qPrintable(QString("largest change over a 0.01 step: %1").arg(worst)));
    // ... and neighbours agree far more than distant spots do
    QVERIFY2(total / n < 0.05 * farTotal / n,
             qPrintable(QString("mean step change %1, mean distant change %2").arg(total / n).arg(farTotal / n)));
}

void TestNoise::seedsAreIndependent_data() { addNoiseRows(); }

void TestNoise::seedsAreIndependent()
{
    QFETCH(QString, type);
    QFETCH(QString, params);
    const std::string p = "frequency: 0.05, " + params.toStdString();
    FieldPtr one = fieldOf(noiseNode(type.toStdString(), p + ", seed: 1"), "n");
    FieldPtr two = fieldOf(noiseNode(type.toStdString(), p + ", seed: 2"), "n");
    QVERIFY(one && two);
    std::vector<double> a, b;
    for (int j = 0; j < 150; ++j)
        for (int i = 0; i < 150; ++i) {
            a.push_back(one->at(i * 13.7, j * 13.7));
            b.push_back(two->at(i * 13.7, j * 13.7));
        }
    const double c = correlation(a, b);
    QVERIFY2(std::fabs(c) < 0.1, qPrintable(QString("correlation %1").arg(c)));
    QVERIFY(a != b);
}

void TestNoise::sameSeedSameValues_data() { addNoiseRows(); }

void TestNoise::sameSeedSameValues()
{
    QFETCH(QString, type);
    QFETCH(QString, params);
    const std::string nodes = noiseNode(type.toStdString(), "seed: 9, " + params.toStdString());
    FieldPtr first = fieldOf(nodes, "n"), second = fieldOf(nodes, "n");
    QVERIFY(first && second && first != second);
    for (int i = 0; i < 500; ++i) {
        const double x = i * 7.3 - 1500, y = i * -3.1 + 40;
        const double v = first->at(x, y);
        QCOMPARE(second->at(x, y), v);
        QCOMPARE(first->at(x, y), v);  // asking again, after other spots, changes nothing
    }
}

void TestNoise::rowSamplingMatchesPointSampling_data()
{
    QTest::addColumn<QString>("nodes");
    QTest::addColumn<QString>("id");
    // value_noise is exact: its row path must give the seed reference's doubles too
    QTest::newRow("value_noise") << QString::fromStdString("  n:\n    type: value_noise\n    params: {frequency: 0.013, octaves: 6, lacunarity: 2.3, persistence: 0.6, seed: 5}\n")
                                 << "n";
    QTest::newRow("value_noise coarse") << QString::fromStdString("  n:\n    type: value_noise\n    params: {frequency: 3.7, octaves: 2}\n")
                                        << "n";
    for (const char *type : {"gradient_noise", "simplex_noise", "worley_noise"})
        for (const char *fractal : {"fbm", "ridged", "billow"})
            QTest::newRow(qPrintable(QString(type) + " " + fractal))
                << QString::fromStdString(noiseNode(type, std::string("fractal: ") + fractal + ", octaves: 5, seed: 3"))
                << "n";
    const std::string warp = noiseNode("simplex_noise", "") + "  wx:\n    type: gradient_noise\n    params: {seed: 1}\n"
                             + "  wy:\n    type: worley_noise\n    params: {seed: 2}\n"
                             + "  w:\n    type: domain_warp\n    inputs: {field: n, warp_x: wx, warp_y: wy}\n";
    QTest::newRow("domain_warp") << QString::fromStdString(warp) << "w";
    QTest::newRow("radial_falloff") << QString::fromStdString(noiseNode("gradient_noise", "")
                                                              + "  r:\n    type: radial_falloff\n    inputs: {field: n}\n")
                                    << "r";
    QTest::newRow("radial_falloff alone") << "  r:\n    type: radial_falloff\n    params: {exponent: 2.5}\n"
                                          << "r";
    QTest::newRow("math") << QString::fromStdString(noiseNode("gradient_noise", "") + noiseNode("worley_noise", "", "m")
                                                    + "  x:\n    type: math\n    inputs: {a: n, b: m}\n    params: {op: divide}\n")
                          << "x";
    QTest::newRow("math unary") << QString::fromStdString(noiseNode("simplex_noise", "")
                                                          + "  x:\n    type: math\n    inputs: {a: n}\n    params: {op: one_minus}\n")
                                << "x";
    QTest::newRow("remap") << QString::fromStdString(noiseNode("simplex_noise", "")
                                                     + "  x:\n    type: remap\n    inputs: {field: n}\n    params: {in_min: 0.3, in_max: 0.7}\n")
                           << "x";
}

void TestNoise::rowSamplingMatchesPointSampling()
{
    QFETCH(QString, nodes);
    QFETCH(QString, id);
    FieldPtr f = fieldOf(nodes.toStdString(), id.toStdString(), 800, 600);
    QVERIFY(f);
    // rows as a preview asks for them: whole pixels, fractional pixels, leftwards, far off the origin
    const double rows[][4] = {{0, 1, 0, 800}, {-3.25, 0.37, 17.5, 1000}, {500, -1.5, -42, 600}, {-2e6, 13, 1e6, 300}};
    for (const auto &r : rows) {
        const int n = static_cast<int>(r[3]);
        std::vector<double> out(static_cast<size_t>(n));
        f->sampleRow(r[0], r[1], r[2], n, out.data());
        for (int i = 0; i < n; ++i) {
            const double expected = f->at(r[0] + i * r[1], r[2]);
            if (out[static_cast<size_t>(i)] != expected && !(std::isnan(expected) && std::isnan(out[static_cast<size_t>(i)])))
                QFAIL(qPrintable(QString("pixel %1 of row y=%2: row %3, point %4")
                                     .arg(i)
                                     .arg(r[2])
                                     .arg(out[static_cast<size_t>(i)], 0, 'g', 17)
                                     .arg(expected, 0, 'g', 17)));
        }
    }
}

void TestNoise::valueFbmRowsAreBitExactOnEveryPath()
{
    // Rows go four samples at a time in AVX2 where the CPU has it, else through the scalar path
    // with its cell memo; both must equal valueFbm sample by sample, bit for bit, including rows
    // whose lattice coordinates leave int32 (wrapped as JavaScript's ToInt32) and NaN or infinite
    // coordinates, in runs of any length.
    const double specials[] = {0, -0.0, 0.5, -0.5, 2147483646.5, 2147483647.0, 2147483647.5, -2147483647.5,
                               -2147483648.0, -2147483649.0, 4294967296.5, 1e15, -1e15, NAN, INFINITY, -INFINITY, 1e300};
    SeededRandom random(99);
    int compared = 0;
    for (bool simd : {true, false}) {
        setValueNoiseSimd(simd);
        for (int trial = 0; trial < 1500; ++trial) {
            const int n = 1 + static_cast<int>(random.nextFloat() * 37);
            const double scale = std::pow(10.0, std::floor(random.nextFloat() * 12) - 2);
            std::vector<double> xs(static_cast<size_t>(n)), row(static_cast<size_t>(n));
            const bool sorted = random.nextFloat() < 0.5;  // as a raster asks: left to right
            const double start = (random.nextFloat() * 2 - 1) * scale, step = random.nextFloat() * 0.3;
            for (int i = 0; i < n; ++i) {
                const double r = random.nextFloat();
                xs[static_cast<size_t>(i)] = r < 0.15 ? specials[static_cast<size_t>(random.nextFloat() * 17)]
                                             : sorted ? start + i * step
                                                      : (random.nextFloat() * 2 - 1) * scale;
            }
            const double y = (random.nextFloat() * 2 - 1) * scale;
            const int octaves = 1 + static_cast<int>(random.nextFloat() * 6);
            const std::int32_t seed = static_cast<std::int32_t>(random.next());
            valueFbmRow(xs.data(), y, n, seed, octaves, 2.0, 0.5, row.data());
            for (int i = 0; i < n; ++i) {
                const double expected = valueFbm(xs[static_cast<size_t>(i)], y, seed, octaves, 2.0, 0.5);
                const double got = row[static_cast<size_t>(i)];
                if (std::memcmp(&expected, &got, sizeof got) != 0 && !(std::isnan(expected) && std::isnan(got)))
                    QFAIL(qPrintable(QString("simd %1: x %2 y %3: row %4, point %5")
                                         .arg(simd)
                                         .arg(xs[static_cast<size_t>(i)], 0, 'g', 17)
                                         .arg(y, 0, 'g', 17)
                                         .arg(got, 0, 'g', 17)
                                         .arg(expected, 0, 'g', 17)));
                ++compared;
            }
        }
    }
    setValueNoiseSimd(true);
    QVERIFY(compared > 50000);
    qInfo("AVX2 path %s on this machine", valueNoiseSimdActive() ? "taken" : "not available");
}

void TestNoise::valueFbmPointLanesAreTheScalarPath()
{
    // A single sample's octaves go four at a time in AVX2 lanes (placement asks masks point by
    // point); every sample must equal the scalar loop's bit for bit, for 1 to 24 octaves, any
    // lacunarity and persistence, and coordinates that leave int32 in some octave only.
    SeededRandom random(7);
    for (int trial = 0; trial < 200000; ++trial) {
        const double scale = std::pow(10.0, std::floor(random.nextFloat() * 13) - 3);
        const double x = (random.nextFloat() * 2 - 1) * scale, y = (random.nextFloat() * 2 - 1) * scale;
        const int octaves = 1 + static_cast<int>(random.nextFloat() * 24);
        const double lacunarity = random.nextFloat() < 0.5 ? 2.0 : 0.5 + random.nextFloat() * 3;
        const double persistence = random.nextFloat() < 0.5 ? 0.5 : random.nextFloat() * 1.2;
        const std::int32_t seed = static_cast<std::int32_t>(random.next());
        setValueNoiseSimd(false);
        const double expected = valueFbm(x, y, seed, octaves, lacunarity, persistence);
        setValueNoiseSimd(true);
        const double got = valueFbm(x, y, seed, octaves, lacunarity, persistence);
        if (std::memcmp(&expected, &got, sizeof got) != 0 && !(std::isnan(expected) && std::isnan(got)))
            QFAIL(qPrintable(QString("x %1 y %2 octaves %3 lacunarity %4 persistence %5: lanes %6, scalar %7")
                                 .arg(x, 0, 'g', 17).arg(y, 0, 'g', 17).arg(octaves).arg(lacunarity, 0, 'g', 17)
                                 .arg(persistence, 0, 'g', 17).arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    }
}

void TestNoise::pinnedValues()
{
    // A refactor that changes any output changes these texts (shortest round-trip, so bit-exact).
    struct Pin
    {
        const char *type;
        const char *params;
        double x, y;
        const char *value;
    };
    const Pin pins[] = {
        {"gradient_noise", "", 123.5, 456.25, "0.41217794816089004"},
        {"gradient_noise", "fractal: ridged, seed: 4", -3000.75, 77.5, "0.822361286042758"},
        {"simplex_noise", "", 123.5, 456.25, "0.09731467010525104"},
        {"simplex_noise", "fractal: billow, seed: -8", 9999.5, -123.125, "0.6127033313034114"},
        {"worley_noise", "", 123.5, 456.25, "0.7713642707069192"},
        {"worley_noise", "mode: f2_minus_f1, octaves: 3, seed: 12", -640.5, 2048.75, "0.3571118567322268"},
    };
    for (const auto &p : pins) {
        FieldPtr f = fieldOf(noiseNode(p.type, p.params), "n");
        QVERIFY(f);
        QCOMPARE(formatNumber(f->at(p.x, p.y)), std::string(p.value));
    }
    QCOMPARE(formatNumber(gradientNoise(0.3, 0.7, 1)), std::string("0.49197895847128525"));
    QCOMPARE(formatNumber(simplexNoise(0.3, 0.7, 1)), std::string("0.27343248015000643"));
    QCOMPARE(formatNumber(worleyNoise(0.3, 0.7, 1, WorleyMode::F1)), std::string("0.4889869054324148"));
}

void TestNoise::latticeWrapsAndBadCoordinatesStayInRange()
{
    // the lattice wraps every 2^32 cells
    QCOMPARE(gradientNoise(0.25 + 4294967296.0, 0.5, 3), gradientNoise(0.25, 0.5, 3));
    QCOMPARE(worleyNoise(0.25 + 4294967296.0, 0.5, 3, WorleyMode::F1), worleyNoise(0.25, 0.5, 3, WorleyMode::F1));
    // a bad coordinate stays in range rather than spreading NaN
    const double nan = std::nan("");
    for (double v : {gradientNoise(nan, 1, 0), simplexNoise(nan, 1, 0), worleyNoise(nan, 1, 0, WorleyMode::F2MinusF1)})
        QVERIFY(v >= 0 && v <= 1);
}

void TestNoise::worleyFindsTheTrulyNearestPoints()
{
    // Brute force over 7 x 7 cells (one feature point per cell, placed by cellHash) against the
    // noise's own search: a search that is too small leaves rare seams no smoothness test finds.
    SeededRandom rng(5);
    int mismatches = 0;
    for (int i = 0; i < 200000; ++i) {
        const double x = (rng.nextFloat() * 2 - 1) * 1000, y = (rng.nextFloat() * 2 - 1) * 1000;
        const double cx = std::floor(x), cy = std::floor(y);
        double d1 = INFINITY, d2 = INFINITY;
        for (int dy = -3; dy <= 3; ++dy)
            for (int dx = -3; dx <= 3; ++dx) {
                const std::uint32_t h = cellHash(latticeCell(cx + dx), latticeCell(cy + dy), 4);
                const double px = dx + (h & 0xffffu) / 65536.0 - (x - cx), py = dy + (h >> 16) / 65536.0 - (y - cy);
                const double d = px * px + py * py;
                d2 = d < d1 ? d1 : std::min(d2, d);
                d1 = std::min(d1, d);
            }
        const double f1 = std::sqrt(d1), f2 = std::sqrt(d2);
        mismatches += std::fabs(worleyNoise(x, y, 4, WorleyMode::F1) - std::min(1.0, f1)) > 1e-12;
        mismatches += std::fabs(worleyNoise(x, y, 4, WorleyMode::F2MinusF1) - std::min(1.0, f2 - f1)) > 1e-12;
    }
    QCOMPARE(mismatches, 0);
}

void TestNoise::worldSeedAndParamSeedAdd()
{
    FieldPtr a = fieldOf(noiseNode("simplex_noise", "seed: 5"), "n", 1000, 1000, 0);
    FieldPtr b = fieldOf(noiseNode("simplex_noise", "seed: 0"), "n", 1000, 1000, 5);
    FieldPtr c = fieldOf(noiseNode("simplex_noise", "seed: 6"), "n", 1000, 1000, -1);
    for (int i = 0; i < 50; ++i) {
        QCOMPARE(a->at(i * 31.0, i * 17.0), b->at(i * 31.0, i * 17.0));
        QCOMPARE(a->at(i * 31.0, i * 17.0), c->at(i * 31.0, i * 17.0));
    }
}

void TestNoise::domainWarpShiftsBySampledOffsets()
{
    // constant warps 0.75 and 0.25 with strength 20 read the field 10 right and 10 up
    const std::string nodes = noiseNode("gradient_noise", "seed: 2") + constant("wx", 0.75) + constant("wy", 0.25)
                              + "  w:\n    type: domain_warp\n    inputs: {field: n, warp_x: wx, warp_y: wy}\n";
    EvalResult r = run(nodes);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    FieldPtr source = std::get<FieldPtr>(r.output("n")), warped = std::get<FieldPtr>(r.output("w"));
    for (int i = 0; i < 100; ++i) {
        const double x = i * 9.5, y = 300 - i * 4.25;
        QCOMPARE(warped->at(x, y), source->at(x + 10, y - 10));
    }
    // warps of 0.5 leave the field as it is; strength scales the shift
    FieldPtr still = fieldOf(noiseNode("gradient_noise", "seed: 2") + constant("half", 0.5)
                                 + "  w:\n    type: domain_warp\n    inputs: {field: n, warp_x: half, warp_y: half}\n"
                                   "    params: {strength: 500}\n",
                             "w");
    FieldPtr far = fieldOf(noiseNode("gradient_noise", "seed: 2") + constant("one", 1) + constant("zero", 0)
                               + "  w:\n    type: domain_warp\n    inputs: {field: n, warp_x: one, warp_y: zero}\n"
                                 "    params: {strength: 100}\n",
                           "w");
    for (int i = 0; i < 100; ++i) {
        const double x = i * 9.5, y = 300 - i * 4.25;
        QCOMPARE(still->at(x, y), source->at(x, y));
        QCOMPARE(far->at(x, y), source->at(x + 100, y - 100));
    }
}

void TestNoise::radialFalloffMakesAnIsland()
{
    // a 200 x 100 world: centre (100, 50), dmax = 100 (half the width)
    auto falloff = [](const std::string &params, const std::string &extra = "") {
        return fieldOf(extra + "  r:\n    type: radial_falloff\n" + (extra.empty() ? "" : "    inputs: {field: c}\n")
                           + "    params: {" + params + "}\n",
                       "r", 200, 100);
    };
    FieldPtr dome = falloff("");
    QCOMPARE(dome->at(100, 50), 1.0);
    QCOMPARE(dome->at(150, 50), 0.75);   // d/dmax = 0.5: 1 - 0.25
    QCOMPARE(dome->at(100, 0), 0.75);    // distance, not a per-axis scale: height does not matter
    QCOMPARE(dome->at(0, 50), 0.0);      // d = dmax
    QCOMPARE(dome->at(0, 0), 0.0);       // beyond dmax: 0, never negative
    QCOMPARE(dome->at(-500, 900), 0.0);
    QCOMPARE(falloff("exponent: 1")->at(150, 50), 0.5);
    QCOMPARE(falloff("exponent: 3")->at(150, 50), 0.875);
    QCOMPARE(falloff("exponent: 0.5")->at(125, 50), 0.5);  // fractional: std::pow(0.25, 0.5)
    // with a field wired it multiplies
    FieldPtr scaled = falloff("", constant("c", 0.8));
    QCOMPARE(scaled->at(150, 50), 0.8 * 0.75);
    QCOMPARE(scaled->at(0, 0), 0.0);
}

void TestNoise::mathOperations_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<double>("a");
    QTest::addColumn<QString>("b");  // "wired:V" wires a constant V, "value:V" sets b_value, "" neither
    QTest::addColumn<double>("expected");
    QTest::newRow("add") << "add" << 6.0 << "wired:3" << 9.0;
    QTest::newRow("add b_value") << "add" << 6.0 << "value:-2.5" << 3.5;
    QTest::newRow("add default b") << "add" << 6.0 << "" << 6.0;
    QTest::newRow("subtract") << "subtract" << 6.0 << "wired:3" << 3.0;
    QTest::newRow("multiply") << "multiply" << 6.0 << "value:0.5" << 3.0;
    QTest::newRow("divide") << "divide" << 6.0 << "wired:4" << 1.5;
    QTest::newRow("divide by wired zero") << "divide" << 6.0 << "wired:0" << 0.0;
    QTest::newRow("divide by default b") << "divide" << 6.0 << "" << 0.0;
    QTest::newRow("min") << "min" << 6.0 << "wired:3" << 3.0;
    QTest::newRow("max") << "max" << 6.0 << "value:7" << 7.0;
    QTest::newRow("power") << "power" << 2.0 << "value:10" << 1024.0;
    QTest::newRow("power negative whole") << "power" << -2.0 << "wired:-3" << -0.125;
    QTest::newRow("power fraction") << "power" << 0.25 << "value:0.5" << 0.5;
    QTest::newRow("power no real value") << "power" << -8.0 << "value:0.5" << 0.0;
    QTest::newRow("power zero to negative") << "power" << 0.0 << "value:-1" << 0.0;
    QTest::newRow("one_minus") << "one_minus" << 0.25 << "wired:100" << 0.75;
    QTest::newRow("abs") << "abs" << -0.25 << "" << 0.25;
}

void TestNoise::mathOperations()
{
    QFETCH(QString, op);
    QFETCH(double, a);
    QFETCH(QString, b);
    QFETCH(double, expected);
    std::string nodes = constant("a", a);
    std::string inputs = "a: a", params = "op: " + op.toStdString();
    if (b.startsWith("wired:")) {
        nodes += constant("b", b.mid(6).toDouble());
        inputs += ", b: b";
        params += ", b_value: 1000";  // ignored while b is wired
    } else if (b.startsWith("value:")) {
        params += ", b_value: " + b.mid(6).toStdString();
    }
    nodes += "  m:\n    type: math\n    inputs: {" + inputs + "}\n    params: {" + params + "}\n";
    FieldPtr f = fieldOf(nodes, "m");
    QVERIFY(f);
    QCOMPARE(f->at(12.5, 40), expected);
    double row[3];
    f->sampleRow(0, 1, 0, 3, row);
    QCOMPARE(row[2], expected);
}

void TestNoise::remapIsLinearAndClamps()
{
    auto remap = [](double v, const std::string &params) {
        FieldPtr f = fieldOf(constant("c", v) + "  r:\n    type: remap\n    inputs: {field: c}\n    params: {" + params + "}\n", "r");
        return f ? f->at(1, 2) : -12345.0;
    };
    const std::string range = "in_min: 0.2, in_max: 0.6, out_min: 10, out_max: 20";
    QCOMPARE(remap(0.4, range), 15.0);
    QCOMPARE(remap(0.2, range), 10.0);
    QCOMPARE(remap(0.9, range), 20.0);                       // clamped
    QCOMPARE(remap(0.9, range + ", clamp: false"), 27.5);    // extrapolated
    QCOMPARE(remap(0.0, range + ", clamp: false"), 5.0);
    QCOMPARE(remap(0.25, "out_min: 1, out_max: 0"), 0.75);   // swapped outputs invert
    QCOMPARE(remap(-3, "out_min: 1, out_max: 0"), 1.0);      // and clamp to the same band
    QCOMPARE(remap(0.3, ""), 0.3);                           // the defaults change nothing in [0, 1]
}

void TestNoise::remapRejectsAnEmptyInputRange()
{
    LoadResult r = load(graphText(constant("c", 1) + "  r:\n    type: remap\n    inputs: {field: c}\n"
                                                     "    params: {in_min: 0.5, in_max: 0.5}\n"));
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].path, std::string("nodes.r.params.in_max"));
    QCOMPARE(r.diagnostics[0].message, std::string("param 'in_max': in_max equals in_min (0.5): the input range must not be empty"));
}

namespace {

// rows: a threshold of constant `height` into low/mid/high; columns: of `moisture` into dry/medium/wet.
std::string biomeGraph(double height, double moisture, const std::string &tableParams = "",
                       const std::string &rowLabels = "[low, mid, high]", const std::string &rowCuts = "[0.3, 0.6]")
{
    return constant("height", height) + constant("moisture", moisture)
           + "  bands:\n    type: threshold\n    inputs: {field: height}\n    params: {cuts: " + rowCuts
           + ", labels: " + rowLabels + "}\n"
           + "  wetness:\n    type: threshold\n    inputs: {field: moisture}\n"
             "    params: {cuts: [0.3, 0.6], labels: [dry, medium, wet]}\n"
           + "  biomes:\n    type: biome_table\n    inputs: {rows: bands, columns: wetness}\n"
           + (tableParams.empty() ? "" : "    params: {" + tableParams + "}\n");
}

LabelsPtr labelsOf(const EvalResult &r, const std::string &id)
{
    const PortValue v = r.output(id);
    const auto *l = std::get_if<LabelsPtr>(&v);
    return l ? *l : nullptr;
}

} // namespace

void TestNoise::biomeTableLooksUpRowAndColumn()
{
    // seed 002's Whittaker table is the default
    const char *expected[3][3] = {{"desert", "grassland", "swamp"},
                                  {"scrub", "forest", "rainforest"},
                                  {"bare_rock", "tundra", "snow"}};
    const double level[3] = {0.1, 0.5, 0.9};
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) {
            EvalResult r = run(biomeGraph(level[row], level[col]));
            QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
            LabelsPtr biomes = labelsOf(r, "biomes");
            QVERIFY(biomes);
            QCOMPARE(biomes->names, (std::vector<std::string>{"desert", "grassland", "swamp", "scrub", "forest",
                                                              "rainforest", "bare_rock", "tundra", "snow"}));
            QCOMPARE(biomes->colors.size(), biomes->names.size());
            const int label = biomes->at(10, 10);
            QVERIFY(label >= 0);
            QCOMPARE(biomes->names[static_cast<size_t>(label)], std::string(expected[row][col]));
        }
}

void TestNoise::biomeTableNamesEachBiomeOnce()
{
    // a 2 x 3 table with repeats: the output names are the distinct biomes in first-appearance order
    const std::string table = "table: [sea, sea, beach, sea, forest, forest], columns: 3, "
                              "colors: ['#102030', '#c0b080', '#20602a']";
    const double level[2] = {0.1, 0.9};
    const int expected[2][3] = {{0, 0, 1}, {0, 2, 2}};
    for (int row = 0; row < 2; ++row)
        for (double moisture : {0.1, 0.5, 0.9}) {
            EvalResult r = run(biomeGraph(level[row], moisture, table, "[low, high]", "[0.5]"));
            QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
            LabelsPtr biomes = labelsOf(r, "biomes");
            QCOMPARE(biomes->names, (std::vector<std::string>{"sea", "beach", "forest"}));
            QCOMPARE(biomes->colors[1], (Rgb{0xc0, 0xb0, 0x80}));
            const int col = moisture < 0.3 ? 0 : moisture < 0.6 ? 1 : 2;
            QCOMPARE(biomes->at(3, 4), expected[row][col]);
        }
}

void TestNoise::biomeTableSizeMismatchFailsClearly()
{
    // the default 3 x 3 table against threshold's default four bands
    EvalResult r = run(biomeGraph(0.5, 0.5, "", "[water, sand, grass, rock]", "[0.35, 0.45, 0.7]"));
    QCOMPARE(int(r.status), int(EvalResult::Status::Failed));
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].path, std::string("nodes.biomes"));
    QCOMPARE(r.diagnostics[0].message,
             std::string("node 'biomes' (biome_table): the table has 3 rows (9 names in rows of 3), but the rows "
                         "input has 4 labels (water, sand, grass, rock)"));
    // columns: a 3 x 2 table against three moisture bands
    EvalResult c = run(biomeGraph(0.5, 0.5, "table: [a, b, c, d, e, f], columns: 2"));
    QCOMPARE(int(c.status), int(EvalResult::Status::Failed));
    QCOMPARE(c.diagnostics[0].message,
             std::string("node 'biomes' (biome_table): the table has 2 columns, but the columns input has 3 labels "
                         "(dry, medium, wet)"));
}

void TestNoise::biomeTableParamErrors()
{
    auto firstError = [](const std::string &params) {
        LoadResult r = load(graphText(biomeGraph(0.5, 0.5, params)));
        return r.diagnostics.empty() ? std::string() : r.diagnostics[0].path + ": " + r.diagnostics[0].message;
    };
    QCOMPARE(firstError("table: [a, b, c, d, e, f, g, h]"),
             std::string("nodes.biomes.params.table: param 'table': 8 names do not fill rows of 3 columns: give a "
                         "multiple of 3, row after row"));
    QCOMPARE(firstError("table: []"), std::string("nodes.biomes.params.table: param 'table': the table needs at least one biome"));
    QCOMPARE(firstError("table: [a, b, '']"),
             std::string("nodes.biomes.params.table: param 'table': item 2 is empty: every cell needs a biome name"));
    QVERIFY(firstError("columns: 0").find("nodes.biomes.params.columns: param 'columns': 0 is out of range") == 0);
    QCOMPARE(firstError("colors: ['#ffffff']"),
             std::string("nodes.biomes.params.colors: param 'colors': give one colour per distinct biome (9: desert, "
                         "grassland, swamp, scrub, forest, rainforest, bare_rock, tundra, snow) or none"));
    QCOMPARE(firstError("table: [a, b, c], columns: 3"), std::string());
}

void TestNoise::unknownFractalIsRejected()
{
    LoadResult r = load(graphText(noiseNode("gradient_noise", "fractal: ridge")));
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics[0].message,
             std::string("param 'fractal': 'ridge' is not one of fbm, ridged, billow; did you mean 'ridged'?"));
    LoadResult w = load(graphText(noiseNode("worley_noise", "mode: f2")));
    QVERIFY(!w.ok());
    QVERIFY2(w.diagnostics[0].message.find("param 'mode': 'f2' is not one of f1, f2_minus_f1") == 0,
             w.diagnostics[0].message.c_str());
}

void TestNoise::descriptorsAreComplete()
{
    const std::vector<std::pair<std::string, std::string>> added = {
        {"gradient_noise", "Fields"}, {"simplex_noise", "Fields"}, {"worley_noise", "Fields"},
        {"domain_warp", "Fields"},    {"radial_falloff", "Fields"}, {"math", "Fields"},
        {"remap", "Fields"},          {"biome_table", "Labels & masks"}};
    for (const auto &[type, category] : added) {
        const NodeDescriptor *d = registry().find(type);
        QVERIFY2(d, type.c_str());
        QCOMPARE(d->category, category);
        QVERIFY(!d->displayName.empty() && !d->description.empty());
        QCOMPARE(d->outputs.size(), size_t(1));
        for (const auto &p : d->params) {
            QVERIFY2(!p.description.empty(), (type + "." + p.name).c_str());
            QVERIFY2(!checkParamValue(p, p.defaultValue), (type + "." + p.name).c_str());
        }
        if (d->checkParams) {
            ParamIssues issues;
            d->checkParams(completeParams(*d, {}), issues);
            QVERIFY2(issues.empty(), type.c_str());
        }
    }
    // the catalog order: the new fields follow value_noise, biome_table follows allowed_rule
    const auto ids = registry().typeIds();
    auto pos = [&](const std::string &id) { return std::find(ids.begin(), ids.end(), id) - ids.begin(); };
    QCOMPARE(pos("gradient_noise"), pos("value_noise") + 1);
    QCOMPARE(pos("remap"), pos("value_noise") + 7);
    QCOMPARE(pos("biome_table"), pos("allowed_rule") + 1);
    QCOMPARE(registry().find("gradient_noise")->param("octaves")->max, double(limits::maxOctaves));
}

QTEST_APPLESS_MAIN(TestNoise)
#include "tst_noise.moc"
