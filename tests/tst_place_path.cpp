// place_path: points along paths from a GeoJSON file, checked by plain geometry written here
// (distance to the polyline, side, segment angle, pair distances, margins), against layers
// placed before and after it, run twice, in a chunked world by region, and on bad input.
#include "TestSupport.h"

#include "core/analysis/LayerStats.h"
#include "core/formats/PointsExport.h"
#include "core/sampling/ChunkedLayer.h"

#include <QTemporaryDir>

#include <cmath>

using namespace grove;
using namespace grove::test;

namespace {

struct P
{
    double x, y;
};
using Line = std::vector<P>;

std::string num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string lineString(const Line &line, bool polygon = false)
{
    std::string s;
    for (const P &p : line)
        s += (s.empty() ? "[" : ", [") + num(p.x) + ", " + num(p.y) + "]";
    return polygon ? R"({"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[)" + s + ", ["
                         + num(line[0].x) + ", " + num(line[0].y) + "]]]}}"
                   : R"({"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [)" + s + "]}}";
}

std::string collection(const std::vector<std::string> &features)
{
    std::string s = R"({"type": "FeatureCollection", "features": [)";
    for (std::size_t i = 0; i < features.size(); ++i)
        s += (i ? ", " : "") + features[i];
    return s + "]}";
}

double distToSegment(P p, P a, P b)
{
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

// The nearest segment of an open polyline: (distance, index).
std::pair<double, std::size_t> nearest(P p, const Line &line)
{
    std::pair<double, std::size_t> best{HUGE_VAL, 0};
    for (std::size_t i = 0; i + 1 < line.size(); ++i)
        best = std::min(best, {distToSegment(p, line[i], line[i + 1]), i});
    return best;
}

// Pairs of points closer than `r` (brute force), across every layer given.
int pairsCloserThan(const std::vector<PointXYR> &pts)
{
    int bad = 0;
    for (std::size_t i = 0; i < pts.size(); ++i)
        for (std::size_t j = i + 1; j < pts.size(); ++j) {
            const double r = std::min(pts[i].r, pts[j].r);
            bad += (pts[i].x - pts[j].x) * (pts[i].x - pts[j].x) + (pts[i].y - pts[j].y) * (pts[i].y - pts[j].y) < r * r;
        }
    return bad;
}

double angleGap(double a, double b)
{
    return std::fabs(std::remainder(a - b, 360.0));
}

PointLayerPtr layerOf(const EvalResult &r, const std::string &node)
{
    const PointSetPtr set = outputOf<PointSetPtr>(r, node, "points");
    return set && !set->layers.empty() ? set->layers.front() : nullptr;
}

} // namespace

class TestPlacePath : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string file(const std::string &name, const std::string &text)
    {
        writeFile(m_dir.filePath(QString::fromStdString(name)).toStdString(), text);
        return name;
    }

    LoadResult loadIn(const std::string &text)
    {
        return loadGraphFromString(text, "path.grove.yaml", registry(), m_dir.path().toStdString());
    }

    EvalResult run(const std::string &text, EvalRequest request = {})
    {
        LoadResult loaded = loadIn(text);
        if (!loaded.ok())
            qFatal("%s", formatAll(loaded.diagnostics).c_str());
        return evaluateGraph(loaded.graph, request);
    }

    static std::string pathGraph(const std::string &file, const std::string &params, const std::string &world = "width: 300, height: 200")
    {
        return "grove: 1\nworld: {" + world + ", seed: 11}\nnodes:\n  p:\n    type: place_path\n    params: {path: " + file
               + (params.empty() ? "" : ", " + params) + "}\n";
    }

    // houses (place_layer) -> p (place_path on `pathParams`) -> trees (place_layer), one occupancy
    static std::string chainGraph(const std::string &world, double houses, const std::string &pathParams, double trees)
    {
        return "grove: 1\nworld: {" + world + ", seed: 5}\nnodes:\n  houses: {type: place_layer, params: {radius: " + num(houses)
               + "}}\n  p: {type: place_path, inputs: {obstacles: houses.all}, params: {path: " + pathParams
               + "}}\n  trees: {type: place_layer, inputs: {obstacles: p.all}, params: {radius: " + num(trees) + ", seed: 3}}\n";
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // An L with a sharp 20-degree corner: every point stands `offset` to the left of the segment it
    // belongs to (exactly, away from the corner), turns with that segment plus the angle, keeps
    // the radius from every other point (also across the corner) and out of the margins.
    void pointsStandBesideThePathTurnedAlongIt()
    {
        const double pi = std::acos(-1.0), c = std::cos(160 * pi / 180), s = std::sin(160 * pi / 180);
        const Line line{{30, 60}, {250, 60}, {250 + 210 * c, 60 + 210 * s}};
        const double offset = 3, r = 8, angle = 15, startMargin = 30, endMargin = 40;
        const std::string graph = pathGraph(file("l.geojson", collection({lineString(line)})),
                                            "radius: 8, jitter: 0.5, offset: 3, angle: 15, start_margin: 30, end_margin: 40");
        const EvalResult result = run(graph);
        QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
        const PointLayerPtr layer = layerOf(result, "p");
        QVERIFY(layer && layer->points.size() > 30);
        double nearestStart = HUGE_VAL, nearestEnd = HUGE_VAL;
        int away = 0;
        for (std::size_t i = 0; i < layer->points.size(); ++i) {
            const P p{layer->points[i].x, layer->points[i].y};
            const auto [d, seg] = nearest(p, line);
            QVERIFY2(d <= offset + 1e-6, qPrintable(QString("point %1 is %2 from the path").arg(i).arg(d)));
            // the margins, measured along the straight first and last segments
            const P a = line[0], b = line[1], e = line[2], f = line[1];
            const double along0 = ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y)) / std::hypot(b.x - a.x, b.y - a.y);
            const double alongEnd = ((p.x - e.x) * (f.x - e.x) + (p.y - e.y) * (f.y - e.y)) / std::hypot(f.x - e.x, f.y - e.y);
            if (seg == 0)
                nearestStart = std::min(nearestStart, along0);
            if (seg == 1)
                nearestEnd = std::min(nearestEnd, alongEnd);
            if (std::hypot(p.x - line[1].x, p.y - line[1].y) < offset / std::tan(10 * pi / 180) + offset + r)
                continue;  // near the corner the inner row may stand closer to the other leg
            ++away;
            QVERIFY2(std::fabs(d - offset) < 1e-6, qPrintable(QString("point %1 is %2 from the path").arg(i).arg(d)));
            const P u = line[seg], v = line[seg + 1];
            const double cross = (v.x - u.x) * (p.y - u.y) - (v.y - u.y) * (p.x - u.x);
            QVERIFY2(cross < 0, "a point stands right of its segment (y down), not left");
            const double want = std::atan2(v.y - u.y, v.x - u.x) * 180 / pi + angle;
            const double got = layer->attributes(layer->idOf(i)).rotation;
            QVERIFY2(angleGap(got, want) < 1e-9, qPrintable(QString("turned %1, the segment and angle say %2").arg(got).arg(want)));
        }
        QVERIFY(away > 20);
        // along the straight first leg nothing refuses a candidate: steps are r x (1 + jitter x u), u in [0, 1)
        std::vector<double> along;
        for (const PointXYR &q : layer->points)
            if (nearest({q.x, q.y}, line).second == 0 && q.x < line[1].x - 40)
                along.push_back(q.x - line[0].x);
        std::sort(along.begin(), along.end());
        QVERIFY(along.size() > 10);
        for (std::size_t k = 1; k < along.size(); ++k)
            QVERIFY2(along[k] - along[k - 1] >= r - 1e-9 && along[k] - along[k - 1] < r * 1.5 + 1e-9,
                     qPrintable(QString("a step of %1").arg(along[k] - along[k - 1])));
        QVERIFY2(nearestStart >= startMargin - 1e-9 && nearestStart < startMargin + 1e-6, qPrintable(QString::number(nearestStart)));
        QVERIFY2(nearestEnd >= endMargin - 1e-9 && nearestEnd < endMargin + r * 1.5 + 1e-6, qPrintable(QString::number(nearestEnd)));
        QCOMPARE(pairsCloserThan(layer->points), 0);
    }

    // A path that turns back beside itself, two paths crossing, and a closed polygon, in two rows:
    // no two points closer than the radius anywhere.
    void theRadiusHoldsWherePathsMeet()
    {
        const std::string f = file("meet.geojson", collection({lineString({{20, 40}, {260, 40}, {260, 46}, {20, 46}}),
                                                               lineString({{20, 110}, {280, 170}}), lineString({{20, 170}, {280, 110}}),
                                                               lineString({{120, 70}, {200, 70}, {160, 100}}, true)}));
        const EvalResult result = run(pathGraph(f, "radius: 10, jitter: 0.3, offset: 2, side: both"));
        QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
        const PointLayerPtr layer = layerOf(result, "p");
        QVERIFY(layer && layer->points.size() > 60);
        QCOMPARE(pairsCloserThan(layer->points), 0);
        QVERIFY(layer->tally.tooClose > 10);  // the meetings were there to refuse candidates
    }

    // Houses placed before keep the fence off them; trees placed after keep off the fence.
    void earlierLayersKeepThePathOffAndLaterOnesKeepOffIt()
    {
        const std::string f = file("road.geojson", collection({lineString({{10, 100}, {150, 60}, {290, 140}})}));
        const EvalResult result = run(chainGraph("width: 300, height: 200", 40, f + ", radius: 7, offset: 5, side: both", 12));
        QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
        const PointLayerPtr houses = layerOf(result, "houses"), fence = layerOf(result, "p"), trees = layerOf(result, "trees");
        QVERIFY(houses && fence && trees && !fence->points.empty() && !trees->points.empty());
        std::vector<PointXYR> all = houses->points;
        all.insert(all.end(), fence->points.begin(), fence->points.end());
        QCOMPARE(pairsCloserThan(all), 0);
        QVERIFY(fence->tally.tooClose > 0);  // houses stood on the road
        all.insert(all.end(), trees->points.begin(), trees->points.end());
        QCOMPARE(pairsCloserThan(all), 0);
        const PointSetPtr chain = outputOf<PointSetPtr>(result, "p", "all");
        QVERIFY(chain && chain->layers.size() == 2 && chain->layers[0] == houses && chain->layers[1] == fence);
    }

    // The layer's widest clearing (the preview's dashed circle, --stats) is a gap along the road,
    // where the houses broke the fence, not the open land around it.
    void theWidestClearingIsAGapAlongThePath()
    {
        const Line road{{10, 100}, {150, 60}, {290, 140}};
        const std::string f = file("gap.geojson", collection({lineString(road)}));
        const EvalResult result = run(chainGraph("width: 300, height: 200", 40, f + ", radius: 7, offset: 5, side: both", 12));
        QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
        const PointLayerPtr fence = layerOf(result, "p");
        QVERIFY(fence && !fence->points.empty());
        World world;
        world.width = 300;
        world.height = 200;
        const LayerStats stats = computeLayerStats(result, "p", fence, world);
        QVERIFY(stats.clearingDiameter > 0);
        QVERIFY2(nearest({stats.clearingX, stats.clearingY}, road).first <= 5 + 7 + 1e-9,
                 qPrintable(QString("clearing at %1, %2").arg(stats.clearingX).arg(stats.clearingY)));
        QVERIFY2(stats.clearingDiameter <= 2 * (5 + 7) + 1e-9, qPrintable(QString::number(stats.clearingDiameter)));
    }

    // Hand-placed houses (points_file, keep_radius) keep the fence their own radius away, not the
    // fence's smaller one.
    void handPlacedHousesKeepTheirOwnRadius()
    {
        const std::string f = file("lane.geojson", collection({lineString({{10, 100}, {290, 100}})}));
        file("houses.csv", "x,y,r\n80,110,25\n200,90,30\n");
        const EvalResult result = run("grove: 1\nworld: {width: 300, height: 200, seed: 5}\nnodes:\n"
                                      "  houses: {type: points_file, params: {path: houses.csv}}\n"
                                      "  p: {type: place_path, inputs: {obstacles: houses}, params: {path: " + f + ", radius: 5}}\n");
        QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
        const PointLayerPtr fence = layerOf(result, "p");
        QVERIFY(fence && fence->points.size() > 20);
        for (const PointXYR &p : fence->points) {
            QVERIFY2(std::hypot(p.x - 80, p.y - 110) >= 25, qPrintable(QString("a post at %1, %2").arg(p.x).arg(p.y)));
            QVERIFY2(std::hypot(p.x - 200, p.y - 90) >= 30, qPrintable(QString("a post at %1, %2").arg(p.x).arg(p.y)));
        }
    }

    // The same graph and seed give the same bytes; another seed moves jittered points; an edit to
    // one path, or a path added before another, leaves the other path's points, ids and turns be.
    void deterministicAndLocal()
    {
        const Line far{{200, 150}, {290, 190}};
        const std::string a = file("a.geojson", collection({lineString({{10, 10}, {100, 30}}), lineString(far)}));
        const std::string b = file("b.geojson", collection({lineString({{10, 12}, {60, 50}, {110, 20}}), lineString(far)}));
        const std::string c = file("c.geojson", collection({lineString({{20, 80}, {60, 80}}), lineString({{10, 10}, {100, 30}}),
                                                            lineString(far)}));
        const std::string params = "radius: 6, jitter: 1, types: [{name: oak, weight: 1}, {name: elm, weight: 2}], rotation: [0, 30]";
        LoadResult la = loadIn(pathGraph(a, params));
        QVERIFY(la.ok());
        const std::string once = exportJson(la.graph, "a"), twice = exportJson(la.graph, "a");
        QVERIFY2(once.rfind("failed", 0) != 0 && once.rfind("no export", 0) != 0, once.c_str());
        QCOMPARE(once, twice);
        LoadResult other = loadIn(pathGraph(a, params + ", seed: 9"));
        QVERIFY(other.ok() && exportJson(other.graph, "a") != once);

        struct Seen
        {
            std::vector<std::uint64_t> ids;
            std::vector<double> xs, turns;
            std::vector<int> types;
            bool operator==(const Seen &) const = default;
        };
        auto farPoints = [&](const std::string &f) {
            const EvalResult r = run(pathGraph(f, params));
            Seen seen;
            const PointLayerPtr l = layerOf(r, "p");
            for (std::size_t i = 0; l && i < l->points.size(); ++i)
                if (l->points[i].x > 150) {
                    const PointAttributes at = l->attributes(l->idOf(i));
                    seen.ids.push_back(l->idOf(i));
                    seen.xs.push_back(l->points[i].x + 1e3 * l->points[i].y);
                    seen.turns.push_back(at.rotation);
                    seen.types.push_back(at.type);
                }
            return seen;
        };
        const Seen base = farPoints(a);
        QVERIFY(base.ids.size() >= 6);
        QVERIFY(base == farPoints(b));
        QVERIFY(base == farPoints(c));
    }

    // A chunked world: the path layer is the same whether the world is placed whole or asked for
    // chunk by chunk, and the chunked layers before and after it keep clear of it in every chunk.
    // An endless world takes place_path on its own.
    void chunkedWorldsGiveTheSamePoints()
    {
        const std::string f = file("chunks.geojson", collection({lineString({{5, 20}, {295, 180}}), lineString({{5, 180}, {150, 30}, {295, 190}})}));
        const std::string graph = chainGraph("width: 300, height: 200, chunk: 100", 20, f + ", radius: 6, jitter: 0.4", 9);
        const EvalResult whole = run(graph);
        QVERIFY2(whole.ok(), formatAll(whole.diagnostics).c_str());
        EvalRequest lazy;
        lazy.limits.placeWholeWorld = false;
        const EvalResult byChunk = run(graph, lazy);
        QVERIFY2(byChunk.ok(), formatAll(byChunk.diagnostics).c_str());
        const PointLayerPtr fence = layerOf(whole, "p");
        QVERIFY(fence && fence->points.size() > 40);
        std::size_t seen = 0;
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 3; ++i) {
                const Region region{i * 100.0, j * 100.0, (i + 1) * 100.0, (j + 1) * 100.0};
                auto wholePart = layerInRegion(*fence, region, 1);
                auto part = layerInRegion(*layerOf(byChunk, "p"), region, 1);
                QVERIFY(wholePart && part);
                QCOMPARE(part->ids, wholePart->ids);
                QCOMPARE(part->points.size(), wholePart->points.size());
                for (std::size_t k = 0; k < part->points.size(); ++k)
                    QVERIFY(part->points[k].x == wholePart->points[k].x && part->points[k].y == wholePart->points[k].y);
                seen += part->points.size();
                // the lazy neighbours in this chunk and around it keep clear of the path
                const Region around{region.x0 - 20, region.y0 - 20, region.x1 + 20, region.y1 + 20};
                std::vector<PointXYR> all = part->points;
                for (const char *n : {"houses", "trees"}) {
                    auto l = layerInRegion(*layerOf(byChunk, n), around, 1);
                    QVERIFY(l);
                    all.insert(all.end(), l->points.begin(), l->points.end());
                }
                QCOMPARE(pairsCloserThan(all), 0);
            }
        QCOMPARE(seen, fence->points.size());

        const EvalResult endless = run(pathGraph(f, "radius: 6", "chunk: 100"));
        QVERIFY2(endless.ok(), formatAll(endless.diagnostics).c_str());
        QCOMPARE(layerOf(endless, "p")->points.size(), layerOf(run(pathGraph(f, "radius: 6", "width: 1000, height: 1000")), "p")->points.size());
    }

    // An endless world: the houses before the path are placed only near it, and the path keeps
    // clear of them; the trees after it keep clear of the path in every chunk. A second path far
    // away changes none of the first one's points, whatever the threads; a path beyond the chunks
    // the world numbers is refused at the path. A node that cannot take
    // an endless layer is refused where the path's chain, which still holds the houses, is wired in.
    void endlessWorldsPlaceTheLayersBeforeNearThePath()
    {
        const std::string f = file("endless.geojson", collection({lineString({{-150, 20}, {295, 180}}), lineString({{5, 180}, {150, -30}, {295, 190}})}));
        const std::string far = file("far.geojson", collection({lineString({{-150, 20}, {295, 180}}), lineString({{5, 180}, {150, -30}, {295, 190}}),
                                                                lineString({{5000, 5000}, {5600, 5300}})}));
        const std::string graph = chainGraph("chunk: 100", 20, f + ", radius: 6, jitter: 0.4", 9);
        const EvalResult result = run(graph);
        QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
        const PointLayerPtr fence = layerOf(result, "p");
        QVERIFY(fence && fence->points.size() > 40);
        const Region around{-200, -80, 350, 240};
        std::vector<PointXYR> all = fence->points;
        for (const char *n : {"houses", "trees"}) {
            auto l = layerInRegion(*layerOf(result, n), around, 1);
            QVERIFY(l && l->points.size() > 20);
            all.insert(all.end(), l->points.begin(), l->points.end());
        }
        QCOMPARE(pairsCloserThan(all), 0);
        // the houses did refuse candidates: alone, the path holds more points
        const EvalResult alone = run(pathGraph(f, "radius: 6, jitter: 0.4", "chunk: 100"));
        QVERIFY2(alone.ok(), formatAll(alone.diagnostics).c_str());
        QVERIFY(layerOf(alone, "p")->points.size() > fence->points.size());

        EvalRequest oneThread;
        oneThread.limits.threads = 1;
        const EvalResult farther = run(chainGraph("chunk: 100", 20, far + ", radius: 6, jitter: 0.4", 9), oneThread);
        QVERIFY2(farther.ok(), formatAll(farther.diagnostics).c_str());
        const auto near = layerInRegion(*layerOf(farther, "p"), around, 1);
        QVERIFY(near && layerOf(farther, "p")->points.size() > near->points.size());
        QCOMPARE(near->ids, fence->ids);
        for (std::size_t k = 0; k < fence->points.size(); ++k)
            QVERIFY(near->points[k].x == fence->points[k].x && near->points[k].y == fence->points[k].y);

        // a path out where the endless world's chunks end is refused at the path, placing nothing
        const std::string beyond = file("beyond.geojson", collection({lineString({{0, 0}, {100, 0}}), lineString({{4e6, 0}, {4e6, 100}})}));
        const EvalResult outside = run(chainGraph("chunk: 100", 20, beyond + ", radius: 6", 9));
        QVERIFY(!outside.ok() && !layerOf(outside, "p"));
        const std::string why = formatAll(outside.diagnostics);
        QVERIFY2(why.find("nodes.p.params.path") != std::string::npos && why.find("beyond chunk 32768") != std::string::npos, why.c_str());

        LoadResult refused = loadIn(graph + "  d: {type: distance, inputs: {points: p.all}}\n");
        QVERIFY(!refused.ok());
        const std::string text = formatAll(refused.diagnostics);
        QVERIFY2(text.find("nodes.d.inputs.points") != std::string::npos && text.find("p.all") != std::string::npos, text.c_str());
        QVERIFY2(text.find("nodes.p.inputs") == std::string::npos, text.c_str());
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("contents");  // empty: no file written
        QTest::addColumn<QString>("where");     // the diagnostic's YAML path
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << "path: nowhere.geojson" << "" << "nodes.p.params.path" << "nowhere.geojson";
        QTest::newRow("empty file") << "path: bad.geojson" << " " << "nodes.p.params.path" << "bad.geojson";
        QTest::newRow("no paths") << "path: bad.geojson" << R"({"type": "FeatureCollection", "features": []})"
                                  << "nodes.p.params.path" << "holds no paths";
        QTest::newRow("one vertex") << "path: bad.geojson" << R"({"type": "Point", "coordinates": [4, 5]})"
                                    << "nodes.p.params.path" << "is a single point";
        QTest::newRow("no length") << "path: bad.geojson" << R"({"type": "LineString", "coordinates": [[4, 5], [4, 5], [4, 5]]})"
                                   << "nodes.p.params.path" << "has no length";
        QTest::newRow("not a number") << "path: bad.geojson" << R"({"type": "LineString", "coordinates": [[4, 5], [1e999, 5]]})"
                                      << "nodes.p.params.path" << "bad.geojson";
        QTest::newRow("a Tiled point") << "path: bad.tmj, layer: roads"
                                       << R"({"type": "map", "orientation": "orthogonal", "layers": [{"type": "objectgroup", "name": "roads", )"
                                          R"("objects": [{"id": 2, "name": "lane", "x": 0, "y": 0, "polyline": [{"x": 0, "y": 0}, {"x": 50, "y": 9}]}, )"
                                          R"({"id": 3, "name": "well", "x": 40, "y": 30, "point": true}]}]})"
                                       << "nodes.p.params.path" << "object 3 \"well\" is a single point";
        QTest::newRow("not a shapes file") << "path: bad.csv" << "x,y\n1,2\n" << "nodes.p.params.path" << "Tiled map";
        QTest::newRow("radius zero") << "path: ok.geojson, radius: 0" << "" << "nodes.p.params.radius" << "";
        QTest::newRow("radius huge") << "path: ok.geojson, radius: 1e9" << "" << "nodes.p.params.radius" << "";
        QTest::newRow("radius nan") << "path: ok.geojson, radius: .nan" << "" << "nodes.p.params.radius" << "";
        QTest::newRow("jitter above 1") << "path: ok.geojson, jitter: 2" << "" << "nodes.p.params.jitter" << "";
        QTest::newRow("too many points") << "path: long.geojson, radius: 0.000001" << "" << "nodes.p.params.radius" << "points a row";
    }

    // Each is refused with a message at the param that is wrong (its YAML path, which grove-cli
    // turns into FILE:LINE:COL); nothing is placed, nothing crashes.
    void badInput()
    {
        QFETCH(QString, params);
        QFETCH(QString, contents);
        QFETCH(QString, where);
        QFETCH(QString, message);
        QFile::remove(m_dir.filePath("bad.geojson"));
        if (!contents.isEmpty())
            file(params.contains(".csv") ? "bad.csv" : params.contains(".tmj") ? "bad.tmj" : "bad.geojson", contents.toStdString());
        file("ok.geojson", collection({lineString({{1, 1}, {50, 50}})}));
        file("long.geojson", collection({lineString({{0, 0}, {300, 200}})}));
        const std::string text = "grove: 1\nworld: {width: 300, height: 200, seed: 1}\nnodes:\n  p:\n    type: place_path\n    params: {"
                                 + params.toStdString() + "}\n";
        Diagnostics diagnostics;
        LoadResult loaded = loadIn(text);
        if (loaded.ok()) {
            const EvalResult r = evaluateGraph(loaded.graph);
            QVERIFY(!r.ok());
            QVERIFY(!layerOf(r, "p"));
            diagnostics = r.diagnostics;
        } else {
            diagnostics = loaded.diagnostics;
        }
        bool found = false;
        for (const Diagnostic &d : diagnostics)
            found = found || (d.path == where.toStdString() && d.message.find(message.toStdString()) != std::string::npos);
        QVERIFY2(found, formatAll(diagnostics).c_str());
    }
};

QTEST_APPLESS_MAIN(TestPlacePath)
#include "tst_place_path.moc"
