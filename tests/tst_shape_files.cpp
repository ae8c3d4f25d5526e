// The shapes and points_file nodes' files: Grove's own Tiled export read back through grove-cli,
// nothing exported unless asked, every bad file a located error with nothing written, a complex
// polygon refused by its budget, a changed file evaluated again, and params checked.
#include "tst_shapes_support.h"

using namespace grove;
using namespace grove::test;
using namespace shapes_support;

class TestShapeFiles : public QObject, public ShapesFixture
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

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
            << "p.json: 1:64: point 0 of layer 'a' has no y";
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

QTEST_MAIN(TestShapeFiles)
#include "tst_shape_files.moc"
