// The shapes and points_file nodes: every geometry kind parsed from hand-written Tiled maps and
// GeoJSON, the mask against brute force (crossing number, distance to segments, ellipses) on
// thousands of random points, placement that keeps out of villages and off roads, placements
// read back from each format (and from Grove's own Tiled export through grove-cli), houses as
// obstacles, and every bad file a located error with nothing written.
#include "TestSupport.h"
#include "core/base/NumberText.h"

#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <random>

using namespace grove;
using namespace grove::test;

namespace {

struct P
{
    double x, y;
};

// The references, written here from the definitions, not taken from the code under test.
bool pnpoly(const std::vector<std::vector<P>> &rings, double x, double y)
{
    bool c = false;
    for (const auto &v : rings)
        for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
            if (((v[i].y > y) != (v[j].y > y)) && (x < (v[j].x - v[i].x) * (y - v[i].y) / (v[j].y - v[i].y) + v[i].x))
                c = !c;
    return c;
}

double segmentDistance(P p, P a, P b)
{
    const double vx = b.x - a.x, vy = b.y - a.y, wx = p.x - a.x, wy = p.y - a.y;
    const double c1 = vx * wx + vy * wy, c2 = vx * vx + vy * vy;
    if (c1 <= 0 || c2 == 0)
        return std::hypot(p.x - a.x, p.y - a.y);
    if (c2 <= c1)
        return std::hypot(p.x - b.x, p.y - b.y);
    const double t = c1 / c2;
    return std::hypot(p.x - (a.x + t * vx), p.y - (a.y + t * vy));
}

double polylineDistance(P p, const std::vector<P> &line)
{
    if (line.size() == 1)
        return std::hypot(p.x - line[0].x, p.y - line[0].y);
    double d = INFINITY;
    for (size_t i = 0; i + 1 < line.size(); ++i)
        d = std::min(d, segmentDistance(p, line[i], line[i + 1]));
    return d;
}

// (x, y) turned by deg clockwise (y down) about (ox, oy)
P turn(double ox, double oy, double dx, double dy, double deg)
{
    const double a = deg * M_PI / 180;
    return {ox + dx * std::cos(a) - dy * std::sin(a), oy + dx * std::sin(a) + dy * std::cos(a)};
}

// A reference world: polygons (rings), lines (distance < width), ellipses.
struct Reference
{
    std::vector<std::vector<std::vector<P>>> polygons;
    std::vector<std::vector<P>> lines;
    struct E
    {
        double cx, cy, a, b, deg;
    };
    std::vector<E> ellipses;
    double width = 0;

    bool covered(double x, double y) const
    {
        for (const auto &p : polygons)
            if (pnpoly(p, x, y))
                return true;
        for (const auto &l : lines)
            if (polylineDistance({x, y}, l) < width)
                return true;
        for (const auto &e : ellipses) {
            const double r = -e.deg * M_PI / 180, dx = x - e.cx, dy = y - e.cy;
            const double u = dx * std::cos(r) - dy * std::sin(r), v = dx * std::sin(r) + dy * std::cos(r);
            if ((u / e.a) * (u / e.a) + (v / e.b) * (v / e.b) < 1)
                return true;
        }
        return false;
    }
    // how far (x, y) lies from any boundary: disagreements closer than rounding are not failures
    double margin(double x, double y) const
    {
        double m = INFINITY;
        for (const auto &p : polygons)
            for (const auto &ring : p)
                for (size_t i = 0; i < ring.size(); ++i)
                    m = std::min(m, segmentDistance({x, y}, ring[i], ring[(i + 1) % ring.size()]));
        for (const auto &l : lines)
            m = std::min(m, std::abs(polylineDistance({x, y}, l) - width));
        return m;
    }
};

} // namespace

class TestShapes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const std::string &name) const { return m_dir.path().toStdString() + "/" + name; }

    static std::string world(double w = 200, double h = 150) { return "grove: 1\nworld: {width: " + formatNumber(w) + ", height: " + formatNumber(h) + ", seed: 5}\nnodes:\n"; }

    // Evaluates `text` saved as g.grove.yaml in the temporary folder; the result, or the first
    // located diagnostic in `problem`.
    std::optional<EvalResult> run(const std::string &text, std::string *problem = nullptr)
    {
        const std::string file = path("g.grove.yaml");
        writeFile(file, text);
        LoadResult loaded = loadGraphFile(file, registry());
        if (!loaded.ok()) {
            if (problem)
                *problem = loaded.diagnostics.front().format();
            return std::nullopt;
        }
        Evaluator ev(registry());
        EvalResult r = ev.evaluate(loaded.graph);
        if (!r.ok()) {
            if (problem) {
                Diagnostic d = r.diagnostics.front();
                d.file = file;
                locate(loaded, d);
                *problem = d.format();
            }
            return std::nullopt;
        }
        return r;
    }

    MaskPtr maskOf(const std::string &file, const std::string &params, std::string *problem = nullptr)
    {
        auto r = run(world() + "  shp:\n    type: shapes\n    params: {path: \"" + file + "\"" + (params.empty() ? "" : ", " + params) + "}\n",
                     problem);
        return r ? std::get<MaskPtr>(r->output("shp")) : nullptr;
    }

    std::vector<PointXYR> pointsOf(const std::string &file, const std::string &params, std::string *problem = nullptr)
    {
        auto r = run(world() + "  pts:\n    type: points_file\n    params: {path: \"" + file + "\"" + (params.empty() ? "" : ", " + params) + "}\n",
                     problem);
        if (!r)
            return {{-1, -1, -1}};
        const auto set = std::get<PointSetPtr>(r->output("pts"));
        return set->layers.at(0)->points;
    }

    // The mask against the reference at n random points over [x0, x1) x [y0, y1).
    void compare(const Mask &mask, const Reference &ref, bool invert, int n, double x0, double y0, double x1, double y1,
                 int *insideCount = nullptr)
    {
        std::mt19937_64 rng(12345);
        std::uniform_real_distribution<double> ux(x0, x1), uy(y0, y1);
        int in = 0, skipped = 0;
        for (int i = 0; i < n; ++i) {
            const double x = ux(rng), y = uy(rng);
            const bool want = ref.covered(x, y) != invert;
            in += want != invert;
            if (mask.at(x, y) != want) {
                if (ref.margin(x, y) < 1e-9) {
                    ++skipped;
                    continue;
                }
                QFAIL(qPrintable(QString("at (%1, %2): mask %3, brute force %4").arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)
                                     .arg(mask.at(x, y)).arg(want)));
            }
        }
        QVERIFY(skipped <= 2);
        if (insideCount)
            *insideCount = in;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void tiledObjectsOfEveryKind()
    {
        // polygon (turned 30 degrees), polyline, point, rectangle (turned 90), ellipse (turned 20),
        // a layer offset inside a group, and a second layer that must not be read
        const std::string map = R"({"type": "map", "version": "1.10", "orientation": "orthogonal", "width": 10, "height": 10,
  "tilewidth": 20, "tileheight": 20, "layers": [
  {"type": "tilelayer", "name": "ground", "data": []},
  {"type": "group", "name": "g", "offsetx": 5, "offsety": -3, "layers": [
   {"type": "objectgroup", "name": "zones", "offsetx": 1, "offsety": 2, "objects": [
    {"id": 1, "name": "village", "x": 40, "y": 30, "rotation": 30, "polygon": [{"x": 0, "y": 0}, {"x": 50, "y": 0}, {"x": 60, "y": 30}, {"x": 20, "y": 45}, {"x": -10, "y": 20}]},
    {"id": 2, "name": "road", "x": 10, "y": 120, "polyline": [{"x": 0, "y": 0}, {"x": 80, "y": -20}, {"x": 170, "y": 10}]},
    {"id": 3, "name": "well", "x": 150, "y": 40, "point": true, "width": 0, "height": 0},
    {"id": 4, "name": "field", "x": 170, "y": 60, "width": 25, "height": 12, "rotation": 90},
    {"id": 5, "name": "pond", "x": 100, "y": 70, "width": 40, "height": 16, "rotation": 20, "ellipse": true}]}]},
  {"type": "objectgroup", "name": "other", "objects": [{"id": 9, "x": 0, "y": 0, "width": 200, "height": 150}]}]})";
        writeFile(path("kinds.tmj"), map);
        const double ox = 6, oy = -1;  // group + layer offsets
        Reference ref;
        ref.width = 3.5;
        std::vector<P> village;
        for (P v : std::vector<P>{{0, 0}, {50, 0}, {60, 30}, {20, 45}, {-10, 20}})
            village.push_back(turn(40 + ox, 30 + oy, v.x, v.y, 30));
        ref.polygons.push_back({village});
        ref.lines.push_back({{10 + ox, 120 + oy}, {90 + ox, 100 + oy}, {180 + ox, 130 + oy}});
        ref.lines.push_back({{150 + ox, 40 + oy}});
        ref.polygons.push_back({{turn(170 + ox, 60 + oy, 0, 0, 90), turn(170 + ox, 60 + oy, 25, 0, 90), turn(170 + ox, 60 + oy, 25, 12, 90),
                                 turn(170 + ox, 60 + oy, 0, 12, 90)}});
        const P pondCentre = turn(100 + ox, 70 + oy, 20, 8, 20);
        ref.ellipses.push_back({pondCentre.x, pondCentre.y, 20, 8, 20});
        std::string problem;
        MaskPtr mask = maskOf("kinds.tmj", "layer: zones, width: 3.5", &problem);
        QVERIFY2(mask, problem.c_str());
        int inside = 0;
        compare(*mask, ref, false, 40000, -20, -20, 220, 170, &inside);
        QVERIFY(inside > 3000);  // every kind is there to be hit
        QVERIFY(mask->at(village[0].x * 0.5 + village[2].x * 0.5, village[0].y * 0.5 + village[2].y * 0.5));
        QVERIFY(mask->at(pondCentre.x, pondCentre.y));
        QVERIFY(mask->at(150 + ox + 3.4, 40 + oy));
        QVERIFY(!mask->at(150 + ox + 3.6, 40 + oy));
        QVERIFY(mask->at(170 + ox - 6, 60 + oy + 12));   // the field turned 90: it lies left of its x
        QVERIFY(!mask->at(170 + ox + 6, 60 + oy + 6));
        // inverted, scaled and moved
        mask = maskOf("kinds.tmj", "layer: zones, width: 3.5, invert: true", &problem);
        QVERIFY2(mask, problem.c_str());
        compare(*mask, ref, true, 20000, -20, -20, 220, 170);
        mask = maskOf("kinds.tmj", "layer: zones, width: 7, scale: 2, offset_x: -30, offset_y: 11", &problem);
        QVERIFY2(mask, problem.c_str());
        Reference big = ref;
        big.width = 7;
        auto map2 = [](P p) { return P{-30 + 2 * p.x, 11 + 2 * p.y}; };
        for (auto &poly : big.polygons)
            for (auto &ring : poly)
                for (P &v : ring)
                    v = map2(v);
        for (auto &l : big.lines)
            for (P &v : l)
                v = map2(v);
        for (auto &e : big.ellipses) {
            const P c = map2({e.cx, e.cy});
            e = {c.x, c.y, e.a * 2, e.b * 2, e.deg};
        }
        compare(*mask, big, false, 40000, -60, -20, 440, 360);
    }

    void geoJsonOfEveryKind()
    {
        const std::string geo = R"({"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {"name": "town"}, "geometry": {"type": "Polygon", "coordinates": [
    [[20, 20], [120, 25], [110, 100], [30, 90], [20, 20]],
    [[50, 40], [80, 45], [70, 70], [50, 40]]]}},
  {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [
    [[[150, 10], [190, 10], [190, 40], [150, 40], [150, 10]]],
    [[[150, 100], [195, 120], [160, 140], [150, 100]], [[158, 110], [170, 118], [162, 126], [158, 110]]]]}},
  {"type": "Feature", "properties": null, "geometry": {"type": "LineString", "coordinates": [[0, 130], [60, 110], [140, 145]]}},
  {"type": "Feature", "properties": null, "geometry": {"type": "MultiLineString", "coordinates": [[[130, 50], [140, 90]], [[5, 5], [15, 60], [5, 100]]]}},
  {"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [100, 130, 7]}},
  {"type": "Feature", "properties": null, "geometry": {"type": "MultiPoint", "coordinates": [[180, 70], [140, 5]]}},
  {"type": "Feature", "properties": {"name": "overlaps the town"}, "geometry": {"type": "Polygon", "coordinates": [[[100, 60], [140, 60], [140, 90], [100, 90], [100, 60]]]}},
  {"type": "Feature", "properties": null, "geometry": null}]})";
        writeFile(path("kinds.geojson"), geo);
        Reference ref;
        ref.width = 4;
        ref.polygons.push_back({{{20, 20}, {120, 25}, {110, 100}, {30, 90}}, {{50, 40}, {80, 45}, {70, 70}}});
        ref.polygons.push_back({{{150, 10}, {190, 10}, {190, 40}, {150, 40}}});
        ref.polygons.push_back({{{150, 100}, {195, 120}, {160, 140}}, {{158, 110}, {170, 118}, {162, 126}}});
        ref.polygons.push_back({{{100, 60}, {140, 60}, {140, 90}, {100, 90}}});
        ref.lines = {{{0, 130}, {60, 110}, {140, 145}}, {{130, 50}, {140, 90}}, {{5, 5}, {15, 60}, {5, 100}}, {{100, 130}}, {{180, 70}}, {{140, 5}}};
        std::string problem;
        MaskPtr mask = maskOf("kinds.geojson", "width: 4", &problem);
        QVERIFY2(mask, problem.c_str());
        int inside = 0;
        compare(*mask, ref, false, 50000, -10, -10, 210, 160, &inside);
        QVERIFY(inside > 10000);
        QVERIFY(!mask->at(65, 50));  // in the town's hole
        QVERIFY(mask->at(40, 50));
        QVERIFY(!mask->at(163, 118));  // in the second polygon's hole
        QVERIFY(mask->at(105, 70));    // where two polygons overlap: a union, not even-odd
        mask = maskOf("kinds.geojson", "width: 4, invert: true", &problem);
        QVERIFY2(mask, problem.c_str());
        compare(*mask, ref, true, 20000, -10, -10, 210, 160);
        // width 0: lines and points cover nothing
        mask = maskOf("kinds.geojson", "width: 0", &problem);
        QVERIFY2(mask, problem.c_str());
        ref.width = 0;
        compare(*mask, ref, false, 20000, -10, -10, 210, 160);
    }

    void manyVerticesAgainstBruteForce()
    {
        // a star of 6000 vertices, a hole in it, and a long winding road: many buckets
        std::string coords, hole, road;
        std::vector<P> star, holeRing, roadLine;
        for (int i = 0; i < 6000; ++i) {
            const double a = 2 * M_PI * i / 6000, r = 300 + (i % 2 ? 120 : 0) + 40 * std::sin(a * 7);
            star.push_back({500 + r * std::cos(a), 500 + r * std::sin(a)});
        }
        for (int i = 0; i < 50; ++i) {
            const double a = -2 * M_PI * i / 50;
            holeRing.push_back({520 + 90 * std::cos(a), 480 + 60 * std::sin(a)});
        }
        for (int i = 0; i < 3000; ++i)
            roadLine.push_back({i * 0.33, 500 + 300 * std::sin(i * 0.01) + (i % 3) * 0.7});
        auto ring = [](const std::vector<P> &v, bool close) {
            std::string s = "[";
            for (size_t i = 0; i < v.size(); ++i)
                s += (i ? ", [" : "[") + formatNumber(v[i].x) + ", " + formatNumber(v[i].y) + "]";
            if (close)
                s += ", [" + formatNumber(v[0].x) + ", " + formatNumber(v[0].y) + "]";
            return s + "]";
        };
        writeFile(path("star.geojson"), R"({"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [)"
                                            + ring(star, true) + ", " + ring(holeRing, true) + "]}}, "
                                            + R"({"type": "Feature", "geometry": {"type": "LineString", "coordinates": )" + ring(roadLine, false) + "}}]}");
        // the reference sees the same doubles the file holds
        auto reread = [](std::vector<P> &v) {
            for (P &p : v) {  // what a reader makes of the text, in any locale
                parseNumber(formatNumber(p.x), p.x);
                parseNumber(formatNumber(p.y), p.y);
            }
        };
        reread(star);
        reread(holeRing);
        reread(roadLine);
        Reference ref;
        ref.width = 2.5;
        ref.polygons.push_back({star, holeRing});
        ref.lines.push_back(roadLine);
        std::string problem;
        MaskPtr mask = maskOf("star.geojson", "width: 2.5", &problem);
        QVERIFY2(mask, problem.c_str());
        compare(*mask, ref, false, 20000, 0, 0, 1000, 1000);
    }

    void placementKeepsOutOfTheVillageAndOffTheRoad()
    {
        const std::string geo = R"({"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {"name": "village"}, "geometry": {"type": "Polygon", "coordinates": [[[60, 30], [150, 40], [140, 100], [90, 80], [70, 110], [60, 30]]]}},
  {"type": "Feature", "properties": {"name": "road"}, "geometry": {"type": "LineString", "coordinates": [[0, 75], [50, 60], [100, 130], [200, 120]]}}]})";
        writeFile(path("village.geojson"), geo);
        const std::vector<std::vector<P>> village{{{60, 30}, {150, 40}, {140, 100}, {90, 80}, {70, 110}}};
        const std::vector<P> road{{0, 75}, {50, 60}, {100, 130}, {200, 120}};
        const double width = 6;
        std::string problem;
        auto r = run(world() + "  keepout:\n    type: shapes\n    params: {path: village.geojson, width: 6, invert: true}\n"
                               "  trees:\n    type: place_layer\n    inputs: {allowed: keepout}\n    params: {radius: 2.5}\n",
                     &problem);
        QVERIFY2(r, problem.c_str());
        const auto layers = layersOf(*r, {"trees"});
        QVERIFY(layers[0]->points.size() > 1000);
        int nearRoad = 0;
        for (const PointXYR &p : layers[0]->points) {
            QVERIFY2(!pnpoly(village, p.x, p.y), qPrintable(QString("(%1, %2) in the village").arg(p.x).arg(p.y)));
            const double d = polylineDistance({p.x, p.y}, road);
            QVERIFY2(d >= width, qPrintable(QString("(%1, %2) %3 from the road").arg(p.x).arg(p.y).arg(d)));
            nearRoad += d < width + 3;
        }
        QVERIFY(nearRoad > 20);  // the trees come up to the road's edge, not only far from it
        // the same mask through allowed_rule's mask input, and not inverted: only in the village
        r = run(world() + "  zone:\n    type: shapes\n    params: {path: village.geojson, width: 6}\n"
                          "  rule:\n    type: allowed_rule\n    inputs: {mask: zone}\n"
                          "  huts:\n    type: place_layer\n    inputs: {allowed: rule}\n    params: {radius: 3}\n",
                &problem);
        QVERIFY2(r, problem.c_str());
        const auto huts = layersOf(*r, {"huts"});
        QVERIFY(huts[0]->points.size() > 100);
        for (const PointXYR &p : huts[0]->points)
            QVERIFY(pnpoly(village, p.x, p.y) || polylineDistance({p.x, p.y}, road) < width);
    }

    void pointsFromEveryFormat()
    {
        std::string problem;
        // grove.points JSON: a layer by name, or all
        writeFile(path("placed.json"), R"({"format": "grove.points", "formatVersion": 1, "layers": [
  {"name": "houses", "points": [{"id": 0, "x": 12.5, "y": 40.25, "r": 11}, {"id": 1, "x": 0.1, "y": 1e-3, "r": 7.75}]},
  {"name": "wells", "points": [{"id": 0, "x": -30, "y": 500, "r": 3}]}]})");
        auto pts = pointsOf("placed.json", "layer: houses", &problem);
        QVERIFY2(pts.size() == 2, problem.c_str());
        QCOMPARE(pts[0].x, 12.5);
        QCOMPARE(pts[0].y, 40.25);
        QCOMPARE(pts[0].r, 11.0);
        QCOMPARE(pts[1].x, 0.1);
        QCOMPARE(pts[1].y, 1e-3);
        QCOMPARE(pts[1].r, 7.75);
        pts = pointsOf("placed.json", "", &problem);
        QCOMPARE(pts.size(), size_t(3));
        QCOMPARE(pts[2].x, -30.0);  // off the world: kept
        pts = pointsOf("placed.json", "radius_from_file: false, radius: 4", &problem);
        QCOMPARE(pts[0].r, 4.0);
        QVERIFY(pointsOf("placed.json", "layer: barns", &problem)[0].r < 0);
        QVERIFY2(problem.find("placed.json: the file has no layer \"barns\"; its layers: \"houses\", \"wells\"") != std::string::npos, problem.c_str());

        // CSV: quoted names with commas, CRLF, columns in any order, r optional per row
        writeFile(path("placed.csv"), "layer,id,y,x,r,type\r\n\"a, b\",0,20,10,5,oak\r\nhouses,1,2.5,3.25,,\r\n\r\nhouses,2,-1,1e2,6,\"x\"\"y\"\r\n");
        pts = pointsOf("placed.csv", "radius: 9", &problem);
        QVERIFY2(pts.size() == 3, problem.c_str());
        QCOMPARE(pts[0].x, 10.0);
        QCOMPARE(pts[0].y, 20.0);
        QCOMPARE(pts[0].r, 5.0);
        QCOMPARE(pts[1].x, 3.25);
        QCOMPARE(pts[1].r, 9.0);
        QCOMPARE(pts[2].x, 100.0);
        QCOMPARE(pts[2].y, -1.0);
        pts = pointsOf("placed.csv", "layer: houses", &problem);
        QCOMPARE(pts.size(), size_t(2));
        pts = pointsOf("placed.csv", "layer: \"a, b\"", &problem);
        QCOMPARE(pts.size(), size_t(1));

        // Tiled: point objects (radius property), a rectangle and a turned tile object at their
        // centres, layer offsets
        writeFile(path("placed.tmj"), R"({"type": "map", "orientation": "orthogonal", "layers": [
  {"type": "objectgroup", "name": "houses", "offsetx": 2, "offsety": 3, "objects": [
    {"id": 1, "x": 10, "y": 20, "point": true, "properties": [{"name": "radius", "type": "float", "value": 12}]},
    {"id": 2, "x": 40, "y": 50, "width": 20, "height": 10},
    {"id": 3, "gid": 5, "x": 100, "y": 80, "width": 16, "height": 16, "rotation": 90}]},
  {"type": "objectgroup", "name": "trees", "objects": [{"id": 4, "x": 1, "y": 2, "point": true}]}]})");
        pts = pointsOf("placed.tmj", "layer: houses, radius: 8", &problem);
        QVERIFY2(pts.size() == 3, problem.c_str());
        QCOMPARE(pts[0].x, 12.0);
        QCOMPARE(pts[0].y, 23.0);
        QCOMPARE(pts[0].r, 12.0);
        QCOMPARE(pts[1].x, 52.0);
        QCOMPARE(pts[1].y, 58.0);
        QCOMPARE(pts[1].r, 8.0);
        // tile box (8, -8) from its bottom-left corner, turned 90 clockwise: (8, 8)
        QVERIFY(std::abs(pts[2].x - 110) < 1e-12 && std::abs(pts[2].y - 91) < 1e-12);
        QCOMPARE(pointsOf("placed.tmj", "", &problem).size(), size_t(4));

        // GeoJSON: Point and MultiPoint with a radius property; lines skipped
        writeFile(path("placed.geojson"), R"({"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {"radius": 6.5}, "geometry": {"type": "Point", "coordinates": [5.5, 6.5]}},
  {"type": "Feature", "properties": {"name": "road"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [9, 9]]}},
  {"type": "Feature", "properties": null, "geometry": {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4, 99]]}}]})");
        pts = pointsOf("placed.geojson", "radius: 2", &problem);
        QVERIFY2(pts.size() == 3, problem.c_str());
        QCOMPARE(pts[0].x, 5.5);
        QCOMPARE(pts[0].r, 6.5);
        QCOMPARE(pts[2].x, 3.0);
        QCOMPARE(pts[2].y, 4.0);
        QCOMPARE(pts[2].r, 2.0);
    }

    void housesAreObstacles()
    {
        std::string csv = "x,y,r\n";
        std::vector<P> houses;
        for (int i = 0; i < 12; ++i) {
            houses.push_back({15.0 + (i * 37) % 170, 12.0 + (i * 53) % 130});
            csv += formatNumber(houses.back().x) + "," + formatNumber(houses.back().y) + ",14\n";
        }
        csv += "-5,60,14\n";  // off the world, still blocks
        houses.push_back({-5, 60});
        writeFile(path("houses.csv"), csv);
        // A house keeps its own radius from everything after it, through a chain of layers too
        // (keep_radius, on by default); without it, layers keep only the smaller of two radii.
        for (const auto &[treeRadius, keep] : {std::pair{4.0, true}, std::pair{20.0, true}, std::pair{4.0, false}}) {
            std::string problem;
            auto r = run(world() + "  houses:\n    type: points_file\n    params: {path: houses.csv, keep_radius: "
                             + std::string(keep ? "true" : "false") + "}\n"
                               "  rocks:\n    type: place_layer\n    inputs: {obstacles: houses}\n    params: {radius: 30, seed: 5}\n"
                               "  trees:\n    type: place_layer\n    inputs: {obstacles: rocks.all}\n    params: {radius: "
                             + formatNumber(treeRadius) + "}\n",
                         &problem);
            QVERIFY2(r, problem.c_str());
            const auto trees = layersOf(*r, {"trees"});
            QVERIFY(trees[0]->points.size() > 20);
            const double m = keep ? 14.0 : std::min(14.0, treeRadius);
            double closest = INFINITY;
            for (const PointXYR &p : trees[0]->points)
                for (const P &h : houses) {
                    const double d2 = (p.x - h.x) * (p.x - h.x) + (p.y - h.y) * (p.y - h.y);
                    QVERIFY2(d2 >= m * m, qPrintable(QString("tree (%1, %2) %3 from a house").arg(p.x).arg(p.y).arg(std::sqrt(d2))));
                    closest = std::min(closest, std::sqrt(d2));
                }
            QVERIFY(closest < 2 * m + 1);  // the trees do come close: the houses are what stops them
        }
    }

    void notExportedUnlessAsked()
    {
        writeFile(path("h.csv"), "x,y\n1,2\n");
        writeFile(path("g.grove.yaml"), world() + "  houses:\n    type: points_file\n    params: {path: h.csv}\n");
        QProcess cli;
        cli.start(GROVE_CLI, {"eval", QString::fromStdString(path("g.grove.yaml")), "-o", "-"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        auto out = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(out["layers"].size(), size_t(0));
        writeFile(path("g.grove.yaml"), world() + "  houses:\n    type: points_file\n    params: {path: h.csv, export: true}\n");
        cli.start(GROVE_CLI, {"eval", QString::fromStdString(path("g.grove.yaml")), "-o", "-"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        out = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(out["layers"].size(), size_t(1));
        QCOMPARE(out["layers"][0]["points"][0]["r"].get<double>(), 10.0);
    }

    void groveTiledExportReadsBack()
    {
        // grove-cli writes a Tiled map and the JSON of the same graph; points_file reads the map
        // back and grove-cli writes its points again: the same x, y and r, layer by layer
        writeFile(path("src.grove.yaml"), world(300, 200) + "  big:\n    type: place_layer\n    params: {radius: 23, seed: 3}\n"
                                                             "  small:\n    type: place_layer\n    inputs: {obstacles: big.all}\n"
                                                             "    params: {radius: 6.3, seed: 4, rotation: [0, 360], types: [{name: a}, {name: b}]}\n");
        auto cli = [](const QStringList &args) {
            QProcess p;
            p.start(GROVE_CLI, args);
            p.waitForFinished(60000);
            return std::make_pair(p.exitCode(), p.readAllStandardError());
        };
        auto [code, err] = cli({"eval", QString::fromStdString(path("src.grove.yaml")), "--format", "tiled", "-o", QString::fromStdString(path("out.tmj"))});
        QVERIFY2(code == 0, err.constData());
        std::tie(code, err) = cli({"eval", QString::fromStdString(path("src.grove.yaml")), "-o", QString::fromStdString(path("out.json"))});
        QVERIFY2(code == 0, err.constData());
        const auto original = nlohmann::json::parse(readFile(path("out.json")));
        for (const char *layer : {"big", "small"}) {
            writeFile(path("back.grove.yaml"), world(300, 200) + "  back:\n    type: points_file\n    params: {path: out.tmj, layer: " + layer
                                                   + ", radius: 1, export: true}\n");
            std::tie(code, err) = cli({"eval", QString::fromStdString(path("back.grove.yaml")), "-o", QString::fromStdString(path("back.json"))});
            QVERIFY2(code == 0, err.constData());
            const auto back = nlohmann::json::parse(readFile(path("back.json")));
            const auto &want = original["layers"][std::string(layer) == "big" ? 0 : 1]["points"];
            const auto &got = back["layers"][0]["points"];
            QVERIFY(want.size() > 10);
            QCOMPARE(got.size(), want.size());
            for (size_t i = 0; i < want.size(); ++i) {
                QCOMPARE(got[i]["x"].get<double>(), want[i]["x"].get<double>());
                QCOMPARE(got[i]["y"].get<double>(), want[i]["y"].get<double>());
                QCOMPARE(got[i]["r"].get<double>(), want[i]["r"].get<double>());
            }
        }
        // and the JSON export itself, and its CSV
        std::tie(code, err) = cli({"eval", QString::fromStdString(path("src.grove.yaml")), "--format", "csv", "-o", QString::fromStdString(path("out.csv"))});
        QVERIFY2(code == 0, err.constData());
        std::string problem;
        for (const char *file : {"out.json", "out.csv"}) {
            const auto pts = pointsOf(file, "layer: small", &problem);
            const auto &want = original["layers"][1]["points"];
            QVERIFY2(pts.size() == want.size(), problem.c_str());
            for (size_t i = 0; i < pts.size(); ++i)
                QVERIFY(pts[i].x == want[i]["x"].get<double>() && pts[i].y == want[i]["y"].get<double>()
                        && pts[i].r == want[i]["r"].get<double>());
        }
    }

    void badFilesAreLocatedErrors_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("params");
        QTest::addColumn<QString>("message");
        const QByteArray map = R"({"type": "map", "layers": [{"type": "objectgroup", "name": "zones", "objects": []}, {"type": "objectgroup", "name": "props", "objects": []}]})";
        QTest::newRow("tmj without the layer") << "shapes" << "m.tmj" << map << "layer: roads"
                                               << "m.tmj: the map has no object layer \"roads\"; its object layers: \"zones\", \"props\"";
        QTest::newRow("tmj without layer param") << "shapes" << "m.tmj" << map << ""
                                                 << "m.tmj: a Tiled map needs `layer`: the name of one of its object layers (\"zones\", \"props\")";
        QTest::newRow("self-intersecting tiled polygon")
            << "shapes" << "bow.tmj"
            << QByteArray(R"({"type": "map", "layers": [{"type": "objectgroup", "name": "z", "objects": [{"id": 7, "name": "bowtie", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}, {"x": 10, "y": 10}, {"x": 10, "y": 0}, {"x": 0, "y": 10}]}]}]})")
            << "layer: z" << "bow.tmj: object 7 \"bowtie\": its edge (0, 0) to (10, 10) meets its edge (10, 0) to (0, 10): the polygon intersects itself";
        QTest::newRow("self-intersecting geojson hole")
            << "shapes" << "hole.geojson"
            << QByteArray(R"({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [1, 1]}}, {"type": "Feature", "properties": {"name": "lake"}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[5, 5], [15, 5], [5, 8], [5, 5]]]}}]})")
            << "" << "hole.geojson: feature 1 \"lake\": its outline's edge (10, 0) to (10, 10) meets its hole 1's edge (5, 5) to (15, 5): the polygon intersects itself";
        QTest::newRow("two-vertex polygon") << "shapes" << "thin.geojson"
                                            << QByteArray(R"({"type": "Polygon", "coordinates": [[[0, 0], [10, 0], [0, 0]]]})") << ""
                                            << "thin.geojson: the geometry: its outline has 2 distinct vertices; a polygon needs 3 or more";
        QTest::newRow("tile object") << "shapes" << "tile.tmj"
                                     << QByteArray(R"({"type": "map", "layers": [{"type": "objectgroup", "name": "z", "objects": [{"id": 3, "gid": 1, "x": 0, "y": 0, "width": 16, "height": 16}]}]})")
                                     << "layer: z" << "tile.tmj: object 3 is a tile object";
        QTest::newRow("template object") << "points_file" << "tpl.tmj"
                                         << QByteArray(R"({"type": "map", "layers": [{"type": "objectgroup", "name": "z", "objects": [{"id": 4, "template": "house.tx", "x": 5, "y": 6}]}]})")
                                         << "" << "tpl.tmj: layer \"z\" object 4 uses a template (\"house.tx\"), which is not read: detach it in Tiled";
        QTest::newRow("shapes missing file") << "shapes" << "gone.geojson" << QByteArray() << ""
                                             << "gone.geojson: cannot open: No such file or directory";
        QTest::newRow("shapes empty file") << "shapes" << "empty.geojson" << QByteArray("") << "" << "empty.geojson: the file is empty";
        QTest::newRow("shapes not json") << "shapes" << "bad.geojson" << QByteArray("{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0]") << ""
                                         << "bad.geojson: not valid JSON: parse error at line 1, column 52";
        QTest::newRow("shapes deep nesting") << "shapes" << "deep.geojson" << QByteArray(100000, '[') << ""
                                             << "deep.geojson: the JSON nests deeper than 256 levels";
        QTest::newRow("shapes neither") << "shapes" << "other.json" << QByteArray("{\"hello\": 1}") << ""
                                        << "other.json: neither a Tiled JSON map";
        QTest::newRow("csv without y") << "points_file" << "p.csv" << QByteArray("x,why,r\n1,2,3\n") << ""
                                       << "p.csv: the CSV header has no y column; line 1 has \"x\", \"why\", \"r\"";
        QTest::newRow("csv short row") << "points_file" << "p.csv" << QByteArray("x,y,r\n1,2,3\n4,5\n") << ""
                                       << "p.csv: line 3 has 2 fields; the header has 3";
        QTest::newRow("csv not a number") << "points_file" << "p.csv" << QByteArray("x,y\n1,2\n3,4x\n") << ""
                                          << "p.csv: line 3: y is \"4x\", not a number";
        QTest::newRow("csv bad radius") << "points_file" << "p.csv" << QByteArray("x,y,r\n1,2,-3\n") << ""
                                        << "p.csv: line 2: its radius -3 is not a number above 0";
        QTest::newRow("points missing file") << "points_file" << "gone.csv" << QByteArray() << ""
                                             << "gone.csv: cannot open: No such file or directory";
        QTest::newRow("points tmj without the layer") << "points_file" << "m.tmj" << map << "layer: houses"
                                                      << "m.tmj: the map has no object layer \"houses\"; its object layers: \"zones\", \"props\"";
        QTest::newRow("grove json point without y")
            << "points_file" << "p.json" << QByteArray(R"({"format": "grove.points", "layers": [{"name": "a", "points": [{"x": 1}]}]})") << ""
            << "p.json: layer \"a\" point 0 has no numeric x and y";
    }
    void badFilesAreLocatedErrors()
    {
        QFETCH(QString, node);
        QFETCH(QString, file);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, params);
        QFETCH(QString, message);
        if (!file.startsWith("gone"))
            writeFile(path(file.toStdString()), bytes.toStdString());
        const std::string extra = params.isEmpty() ? "" : ", " + params.toStdString();
        std::string text = world() + "  src:\n    type: " + node.toStdString() + "\n    params: {path: \"" + file.toStdString() + "\"" + extra + "}\n";
        std::string problem;
        QVERIFY(!run(text, &problem));
        // located at the path param's value: line 6, after "params: {path: "
        QVERIFY2(problem.find("g.grove.yaml:6:20: error: node 'src' (" + node.toStdString() + "): " + message.toStdString()) != std::string::npos,
                 problem.c_str());
        // through grove-cli, with a layer that reads it: exit 1, the message, nothing written
        text += node == "shapes" ? "  l:\n    type: place_layer\n    inputs: {allowed: src}\n    params: {radius: 3}\n"
                                 : "  l:\n    type: place_layer\n    inputs: {obstacles: src}\n    params: {radius: 3}\n";
        writeFile(path("g.grove.yaml"), text);
        QProcess cli;
        const QString out = m_dir.path() + "/never.json";
        cli.start(GROVE_CLI, {"eval", QString::fromStdString(path("g.grove.yaml")), "-o", out, "--png", m_dir.path() + "/never.png"});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 1);
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(err.contains(message.toUtf8()), err.constData());
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(m_dir.path() + "/never.png"));
    }

    void aComplexPolygonIsRefusedInTime()
    {
        // a comb of 49,999 vertices whose long teeth all overlap in x: a valid polygon, but the
        // sweep would look at a billion pairs; the file's budget refuses it within seconds
        std::string ring = "[[-10, " + formatNumber(12499 * 0.04) + "], [-10, 0]";
        for (int i = 0; i < 12499; ++i) {
            const std::string y = formatNumber(i * 0.04), y2 = formatNumber(i * 0.04 + 0.02);
            ring += (i ? ", [0, " + y + "]" : std::string()) + ", [1000, " + y + "], [1000, " + y2 + "], [0, " + y2 + "]";
        }
        ring += ", [-10, " + formatNumber(12499 * 0.04) + "]]";
        writeFile(path("comb.geojson"), "{\"type\": \"Polygon\", \"coordinates\": [" + ring + "]}");
        std::string problem;
        QVERIFY(!maskOf("comb.geojson", "", &problem));
        QVERIFY2(problem.find("comb.geojson: the geometry: its edges overlap too much to check for self-intersection within the limit of "
                              "400000000 edge pairs a file; simplify or split it") != std::string::npos,
                 problem.c_str());
    }

    void aChangedFileEvaluatesAgain()
    {
        writeFile(path("live.csv"), "x,y\n1,2\n");
        const std::string text = world() + "  pts:\n    type: points_file\n    params: {path: live.csv}\n";
        writeFile(path("g.grove.yaml"), text);
        LoadResult loaded = loadGraphFile(path("g.grove.yaml"), registry());
        QVERIFY(loaded.ok());
        Evaluator ev(registry());
        EvalResult r = ev.evaluate(loaded.graph);
        QVERIFY(r.ok());
        QCOMPARE(std::get<PointSetPtr>(r.output("pts"))->layers[0]->points[0].x, 1.0);
        writeFile(path("live.csv"), "x,y\n3,4\n5,6\n");
        r = ev.evaluate(loaded.graph);
        QVERIFY(r.ok());
        QCOMPARE(std::get<PointSetPtr>(r.output("pts"))->layers[0]->points.size(), size_t(2));
        QCOMPARE(std::get<PointSetPtr>(r.output("pts"))->layers[0]->points[0].x, 3.0);
    }

    void paramsAreChecked()
    {
        std::string problem;
        QVERIFY(!maskOf("", "", &problem));
        QVERIFY2(problem.find("no shapes file given") != std::string::npos, problem.c_str());
        QVERIFY(!maskOf("zones.shp", "", &problem));
        QVERIFY2(problem.find("the shapes file must be a Tiled map (.tmj, .json) or GeoJSON (.geojson)") != std::string::npos, problem.c_str());
        QVERIFY(pointsOf("houses.xlsx", "", &problem)[0].r < 0);
        QVERIFY2(problem.find("the placements file must be") != std::string::npos, problem.c_str());
        QVERIFY(pointsOf("h.csv", "radius: 0", &problem)[0].r < 0);
    }
};

QTEST_MAIN(TestShapes)
#include "tst_shapes.moc"
