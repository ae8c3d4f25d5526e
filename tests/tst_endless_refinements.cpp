// Attributes and filters in an endless world: the layer stays endless, and every region asked for
// (the view, an export's region, the chunks of a layer placed after it) gets exactly the points
// and values the whole world would: each kept point is one whose sampled value is in range
// (checked against the field here), a small region's points are the large region's points inside
// it, the layers placed after keep clear of the kept points only (brute force), a finite world
// evaluated by region gives the bytes of the whole (grove-cli's streamed CSV and shards of such a
// layer: tst_cli_chunks).
#include "TestSupport.h"

#include "core/sampling/ChunkedLayer.h"

#include <cmath>
#include <map>

using namespace grove;
using namespace grove::test;

namespace {

std::string wood(const std::string &world)
{
    return "grove: 1\nworld: {" + world + R"(, seed: 5}
nodes:
  moist: {type: value_noise, params: {frequency: 0.01}}
  trees: {type: place_layer, params: {radius: 12, name: oaks}}
  wet: {type: attribute, inputs: {points: trees, field: moist}, params: {name: moisture}}
  keep: {type: filter_points, inputs: {points: wet}, params: {attribute: moisture, range: [0.5, 1]}}
  flowers: {type: place_layer, inputs: {obstacles: keep.all}, params: {radius: 9, seed: 3, name: flowers}}
)";
}

PointLayerPtr layerOf(const EvalResult &r, const std::string &node)
{
    return single(r.output(node, "points"));
}

EvalResult byRegion(const std::string &text)
{
    EvalRequest request;
    request.limits.placeWholeWorld = false;
    return evaluateGraph(graphOf(text), request);
}

std::map<std::uint64_t, std::size_t> indexById(const PointLayer &layer)
{
    std::map<std::uint64_t, std::size_t> out;
    for (std::size_t i = 0; i < layer.points.size(); ++i)
        out[layer.idOf(i)] = i;
    return out;
}

// Same ids in the same order, and the same x, y and attribute values, bit for bit.
bool samePoints(const PointLayer &a, const PointLayer &b)
{
    if (a.points.size() != b.points.size() || a.columns.size() != b.columns.size())
        return false;
    for (std::size_t i = 0; i < a.points.size(); ++i) {
        if (a.idOf(i) != b.idOf(i) || a.points[i].x != b.points[i].x || a.points[i].y != b.points[i].y)
            return false;
        for (std::size_t c = 0; c < a.columns.size(); ++c)
            if (a.columns[c].name != b.columns[c].name || a.columns[c].values[i] != b.columns[c].values[i])
                return false;
    }
    return true;
}

const Region kArea{-300, -200, 300, 250};

} // namespace

class TestEndlessRefinements : public QObject
{
    Q_OBJECT

private slots:
    void everyRegionGetsTheValuesAndTheFilterOfTheWhole()
    {
        const EvalResult r = evaluateText(wood("chunk: 100"));
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const FieldPtr moist = outputOf<FieldPtr>(r, "moist");
        QVERIFY(moist);
        QVERIFY(layerOf(r, "keep") && layerOf(r, "keep")->lazy && layerOf(r, "keep")->points.empty());

        const auto trees = layerInRegion(*layerOf(r, "trees"), kArea, 1);
        const auto wet = layerInRegion(*layerOf(r, "wet"), kArea, 1);
        const auto kept = layerInRegion(*layerOf(r, "keep"), kArea, 2);
        QVERIFY(trees && wet && kept);
        QVERIFY(trees->points.size() > 500);
        // the attribute: every tree, each with the field's value at it
        QCOMPARE(wet->ids, trees->ids);
        QCOMPARE(wet->columns.size(), std::size_t(1));
        QCOMPARE(wet->columns[0].name, std::string("moisture"));
        for (std::size_t i = 0; i < trees->points.size(); ++i)
            QCOMPARE(wet->columns[0].values[i], moist->at(trees->points[i].x, trees->points[i].y));
        // the filter: exactly the trees whose value is in [0.5, 1], in order, with their values
        std::vector<std::uint64_t> expected;
        for (std::size_t i = 0; i < trees->points.size(); ++i) {
            const double v = moist->at(trees->points[i].x, trees->points[i].y);
            if (v >= 0.5 && v <= 1)
                expected.push_back(trees->idOf(i));
        }
        QCOMPARE(kept->ids, expected);
        QVERIFY(kept->points.size() > 50 && kept->points.size() + 50 < trees->points.size());
        QCOMPARE(kept->info.name, std::string("oaks"));
        for (std::size_t i = 0; i < kept->points.size(); ++i)
            QCOMPARE(kept->columns[0].values[i], moist->at(kept->points[i].x, kept->points[i].y));

        // a small region across chunk borders: the large region's points inside it, asked first
        // from a fresh evaluation, so no chunk is shared with the run above
        const Region small{-50, -60, 130, 90};
        const EvalResult fresh = evaluateText(wood("chunk: 100"));
        const auto part = layerInRegion(*layerOf(fresh, "keep"), small, 1);
        QVERIFY(part && !part->points.empty());
        std::vector<char> inside(kept->points.size());
        for (std::size_t i = 0; i < inside.size(); ++i)
            inside[i] = small.contains(kept->points[i].x, kept->points[i].y) ? 1 : 0;
        QVERIFY(samePoints(*part, *kept->subset(inside)));
    }

    void theLayersAfterAFilterKeepClearOfTheKeptPointsOnly()
    {
        const EvalResult r = evaluateText(wood("chunk: 100"));
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const auto trees = layerInRegion(*layerOf(r, "trees"), kArea, 1);
        const auto kept = layerInRegion(*layerOf(r, "keep"), kArea, 1);
        const auto flowers = layerInRegion(*layerOf(r, "flowers"), kArea, 2);
        QVERIFY(trees && kept && flowers && flowers->points.size() > 500);
        const auto isKept = indexById(*kept);
        int nearKept = 0, nearDropped = 0, flowerPairs = 0;
        for (const PointXYR &f : flowers->points) {
            for (std::size_t i = 0; i < trees->points.size(); ++i) {
                const double d = std::hypot(f.x - trees->points[i].x, f.y - trees->points[i].y);
                if (d < 9)  // the smaller of the two radii
                    ++(isKept.count(trees->idOf(i)) ? nearKept : nearDropped);
            }
        }
        for (std::size_t a = 0; a < flowers->points.size(); ++a)
            for (std::size_t b = a + 1; b < flowers->points.size(); ++b)
                if (std::hypot(flowers->points[a].x - flowers->points[b].x, flowers->points[a].y - flowers->points[b].y) < 9)
                    ++flowerPairs;
        QCOMPARE(nearKept, 0);
        QCOMPARE(flowerPairs, 0);
        // the trees the filter dropped are not obstacles: flowers grow among them
        QVERIFY2(nearDropped > 100, std::to_string(nearDropped).c_str());
    }

    // A finite chunked world evaluated by region (grove-cli's streamed export, the C API) keeps
    // the refined layers lazy: the points and values are those of the world placed whole.
    void aFiniteWorldByRegionGivesTheWholeWorldsPoints()
    {
        const std::string text = wood("width: 500, height: 400, chunk: 100");
        const EvalResult whole = evaluateText(text);
        const EvalResult lazy = byRegion(text);
        QVERIFY2(whole.ok() && lazy.ok(), (formatAll(whole.diagnostics) + formatAll(lazy.diagnostics)).c_str());
        QVERIFY(layerOf(lazy, "keep")->lazy && !layerOf(whole, "keep")->lazy);
        const Region world{0, 0, 500, 400};
        for (const char *node : {"wet", "keep", "flowers"}) {
            const auto placed = layerInRegion(*layerOf(lazy, node), world, 1);
            QVERIFY(placed && !placed->points.empty());
            QVERIFY2(samePoints(*placed, *layerOf(whole, node)), node);
        }
    }

    void whatCannotTakeAnEndlessLayerIsToldWhereItIsWired()
    {
        for (const char *wire : {"keep", "keep.all", "wet"}) {
            const LoadResult refused = load(wood("chunk: 100") + "  d: {type: distance, inputs: {points: " + wire + "}}\n");
            QVERIFY(!refused.ok());
            const std::string text = formatAll(refused.diagnostics);
            QVERIFY2(text.find("nodes.d.inputs.points") != std::string::npos
                         && text.find("only these nodes can take them: ") != std::string::npos
                         && text.find("filter_points") != std::string::npos,
                     text.c_str());
            QVERIFY2(text.find("nodes.keep") == std::string::npos && text.find("nodes.wet") == std::string::npos, text.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestEndlessRefinements)
#include "tst_endless_refinements.moc"
