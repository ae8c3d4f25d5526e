// The field nodes that turn noise into terrain and biomes: the semantics and error messages of
// domain_warp, radial_falloff, math, remap and biome_table.
#include "tst_noise_support.h"
#include <bit>
#include <cstdint>

using namespace grove;
using namespace grove::test;
using namespace noise_support;

class TestFieldNodes : public QObject
{
    Q_OBJECT

private slots:
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
};

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

void TestFieldNodes::domainWarpShiftsBySampledOffsets()
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

void TestFieldNodes::radialFalloffMakesAnIsland()
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
    // a row (the preview's, four powers at a time) is at()'s values to the bit: through the centre
    // (t = 0), past dmax, fractional and whole exponents, with a field wired and without
    for (const char *params : {"exponent: 1.2", "exponent: 0.5", "exponent: 2", "exponent: 7.3"})
        for (const FieldPtr &f : {falloff(params), falloff(params, constant("c", 0.8))})
            for (double y : {50.0, 13.7, -40.0}) {
                double row[523];
                f->sampleRow(-7.3, 0.4130, y, 523, row);
                for (int i = 0; i < 523; ++i)
                    QVERIFY2(std::bit_cast<std::uint64_t>(row[i]) == std::bit_cast<std::uint64_t>(f->at(-7.3 + i * 0.4130, y)),
                             qPrintable(QStringLiteral("%1, y %2, pixel %3").arg(params).arg(y).arg(i)));
            }
    double centre[5];
    falloff("exponent: 1.2")->sampleRow(98, 1, 50, 5, centre);  // the centre's pixel in a block of four
    QCOMPARE(centre[2], 1.0);
}

void TestFieldNodes::mathOperations_data()
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

void TestFieldNodes::mathOperations()
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

void TestFieldNodes::remapIsLinearAndClamps()
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

void TestFieldNodes::remapRejectsAnEmptyInputRange()
{
    LoadResult r = load(graphText(constant("c", 1) + "  r:\n    type: remap\n    inputs: {field: c}\n"
                                                     "    params: {in_min: 0.5, in_max: 0.5}\n"));
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics.size(), size_t(1));
    QCOMPARE(r.diagnostics[0].path, std::string("nodes.r.params.in_max"));
    QCOMPARE(r.diagnostics[0].message, std::string("param 'in_max': in_max equals in_min (0.5): the input range must not be empty"));
}

void TestFieldNodes::biomeTableLooksUpRowAndColumn()
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

void TestFieldNodes::biomeTableNamesEachBiomeOnce()
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

void TestFieldNodes::biomeTableSizeMismatchFailsClearly()
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

void TestFieldNodes::biomeTableParamErrors()
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

QTEST_APPLESS_MAIN(TestFieldNodes)
#include "tst_field_nodes.moc"
