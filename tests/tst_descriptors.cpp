// Node roles and record params: readers outside a node (exports, stats, the layer list) find its
// ports and params by the roles its descriptor declares, so a node may name them as it likes.
#include "TestSupport.h"

#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"
#include "core/analysis/LayerStats.h"
#include "core/base/YamlValue.h"
#include "core/formats/PointsExport.h"
#include "nodes/ParamBuilders.h"

#include <regex>
#include <stdexcept>

using namespace grove;
using namespace grove::test;

namespace {

enum class StampMode { Centre, At };
constexpr ChoiceTable<StampMode, 2> kStampModes{{{StampMode::Centre, "centre"}, {StampMode::At, "at"}}};

// A points node that names everything differently from place_layer: one point at (at_x, at_y).
NodeDescriptor stampDescriptor()
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "stamp";
    d.displayName = "Stamp";
    d.category = "Points";
    d.inputs = {port("under", DataType::Points).optional().describe("what is already there")};
    d.outputs = {
        port("mine", DataType::Points).role(PortRole::LayerPoints).describe("the stamp"),
        port("chain", DataType::Points).role(PortRole::LayerChain).describe("what was there, then the stamp"),
    };
    d.params = {
        text("title").role(ParamRole::LayerName).describe("name"),
        flag("visible").defaultValue(true).role(ParamRole::ExportSwitch).describe("exported"),
        choice("mode", kStampModes, StampMode::Centre).role(ParamRole::PositionMode, "at")
            .describe("where"),
        number("at_x").defaultValue(0).soft(0, 100).role(ParamRole::PositionX).describe("x"),
        number("at_y").defaultValue(0).soft(0, 100).role(ParamRole::PositionY).describe("y"),
    };
    d.evaluate = [](EvalContext &ctx) {
        auto layer = std::make_shared<PointLayer>();
        layer->info.nodeId = ctx.node().id;
        layer->info.name = layerName(ctx.node(), ctx.descriptor());
        const bool at = ctx.choice("mode", kStampModes) == StampMode::At;
        layer->points.push_back({at ? ctx.number("at_x") : 50.0, at ? ctx.number("at_y") : 50.0, 10});
        auto mine = std::make_shared<PointSet>();
        mine->layers.push_back(layer);
        auto chain = std::make_shared<PointSet>();
        if (PointSetPtr under = ctx.points("under"))
            chain->layers = under->layers;
        chain->layers.push_back(layer);
        ctx.setOutput("mine", PointSetPtr(mine));
        ctx.setOutput("chain", PointSetPtr(chain));
    };
    return d;
}

const NodeRegistry &stampRegistry()
{
    static const NodeRegistry registry = [] {
        NodeRegistry r;
        registerBuiltinNodes(r);
        r.add(stampDescriptor());
        return r;
    }();
    return registry;
}

Graph loadStamps(const std::string &nodes)
{
    LoadResult loaded = loadGraphFromString("grove: 1\nname: stamps\nworld: {width: 100, height: 100, seed: 1}\nnodes:\n"
                                                + nodes,
                                            "stamps.grove.yaml", stampRegistry());
    for (const auto &d : loaded.diagnostics)
        qWarning("%s", d.format().c_str());
    Q_ASSERT(loaded.ok());
    return loaded.graph;
}

} // namespace

class TestDescriptors : public QObject
{
    Q_OBJECT

private slots:
    void exportedLayersFollowTheExportRole()
    {
        const Graph g = loadStamps("  a:\n    type: stamp\n  b:\n    type: stamp\n    params: {visible: false}\n"
                                   "  c:\n    type: stamp\n    params: {visible: true}\n"
                                   "  k:\n    type: constant\n");
        QCOMPARE(exportedLayers(g, stampRegistry()), (std::vector<std::string>{"a", "c"}));
    }

    void layerNameFollowsTheNameRole()
    {
        const Graph g = loadStamps("  a:\n    type: stamp\n    params: {title: oaks}\n  b:\n    type: stamp\n");
        const NodeDescriptor &d = *stampRegistry().find("stamp");
        QCOMPARE(layerName(*g.node("a"), d), std::string("oaks"));
        QCOMPARE(layerName(*g.node("b"), d), std::string("b"));  // empty: the node id
        Evaluator evaluator(stampRegistry());
        const EvalResult r = evaluator.evaluate(g);
        QVERIFY(r.ok());
        QCOMPARE(layersOf(r, {"a", "b"}).size(), size_t(2));
        QCOMPARE(layersOf(r, {"a"})[0]->info.name, std::string("oaks"));
    }

    // grove-cli --stats and the preview judge a layer against the obstacles on its chain output.
    void statsCountTheObstaclesOnTheChain()
    {
        const std::string a = "  a:\n    type: stamp\n    params: {mode: at, at_x: 20, at_y: 20}\n";
        const Graph chained = loadStamps(a + "  b:\n    type: stamp\n    inputs: {under: a.chain}\n"
                                             "    params: {mode: at, at_x: 25, at_y: 20}\n");
        const Graph apart = loadStamps(a + "  b:\n    type: stamp\n    params: {mode: at, at_x: 25, at_y: 20}\n");
        Evaluator evaluator(stampRegistry());
        const EvalResult rc = evaluator.evaluate(chained);
        const EvalResult ra = evaluator.evaluate(apart);
        QVERIFY(rc.ok() && ra.ok());
        const PointLayerPtr bc = layersOf(rc, {"b"})[0], ba = layersOf(ra, {"b"})[0];
        QCOMPARE(computeLayerStats(rc, "b", bc, chained.world).tooClose, size_t(1));  // 5 apart, radius 10
        QCOMPARE(computeLayerStats(ra, "b", ba, apart.world).tooClose, size_t(0));
        QVERIFY(std::holds_alternative<PointSetPtr>(rc.outputWithRole("b", PortRole::LayerChain)));
        QVERIFY(std::holds_alternative<std::monostate>(rc.outputWithRole("nope", PortRole::LayerChain)));
    }

    // The built-in layer nodes declare the roles the preview, exports and grove-cli rely on.
    // A node's description is what a designer reads in the Inspector and the manual: what it makes
    // and what its params do to the picture, never the arithmetic (hash constants, bit operations).
    void descriptionsSpeakToDesigners()
    {
        const std::regex code(R"(Math\.|uint32|>>|<<|\^=|\*=|0x[0-9a-fA-F]+|[0-9]{7,})");
        for (const auto &d : builtinRegistry().all()) {
            std::smatch m;
            QVERIFY2(!std::regex_search(d->description, m, code),
                     (d->typeId + "'s description reads like code at '" + m.str() + "'").c_str());
        }
    }

    void builtinLayerNodesDeclareTheirRoles()
    {
        const NodeDescriptor &place = *registry().find("place_layer");
        QCOMPARE(place.outputWithRole(PortRole::LayerPoints)->name, std::string("points"));
        QCOMPARE(place.outputWithRole(PortRole::LayerChain)->name, std::string("all"));
        QCOMPARE(place.paramWithRole(ParamRole::PositionX)->name, std::string("start_x"));
        QCOMPARE(place.paramWithRole(ParamRole::PositionY)->name, std::string("start_y"));
        QCOMPARE(place.paramWithRole(ParamRole::PositionMode)->name, std::string("start"));
        QCOMPARE(place.paramWithRole(ParamRole::PositionMode)->roleValue, std::string("point"));
        QCOMPARE(place.paramWithRole(ParamRole::Seed)->name, std::string("seed"));
        // the editor writes a pin through these field roles, never by the fields' names
        const ParamSpec &pins = *place.paramWithRole(ParamRole::Pins);
        QCOMPARE(pins.fieldWithRole(FieldRole::X)->name, std::string("x"));
        QCOMPARE(pins.fieldWithRole(FieldRole::Y)->name, std::string("y"));
        QCOMPARE(pins.fieldWithRole(FieldRole::Type)->name, std::string("type"));
        for (const char *type : {"place_layer", "random_points", "jittered_grid", "dart_throwing"}) {
            const NodeDescriptor &d = *registry().find(type);
            QVERIFY2(d.makesLayer(), type);
            QCOMPARE(d.paramWithRole(ParamRole::LayerName)->name, std::string("name"));
            QCOMPARE(d.paramWithRole(ParamRole::ExportSwitch)->name, std::string("export"));
        }
        for (const auto &d : registry().all())
            QVERIFY2(!checkRoles(*d), d->typeId.c_str());
        // the lists the Inspector offers as tick boxes of the wired labels' names
        QCOMPARE(registry().find("allowed_rule")->param("include")->namesFrom, std::string("labels"));
        QCOMPARE(registry().find("paint")->param("flat")->namesFrom, std::string("ground"));
    }

    void registryRefusesWrongRoles_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<QString>("message");
        QTest::newRow("export switch on a number") << 0 << "stamp.at_x: the export switch role needs a bool param";
        QTest::newRow("x without y") << 1 << "stamp: a position needs both an x and a y param";
        QTest::newRow("a role twice") << 2 << "stamp.visible: another param already has this role";
        QTest::newRow("mode value not offered") << 3
                                                << "stamp.mode: the position mode role needs an enum param with the value 'there'";
        QTest::newRow("chain without own points") << 4 << "stamp: a layer chain needs the layer's own points output";
        QTest::newRow("layer role on a field") << 5 << "stamp.mine: a layer role needs a points output";
        QTest::newRow("names from a points input") << 6
                                                   << "stamp.title: names come from a labels input, into a string list param";
        QTest::newRow("seed on a number") << 7 << "stamp.at_x: the seed role needs an integer param";
        QTest::newRow("pins without a y field") << 8
                                                << "stamp.spots: the pins role needs a record list with required numbers in "
                                                   "the x and y field roles";
    }

    void registryRefusesWrongRoles()
    {
        QFETCH(int, variant);
        QFETCH(QString, message);
        NodeDescriptor d = stampDescriptor();
        auto param = [&](const char *name) -> ParamSpec & { return *const_cast<ParamSpec *>(d.param(name)); };
        switch (variant) {
        case 0: param("visible").role = ParamRole::None; param("at_x").role = ParamRole::ExportSwitch; break;
        case 1: param("at_y").role = ParamRole::None; break;
        case 2: param("visible").role = ParamRole::LayerName; param("visible").kind = ParamKind::String; break;
        case 3: param("mode").roleValue = "there"; break;
        case 4: d.outputs[0].role = PortRole::None; break;
        case 5: d.outputs[0].type = DataType::Field; break;
        case 6: param("title").namesFrom = "under"; break;
        case 7: param("at_x").role = ParamRole::Seed; break;
        case 8:
            d.params.push_back(build::recordList("spots").role(ParamRole::Pins)
                                   .field({"x", ParamKind::Number, true, Value(), -1e9, 1e9, false, FieldRole::X})
                                   .field({"y", ParamKind::Number, true, Value(), -1e9, 1e9}));
            break;
        }
        QCOMPARE(QString::fromStdString(checkRoles(d).value_or("")), message);
        NodeRegistry r;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, r.add(d));
        QVERIFY(!r.find("stamp"));
    }

    // Records: any node can declare a list of records; the loader checks every field.
    void recordListsAreCheckedFieldByField_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not a list") << "3" << "expected a list of {label, size}, got a number";
        QTest::newRow("item not a map") << "[oak]" << "item 0: expected {label, size}, got a string";
        QTest::newRow("unknown key") << "[{label: a, sise: 2}]" << "item 0: unknown key 'sise'; did you mean 'size'?";
        QTest::newRow("required missing") << "[{size: 2}]" << "item 0: needs a label";
        QTest::newRow("required empty") << "[{label: ''}]" << "item 0: needs a label";
        QTest::newRow("out of range") << "[{label: a, size: 12}]" << "item 0: size 12 is out of range: must be >= 1 and <= 9";
        QTest::newRow("not whole") << "[{label: a, size: 2.5}]" << "item 0: size expected an integer, got 2.5";
        QTest::newRow("listed twice") << "[{label: a}, {label: b}, {label: a}]" << "item 2: entry 'a' is listed twice";
        QTest::newRow("fine") << "[{label: a}, {size: 2, label: b}]" << "";
    }

    void recordListsAreCheckedFieldByField()
    {
        QFETCH(QString, yaml);
        QFETCH(QString, problem);
        using namespace build;
        const ParamSpec spec = recordList("entries")
                                   .field({"label", ParamKind::String, true, std::string()})
                                   .field({"size", ParamKind::Integer, false, 3.0, 1, 9})
                                   .unique("label", "entry");
        std::string error;
        const std::optional<Value> v = parseValueText(yaml.toStdString(), &error);
        QVERIFY2(v, error.c_str());
        QCOMPARE(QString::fromStdString(checkParamValue(spec, *v).value_or("")), problem);
    }

    // Saves are explicit: every record gets every field, in field order, defaults filled in.
    void recordsAreCompletedInFieldOrder()
    {
        const NodeDescriptor &place = *registry().find("place_layer");
        std::string error;
        const ValueMap given{{"types", *parseValueText("[{weight: 2, name: oak}, {name: pine}]", &error)},
                             {"special", *parseValueText("{count: 3, type: oak}", &error)}};
        const ValueMap full = completeParams(place, given);
        auto find = [&](const std::string &name) {
            for (const auto &[k, v] : full)
                if (k == name)
                    return v;
            return Value();
        };
        QCOMPARE(toFlowYaml(find("types")), std::string("[{name: oak, weight: 2}, {name: pine, weight: 1}]"));
        QCOMPARE(toFlowYaml(find("special")), std::string("{type: oak, count: 3}"));
        QCOMPARE(toFlowYaml(find("rotation")), std::string("[0, 0]"));
    }
};

QTEST_GUILESS_MAIN(TestDescriptors)
#include "tst_descriptors.moc"
