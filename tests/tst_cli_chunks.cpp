// grove-cli on chunked worlds: the streamed export equals the export of the layers placed whole,
// the same bytes for any --threads, shards merge into the single run's bytes, bad flags and bad
// parts are clear errors with nothing written, Ctrl+C leaves nothing behind.
#include "CliRun.h"
#include "TestSupport.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphWriter.h"
#include "core/formats/PointsExport.h"
#include "core/formats/StreamExport.h"
#include "core/base/NumberText.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

using namespace grove;
using namespace grove::test;

namespace {

std::string smallGraph()
{
    return testsDir() + "/data/chunks/small.grove.yaml";
}
std::string endlessGraph()
{
    return testsDir() + "/data/chunks/endless.grove.yaml";
}

// The export of the graph's layers placed whole in memory (placeWholeWorld), cut to `region`.
std::string wholeExport(const std::string &file, ExportFormat format, const std::optional<Region> &region = {})
{
    LoadResult loaded = loadGraphFile(file, registry());
    if (!loaded.ok())
        return "load failed";
    const std::vector<std::string> ids = exportedLayers(loaded.graph, registry());
    EvalRequest request;
    request.targets = ids;
    request.limits.placeWholeWorld = true;
    Evaluator evaluator(registry());
    EvalResult result = evaluator.evaluate(loaded.graph, request);
    if (!result.ok())
        return "eval failed";
    std::vector<PointLayerPtr> layers = layersOf(result, ids);
    for (const PointLayerPtr &l : layers)
        if (l->lazy)
            return "a layer is lazy";
    ExportInfo info;
    info.graphName = loaded.graph.name;
    info.graphFile = file.substr(file.find_last_of('/') + 1);
    info.graphHash = graphHash(loaded.graph, registry());
    info.world = loaded.graph.world;
    if (region) {
        info.bounds = region;
        for (PointLayerPtr &l : layers)
            l = layerInRegion(*l, *region, 1);
    }
    return exportPoints(format, info, layers);
}

} // namespace

class TestCliChunks : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void streamedExportEqualsTheWholeExport();
    void streamedRegionEqualsTheWholeExportCut();
    void csvHeightColumnAsTheWholeExport();
    void sameBytesForAnyThreadCount();
    void shardsMergeIntoTheSingleRun_data();
    void shardsMergeIntoTheSingleRun();
    void endlessWorldNeedsARegionAndShards();
    void endlessFilteredLayerStreamsItsValues();
    void streamComputesEachChunkOnceWithinItsBudget();
    void mergeRefusesBadParts_data();
    void mergeRefusesBadParts();
    void badFlagsWriteNothing_data();
    void badFlagsWriteNothing();
    void otherFormatsPlaceTheRegionWhole();
    void interruptExits130AndWritesNothing();
    void progressOnlyOnATerminal();

private:
    std::unique_ptr<QTemporaryDir> m_dir;  // a fresh folder for each test function, removed after the last
    std::string path(const std::string &name) const { return m_dir->path().toStdString() + "/" + name; }
};

void TestCliChunks::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
}

void TestCliChunks::streamedExportEqualsTheWholeExport()
{
    for (const char *format : {"json", "csv"}) {
        Run r = cli({"eval", q(smallGraph()), "--format", format, "-o", q(path("out"))});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.empty(), r.err.c_str());  // no progress line when stderr is not a terminal
        ExportFormat f;
        QVERIFY(exportFormatFromName(format, f));
        const std::string whole = wholeExport(smallGraph(), f);
        QVERIFY2(whole.size() > 100000, whole.c_str());
        QVERIFY2(readFile(path("out")) == whole, format);
        QCOMPARE(listDir(m_dir->path().toStdString()), std::vector<std::string>{"out"});  // no spools left
    }
    // stdout gets the same bytes
    Run s = cli({"eval", q(smallGraph())});
    QCOMPARE(s.code, 0);
    QVERIFY(s.out == wholeExport(smallGraph(), ExportFormat::Json));
}

void TestCliChunks::streamedRegionEqualsTheWholeExportCut()
{
    const Region region{100, 200.25, 700.5, 900};
    for (const char *format : {"json", "csv"}) {
        Run r = cli({"eval", q(smallGraph()), "--format", format, "--region", "100,200.25,700.5,900"});
        QCOMPARE(r.code, 0);
        ExportFormat f;
        QVERIFY(exportFormatFromName(format, f));
        QVERIFY2(r.out == wholeExport(smallGraph(), f, region), format);
    }
    const auto j = nlohmann::json::parse(cli({"eval", q(smallGraph()), "--region", "100,200.25,700.5,900"}).out);
    QCOMPARE(j["bounds"]["minY"].get<double>(), 200.25);
    QCOMPARE(j["bounds"]["maxX"].get<double>(), 700.5);
    for (const auto &layer : j["layers"]) {
        QVERIFY(layer["count"].get<std::size_t>() > 100);
        for (const auto &p : layer["points"]) {
            QVERIFY(p["x"].get<double>() >= 100 && p["x"].get<double>() < 700.5);
            QVERIFY(p["y"].get<double>() >= 200.25 && p["y"].get<double>() < 900);
        }
    }
}

void TestCliChunks::csvHeightColumnAsTheWholeExport()
{
    // CSV has a z column only when a layer with heights has points: the streamed export learns
    // that at the end, and names with commas and quotes must survive the column's removal
    const std::string graph = "grove: 1\nname: 'Z, \"quoted\"'\nworld: {width: 512, height: 512, seed: 1, chunk: 128}\nnodes:\n"
                              "  height:\n    type: value_noise\n    params: {frequency: 0.01}\n"
                              "  rule:\n    type: allowed_rule\n    inputs: {field: height}\n    params: {min: MIN}\n"
                              "  hills:\n    type: place_layer\n    inputs: {allowed: rule, height: height}\n"
                              "    params: {radius: 10, name: 'hills, \"high\"'}\n"
                              "  flat:\n    type: place_layer\n    params: {radius: 12, name: 'flat, \"low\"', types: [{name: 'a,\"b\"', weight: 1}]}\n";
    for (const char *min : {"2", "0.5"}) {  // no hills at all; hills on high ground
        std::string text = graph;
        text.replace(text.find("MIN"), 3, min);
        writeFile(path("z.grove.yaml"), text);
        Run r = cli({"eval", q(path("z.grove.yaml")), "--format", "csv"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out == wholeExport(path("z.grove.yaml"), ExportFormat::Csv), min);
        const bool hills = std::string(min) == "0.5";
        QCOMPARE(r.out.substr(0, r.out.find('\n')), std::string(hills ? "layer,id,x,y,r,type,rot,scale,z" : "layer,id,x,y,r,type,rot,scale"));
    }
}

void TestCliChunks::sameBytesForAnyThreadCount()
{
    const std::string one = cli({"eval", q(smallGraph()), "--threads", "1"}).out;
    QVERIFY(one.size() > 100000);
    for (const char *n : {"2", "3", "8"})
        QVERIFY2(cli({"eval", q(smallGraph()), "--threads", n}).out == one, n);
    // the fallback (in memory) path and the PNG's raster rows too
    const std::string tiled1 = cli({"eval", q(smallGraph()), "--format", "tiled", "--threads", "1"}).out;
    QVERIFY(cli({"eval", q(smallGraph()), "--format", "tiled", "--threads", "4"}).out == tiled1);
    QCOMPARE(cli({"eval", q(smallGraph()), "--threads", "1", "--png", q(path("a.png")), "-o", q(path("a.json"))}).code, 0);
    QCOMPARE(cli({"eval", q(smallGraph()), "--threads", "3", "--png", q(path("b.png")), "-o", q(path("b.json"))}).code, 0);
    QVERIFY(readFile(path("a.png")) == readFile(path("b.png")));
    QVERIFY(readFile(path("a.json")) == one);  // placed whole for the picture: the same points
}

void TestCliChunks::shardsMergeIntoTheSingleRun_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<QString>("region");
    for (int n : {1, 2, 4, 7})
        QTest::newRow(qPrintable(QString("%1 shards").arg(n))) << n << QString();
    QTest::newRow("3 shards of a region") << 3 << QString("130,0,1000,517.5");
    QTest::newRow("20 shards of 9 chunks, most of them empty") << 20 << QString("0,0,300,300");
}

void TestCliChunks::shardsMergeIntoTheSingleRun()
{
    QFETCH(int, n);
    QFETCH(QString, region);
    QStringList extra;
    if (!region.isEmpty())
        extra << "--region" << region;
    Run single = cli(QStringList{"eval", q(smallGraph())} + extra);
    QCOMPARE(single.code, 0);
    QStringList parts;
    for (int k = 0; k < n; ++k) {
        const std::string part = path("part-" + std::to_string(k) + ".json");
        Run r = cli(QStringList{"eval", q(smallGraph()), "--shard", QString("%1/%2").arg(k).arg(n), "-o", q(part)} + extra);
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(readFile(part));
        QCOMPARE(j["shard"]["index"].get<int>(), k);
        QCOMPARE(j["shard"]["count"].get<int>(), n);
        QCOMPARE(j["graph"]["hash"], nlohmann::json::parse(single.out)["graph"]["hash"]);
        parts << q(part);
    }
    // any order: reversed, then rotated by one
    QStringList reversed(parts.rbegin(), parts.rend());
    QStringList rotated = parts;
    rotated.append(rotated.takeFirst());
    for (const QStringList &order : {reversed, rotated}) {
        QFile::remove(q(path("world.json")));
        Run m = cli(QStringList{"merge"} + order + QStringList{"-o", q(path("world.json"))});
        QCOMPARE(m.code, 0);
        QVERIFY2(m.err.empty(), m.err.c_str());
        QVERIFY(readFile(path("world.json")) == single.out);
    }
    // the parts hold each chunk once: their counts add up to the single run's
    const auto whole = nlohmann::json::parse(single.out);
    for (std::size_t l = 0; l < whole["layers"].size(); ++l) {
        std::size_t sum = 0;
        for (const QString &p : parts)
            sum += nlohmann::json::parse(readFile(p.toStdString()))["layers"][l]["count"].get<std::size_t>();
        QCOMPARE(sum, whole["layers"][l]["count"].get<std::size_t>());
    }
}

void TestCliChunks::endlessWorldNeedsARegionAndShards()
{
    Run none = cli({"eval", q(endlessGraph()), "-o", q(path("out.json"))});
    QCOMPARE(none.code, 1);
    QVERIFY2(none.err.find("endless.grove.yaml: error: the world is endless (world.chunk without width and height): "
                           "give the rectangle to export with --region x0,y0,x1,y1") != std::string::npos, none.err.c_str());
    QVERIFY(listDir(m_dir->path().toStdString()).empty());
    // negative coordinates are fine in an endless world; shards merge as in a finite one
    Run single = cli({"eval", q(endlessGraph()), "--region", "-300,-200,340,250"});
    QCOMPARE(single.code, 0);
    QVERIFY(nlohmann::json::parse(single.out)["layers"][1]["count"].get<int>() > 1000);
    QStringList parts;
    for (int k = 0; k < 3; ++k) {
        parts << q(path("p" + std::to_string(k) + ".json"));
        QCOMPARE(cli({"eval", q(endlessGraph()), "--region", "-300,-200,340,250", "--shard", QString("%1/3").arg(k), "-o", parts.back()}).code, 0);
    }
    QCOMPARE(cli(QStringList{"merge"} + parts + QStringList{"-o", q(path("m.json"))}).code, 0);
    QVERIFY(readFile(path("m.json")) == single.out);
}

// An endless layer with an attribute, filtered: the streamed CSV equals the CSV of the region's
// points asked for in memory, every kept oak carries a moisture within the filter's range, and
// shards merge into the single run's JSON.
void TestCliChunks::endlessFilteredLayerStreamsItsValues()
{
    const std::string file = testsDir() + "/data/chunks/endless_wet.grove.yaml";
    const Region region{-300, -200, 300, 250};
    Run csv = cli({"eval", q(file), "--region", "-300,-200,300,250", "--format", "csv"});
    QCOMPARE(csv.code, 0);
    LoadResult loaded = loadGraphFile(file, registry());
    QVERIFY(loaded.ok());
    const std::vector<std::string> ids = exportedLayers(loaded.graph, registry());
    EvalRequest request;
    request.targets = ids;
    const EvalResult result = Evaluator(registry()).evaluate(loaded.graph, request);
    QVERIFY(result.ok());
    std::vector<PointLayerPtr> layers = layersOf(result, ids);
    for (PointLayerPtr &l : layers)
        l = layerInRegion(*l, region, 1);
    QCOMPARE(layers.size(), std::size_t(2));
    QVERIFY(csv.out == exportPoints(ExportFormat::Csv, ExportInfo{}, layers));
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    QCOMPARE(line, std::string("layer,id,x,y,r,type,rot,scale,moisture"));
    std::size_t oaks = 0;
    while (std::getline(lines, line))
        if (line.rfind("oaks,", 0) == 0) {
            double v = -1;
            QVERIFY2(parseNumber(line.substr(line.rfind(',') + 1), v) && v >= 0.5 && v <= 1, line.c_str());
            ++oaks;
        }
    QVERIFY(oaks > 50 && oaks == layers[0]->points.size());

    Run single = cli({"eval", q(file), "--region", "-300,-200,300,250"});
    QCOMPARE(single.code, 0);
    QStringList parts;
    for (int k = 0; k < 3; ++k) {
        parts << q(path("w" + std::to_string(k) + ".json"));
        QCOMPARE(cli({"eval", q(file), "--region", "-300,-200,300,250", "--shard", QString("%1/3").arg(k), "-o", parts.back()}).code, 0);
    }
    QCOMPARE(cli(QStringList{"merge"} + parts + QStringList{"-o", q(path("m.json"))}).code, 0);
    QVERIFY(readFile(path("m.json")) == single.out);
}

void TestCliChunks::streamComputesEachChunkOnceWithinItsBudget()
{
    const std::string whole = wholeExport(smallGraph(), ExportFormat::Json);
    LoadResult loaded = loadGraphFile(smallGraph(), registry());
    QVERIFY(loaded.ok());
    const std::vector<std::string> ids = exportedLayers(loaded.graph, registry());
    for (std::size_t budget : {std::size_t(256) << 20, std::size_t(64) << 10}) {
        EvalRequest request;
        request.targets = ids;
        request.limits.placeWholeWorld = false;
        Evaluator evaluator(registry());
        EvalResult result = evaluator.evaluate(loaded.graph, request);
        QVERIFY(result.ok());
        StreamExportJob job;
        job.layers = layersOf(result, ids);
        QCOMPARE(job.layers.size(), std::size_t(2));
        for (const PointLayerPtr &l : job.layers)
            QVERIFY(l->lazy && l->chunked && l->chunked->placements() == 0);
        job.info.graphName = loaded.graph.name;
        job.info.graphFile = "small.grove.yaml";
        job.info.graphHash = graphHash(loaded.graph, registry());
        job.info.world = loaded.graph.world;
        job.region = {0, 0, 1024, 1024};
        job.threads = 2;
        job.cacheBytes = budget;
        std::vector<StreamProgress> reports;
        job.progress = [&](const StreamProgress &p) { reports.push_back(p); };
        std::string error;
        QCOMPARE(streamExport(job, path("out.json"), &error), StreamStatus::Done);
        QVERIFY(readFile(path("out.json")) == whole);
        QCOMPARE(reports.size(), std::size_t(5));  // a report a band: the first row, then two rows at a time
        QCOMPARE(reports.back().chunksDone, std::size_t(64));
        QCOMPARE(reports.back().chunksTotal, std::size_t(64));
        const auto j = nlohmann::json::parse(whole);
        QCOMPARE(reports.back().points, j["layers"][0]["count"].get<std::uint64_t>() + j["layers"][1]["count"].get<std::uint64_t>());
        for (const PointLayerPtr &l : job.layers) {
            if (budget > (std::size_t(1) << 20)) {
                QCOMPARE(l->chunked->placements(), std::uint64_t(64));  // 8 x 8 chunks, each placed once
            } else {
                // a budget under a row of chunks: older chunks go (and are placed again when a
                // later one needs them), the bytes stay the same
                QVERIFY(l->chunked->cachedBytes() <= budget);
                QVERIFY(l->chunked->placements() >= 64);
            }
        }
    }
}

void TestCliChunks::mergeRefusesBadParts_data()
{
    QTest::addColumn<QStringList>("parts");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing part") << QStringList{"p0", "p1", "p3"} << "grove-cli: merge: missing shard 2 of 4 (chunks 32 to 47 of 64)";
    QTest::newRow("the same part twice") << QStringList{"p0", "p1", "p2", "p3", "p2"} << "are both shard 2 of 4: overlapping parts";
    QTest::newRow("parts of different splits") << QStringList{"p0", "p1", "h1"} << "p0.json is shard 0 of 4, " ;
    QTest::newRow("parts of different graphs") << QStringList{"p0", "p1", "p2", "seed5_3"} << "grove-cli: merge: parts of different graphs: ";
    QTest::newRow("parts of different regions") << QStringList{"p0", "p1", "p2", "region3"} << "differ in \"bounds\" (parts of different runs)";
    QTest::newRow("parts of different layers") << QStringList{"p0", "p1", "p2", "layers3"} << "hold different layers (--layers)";
    QTest::newRow("a part that is not JSON") << QStringList{"p0", "garbage"} << "garbage.json:1: error: not a shard part of grove-cli eval --shard: expected '{' opening a JSON object (is it JSON?)";
    QTest::newRow("a whole export") << QStringList{"p0", "whole"} << "whole.json: error: a whole export, not a shard part (it was made without --shard K/N)";
    QTest::newRow("a truncated part") << QStringList{"p0", "truncated"} << "truncated.json:";
    QTest::newRow("a part that is not there") << QStringList{"p0", "nowhere"} << "nowhere.json: error: cannot read it: No such file or directory";
}

void TestCliChunks::mergeRefusesBadParts()
{
    QFETCH(QStringList, parts);
    QFETCH(QString, message);
    const QString g = q(smallGraph());
    for (int k = 0; k < 4; ++k)
        QCOMPARE(cli({"eval", g, "--shard", QString("%1/4").arg(k), "-o", q(path("p" + std::to_string(k) + ".json"))}).code, 0);
    QCOMPARE(cli({"eval", g, "--shard", "1/2", "-o", q(path("h1.json"))}).code, 0);
    QCOMPARE(cli({"eval", g, "--seed", "5", "--shard", "3/4", "-o", q(path("seed5_3.json"))}).code, 0);
    QCOMPARE(cli({"eval", g, "--region", "0,0,1024,1000", "--shard", "3/4", "-o", q(path("region3.json"))}).code, 0);
    QCOMPARE(cli({"eval", g, "--layers", "trees", "--shard", "3/4", "-o", q(path("layers3.json"))}).code, 0);
    QCOMPARE(cli({"eval", g, "-o", q(path("whole.json"))}).code, 0);
    writeFile(path("garbage.json"), std::string("\x89PNG\r\n\x1a\n\0\0 binary", 18));
    writeFile(path("truncated.json"), readFile(path("p1.json")).substr(0, 5000));
    const std::vector<std::string> before = listDir(m_dir->path().toStdString());
    QStringList args{"merge"};
    for (const QString &p : parts)
        args << q(path(p.toStdString() + ".json"));
    Run r = cli(args + QStringList{"-o", q(path("world.json"))});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
    QVERIFY(r.out.empty());
    QCOMPARE(listDir(m_dir->path().toStdString()), before);  // nothing written, no temporary file left
}

void TestCliChunks::badFlagsWriteNothing_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString g = q(smallGraph());
    const QString shardUsage = "grove-cli: --shard takes K/N: shard K of N, K from 0 to N-1 and N from 1 to 100000, got '";
    QTest::newRow("shard 5/4") << QStringList{g, "--shard", "5/4"} << 2 << shardUsage + "5/4'";
    QTest::newRow("shard 4/4") << QStringList{g, "--shard", "4/4"} << 2 << shardUsage + "4/4'";
    QTest::newRow("shard 0/0") << QStringList{g, "--shard", "0/0"} << 2 << shardUsage + "0/0'";
    QTest::newRow("shard a/b") << QStringList{g, "--shard", "a/b"} << 2 << shardUsage + "a/b'";
    QTest::newRow("shard -1/4") << QStringList{g, "--shard", "-1/4"} << 2 << shardUsage + "-1/4'";
    QTest::newRow("shard as csv") << QStringList{g, "--shard", "0/2", "--format", "csv"} << 2 << "grove-cli: --shard writes one grove.points JSON part (join the parts with grove-cli merge): it does not go with --format csv";
    QTest::newRow("threads 0") << QStringList{g, "--threads", "0"} << 2 << "grove-cli: --threads takes a whole number from 1 to 256, got '0'";
    QTest::newRow("threads -1") << QStringList{g, "--threads", "-1"} << 2 << "grove-cli: --threads takes a whole number from 1 to 256, got '-1'";
    QTest::newRow("threads x") << QStringList{g, "--threads", "x"} << 2 << "grove-cli: --threads takes a whole number from 1 to 256, got 'x'";
    QTest::newRow("threads 257") << QStringList{g, "--threads", "257"} << 2 << "got '257'";
    const QString regionUsage = "grove-cli: --region takes x0,y0,x1,y1: four finite numbers with x0 < x1 and y0 < y1, got '";
    QTest::newRow("region inverted") << QStringList{g, "--region", "500,0,100,100"} << 2 << regionUsage + "500,0,100,100'";
    QTest::newRow("region NaN") << QStringList{g, "--region", "0,nan,100,100"} << 2 << regionUsage + "0,nan,100,100'";
    QTest::newRow("region inf") << QStringList{g, "--region", "0,0,inf,100"} << 2 << regionUsage + "0,0,inf,100'";
    QTest::newRow("region of three") << QStringList{g, "--region", "0,0,100"} << 2 << regionUsage + "0,0,100'";
    QTest::newRow("region with stats") << QStringList{g, "--region", "0,0,100,100", "--stats"} << 2 << "grove-cli: --stats and --png cover the whole world: they do not go with --region or --shard";
    QTest::newRow("region outside the world") << QStringList{g, "--region", "0,0,2000,100"} << 1 << "small.grove.yaml: error: --region 0,0,2000,100 reaches outside the world (0,0 to 1024,1024)";
    QTest::newRow("region left of the world") << QStringList{g, "--region", "-1,0,10,10"} << 1 << "reaches outside the world";
    QTest::newRow("endless without region") << QStringList{q(endlessGraph())} << 1 << "endless.grove.yaml: error: the world is endless (world.chunk without width and height): give the rectangle to export with --region x0,y0,x1,y1";
    QTest::newRow("endless shard without region") << QStringList{q(endlessGraph()), "--shard", "0/2"} << 1 << "give the rectangle to export with --region";
    QTest::newRow("region beyond the chunk range") << QStringList{q(endlessGraph()), "--region", "0,0,1e9,10"} << 1 << "endless.grove.yaml: error: --region reaches beyond chunk 32768 from the origin (4194304 units at chunk 128)";
    QTest::newRow("region on a world without chunks") << QStringList{q(testsDir() + "/data/canonical/island.grove.yaml"), "--region", "0,0,10,10"} << 1 << "island.grove.yaml: error: --region needs a chunked world (world: {chunk: SIDE})";
}

void TestCliChunks::badFlagsWriteNothing()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    Run r = cli(QStringList{"eval"} + args + QStringList{"-o", q(path("out.json"))});
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
    QVERIFY(listDir(m_dir->path().toStdString()).empty());
}

void TestCliChunks::otherFormatsPlaceTheRegionWhole()
{
    // Tiled (and glTF, Godot, Unreal, --split) are built in memory from the region's layers: the
    // same points as the JSON
    Run json = cli({"eval", q(smallGraph()), "--region", "0,0,512,512"});
    Run tiled = cli({"eval", q(smallGraph()), "--region", "0,0,512,512", "--format", "tiled"});
    QCOMPARE(tiled.code, 0);
    const auto j = nlohmann::json::parse(json.out);
    const auto t = nlohmann::json::parse(tiled.out);
    QCOMPARE(t["layers"].size(), j["layers"].size());
    for (std::size_t l = 0; l < j["layers"].size(); ++l) {
        QCOMPARE(t["layers"][l]["objects"].size(), j["layers"][l]["points"].size());
        for (std::size_t i = 0; i < j["layers"][l]["points"].size(); i += 97) {
            QCOMPARE(t["layers"][l]["objects"][i]["x"].get<double>(), j["layers"][l]["points"][i]["x"].get<double>());
            QCOMPARE(t["layers"][l]["objects"][i]["y"].get<double>(), j["layers"][l]["points"][i]["y"].get<double>());
        }
    }
    // split: one file per layer, each the layer's part of the whole export
    Run split = cli({"eval", q(smallGraph()), "--region", "0,0,512,512", "--split", "-o", q(path("layers"))});
    QCOMPARE(split.code, 0);
    QCOMPARE(listDir(path("layers")), (std::vector<std::string>{"rocks.json", "trees.json"}));
    QCOMPARE(nlohmann::json::parse(readFile(path("layers/trees.json")))["layers"][0]["points"], j["layers"][1]["points"]);
}

// Ctrl+C on a terminal while the chunks are placed: grove-cli runs under script(1), which gives it
// a terminal; once its progress line shows the placing under way (so it is surely running), the test types
// Ctrl+C, and the terminal sends SIGINT as it would for a user.
void TestCliChunks::interruptExits130AndWritesNothing()
{
    const QString script = QStandardPaths::findExecutable("script");
    if (script.isEmpty())
        QSKIP("no script(1) to give grove-cli a terminal");
    // a bigger world, so the progress line shows long before the run ends
    std::string text = readFile(smallGraph());
    const auto at = text.find("width: 1024");
    QVERIFY(at != std::string::npos);
    text.replace(at, 11, "width: 8192");
    text.replace(text.find("height: 1024"), 12, "height: 8192");
    writeFile(path("big.grove.yaml"), text);
    for (const char *format : {"json", "tiled"}) {
        const QString command = QString("exec %1 eval %2 --format %3 --threads 2 -o %4")
                                    .arg(GROVE_CLI, q(path("big.grove.yaml")), format, q(path("out")));
        QProcess p;
        p.start(script, {"-qec", command, "/dev/null"});
        QVERIFY(p.waitForStarted());
        QByteArray seen;
        // the progress line shows the placing under way (streamed: chunks done; Tiled: the layer)
        QTRY_VERIFY_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("chunks ") || seen.contains("evaluating rocks"),
                                 patientMs(120000));
        QCOMPARE(p.state(), QProcess::Running);
        p.write("\x03");  // Ctrl+C
        QVERIFY(p.waitForFinished(120000));
        seen += p.readAllStandardOutput();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(seen.contains("grove-cli: interrupted; nothing written"), seen.constData());
        QCOMPARE(listDir(m_dir->path().toStdString()), std::vector<std::string>{"big.grove.yaml"});
    }
}

void TestCliChunks::progressOnlyOnATerminal()
{
    // `script` gives grove-cli a terminal for stderr
    const QString script = QStandardPaths::findExecutable("script");
    if (script.isEmpty())
        QSKIP("no script(1) to give grove-cli a terminal");
    const QString command = QString("%1 eval %2 --threads 2 -o %3").arg(GROVE_CLI, q(smallGraph()), q(path("a.json")));
    QProcess p;
    p.start(script, {"-qec", command, "/dev/null"});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const std::string seen = p.readAllStandardOutput().toStdString();
    QVERIFY2(seen.find("chunks ") != std::string::npos && seen.find(" points, ") != std::string::npos, seen.c_str());
    QVERIFY(seen.find("/64 (") != std::string::npos);
    QVERIFY(seen.find("\r") != std::string::npos);  // redrawn in place
    QProcess quiet;
    quiet.start(script, {"-qec", command + " --quiet", "/dev/null"});
    QVERIFY(quiet.waitForFinished(60000));
    QCOMPARE(quiet.exitCode(), 0);
    QCOMPARE(quiet.readAllStandardOutput().toStdString(), std::string());
    QVERIFY(readFile(path("a.json")) == wholeExport(smallGraph(), ExportFormat::Json));
}

QTEST_GUILESS_MAIN(TestCliChunks)
#include "tst_cli_chunks.moc"
