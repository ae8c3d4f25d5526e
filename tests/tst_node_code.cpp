// Node code that cannot misspell: a node's evaluate that asks for a param, input or output its
// descriptor does not declare fails at once, naming the node type and the name, instead of
// reading a null or dropping the value; choices are read as typed values through their table.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/graph/EvalContext.h"
#include "nodes/ParamBuilders.h"

#include <algorithm>
#include <string>

using namespace grove;
using namespace grove::test;

namespace {

enum class Shape { Round, Square };
constexpr ChoiceTable<Shape, 2> kShapes{{{Shape::Round, "round"}, {Shape::Square, "square"}}};
// The same names in another order: not the table the param was declared from.
constexpr ChoiceTable<Shape, 2> kShapesReordered{{{Shape::Square, "square"}, {Shape::Round, "round"}}};

// A field that is v everywhere, from the constant node.
PortValue flat(double v) { return evaluateNode("constant", {{"value", Value(v)}}, {}).output; }

// What the probe's evaluate does wrong (or, with None, right).
enum class Slip { None, Param, Input, InputType, Output, ChoiceTable, ProblemAt };

// A field node whose evaluate makes one slip: its params are radius and shape, its input
// `allowed` (a mask), its output `field`.
NodeDescriptor probe(Slip slip)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "probe";
    d.displayName = "Probe";
    d.category = "Fields";
    d.description = "a test node";
    d.inputs = {port("allowed", DataType::Mask).optional().describe("where")};
    d.outputs = {port("field", DataType::Field).describe("the radius everywhere")};
    d.params = {
        number("radius").defaultValue(4).describe("r"),
        choice("shape", kShapes, Shape::Square).describe("s"),
    };
    d.evaluate = [slip](EvalContext &ctx) {
        double radius = ctx.number("radius");
        const Shape shape = ctx.choice("shape", kShapes);
        switch (slip) {
        case Slip::None: break;
        case Slip::Param: radius = ctx.number("radus"); break;
        case Slip::Input: ctx.mask("alowed"); break;
        case Slip::InputType: ctx.field("allowed"); break;
        case Slip::Output: ctx.setOutput("feild", flat(radius)); return;
        case Slip::ChoiceTable: ctx.choice("shape", kShapesReordered); break;
        case Slip::ProblemAt: ctx.failAt("radus", "too big"); return;
        }
        ctx.setOutput("field", flat(shape == Shape::Square ? radius : -radius));
    };
    return d;
}

// The NodeCodeFault's message when the probe's evaluate runs with this slip ("" for none).
std::string faultOf(Slip slip)
{
    NodeRegistry r;
    r.add(probe(slip));
    try {
        const NodeRun run = evaluateNodeIn(r, "probe", {}, {});
        return run.error.empty() ? std::string() : "failed without a fault: " + run.error;
    } catch (const NodeCodeFault &fault) {
        return fault.what();
    }
}

} // namespace

class TestNodeCode : public QObject
{
    Q_OBJECT

private slots:
    void aSlipFailsNamingTheNodeTypeAndTheName_data()
    {
        QTest::addColumn<int>("slip");
        QTest::addColumn<QString>("message");
        QTest::newRow("misspelt param") << int(Slip::Param) << "node type 'probe' asks for param 'radus', which it does not declare";
        QTest::newRow("misspelt input") << int(Slip::Input) << "node type 'probe' asks for input 'alowed', which it does not declare";
        QTest::newRow("input as another type")
            << int(Slip::InputType) << "node type 'probe' asks for input 'allowed' as field, but declares it mask";
        QTest::newRow("misspelt output") << int(Slip::Output) << "node type 'probe' sets output 'feild', which it does not declare";
        QTest::newRow("choice through another table")
            << int(Slip::ChoiceTable)
            << "node type 'probe' reads param 'shape' through a choice table that is not the one it was declared with";
        QTest::newRow("problem at a misspelt param")
            << int(Slip::ProblemAt) << "node type 'probe' reports a problem at param 'radus', which it does not declare";
    }

    void aSlipFailsNamingTheNodeTypeAndTheName()
    {
        QFETCH(int, slip);
        QFETCH(QString, message);
        QCOMPARE(QString::fromStdString(faultOf(static_cast<Slip>(slip))),
                 message + " (a fault in the node type's code, not in the graph)");
    }

    void withoutASlipTheNodeReadsItsChoiceAsAValue()
    {
        QCOMPARE(QString::fromStdString(faultOf(Slip::None)), QString());
        NodeRegistry r;
        r.add(probe(Slip::None));
        for (const auto &[shape, expected] : {std::pair{"round", -4.0}, std::pair{"square", 4.0}}) {
            const NodeRun run = evaluateNodeIn(r, "probe", {{"shape", Value(shape)}}, {});
            QCOMPARE(std::get<FieldPtr>(run.output)->at(1, 1), expected);
        }
    }

    // The test builds are checked builds: a slip escapes the evaluator, so any suite that runs a
    // node with a slip stops there. Elsewhere the node fails with the fault's message, and nothing
    // downstream gets a value.
    void theTestBuildLetsASlipEscapeTheEvaluator()
    {
        QVERIFY(nodeCodeChecked());
        NodeRegistry r;
        r.add(probe(Slip::Param));
        const LoadResult loaded = loadGraphFromString(
            "grove: 1\nname: probe\nworld: {width: 10, height: 10, seed: 1}\nnodes:\n  p:\n    type: probe\n", "probe.grove.yaml", r);
        QVERIFY(loaded.ok());
        Evaluator evaluator(r);
        try {
            evaluator.evaluate(loaded.graph);
            QFAIL("the slip did not escape");
        } catch (const NodeCodeFault &fault) {
            QVERIFY(std::string(fault.what()).find("'radus'") != std::string::npos);
        }
    }

    // Every built-in node's catalog row and evaluate agree: each choice param's default is one of
    // its values (the table made both), and the presets evaluate in this checked build (tst_presets).
    void everyChoiceDefaultIsOneOfItsValues()
    {
        for (const auto &d : registry().all())
            for (const ParamSpec &p : d->params)
                if (p.kind == ParamKind::Enum)
                    QVERIFY2(std::find(p.enumValues.begin(), p.enumValues.end(), p.defaultValue.toString()) != p.enumValues.end(),
                             (d->typeId + "." + p.name).c_str());
    }
};

QTEST_GUILESS_MAIN(TestNodeCode)
#include "tst_node_code.moc"
