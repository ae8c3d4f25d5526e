// The shipped presets: each loads cleanly, is saved in canonical form, evaluates, keeps every
// spacing layer's distances (0 pairs too close), paints a non-blank picture; island_world's
// picture is pinned by a hash so a change to its look is a decision, not an accident.
#include "TestSupport.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/analysis/LayerStats.h"
#include "core/formats/PointsExport.h"
#include "core/render/PreviewRenderer.h"
#include "core/base/Sha256.h"

#include <QDir>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include <set>

using namespace grove;
using namespace grove::test;

class TestPresets : public QObject
{
    Q_OBJECT

private slots:
    void preset_data();
    void preset();
    void theShippedPresets();
    void islandWorldPictureIsStable();
    void valleyKeepsItsPromises();
};

static QString presetsDir() { return QString::fromStdString(sourceDir() + "/presets"); }

void TestPresets::preset_data()
{
    QTest::addColumn<QString>("file");
    for (const QString &f : QDir(presetsDir()).entryList({"*.grove.yaml"}, QDir::Files, QDir::Name))
        QTest::newRow(f.toUtf8().constData()) << QDir(presetsDir()).filePath(f);
}

void TestPresets::preset()
{
    QFETCH(QString, file);
    const std::string text = readFile(file.toStdString());
    // as the editor and grove-cli open it: inputs and group files beside it
    LoadResult loaded = loadGraphFromString(text, file.toStdString(), registry(), presetsDir().toStdString());
    QVERIFY2(loaded.ok() && loaded.diagnostics.empty(), formatAll(loaded.diagnostics).c_str());
    QCOMPARE(saveGraphToString(loaded.graph, registry()), text);  // canonical, so diffs stay clean
    expandLoadedGroups(loaded, file.toStdString(), registry());  // group nodes: their files' layers
    QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
    QVERIFY(!loaded.graph.name.empty());
    QVERIFY(!loaded.graph.notes.empty());

    Evaluator ev(registry());
    EvalResult r = ev.evaluate(loaded.graph);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const auto ids = exportedLayers(loaded.graph, registry());
    QVERIFY(!ids.empty());
    // An endless world has no whole layer to check: its 4 x 4 chunks at the origin (what the
    // editor opens on) stand for it, each layer's points there asked for by region.
    const World &world = loaded.graph.world;
    const double side = 4 * world.chunk;
    const Region origin{0, 0, side, side};
    const double width = world.endless ? side : world.width, height = world.endless ? side : world.height;
    auto inWorld = [&](const PointLayerPtr &layer) -> PointLayerPtr {
        if (!layer || !layer->lazy)
            return layer;
        return layerInRegion(*layer, origin, 0);
    };
    std::vector<PointLayerPtr> shown;
    for (const auto &id : ids) {
        const auto lazy = layersOf(r, {id});
        QCOMPARE(lazy.size(), size_t(1));
        QCOMPARE(lazy[0]->lazy, world.endless);
        const std::vector<PointLayerPtr> layers{inWorld(lazy[0])};
        shown.push_back(layers[0]);
        QVERIFY2(!layers[0]->points.empty(), (id + " is empty").c_str());
        // every layer whose node promises spacing (its descriptor says so); random points and
        // jittered grids promise none: they are there to show what breaks
        const NodeDescriptor *desc = registry().find(loaded.graph.node(id)->type);
        QVERIFY(desc);
        if (desc->spacing == Spacing::None)
            continue;
        std::vector<PointLayerPtr> obstacles;
        const PortValue all = r.outputWithRole(id, PortRole::LayerChain);
        if (const auto *set = std::get_if<PointSetPtr>(&all); set && *set)
            for (const auto &l : (*set)->layers)
                if (l != lazy[0])
                    obstacles.push_back(inWorld(l));
        const LayerStats st = desc->spacing == Spacing::Volume
                                  ? computeVolumeStats(*layers[0], obstacles, width, height, world.depth)
                                  : computeLayerStats(*layers[0], obstacles, width, height);
        QVERIFY2(st.tooClose == 0, (id + ": " + std::to_string(st.tooClose) + " pairs too close").c_str());
    }
    // the picture is not blank: it has many colours
    RenderOptions options;
    if (world.endless) {
        options.region = origin;
        options.layers = &shown;
    }
    const Image image = renderPreview(loaded.graph, r, 220, 120, options);
    QCOMPARE(image.rgb.size(), size_t(220 * 120 * 3));
    std::set<std::uint32_t> colours;
    for (size_t i = 0; i < image.rgb.size(); i += 3)
        colours.insert(std::uint32_t(image.rgb[i]) << 16 | std::uint32_t(image.rgb[i + 1]) << 8 | image.rgb[i + 2]);
    QVERIFY2(colours.size() > 8, std::to_string(colours.size()).c_str());
}

// The worked example of real terrain: its road and village read independently from the Tiled map
// (nlohmann-json here, Grove's shapes node there), every point checked by plain geometry.
void TestPresets::valleyKeepsItsPromises()
{
    LoadResult loaded = loadGraphFile(presetsDir().toStdString() + "/valley.grove.yaml", registry());
    QVERIFY(loaded.ok());
    EvalResult r = evaluateGraph(loaded.graph);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const auto map = nlohmann::json::parse(readFile(presetsDir().toStdString() + "/valley/roads.tmj"));
    std::vector<std::pair<double, double>> road, village;
    for (const auto &layer : map["layers"])
        for (const auto &object : layer["objects"]) {
            const double ox = object["x"].get<double>(), oy = object["y"].get<double>();
            if (object.contains("polyline"))
                for (const auto &p : object["polyline"])
                    road.emplace_back(ox + p["x"].get<double>(), oy + p["y"].get<double>());
            if (object.contains("polygon"))
                for (const auto &p : object["polygon"])
                    village.emplace_back(ox + p["x"].get<double>(), oy + p["y"].get<double>());
        }
    QVERIFY(road.size() > 10 && village.size() >= 3);
    auto insideVillage = [&](double x, double y) {
        bool in = false;
        for (size_t i = 0, j = village.size() - 1; i < village.size(); j = i++) {
            const auto [xi, yi] = village[i];
            const auto [xj, yj] = village[j];
            if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi)
                in = !in;
        }
        return in;
    };
    auto roadDistance = [&](double x, double y) {
        double best = HUGE_VAL;
        for (size_t i = 0; i + 1 < road.size(); ++i) {
            const auto [ax, ay] = road[i];
            const auto [bx, by] = road[i + 1];
            const double t = std::clamp(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)), 0.0, 1.0);
            best = std::min(best, std::hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
        }
        return best;
    };
    const auto houses = layersOf(r, {"houses"});
    QCOMPARE(houses.front()->points.size(), size_t(7));
    for (const PointXYR &h : houses.front()->points)
        QVERIFY(insideVillage(h.x, h.y));
    for (const char *id : {"rocks", "trees", "flowers"}) {
        const auto layer = layersOf(r, {id}).front();
        QVERIFY2(layer->points.size() > 300, id);
        QCOMPARE(layer->z.size(), layer->points.size());  // every point on the terrain
        for (const PointXYR &p : layer->points) {
            QVERIFY2(!insideVillage(p.x, p.y), qPrintable(QString("%1 at %2, %3 is in the village").arg(id).arg(p.x).arg(p.y)));
            // 14 clear of a road 3 wide, less the distance raster's half-diagonal of 2-unit cells
            QVERIFY2(roadDistance(p.x, p.y) > 14 + 3 - 1.5, qPrintable(QString("%1 at %2, %3 is on the road").arg(id).arg(p.x).arg(p.y)));
        }
    }
}

void TestPresets::theShippedPresets()
{
    const QStringList files = QDir(presetsDir()).entryList({"*.grove.yaml"}, QDir::Files, QDir::Name);
    for (const char *name : {"island_world", "forest_savanna", "biomes", "loot_and_camps", "scatter_methods", "valley", "endless", "caves",
                             "territories", "asteroids", "island_groups", "twin_forests"})
        QVERIFY2(files.contains(QString(name) + ".grove.yaml"), name);
}

void TestPresets::islandWorldPictureIsStable()
{
    LoadResult loaded = loadGraphFile(presetsDir().toStdString() + "/island_world.grove.yaml", registry());
    QVERIFY(loaded.ok());
    EvalResult r = evaluateGraph(loaded.graph);
    QVERIFY(r.ok());
    QCOMPARE(exportedLayers(loaded.graph, registry()), (std::vector<std::string>{"chests", "rocks", "trees", "flowers"}));
    const auto [w, h] = previewSize(loaded.graph.world, 2048);
    QCOMPARE(w, 880);
    QCOMPARE(h, 480);
    const Image image = renderPreview(loaded.graph, r, w, h);
    const std::string rgb(reinterpret_cast<const char *>(image.rgb.data()), image.rgb.size());
    QCOMPARE(QString::fromStdString(Sha256::hex(rgb)), QString(GOLDEN_ISLAND_RGB_SHA256));
}

QTEST_APPLESS_MAIN(TestPresets)
#include "tst_presets.moc"
