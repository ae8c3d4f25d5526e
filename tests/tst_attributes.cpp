// Store attribute: a field sampled at every point of a layer as a named value, held to the field
// called at each exported x, y (z in a volume), chained, exported in the source layer's place
// (never twice, never reordered), and refused with located errors for bad names and wiring.
#include "CliRun.h"
#include "TestSupport.h"

#include "core/analysis/LayerStats.h"
#include "core/formats/PointsExport.h"
#include "core/render/PreviewRenderer.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace grove;
using namespace grove::test;

namespace {

// A plain field written here: its value at any point is known without Grove's code.
class Plane : public Field
{
public:
    double at(double x, double y) const override { return 0.25 * x - 3 * y + 7; }
    double at3(double x, double y, double z) const override { return at(x, y) + 1000 * z; }
};

PointLayerPtr handLayer(bool volume)
{
    auto layer = std::make_shared<PointLayer>();
    layer->info.name = "stones";
    layer->info.nodeId = "stones";
    layer->info.volume = volume;
    layer->points = {{10, 20, 1}, {30.5, 4.25, 1}, {0, 0, 1}};
    if (volume)
        layer->z = {1, 2.5, 9};
    return layer;
}

// rocks, then trees (refined by wet, then by tall), then flowers on trees' chain.
const char *kForest = R"(grove: 1
world: {width: 400, height: 300, seed: 11}
nodes:
  moist:
    type: value_noise
    params: {frequency: 0.02}
  slope:
    type: gradient_noise
    params: {frequency: 0.01}
  rocks:
    type: place_layer
    params: {radius: 40}
  trees:
    type: place_layer
    inputs: {obstacles: rocks.all}
    params: {radius: 22, name: oaks, seed: 2}
  flowers:
    type: place_layer
    inputs: {obstacles: trees.all}
    params: {radius: 15, seed: 3}
  wet:
    type: attribute
    inputs: {points: trees, field: moist}
    params: {name: moisture}
  tall:
    type: attribute
    inputs: {points: wet, field: slope}
    params: {name: height}
)";

// The problems a graph's text has, loaded then evaluated.
Diagnostics problemsOf(const std::string &text)
{
    LoadResult loaded = load(text);
    if (!loaded.ok())
        return loaded.diagnostics;
    return evaluateGraph(loaded.graph).diagnostics;
}

// A problem at `path` saying `words`; a loader's (`located`) also with its line in the file.
bool hasProblem(const Diagnostics &ds, const std::string &path, const std::string &words, bool located = true)
{
    for (const Diagnostic &d : ds)
        if (d.path == path && d.message.find(words) != std::string::npos && (!located || d.line > 0))
            return true;
    return false;
}

// A chunked finite world: rocks with moisture; `none` has heights but no place to grow.
const char *kChunked = R"(grove: 1
world: {width: 600, height: 400, seed: 5, chunk: 128}
nodes:
  moist: {type: value_noise, params: {frequency: 0.02}}
  terrain: {type: value_noise, params: {frequency: 0.01, seed: 3}}
  nowhere: {type: allowed_rule, inputs: {field: terrain}, params: {min: 2}}
  rocks: {type: place_layer, params: {radius: 30}}
  none: {type: place_layer, inputs: {obstacles: rocks.all, height: terrain, allowed: nowhere}, params: {radius: 10}}
  wet: {type: attribute, inputs: {points: rocks, field: moist}, params: {name: moisture}}
)";

std::string withNodes(const std::string &extra)
{
    return std::string(kForest) + extra;
}

} // namespace

class TestAttributes : public QObject
{
    Q_OBJECT

private slots:
    void valuesAreThePlainFieldAtEachPoint()
    {
        const auto field = std::make_shared<Plane>();
        const NodeRun run = evaluateNode("attribute", {{"name", Value(std::string("tint"))}},
                                         {{"points", setOf(handLayer(false))}, {"field", FieldPtr(field)}});
        QVERIFY2(run.error.empty(), run.error.c_str());
        const PointLayerPtr out = single(run.output);
        QVERIFY(out);
        QCOMPARE(out->columns.size(), std::size_t(1));
        QCOMPARE(out->columns[0].name, std::string("tint"));
        QCOMPARE(out->points.size(), std::size_t(3));
        for (std::size_t i = 0; i < out->points.size(); ++i)
            QCOMPARE(out->columns[0].values[i], 0.25 * out->points[i].x - 3 * out->points[i].y + 7);
        QCOMPARE(out->info.name, std::string("stones"));  // the layer, unrenamed
    }

    void aVolumeLayerSamplesTheFieldAtItsDepth()
    {
        const auto field = std::make_shared<Plane>();
        const NodeRun run = evaluateNode("attribute", {{"name", Value(std::string("glow"))}},
                                         {{"points", setOf(handLayer(true))}, {"field", FieldPtr(field)}});
        const PointLayerPtr out = single(run.output);
        QVERIFY2(out, run.error.c_str());
        const std::vector<double> z = {1, 2.5, 9};
        for (std::size_t i = 0; i < 3; ++i)
            QCOMPARE(out->columns[0].values[i], 0.25 * out->points[i].x - 3 * out->points[i].y + 7 + 1000 * z[i]);
    }

    // Each exported point's attributes equal the field nodes' own fields called at its x and y.
    void exportedAttributesAreTheFieldsAtTheExportedPoints()
    {
        const Graph graph = graphOf(kForest);
        const EvalResult r = evaluateGraph(graph);
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const FieldPtr moist = outputOf<FieldPtr>(r, "moist"), slope = outputOf<FieldPtr>(r, "slope");
        QVERIFY(moist && slope);
        const auto doc = nlohmann::ordered_json::parse(exportJson(graph, "forest.grove.yaml"));  // keeps the file's key order
        std::size_t checked = 0;
        for (const auto &layer : doc["layers"]) {
            if (layer["name"] != "oaks") {
                for (const auto &p : layer["points"])
                    QVERIFY(!p.contains("attributes"));
                continue;
            }
            QCOMPARE(layer["node"].get<std::string>(), std::string("trees"));
            for (const auto &p : layer["points"]) {
                const double x = p["x"], y = p["y"];
                const auto &a = p["attributes"];
                QCOMPARE(a.size(), std::size_t(2));
                QCOMPARE(a.begin().key(), std::string("moisture"));  // in chain order
                QCOMPARE(a["moisture"].get<double>(), moist->at(x, y));
                QCOMPARE(a["height"].get<double>(), slope->at(x, y));
                ++checked;
            }
        }
        QVERIFY(checked > 20);
    }

    // The refined layer takes its source's place and name: three layers, in placement order,
    // in exports and the preview, with no second copy of the trees.
    void aRefinedLayerKeepsItsPlaceAndNameAndIsExportedOnce()
    {
        const Graph graph = graphOf(kForest);
        QCOMPARE(exportedLayers(graph, registry()), (std::vector<std::string>{"rocks", "tall", "flowers"}));
        QCOMPARE(layerName(graph, registry(), "tall"), std::string("oaks"));
        QCOMPARE(layerNodeId(graph, registry(), "tall"), std::string("trees"));
        const auto doc = nlohmann::ordered_json::parse(exportJson(graph, "forest.grove.yaml"));  // keeps the file's key order
        std::vector<std::string> names;
        for (const auto &layer : doc["layers"])
            names.push_back(layer["name"]);
        QCOMPARE(names, (std::vector<std::string>{"rocks", "oaks", "flowers"}));

        const EvalResult r = evaluateGraph(graph);
        const auto drawn = previewLayers(graph, r, {});
        QCOMPARE(drawn.size(), std::size_t(3));
        QCOMPARE(drawn[1]->info.nodeId, std::string("trees"));
        QCOMPARE(drawn[1]->columns.size(), std::size_t(2));
        // hiding the trees (by the source's id, as the layer table does) hides the refined layer
        QCOMPARE(previewLayers(graph, r, {"trees"}).size(), std::size_t(2));
    }

    void csvAndTiledCarryTheColumns()
    {
        const Graph graph = graphOf(kForest);
        const EvalResult r = evaluateGraph(graph);
        const auto layers = layersOf(r, exportedLayers(graph, registry()));
        const std::string csv = exportPoints(ExportFormat::Csv, ExportInfo{}, layers);
        QVERIFY(csv.rfind("layer,id,x,y,r,type,rot,scale,moisture,height\n", 0) == 0);
        // rocks have no such attribute: their cells stay empty
        QVERIFY(csv.find("\nrocks,0,") != std::string::npos);
        const std::size_t row = csv.find("\nrocks,0,");
        const std::string rocksRow = csv.substr(row + 1, csv.find('\n', row + 1) - row - 1);
        QVERIFY2(rocksRow.size() > 2 && rocksRow.substr(rocksRow.size() - 2) == ",,", rocksRow.c_str());
        const std::string tiled = exportPoints(ExportFormat::Tiled, ExportInfo{}, layers);
        QVERIFY(tiled.find(R"({"name": "moisture", "type": "float", "value": )") != std::string::npos);
        QVERIFY(tiled.find(R"({"name": "height", "type": "float", "value": )") != std::string::npos);
    }

    void badNamesAreLocatedErrors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("words");
        QTest::newRow("capital") << "Moisture" << "may hold only a-z";
        QTest::newRow("digit first") << "9lives" << "may not start with a digit";
        QTest::newRow("space") << "wet ness" << "may hold only a-z";
        QTest::newRow("empty") << "" << "needs a name";
        QTest::newRow("too long") << QString(33, 'a') << "over the limit of 32";
        QTest::newRow("x") << "x" << "already writes";
        QTest::newRow("rotation") << "rotation" << "already writes";
        QTest::newRow("id") << "id" << "already writes";
        QTest::newRow("layer") << "layer" << "already writes";
    }

    void badNamesAreLocatedErrors()
    {
        QFETCH(QString, name);
        QFETCH(QString, words);
        std::string text = kForest;
        const std::string from = "params: {name: moisture}";
        text.replace(text.find(from), from.size(), "params: {name: \"" + name.toStdString() + "\"}");
        const Diagnostics ds = problemsOf(text);
        QVERIFY2(hasProblem(ds, "nodes.wet.params.name", words.toStdString()), formatAll(ds).c_str());
    }

    void aNameTwiceInOneChainIsALocatedError()
    {
        std::string text = kForest;
        const std::string from = "params: {name: height}";
        text.replace(text.find(from), from.size(), "params: {name: moisture}");
        const Diagnostics ds = problemsOf(text);
        QVERIFY2(hasProblem(ds, "nodes.tall.params.name", "already has an attribute 'moisture'", false), formatAll(ds).c_str());
    }

    void aChainWiredInIsALocatedError()
    {
        const Diagnostics ds = problemsOf(withNodes(R"(  dry:
    type: attribute
    inputs: {points: rocks.all, field: moist}
    params: {name: dryness}
)"));
        QVERIFY2(hasProblem(ds, "nodes.dry.inputs.points", "rocks.all is not one (wire rocks.points, the layer's own)"),
                 formatAll(ds).c_str());
    }

    void twoRefinersOfOneLayerAreALocatedError()
    {
        const Diagnostics ds = problemsOf(withNodes(R"(  zz_second:
    type: attribute
    inputs: {points: trees, field: moist}
    params: {name: dryness}
)"));
        QVERIFY2(hasProblem(ds, "nodes.zz_second.inputs.points", "'trees' is refined by both 'wet' and 'zz_second'"),
                 formatAll(ds).c_str());
    }

    // A chunked world's export is streamed chunk by chunk; the refined layer, placed whole, keeps
    // its attributes there, in shards and their merge, and in CSV after the empty z column is
    // dropped (its only layer with heights came out empty).
    void aChunkedWorldsStreamedExportsCarryTheAttributes()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string at = dir.path().toStdString() + "/";
        writeFile(at + "chunked.grove.yaml", kChunked);
        const QString graph = q(at + "chunked.grove.yaml");
        QCOMPARE(cli({"eval", graph, "-o", q(at + "whole.json"), "--quiet"}).code, 0);
        QCOMPARE(cli({"eval", graph, "--shard", "0/2", "-o", q(at + "p0.json"), "--quiet"}).code, 0);
        QCOMPARE(cli({"eval", graph, "--shard", "1/2", "-o", q(at + "p1.json"), "--quiet"}).code, 0);
        QCOMPARE(cli({"merge", q(at + "p0.json"), q(at + "p1.json"), "-o", q(at + "merged.json")}).code, 0);
        const std::string whole = readFile(at + "whole.json");
        QCOMPARE(readFile(at + "merged.json"), whole);
        const auto doc = nlohmann::json::parse(whole);
        const auto &rocks = doc["layers"][0];
        QCOMPARE(rocks["name"].get<std::string>(), std::string("rocks"));
        QVERIFY(rocks["count"].get<int>() > 50);
        for (const auto &p : rocks["points"])
            QVERIFY(p["attributes"]["moisture"].is_number());

        QCOMPARE(cli({"eval", graph, "--format", "csv", "-o", q(at + "rocks.csv"), "--quiet"}).code, 0);
        const std::string csv = readFile(at + "rocks.csv");
        QVERIFY(csv.rfind("layer,id,x,y,r,type,rot,scale,moisture\n", 0) == 0);
        std::size_t rows = 0;
        for (std::size_t from = csv.find('\n') + 1; from < csv.size(); from = csv.find('\n', from) + 1, ++rows) {
            const std::string row = csv.substr(from, csv.find('\n', from) - from);
            QCOMPARE(std::count(row.begin(), row.end(), ','), std::ptrdiff_t(8));
            QVERIFY2(row.back() != ',', row.c_str());  // the moisture cell is filled
        }
        QCOMPARE(rows, std::size_t(rocks["count"].get<int>()));
    }

    // Godot's custom data holds four floats: a fifth attribute is named in the scene and in a
    // warning, and the export still succeeds.
    void godotSaysWhichAttributesItLeavesOut()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string at = dir.path().toStdString() + "/";
        writeFile(at + "five.grove.yaml", withNodes(R"(  more_a: {type: attribute, inputs: {points: tall, field: moist}, params: {name: extra_a}}
  more_b: {type: attribute, inputs: {points: more_a, field: moist}, params: {name: extra_b}}
  more_c: {type: attribute, inputs: {points: more_b, field: moist}, params: {name: extra_c}}
)"));
        const Run run = cli({"eval", q(at + "five.grove.yaml"), "--format", "godot", "-o", q(at + "five.tscn")});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.err.find("five.grove.yaml: warning: godot: layer 'oaks' has 5 attributes; a MultiMesh's custom data "
                              "holds the first 4; left out: extra_c") != std::string::npos, run.err.c_str());
        const std::string scene = readFile(at + "five.tscn");
        QVERIFY(scene.find("metadata/custom_data = PackedStringArray(\"moisture\", \"height\", \"extra_a\", \"extra_b\")\n"
                           "metadata/custom_data_left_out = PackedStringArray(\"extra_c\")") != std::string::npos);
    }

    // An unexported source exports nothing, refined or not.
    void anUnexportedSourceStaysUnexported()
    {
        std::string text = kForest;
        const std::string from = "params: {radius: 22, name: oaks, seed: 2}";
        text.replace(text.find(from), from.size(), "params: {radius: 22, name: oaks, seed: 2, export: false}");
        QCOMPARE(exportedLayers(graphOf(text), registry()), (std::vector<std::string>{"rocks", "flowers"}));
    }

    // The statistics of the refined layer (what --stats and the layer table measure) are its
    // source's: the source on the chain is the same layer, not an obstacle it stands on.
    void aRefinedLayersStatisticsAreItsSources()
    {
        const Graph graph = graphOf(kForest);
        const EvalResult r = evaluateGraph(graph);
        QVERIFY(r.ok());
        const PointLayerPtr refined = previewLayers(graph, r, {})[1], source = single(r.output("trees", "points"));
        QVERIFY(refined != source && refined->columns.size() == 2 && source->columns.empty());
        const LayerStats a = computeLayerStats(r, "trees", refined, graph.world), b = computeLayerStats(r, "trees", source, graph.world);
        QCOMPARE(a.count, source->points.size());
        QCOMPARE(a.tooClose, std::size_t(0));
        QCOMPARE(a.tooClose, b.tooClose);
        QCOMPARE(a.tightest, b.tightest);
        QCOMPARE(a.clearingDiameter, b.clearingDiameter);
    }
};

QTEST_APPLESS_MAIN(TestAttributes)
#include "tst_attributes.moc"
