// The shapes and points_file nodes: every geometry kind parsed from hand-written Tiled maps and
// GeoJSON, the mask against brute force (crossing number, distance to segments, ellipses) on
// thousands of random points, placement that keeps out of villages and off roads, placements
// read back from each format (and from Grove's own Tiled export through grove-cli), houses as
// obstacles. The files themselves (bad ones, changed ones, Grove's own export): tst_shape_files.
#include "tst_shapes_support.h"

using namespace grove;
using namespace grove::test;
using namespace shapes_support;

class TestShapes : public QObject, public ShapesFixture
{
    Q_OBJECT

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

};

QTEST_MAIN(TestShapes)
#include "tst_shapes.moc"
