// Filter points and layer tags: the kept points are exactly those that pass the attribute range,
// the types and the mask (checked against values and shapes written here), exported in the
// source's place with its ids; the layers placed after keep clear of the kept points only; tags
// choose which obstacle layers pass on; shards merge to the whole; bad params are located errors.
#include "CliRun.h"
#include "TestSupport.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <set>

using namespace grove;
using namespace grove::test;

namespace {

// Left of x = 15: a mask whose answer is known without Grove's code.
class LeftHalf : public Mask
{
public:
    bool at(double x, double) const override { return x < 15; }
};

PointLayerPtr typedLayer()
{
    auto layer = std::make_shared<PointLayer>();
    layer->info.name = "stones";
    layer->info.nodeId = "stones";
    layer->info.types = {{"granite", 1}, {"slate", 1}};
    layer->info.attributeSeed = 4;
    for (int i = 0; i < 40; ++i)
        layer->points.push_back({i * 0.75, 3.0 + (i % 7), 0.5});
    layer->columns.push_back({"wet", {}});
    for (int i = 0; i < 40; ++i)
        layer->columns[0].values.push_back(i / 40.0);
    return layer;
}

// rocks (tagged solid), trees with moisture, the wet trees kept, flowers after them.
const char *kWood = R"(grove: 1
world: {width: 500, height: 400, seed: 21}
nodes:
  moist: {type: value_noise, params: {frequency: 0.015}}
  rocks: {type: place_layer, params: {radius: 45, tags: [solid, grey]}}
  trees: {type: place_layer, inputs: {obstacles: rocks.all}, params: {radius: 14, name: oaks, seed: 2}}
  wet: {type: attribute, inputs: {points: trees, field: moist}, params: {name: moisture}}
  keep: {type: filter_points, inputs: {points: wet, obstacles: rocks.all}, params: {attribute: moisture, range: [0.5, 1]}}
  flowers: {type: place_layer, inputs: {obstacles: keep.all}, params: {radius: 14, seed: 3}}
)";

double distance(const PointXYR &a, const PointXYR &b) { return std::hypot(a.x - b.x, a.y - b.y); }

std::map<std::uint64_t, PointXYR> byId(const PointLayer &layer)
{
    std::map<std::uint64_t, PointXYR> out;
    for (std::size_t i = 0; i < layer.points.size(); ++i)
        out[layer.idOf(i)] = layer.points[i];
    return out;
}

// A problem at `path` saying `words`; a loader's (`located`) also with its line in the file.
bool hasProblem(const Diagnostics &ds, const std::string &path, const std::string &words, bool located = true)
{
    for (const Diagnostic &d : ds)
        if (d.path == path && d.message.find(words) != std::string::npos && (!located || d.line > 0))
            return true;
    return false;
}

Diagnostics problemsOf(const std::string &text)
{
    LoadResult loaded = load(text);
    if (!loaded.ok())
        return loaded.diagnostics;
    return evaluateGraph(loaded.graph).diagnostics;
}

std::string wood(const std::string &from, const std::string &to)
{
    std::string text = kWood;
    text.replace(text.find(from), from.size(), to);
    return text;
}

} // namespace

class TestFilterPoints : public QObject
{
    Q_OBJECT

private slots:
    // Each point is kept exactly when its value is in [low, high], its type is named and it lies
    // in the mask; invert keeps the rest. Ids, values and positions come through unchanged.
    void keptPointsAreExactlyThoseThatPass()
    {
        const PointLayerPtr source = typedLayer();
        const auto mask = std::make_shared<LeftHalf>();
        for (const bool invert : {false, true}) {
            const NodeRun run = evaluateNode("filter_points",
                                             {{"attribute", Value(std::string("wet"))}, {"range", Value(ValueList{0.25, 0.75})},
                                              {"types", Value(ValueList{std::string("slate")})}, {"invert", Value(invert)}},
                                             {{"points", setOf(source)}, {"mask", MaskPtr(mask)}});
            QVERIFY2(run.error.empty(), run.error.c_str());
            const PointLayerPtr out = single(run.output);
            QVERIFY(out);
            std::set<std::uint64_t> expected;
            for (std::size_t i = 0; i < source->points.size(); ++i) {
                const double wet = i / 40.0;
                const bool slate = source->attributes(i).type == 1;
                if ((wet >= 0.25 && wet <= 0.75 && slate && source->points[i].x < 15) != invert)
                    expected.insert(i);
            }
            QVERIFY(expected.size() >= 3 && expected.size() < source->points.size());
            QCOMPARE(out->points.size(), expected.size());
            for (std::size_t k = 0; k < out->points.size(); ++k) {
                const std::uint64_t id = out->idOf(k);
                QVERIFY(expected.count(id));
                QCOMPARE(out->points[k].x, source->points[id].x);
                QCOMPARE(out->columns[0].values[k], id / 40.0);
                QCOMPARE(out->attributes(id).type, source->attributes(id).type);  // types and turns stay the point's
            }
            QCOMPARE(out->info.name, std::string("stones"));
        }
    }

    // The kept trees are exported under the source's name, in its place, with the source's ids,
    // and are exactly the trees whose moisture is in range; the JSON lists the rocks' tags.
    void theKeptLayerTakesTheSourcesPlace()
    {
        const Graph graph = graphOf(kWood);
        QCOMPARE(exportedLayers(graph, registry()), (std::vector<std::string>{"rocks", "keep", "flowers"}));
        const EvalResult r = evaluateGraph(graph);
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const PointLayerPtr all = single(r.output("wet", "points")), kept = single(r.output("keep", "points"));
        QVERIFY(all && kept);
        std::size_t expected = 0;
        for (double v : all->columns[0].values)
            expected += v >= 0.5 && v <= 1;
        QCOMPARE(kept->points.size(), expected);
        QVERIFY(expected > 10 && expected < all->points.size());
        const auto doc = nlohmann::ordered_json::parse(exportJson(graph, "wood.grove.yaml"));
        QCOMPARE(doc["layers"][1]["name"].get<std::string>(), std::string("oaks"));
        QCOMPARE(doc["layers"][1]["count"].get<std::size_t>(), expected);
        const auto ids = byId(*all);
        for (const auto &p : doc["layers"][1]["points"]) {
            QVERIFY(p["attributes"]["moisture"].get<double>() >= 0.5);
            const auto it = ids.find(p["id"].get<std::uint64_t>());
            QVERIFY(it != ids.end());
            QCOMPARE(p["x"].get<double>(), it->second.x);
        }
        QCOMPARE(doc["layers"][0]["tags"], nlohmann::ordered_json::parse(R"(["solid", "grey"])"));
        QVERIFY(!doc["layers"][1].contains("tags") && !doc["layers"][2].contains("tags"));
    }

    // Flowers placed after the filter keep their distance from the rocks and the kept trees, and
    // grow where dry trees stood: the trees filtered out are no obstacle.
    void laterLayersKeepClearOfTheKeptPointsOnly()
    {
        const EvalResult r = evaluateGraph(graphOf(kWood));
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const PointLayerPtr rocks = single(r.output("rocks", "points")), trees = single(r.output("trees", "points"));
        const PointLayerPtr kept = single(r.output("keep", "points")), flowers = single(r.output("flowers", "points"));
        QVERIFY(rocks && trees && kept && flowers);
        const std::set<std::uint64_t> keptIds = [&] {
            std::set<std::uint64_t> s;
            for (std::size_t i = 0; i < kept->points.size(); ++i)
                s.insert(kept->idOf(i));
            return s;
        }();
        std::size_t nearDryTree = 0;
        for (const PointXYR &f : flowers->points) {
            for (const PointXYR &rock : rocks->points)
                QVERIFY(distance(f, rock) >= std::min(f.r, rock.r));
            for (std::size_t i = 0; i < trees->points.size(); ++i) {
                const double d = distance(f, trees->points[i]);
                if (keptIds.count(trees->idOf(i)))
                    QVERIFY(d >= 14);
                else if (d < 14)
                    ++nearDryTree;
            }
        }
        QVERIFY2(nearDryTree > 10, std::to_string(nearDryTree).c_str());
    }

    // A filter of obstacles alone passes on the layers carrying a tag it names: grass keeps off
    // the solid rocks and not off the flowers, and the filter adds no layer to the exports.
    void tagsChooseTheObstaclesThatPassOn()
    {
        const Graph graph = graphOf(R"(grove: 1
world: {width: 400, height: 400, seed: 8}
nodes:
  rocks: {type: place_layer, params: {radius: 40, tags: [solid]}}
  flowers: {type: place_layer, inputs: {obstacles: rocks.all}, params: {radius: 16, seed: 2, tags: [soft]}}
  solid: {type: filter_points, inputs: {obstacles: flowers.all}, params: {tags: [solid]}}
  grass: {type: place_layer, inputs: {obstacles: solid.all}, params: {radius: 16, seed: 5}}
)");
        QCOMPARE(exportedLayers(graph, registry()), (std::vector<std::string>{"rocks", "flowers", "grass"}));
        const EvalResult r = evaluateGraph(graph);
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const PortValue solid = r.output("solid", "all");
        const auto *chain = std::get_if<PointSetPtr>(&solid);
        QVERIFY(chain && *chain);
        QCOMPARE((*chain)->layers.size(), std::size_t(1));
        QCOMPARE((*chain)->layers[0]->info.name, std::string("rocks"));
        const PointLayerPtr rocks = single(r.output("rocks", "points")), flowers = single(r.output("flowers", "points"));
        const PointLayerPtr grass = single(r.output("grass", "points"));
        std::size_t onFlowers = 0;
        for (const PointXYR &g : grass->points) {
            for (const PointXYR &rock : rocks->points)
                QVERIFY(distance(g, rock) >= 16);
            for (const PointXYR &f : flowers->points)
                onFlowers += distance(g, f) < 16;
        }
        QVERIFY2(onFlowers > 20, std::to_string(onFlowers).c_str());
        const auto doc = nlohmann::json::parse(exportJson(graph, "tags.grove.yaml"));
        QCOMPARE(doc["layers"].size(), std::size_t(3));
    }

    // A chunked world's kept layer (placed whole) comes out of two shards and their merge as
    // from the whole run, tags line and all.
    void shardsOfATaggedFilteredWorldMergeToTheWhole()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string at = dir.path().toStdString() + "/";
        writeFile(at + "c.grove.yaml", wood("seed: 21}", "seed: 21, chunk: 256}"));
        const QString graph = q(at + "c.grove.yaml");
        QCOMPARE(cli({"eval", graph, "-o", q(at + "whole.json"), "--quiet"}).code, 0);
        QCOMPARE(cli({"eval", graph, "--shard", "0/2", "-o", q(at + "p0.json"), "--quiet"}).code, 0);
        QCOMPARE(cli({"eval", graph, "--shard", "1/2", "-o", q(at + "p1.json"), "--quiet"}).code, 0);
        const Run merge = cli({"merge", q(at + "p0.json"), q(at + "p1.json"), "-o", q(at + "merged.json")});
        QVERIFY2(merge.code == 0, merge.err.c_str());
        const std::string whole = readFile(at + "whole.json");
        QCOMPARE(readFile(at + "merged.json"), whole);
        QVERIFY(whole.find("      \"tags\": [\"solid\", \"grey\"],\n") != std::string::npos);
    }

    void badParamsAreLocatedErrors()
    {
        QVERIFY(hasProblem(problemsOf(wood("attribute: moisture,", "attribute: dampness,")), "nodes.keep.params.attribute",
                           "layer 'oaks' has no attribute 'dampness' (its attributes: moisture)", false));
        QVERIFY(hasProblem(problemsOf(wood("range: [0.5, 1]}", "types: [elm]}")), "nodes.keep.params.types",
                           "layer 'oaks' has no type 'elm' (its types: oaks)", false));
        QVERIFY(hasProblem(problemsOf(wood("range: [0.5, 1]}", "types: [oaks, oaks]}")), "nodes.keep.params.types",
                           "names 'oaks' twice"));
        QVERIFY(hasProblem(problemsOf(wood("tags: [solid, grey]", "tags: [Solid!]")), "nodes.rocks.params.tags",
                           "may hold only a-z, 0-9, _ and -"));
        QVERIFY(hasProblem(problemsOf(wood("tags: [solid, grey]", "tags: [solid, solid]")), "nodes.rocks.params.tags",
                           "given twice"));
        std::string many = "tags: [";
        for (int i = 0; i < 17; ++i)
            many += (i ? ", t" : "t") + std::to_string(i);
        QVERIFY(hasProblem(problemsOf(wood("tags: [solid, grey]", many + "]")), "nodes.rocks.params.tags", "at most 16 tags"));
        QVERIFY(hasProblem(problemsOf(wood("inputs: {points: wet, obstacles: rocks.all}", "inputs: {points: rocks.all}")),
                           "nodes.keep.inputs.points", "takes one layer's own points"));
    }
};

QTEST_APPLESS_MAIN(TestFilterPoints)
#include "tst_filter_points.moc"
