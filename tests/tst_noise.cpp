// The noise nodes: ranges, smoothness, seed independence, rows equal to points on every vector
// path, pinned values, and the world's seed added to a node's. The field nodes built on them
// (domain_warp, radial_falloff, math, remap, biome_table): tst_field_nodes.
#include "tst_noise_support.h"

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
    void randomFloatsInBatchesAreTheDraws();
    void unknownFractalIsRejected();
    void descriptorsAreComplete();
};

using namespace noise_support;

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

// The stream's floats in batches of every size (the AVX2 lanes' eight chains, the four scalar
// chains, the single draws after them), on both paths, against the tutorial's generator written
// out here: state = state * 16807 % 2147483647, then (state - 1) / 2147483646.
void TestNoise::randomFloatsInBatchesAreTheDraws()
{
    for (bool simd : {true, false}) {
        setRandomSimd(simd);
        for (std::int32_t seed : {1, 7, -5, 2147483646, 123456789}) {
            SeededRandom random(seed);
            std::int64_t state = seed % 2147483647;
            if (state <= 0)
                state += 2147483646;
            std::size_t drawn = 0;
            for (std::size_t n : {0, 1, 7, 8, 15, 16, 17, 23, 24, 31, 100, 512, 1000, 3}) {
                std::vector<double> batch(n);
                random.fillFloats(batch.data(), n);
                for (std::size_t i = 0; i < n; ++i, ++drawn) {
                    state = state * 16807 % 2147483647;
                    const double want = static_cast<double>(state - 1) / 2147483646.0;
                    QVERIFY2(batch[i] == want, qPrintable(QStringLiteral("seed %1, draw %2 (a batch of %3, simd %4)")
                                                              .arg(seed).arg(drawn).arg(n).arg(simd)));
                }
                QCOMPARE(random.state(), state);  // the next batch carries on from here
            }
        }
    }
    setRandomSimd(true);
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
