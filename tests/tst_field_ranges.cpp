// What a field, labels or mask can be over a whole rectangle (Field::rangeIn, Labels::labelsIn,
// Mask::over): placement skips the allowed area's evaluation wherever a tile is decided, so a
// bound that is wrong anywhere moves points. The bounds are checked against the values at() gives
// inside thousands of rectangles, and the placement through them against the placement that asks
// the mask at every spot.
#include "TestSupport.h"

#include "core/sampling/OccupancyGrid.h"
#include "core/sampling/PoissonPlacement.h"

#include <cmath>
#include <random>

using namespace grove;
using namespace grove::test;

class TestFieldRanges : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void fieldsStayInTheirRanges();
    void labelsAreAmongThosePossible();
    void decidedMasksAnswerAsTheMaskDoes();
    void erasedAndKeptOutAreasDecideAsTheyAnswer();
    void placementIsTheSameAsAskingAtEverySpot_data();
    void placementIsTheSameAsAskingAtEverySpot();

private:
    EvalResult m_island;
};

namespace {

// A mask that only answers spot by spot: what placement did before the tiles.
class SpotOnlyMask final : public Mask
{
public:
    explicit SpotOnlyMask(MaskPtr mask) : m_mask(std::move(mask)) {}
    bool at(double x, double y) const override { return m_mask->at(x, y); }

private:
    MaskPtr m_mask;
};

template <class T>
T portOf(const EvalResult &r, const std::string &node)
{
    const PortValue v = r.output(node);
    const T *p = std::get_if<T>(&v);
    return p ? *p : T{};
}

// Rectangles from a hundredth of a unit to a few hundred across, in and around island_world (and
// across the lattice lines of every octave), each with the spots to check: its corners, the
// middles of its edges and random spots inside.
struct Probe
{
    Region area;
    std::vector<std::pair<double, double>> spots;
};

std::vector<Probe> probes(int count, std::uint64_t seed, double maxSide = 400)
{
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<Probe> out;
    for (int i = 0; i < count; ++i) {
        const double w = std::exp(std::log(0.01) + unit(random) * std::log(maxSide / 0.01));
        const double h = w * (0.25 + 1.5 * unit(random));
        const double x0 = -120 + unit(random) * 1120, y0 = -120 + unit(random) * 720;
        Probe p{{x0, y0, x0 + w, y0 + h}, {}};
        for (double fx : {0.0, 0.5, 1.0})
            for (double fy : {0.0, 0.5, 1.0})
                p.spots.emplace_back(x0 + fx * w, y0 + fy * h);
        for (int s = 0; s < 40; ++s)
            p.spots.emplace_back(x0 + unit(random) * w, y0 + unit(random) * h);
        out.push_back(std::move(p));
    }
    return out;
}

std::string where(const Probe &p, double x, double y)
{
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ") in [" + std::to_string(p.area.x0) + ", "
           + std::to_string(p.area.x1) + "] x [" + std::to_string(p.area.y0) + ", " + std::to_string(p.area.y1) + "]";
}

} // namespace

void TestFieldRanges::initTestCase()
{
    m_island = evaluateText(readFile(sourceDir() + "/presets/island_world.grove.yaml"));
    QVERIFY2(m_island.ok(), formatAll(m_island.diagnostics).c_str());
}

void TestFieldRanges::fieldsStayInTheirRanges()
{
    std::vector<std::pair<std::string, FieldPtr>> fields;
    for (const char *id : {"height_noise", "height", "moisture"})
        fields.emplace_back(id, portOf<FieldPtr>(m_island, id));
    // value noise far from island_world's settings: many cells a rectangle, frequencies that stop
    // growing (lacunarity 0) or shrink, octaves that weigh more than the first
    const std::vector<ValueMap> settings = {
        {{"frequency", Value(3.7)}, {"octaves", Value(7.0)}},
        {{"frequency", Value(0.05)}, {"octaves", Value(3.0)}, {"lacunarity", Value(0.0)}, {"seed", Value(-5.0)}},
        {{"frequency", Value(0.02)}, {"octaves", Value(6.0)}, {"lacunarity", Value(0.6)}, {"persistence", Value(1.7)}},
        {{"frequency", Value(0.3)}, {"octaves", Value(1.0)}, {"persistence", Value(0.0)}},
    };
    for (const ValueMap &params : settings) {
        NodeRun run = evaluateNode("value_noise", params, {});
        QVERIFY2(run.error.empty(), run.error.c_str());
        fields.emplace_back("value_noise " + std::to_string(fields.size()), std::get<FieldPtr>(run.output));
    }
    // fields made from others: remap (rising and falling, clamped or not), math, a constant
    const EvalResult composed = evaluateText(
        "grove: 1\nworld: {width: 880, height: 480, seed: 4}\nnodes:\n"
        "  n:\n    type: value_noise\n    params: {frequency: 0.01, octaves: 3}\n"
        "  m:\n    type: value_noise\n    params: {frequency: 0.03, seed: 2}\n"
        "  up:\n    type: remap\n    inputs: {field: n}\n    params: {in_min: 0.2, in_max: 0.7, out_min: -3, out_max: 5, clamp: false}\n"
        "  down:\n    type: remap\n    inputs: {field: m}\n    params: {in_min: 0, in_max: 1, out_min: 2, out_max: -1}\n"
        "  c:\n    type: constant\n    params: {value: 0.25}\n"
        "  sum:\n    type: math\n    inputs: {a: up, b: down}\n    params: {op: add}\n"
        "  diff:\n    type: math\n    inputs: {a: up, b: down}\n    params: {op: subtract}\n"
        "  prod:\n    type: math\n    inputs: {a: up, b: down}\n    params: {op: multiply}\n"
        "  low:\n    type: math\n    inputs: {a: n, b: m}\n    params: {op: min}\n"
        "  high:\n    type: math\n    inputs: {a: n, b: c}\n    params: {op: max}\n"
        "  flip:\n    type: math\n    inputs: {a: prod}\n    params: {op: one_minus}\n"
        "  size:\n    type: math\n    inputs: {a: diff}\n    params: {op: abs}\n");
    QVERIFY2(composed.ok(), formatAll(composed.diagnostics).c_str());
    for (const char *id : {"up", "down", "c", "sum", "diff", "prod", "low", "high", "flip", "size"})
        fields.emplace_back(id, portOf<FieldPtr>(composed, id));
    for (const auto &[name, field] : fields) {
        int known = 0, narrow = 0;
        for (const Probe &p : probes(1500, 11)) {
            const FieldRange r = field->rangeIn(p.area);
            QVERIFY2(r.lo <= r.hi, (name + ": an empty range over " + where(p, p.area.x0, p.area.y0)).c_str());
            known += r.known() ? 1 : 0;
            narrow += r.hi - r.lo < 0.5 ? 1 : 0;
            for (const auto &[x, y] : p.spots) {
                const double v = field->at(x, y);
                if (!(r.lo <= v && v <= r.hi))
                    QFAIL((name + ": " + std::to_string(v) + " at " + where(p, x, y) + " is outside its range ["
                           + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]").c_str());
            }
        }
        // a bound that knew nothing would hold too: these fields are bounded, small areas tightly
        QVERIFY2(known == 1500, (name + ": " + std::to_string(known) + " of 1500 ranges known").c_str());
        QVERIFY2(narrow > 40, (name + ": only " + std::to_string(narrow) + " of 1500 ranges narrower than 0.5").c_str());
    }
}

void TestFieldRanges::labelsAreAmongThosePossible()
{
    for (const char *id : {"height_bands", "wet_bands", "ground"}) {
        const LabelsPtr labels = portOf<LabelsPtr>(m_island, id);
        QVERIFY(labels);
        int single = 0;
        for (const Probe &p : probes(1500, 12)) {
            const std::uint64_t possible = labels->labelsIn(p.area);
            single += std::has_single_bit(possible) ? 1 : 0;
            for (const auto &[x, y] : p.spots) {
                const int l = labels->at(x, y);
                const std::uint64_t bit = l >= 0 && l < 63 ? std::uint64_t(1) << l : Labels::kOtherLabels;
                if (!(possible & bit))
                    QFAIL((std::string(id) + ": label " + std::to_string(l) + " at " + where(p, x, y)
                           + " is not among those possible").c_str());
            }
        }
        QVERIFY2(single > 500, (std::string(id) + ": only " + std::to_string(single) + " of 1500 areas have one label").c_str());
    }
}

void TestFieldRanges::decidedMasksAnswerAsTheMaskDoes()
{
    for (const char *id : {"land", "shore_and_land", "forest", "meadow"}) {
        const MaskPtr mask = portOf<MaskPtr>(m_island, id);
        QVERIFY(mask);
        int yes = 0, no = 0;
        for (const Probe &p : probes(2000, 13, 40)) {
            const MaskOver over = mask->over(p.area);
            yes += over == MaskOver::AllTrue ? 1 : 0;
            no += over == MaskOver::AllFalse ? 1 : 0;
            if (over == MaskOver::Mixed)
                continue;
            for (const auto &[x, y] : p.spots)
                if (mask->at(x, y) != (over == MaskOver::AllTrue))
                    QFAIL((std::string(id) + " at " + where(p, x, y) + " is not what the area was decided to be").c_str());
        }
        // small areas of island_world are mostly one thing or the other: sea, forest, meadow
        QVERIFY2(yes > 100 && no > 400, (std::string(id) + ": " + std::to_string(yes) + " areas all allowed, "
                                         + std::to_string(no) + " none, of 2000").c_str());
    }
}

// A layer's allowed area after its hand edits (erased areas) and the houses it keeps its own
// radius from: decided only away from them, and then as the allowed area is.
void TestFieldRanges::erasedAndKeptOutAreasDecideAsTheyAnswer()
{
    std::string island = readFile(sourceDir() + "/presets/island_world.grove.yaml");
    const std::string flowers = "      sprite: flower\n";
    QVERIFY(island.find(flowers) != std::string::npos);
    island.replace(island.find(flowers), flowers.size(),
                   flowers + "      erase: [{circle: [300, 200, 40]}, {polygon: [[500, 100], [620, 130], [560, 260]]}]\n");
    const EvalResult edited = evaluateText(island);
    QVERIFY2(edited.ok(), formatAll(edited.diagnostics).c_str());
    // valley's rocks keep their radius from its hand-placed houses; here they grow on a noise
    // rule (which bounds itself), and a small erased circle far from the middle makes their
    // area the layer's output (grownIn)
    std::string valleyText = readFile(sourceDir() + "/presets/valley.grove.yaml");
    for (std::size_t at; (at = valleyText.find("path: valley/")) != std::string::npos;)
        valleyText.replace(at, 13, "path: " + sourceDir() + "/presets/valley/");
    const std::size_t rocks = valleyText.find("  rocks:\n");
    const std::size_t steep = valleyText.find("      allowed: steep\n", rocks);
    QVERIFY(rocks != std::string::npos && steep != std::string::npos);
    valleyText.replace(steep, 21, "      allowed: patchy\n");
    valleyText.insert(valleyText.find("    params:\n", rocks) + 12, "      erase: [{circle: [5, 5, 2]}]\n");
    valleyText.insert(rocks, "  patch_noise:\n    type: value_noise\n    params: {frequency: 0.01}\n"
                             "  patchy:\n    type: allowed_rule\n    inputs: {field: patch_noise}\n    params: {min: 0.5}\n");
    const EvalResult valley = evaluateText(valleyText);
    QVERIFY2(valley.ok(), formatAll(valley.diagnostics).c_str());
    std::vector<std::pair<std::string, MaskPtr>> masks;
    masks.emplace_back("island_world's erased flowers", single(edited.output("flowers"))->grownIn);
    masks.emplace_back("valley's rocks, kept from its houses", single(valley.output("rocks"))->grownIn);
    for (const auto &[name, mask] : masks) {
        QVERIFY2(mask, name.c_str());
        int decided = 0;
        for (const Probe &p : probes(3000, 14, 30)) {
            const MaskOver over = mask->over(p.area);
            if (over == MaskOver::Mixed)
                continue;
            ++decided;
            for (const auto &[x, y] : p.spots)
                if (mask->at(x, y) != (over == MaskOver::AllTrue))
                    QFAIL((name + " at " + where(p, x, y) + " is not what the area was decided to be").c_str());
        }
        QVERIFY2(decided > 300, (name + ": " + std::to_string(decided) + " of 3000 areas decided").c_str());
    }
    // and the erased flowers are placed as the spot-by-spot mask places them
    const MaskPtr erased = masks.front().second;
    const SpotOnlyMask spotOnly(erased);
    for (const Mask *allowed : {erased.get(), static_cast<const Mask *>(&spotOnly)}) {
        static std::vector<PointXYR> first;
        PlacementSettings s;
        s.width = 880;
        s.height = 480;
        s.radius = 3;
        s.seed = 3;
        s.allowed = allowed;
        OccupancyGrid grid(s.width, s.height, s.radius / std::sqrt(2.0));
        std::vector<PointXYR> points;
        placePoisson(s, grid, points);
        if (allowed == erased.get()) {
            first = points;
            continue;
        }
        QCOMPARE(points.size(), first.size());
        for (std::size_t i = 0; i < points.size(); ++i)
            QVERIFY(points[i].x == first[i].x && points[i].y == first[i].y);
    }
}

void TestFieldRanges::placementIsTheSameAsAskingAtEverySpot_data()
{
    QTest::addColumn<double>("radius");
    QTest::addColumn<bool>("fast");
    QTest::addColumn<bool>("corner");  // a chunk's area: a corner of its own, not the world's
    QTest::newRow("r 6") << 6.0 << false << false;
    QTest::newRow("r 2.5") << 2.5 << false << false;
    QTest::newRow("r 1.3 fast") << 1.3 << true << false;
    QTest::newRow("r 3 in an area from (137.5, 61.25)") << 3.0 << false << true;
}

void TestFieldRanges::placementIsTheSameAsAskingAtEverySpot()
{
    QFETCH(double, radius);
    QFETCH(bool, fast);
    QFETCH(bool, corner);
    const MaskPtr meadow = portOf<MaskPtr>(m_island, "meadow");
    const SpotOnlyMask spotOnly(meadow);
    auto place = [&](const Mask *allowed, PlacementTally &tally) {
        PlacementSettings s;
        s.width = corner ? 600 : 880;
        s.height = corner ? 333 : 480;
        s.x0 = corner ? 137.5 : 0;
        s.y0 = corner ? 61.25 : 0;
        s.radius = radius;
        s.seed = 3;
        s.method = fast ? PlacementMethod::Fast : PlacementMethod::Tutorial;
        s.allowed = allowed;
        OccupancyGrid grid(s.width, s.height, radius / std::sqrt(2.0), s.x0, s.y0);
        std::vector<PointXYR> points;
        PlacementControl control;
        control.tally = &tally;
        placePoisson(s, grid, points, control);
        return points;
    };
    PlacementTally tiled, spots;
    const std::vector<PointXYR> a = place(meadow.get(), tiled), b = place(&spotOnly, spots);
    QVERIFY(a.size() > 500);
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].r != b[i].r)
            QFAIL(("point " + std::to_string(i) + " moved").c_str());
    QCOMPARE(tiled.candidates, spots.candidates);
    QCOMPARE(tiled.notAllowed, spots.notAllowed);
}

QTEST_GUILESS_MAIN(TestFieldRanges)
#include "tst_field_ranges.moc"
