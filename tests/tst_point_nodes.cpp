// Every node that makes a layer of points, found by its descriptor's LayerPoints output (so a new
// point node is checked without being listed here): it evaluates on its defaults, gives the same
// points on any thread count and in any evaluator, keeps the spacing its descriptor promises
// (Spacing::Plane or Volume) against an independent check, and refuses bad params with a located
// error.
#include "PointChecks.h"
#include "TestSupport.h"

#include "core/graph/GraphReader.h"
#include "core/formats/PointsExport.h"

#include <QTemporaryDir>

#include <cmath>

using namespace grove;
using namespace grove::test;

namespace {

std::vector<const NodeDescriptor *> pointNodes()
{
    std::vector<const NodeDescriptor *> found;
    for (const auto &d : registry().all())
        if (d->makesLayer())
            found.push_back(d.get());
    std::sort(found.begin(), found.end(), [](auto *a, auto *b) { return a->typeId < b->typeId; });
    return found;
}

bool needsNothing(const NodeDescriptor &d)
{
    for (const PortSpec &p : d.inputs)
        if (!p.optional)
            return false;
    for (const ParamSpec &p : d.params)
        if (p.role == ParamRole::FilePath)
            return false;
    return !d.needsWorldDepth && !d.outputs.empty();
}

// A node type that makes a value of `type` from its defaults alone, to feed a required input.
const NodeDescriptor *sourceOf(DataType type, const std::string &besides)
{
    for (const std::string &id : registry().typeIds()) {
        const NodeDescriptor *d = registry().find(id);
        if (id != besides && needsNothing(*d) && d->outputs.front().type == type)
            return d;
    }
    return nullptr;
}

// The first of the test's input files (points, then shapes) the node's param checks accept.
std::string inputFileFor(const NodeDescriptor &d, const std::string &param)
{
    for (const char *name : {"points.csv", "shapes.geojson"}) {
        ParamIssues issues;
        if (d.checkParams)
            d.checkParams(ValueMap{{param, Value(std::string(name))}}, issues);
        if (std::none_of(issues.begin(), issues.end(), [&](const auto &issue) { return issue.first == param; }))
            return name;
    }
    return "points.csv";
}

// The node `n` of the type on its defaults, in a small world (with depth when it needs one); each
// required input fed by a node that needs nothing, a FilePath param pointed at a small CSV of
// points (or, when the node refuses that, a GeoJSON file of a line and a polygon). `params` is the text of extra params ("radius: 5"), empty for none.
std::string graphFor(const NodeDescriptor &d, const std::string &params = {})
{
    std::string sources, inputs, files;
    for (const PortSpec &p : d.inputs) {
        if (p.optional && p.role != PortRole::Refines)  // a refiner's layer is the one it refines
            continue;
        const NodeDescriptor *src = sourceOf(p.type, d.typeId);
        if (!src)
            qFatal("no node makes a %s for %s.%s", dataTypeName(p.type), d.typeId.c_str(), p.name.c_str());
        sources += "  src_" + p.name + ": {type: " + src->typeId + "}\n";
        inputs += "      " + p.name + ": src_" + p.name + "\n";
    }
    for (const ParamSpec &p : d.params)
        if (p.role == ParamRole::FilePath)
            files += "      " + p.name + ": " + inputFileFor(d, p.name) + "\n";
    std::string text = "grove: 1\nworld: {width: 300, height: 200, seed: 7" + std::string(d.needsWorldDepth ? ", depth: 120" : "")
                       + "}\nnodes:\n" + sources + "  n:\n    type: " + d.typeId + "\n";
    if (!inputs.empty())
        text += "    inputs:\n" + inputs;
    if (!files.empty() || !params.empty())
        text += "    params:\n" + files + (params.empty() ? std::string() : "      " + params + "\n");
    return text;
}

struct Run
{
    LoadResult loaded;
    EvalResult result;
};

Run evaluateIn(const QTemporaryDir &dir, const std::string &text, int threads)
{
    Run run;
    run.loaded = loadGraphFromString(text, "points.grove.yaml", registry(), dir.path().toStdString());
    if (!run.loaded.ok())
        return run;
    EvalRequest request;
    request.limits.threads = threads;
    run.result = evaluateGraph(run.loaded.graph, request);
    return run;
}

// Every point's bytes (x, y, r, z, id), to compare two runs bit for bit.
std::string layerBytes(const PointLayer &layer)
{
    std::string bytes;
    auto add = [&](const void *p, size_t n) {
        if (n > 0)
            bytes.append(static_cast<const char *>(p), n);
    };
    add(layer.points.data(), layer.points.size() * sizeof(PointXYR));
    add(layer.z.data(), layer.z.size() * sizeof(double));
    add(layer.ids.data(), layer.ids.size() * sizeof(std::uint64_t));
    return bytes;
}

PointLayerPtr ownLayer(const EvalResult &r)
{
    const auto layers = layersOf(r, {"n"});
    return layers.empty() ? nullptr : layers.front();
}

} // namespace

class TestPointNodes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeFile(m_dir.filePath("points.csv").toStdString(), "x,y,r\n20,30,6\n150,90,8\n260,170,5\n");
        writeFile(m_dir.filePath("shapes.geojson").toStdString(),
                  R"({"type": "FeatureCollection", "features": [)"
                  R"({"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[10, 20], [150, 120], [290, 60]]}},)"
                  R"({"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[40, 150], [120, 150], [80, 190], [40, 150]]]}}]})");
        QVERIFY(pointNodes().size() >= 8);  // place_layer, place_volume, the scatters, ...
    }

    void node_data()
    {
        QTest::addColumn<QString>("type");
        for (const NodeDescriptor *d : pointNodes())
            QTest::newRow(d->typeId.c_str()) << QString::fromStdString(d->typeId);
    }

    // On its defaults the node places points, the same on one thread and four and in a fresh
    // evaluator, and they keep the spacing its descriptor promises.
    void node()
    {
        QFETCH(QString, type);
        const NodeDescriptor &d = *registry().find(type.toStdString());
        const std::string text = graphFor(d);
        const Run one = evaluateIn(m_dir, text, 1);
        QVERIFY2(one.loaded.ok(), (text + formatAll(one.loaded.diagnostics)).c_str());
        QVERIFY2(one.result.ok(), (text + formatAll(one.result.diagnostics)).c_str());
        const PointLayerPtr layer = ownLayer(one.result);
        QVERIFY(layer);
        QVERIFY2(!layer->points.empty(), text.c_str());
        const Run four = evaluateIn(m_dir, text, 4);
        QVERIFY(four.result.ok() && ownLayer(four.result));
        QVERIFY2(layerBytes(*ownLayer(four.result)) == layerBytes(*layer), "four threads placed other points");
        const Run again = evaluateIn(m_dir, text, 1);
        QVERIFY(again.result.ok() && ownLayer(again.result));
        QVERIFY2(layerBytes(*ownLayer(again.result)) == layerBytes(*layer), "a second run placed other points");

        if (d.spacing == Spacing::None)
            return;
        // the layer against itself and the obstacles on its chain, by an independent check
        std::vector<PointXYR> points = layer->points;
        std::vector<double> z = layer->z;
        const PortValue chain = one.result.outputWithRole("n", PortRole::LayerChain);
        if (const auto *set = std::get_if<PointSetPtr>(&chain); set && *set)
            for (const auto &l : (*set)->layers)
                if (l != layer) {
                    points.insert(points.end(), l->points.begin(), l->points.end());
                    z.insert(z.end(), l->z.begin(), l->z.end());
                }
        double cell = 0;
        for (const PointXYR &p : points)
            cell = std::max(cell, p.r);
        if (d.spacing == Spacing::Volume) {
            QCOMPARE(z.size(), points.size());
            QCOMPARE(pairsTooClose(points, cell, &z), 0);
        } else {
            QCOMPARE(pairsTooClose(points, cell), 0);
        }
    }

    void badParams_data() { node_data(); }

    // A number param given text, or a value below its minimum, is refused when the graph loads,
    // at that param's path, and nothing is evaluated.
    void badParams()
    {
        QFETCH(QString, type);
        const NodeDescriptor &d = *registry().find(type.toStdString());
        int checked = 0;
        for (const ParamSpec &p : d.params) {
            if (p.kind != ParamKind::Number && p.kind != ParamKind::Integer)
                continue;
            std::vector<std::string> bad{p.name + ": \"lots\""};
            if (std::isfinite(p.min))
                bad.push_back(p.name + ": " + formatNumber(p.minExclusive ? p.min : p.min - 1));
            for (const std::string &assignment : bad) {
                const std::string text = graphFor(d, assignment);
                const Run run = evaluateIn(m_dir, text, 1);
                QVERIFY2(!run.loaded.ok(), (type + ": accepted " + QString::fromStdString(assignment)).toUtf8().constData());
                bool located = false;
                for (const Diagnostic &diag : run.loaded.diagnostics)
                    located = located || (diag.path == "nodes.n.params." + p.name && diag.line > 0);
                QVERIFY2(located, (assignment + "\n" + formatAll(run.loaded.diagnostics)).c_str());
                ++checked;
            }
        }
        if (checked == 0)
            QSKIP("no number params");
    }
};

QTEST_APPLESS_MAIN(TestPointNodes)
#include "tst_point_nodes.moc"
