// The export writers: numbers written in place by writeNumber are formatNumber's text
// as the string-built formatter wrote it, for a million doubles across every exponent; the JSON,
// CSV and Tiled bytes of awkward layers are the old writers' bytes; the layer stats answer as
// brute force does.
#include "ExportSamples.h"
#include "core/base/NumberText.h"
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/export/ExportWriter.h"
#include "core/analysis/LayerStats.h"
#include "core/formats/PointsExport.h"
#include "core/formats/StreamExport.h"
#include "core/base/Sha256.h"
#include "core/base/TextEscape.h"
#include "core/base/Value.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <fcntl.h>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace grove;
using namespace grove::test;

namespace {

// formatNumber as it was before writeNumber (string concatenation), verbatim: the reference the
// in-place writer must match byte for byte.
std::string referenceFormatNumber(double value)
{
    if (std::isnan(value))
        return ".nan";
    if (std::isinf(value))
        return value > 0 ? ".inf" : "-.inf";
    if (value == 0)
        return std::signbit(value) ? "-0" : "0";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, res.ptr);  // e.g. "-1.2345e+02"
    std::string out;
    size_t pos = 0;
    if (sci[0] == '-') {
        out = "-";
        pos = 1;
    }
    const size_t e = sci.find('e');
    std::string digits;
    for (size_t i = pos; i < e; ++i)
        if (sci[i] != '.')
            digits += sci[i];
    const int exponent = std::stoi(sci.substr(e + 1));
    const int k = static_cast<int>(digits.size());
    const int n = exponent + 1;  // value = 0.digits * 10^n
    if (k <= n && n <= 21) {
        out += digits + std::string(static_cast<size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0." + std::string(static_cast<size_t>(-n), '0') + digits;
    } else {
        out += digits.substr(0, 1);
        if (k > 1)
            out += "." + digits.substr(1);
        out += "e" + std::string(n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
    }
    return out;
}

std::string written(double v)
{
    char buf[kMaxNumberChars + 16];
    std::memset(buf, '#', sizeof buf);
    char *end = writeNumber(buf, v);
    if (end > buf + kMaxNumberChars)
        return "overflow";
    return std::string(buf, end);
}

std::string bitsOf(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(v)));
    return buf;
}

std::string sha256Hex(const std::string &bytes) { return Sha256::hex(bytes); }

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private slots:
    void numberWriterMatchesFormatNumberOnAMillionDoubles();
    void numberWriterMatchesTheOldNumbersOfAwkwardDoubles();
    void exportsKeepTheOldWritersBytes();
    void layerStatsPairsMatchBruteForce();
    void exportIntoAPipeWritesIntoIt();
    void aFileWrittenAsItIsRenderedHoldsTheSameBytes();
    void aStreamedExportOnThreadsHoldsTheBytesOfOneThread();
};

void TestExport::numberWriterMatchesFormatNumberOnAMillionDoubles()
{
    SplitMix64 rng{14};
    std::vector<double> values = awkwardDoubles();
    for (int i = 0; i < 250000; ++i)  // any bit pattern
        values.push_back(std::bit_cast<double>(rng.next()));
    for (int i = 0; i < 250000; ++i) {  // every exponent alike, subnormals and specials included
        const std::uint64_t r = rng.next();
        const std::uint64_t exponent = r % 2048, mantissa = rng.next() >> 12;
        values.push_back(std::bit_cast<double>((r >> 63) << 63 | exponent << 52 | mantissa));
    }
    for (int i = 0; i < 150000; ++i) {  // short decimals, where the shortest digits are few
        const double digits = static_cast<double>(rng.next() % 100000000);
        values.push_back(digits / std::pow(10.0, static_cast<double>(rng.next() % 40)) * std::pow(10.0, static_cast<double>(rng.next() % 30)));
    }
    for (int i = 0; i < 150000; ++i)  // integers up to 2^53 and a little beyond
        values.push_back(static_cast<double>(rng.next() >> (9 + rng.next() % 55)) * (rng.next() & 1 ? 1 : -1));
    for (int e = -325; e <= 308; ++e) {  // the neighbours of every power of ten, the layout's edges
        const double p = std::pow(10.0, e);
        double lo = p, hi = p;
        for (int step = 0; step < 40; ++step) {
            lo = std::nextafter(lo, 0.0);
            hi = std::nextafter(hi, std::numeric_limits<double>::infinity());
            values.insert(values.end(), {lo, hi, -lo, -hi});
        }
    }
    for (int i = 0; i < 150000; ++i)  // world coordinates, as exports hold them
        values.push_back(static_cast<double>(rng.next() >> 11) * 0x1.0p-53 * static_cast<double>(1 << (rng.next() % 24)));
    QVERIFY(values.size() >= 1000000);
    std::size_t mismatches = 0;
    std::string first;
    for (const double v : values) {
        const std::string want = referenceFormatNumber(v);
        const std::string got = written(v);
        const std::string viaString = formatNumber(v);
        bool ok = got == want && viaString == want;
        if (ok && std::isfinite(v))  // and the text reads back as the same double
            {
            double back = NAN;
            ok = parseNumber(got, back) && std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(v);
        }
        if (!ok && mismatches++ == 0)
            first = bitsOf(v) + ": wrote " + got + ", formatNumber " + viaString + ", expected " + want;
    }
    QVERIFY2(mismatches == 0, (std::to_string(mismatches) + " of " + std::to_string(values.size()) + " differ; first "
                               + first).c_str());
}

void TestExport::numberWriterMatchesTheOldNumbersOfAwkwardDoubles()
{
    // awkward-numbers.txt: formatNumber's lines for awkwardDoubles(), saved before writeNumber
    std::istringstream lines(readFile(testsDir() + "/data/export/awkward-numbers.txt"));
    std::string line;
    std::size_t n = 0;
    for (const double v : awkwardDoubles()) {
        QVERIFY(std::getline(lines, line));
        QCOMPARE(written(v), line);
        ++n;
    }
    QVERIFY(!std::getline(lines, line));
    QVERIFY(n > 3000);
}

void TestExport::exportsKeepTheOldWritersBytes()
{
    // The digests of awkwardLayers()' exports as the string-built writers wrote them before writeNumber.
    const auto layers = awkwardLayers();
    const auto info = awkwardInfo();
    const std::string json = exportPoints(ExportFormat::Json, info, layers);
    const std::string csv = exportPoints(ExportFormat::Csv, info, layers);
    const std::string withRotation = exportPoints(ExportFormat::Tiled, info, layers);
    // Each Tiled object also keeps its rotation as a custom property (Tiled drops
    // a point object's own rotation); without those, the bytes are the old writer's.
    std::string tiled;
    std::size_t rotations = 0;
    const std::string property = "{\"name\": \"rotation\", \"type\": \"float\", \"value\": ";
    for (std::size_t at = 0;;) {
        const std::size_t found = withRotation.find(property, at);
        if (found == std::string::npos) {
            tiled += withRotation.substr(at);
            break;
        }
        tiled += withRotation.substr(at, found - at);
        at = withRotation.find("}, ", found) + 3;
        ++rotations;
    }
    std::size_t points = 0;
    for (const auto &l : layers)
        points += l->points.size();
    QCOMPARE(rotations, points);
    QCOMPARE(json.size(), size_t(367554));
    QCOMPARE(csv.size(), size_t(266590));
    QCOMPARE(tiled.size(), size_t(854351));
    QCOMPARE(sha256Hex(json), std::string("b61059db860fb82b2e47645dc9492e08665ac71208e97a16580cc8b242106a02"));
    QCOMPARE(sha256Hex(csv), std::string("cf1c1c4c19a427a317bc68c6c95dd5ff693c880a9221407f31df9f853a08cd80"));
    QCOMPARE(sha256Hex(tiled), std::string("e0890cf9114d6aa1aecf92b758a340b8aa7f580ceab14e3b6ea2e9775a53cec1"));
    // empty layers and no layers keep their brackets
    auto empty = std::make_shared<PointLayer>();
    empty->info.name = "none";
    QVERIFY(exportPoints(ExportFormat::Json, info, {empty}).find("\"points\": []\n") != std::string::npos);
    QVERIFY(exportPoints(ExportFormat::Json, info, {}).find("\"layers\": []\n") != std::string::npos);
    QCOMPARE(exportPoints(ExportFormat::Csv, info, {}), std::string("layer,id,x,y,r,type,rot,scale\n"));
    QVERIFY(exportPoints(ExportFormat::Tiled, info, {empty}).find("\"objects\": []}") != std::string::npos);
}

void TestExport::layerStatsPairsMatchBruteForce()
{
    // Pairs too close (own pairs once, own against earlier) and the tightest own pair, against
    // every pair: dense and sparse layers (the tightest pair farther than a grid cell), mixed radii,
    // duplicates, points off the map, earlier layers with larger radii.
    SplitMix64 rng{99};
    auto uniform = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
    for (int round = 0; round < 80; ++round) {
        const double w = 10 + 400 * uniform(), h = 10 + 300 * uniform();
        auto makeLayer = [&](std::size_t n, double rMin, double rMax) {
            auto l = std::make_shared<PointLayer>();
            for (std::size_t i = 0; i < n; ++i) {
                double x = uniform() * w, y = uniform() * h;
                if (rng.next() % 50 == 0)  // off the map
                    x = -w + 3 * w * uniform(), y = -h + 3 * h * uniform();
                l->points.push_back({x, y, rMin + (rMax - rMin) * uniform()});
                if (rng.next() % 97 == 0)  // a duplicate
                    l->points.push_back(l->points.back());
            }
            return l;
        };
        const std::size_t n = round % 3 == 0 ? 2 + rng.next() % 6 : 20 + rng.next() % 1500;
        const double r = round % 4 == 0 ? 0.01 : 1 + 30 * uniform();
        std::vector<PointLayerPtr> earlier;
        if (round % 2)
            earlier.push_back(makeLayer(rng.next() % 300, r, 3 * r));
        if (round % 5 == 1)
            earlier.push_back(makeLayer(rng.next() % 50, 2 * r, 4 * r));
        // now and then radii spread widely, so a hundredth of the points is wider than the
        // pair scan's cells and pairs of wide points lie cells apart
        const auto own = round % 7 == 3 ? makeLayer(n, r * 0.05, r * 8) : makeLayer(n, r * 0.5, r);
        std::size_t tooClose = 0;
        double tight2 = std::numeric_limits<double>::infinity();
        auto pair = [&](const PointXYR &p, const PointXYR &q, bool bothOwn) {
            const double dx = p.x - q.x, dy = p.y - q.y, m = std::min(p.r, q.r);
            tooClose += dx * dx + dy * dy < m * m;
            if (bothOwn)
                tight2 = std::min(tight2, dx * dx + dy * dy);
        };
        for (std::size_t i = 0; i < own->points.size(); ++i) {
            for (std::size_t j = i + 1; j < own->points.size(); ++j)
                pair(own->points[i], own->points[j], true);
            for (const auto &l : earlier)
                for (const auto &q : l->points)
                    pair(own->points[i], q, false);
        }
        const LayerStats st = computeLayerStats(*own, earlier, w, h);
        const std::string what = "round " + std::to_string(round);
        QVERIFY2(st.tooClose == tooClose, (what + ": too close " + std::to_string(st.tooClose) + ", brute force "
                                           + std::to_string(tooClose)).c_str());
        QVERIFY2(st.tightest == std::sqrt(tight2), (what + ": tightest " + formatNumber(st.tightest) + ", brute force "
                                                    + formatNumber(std::sqrt(tight2))).c_str());
    }
    // A sparse layer among a dense earlier one (cells of about 1): its tightest pair, 1.1 apart,
    // lies two cells apart; a pair in diagonal neighbour cells is farther (2.49).
    auto dense = std::make_shared<PointLayer>();
    for (int j = 0; j < 100; ++j)
        for (int i = 0; i < 100; ++i)
            dense->points.push_back({i + 0.5, j + 0.5, 0.01});
    PointLayer sparse;
    sparse.points = {{10.0, 10.0, 0.01}, {11.99, 11.5, 0.01}, {40.95, 50.5, 0.01}, {42.05, 50.5, 0.01}};
    const LayerStats st = computeLayerStats(sparse, {dense}, 100, 100);
    QCOMPARE(st.tightest, std::sqrt((42.05 - 40.95) * (42.05 - 40.95)));
    QCOMPARE(st.tooClose, size_t(0));
}

// `-o /dev/null` (README, check-cli.sh) renamed a plain file over the device when run as root,
// and failed for want of a temporary file in /dev otherwise: a device or pipe is written into.
// A FIFO stands in for /dev/null here.
void TestExport::exportIntoAPipeWritesIntoIt()
{
    QTemporaryDir dir;
    const std::string fifo = dir.path().toStdString() + "/pipe";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const int keep = ::open(fifo.c_str(), O_RDWR);  // a writer, so the reader's open never blocks
    QVERIFY(keep >= 0);
    std::string got;
    std::thread reader([&] {
        const int fd = ::open(fifo.c_str(), O_RDONLY);
        char buf[65536];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0)
            got.append(buf, static_cast<size_t>(n));
        ::close(fd);
    });
    ExportOutput output;
    output.files.push_back({{}, exportPoints(ExportFormat::Json, awkwardInfo(), awkwardLayers()), {}});
    const auto err = writeExport(output, {fifo, {}}, false);
    ::close(keep);
    reader.join();
    QVERIFY2(!err, err.value_or("").c_str());
    struct stat st{};
    QVERIFY(::stat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
    QCOMPARE(got.size(), output.files.front().bytes.size());
    QVERIFY(got == output.files.front().bytes);
    QCOMPARE(listDir(dir.path().toStdString()), std::vector<std::string>{"pipe"});  // no temporary file left
    // one file per layer needs a folder, not a pipe
    QVERIFY(checkExportDestination({fifo, {}}, true).value_or("").find("needs a folder") != std::string::npos);
}

void TestExport::aFileWrittenAsItIsRenderedHoldsTheSameBytes()
{
    // grove-cli -o FILE writes the points text into the file as it renders it, a megabyte at a
    // time (ExportJob::streamText): every format, whole and split, must hold the bytes the export
    // renders in memory, across several pieces (two layers, one with an attribute, megabytes each).
    // Rendered on two threads (formatInPieces), in memory or into the file, the bytes are those
    // of one thread: grass's points make more pieces than two rounds' eight, so a round is passed
    // on while the next is made, into texts the round before last held.
    const Graph graph = graphOf("grove: 1\nworld: {width: 360, height: 360, seed: 3}\nnodes:\n"
                                "  n: {type: value_noise, params: {frequency: 0.02}}\n"
                                "  rocks: {type: place_layer, params: {radius: 3, rotation: [0, 360], scale: [0.5, 2]}}\n"
                                "  grass: {type: place_layer, inputs: {obstacles: rocks.all}, params: {radius: 1}}\n"
                                "  wet: {type: attribute, inputs: {points: grass, field: n}, params: {name: wet}}\n");
    const EvalResult r = Evaluator(registry()).evaluate(graph);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const std::vector<PointLayerPtr> layers = layersOf(r, exportedLayers(graph, registry()));
    QCOMPARE(layers.size(), std::size_t(2));
    QVERIFY(layers[1]->points.size() > 8 * kFormatPiece);
    QTemporaryDir dir;
    for (const ExportFormat format : {ExportFormat::Json, ExportFormat::Csv, ExportFormat::Tiled, ExportFormat::Gltf,
                                      ExportFormat::Godot, ExportFormat::UnrealCsv, ExportFormat::UnrealJson})
        for (const bool split : {false, true}) {
            ExportJob job;
            job.format = format;
            job.split = split;
            job.layers = exportedLayers(graph, registry());
            job.graphPath = "speed.grove.yaml";
            job.threads = 1;
            const auto whole = buildExport(graph, registry(), r, job);
            job.threads = 2;
            const auto wholeOnThreads = buildExport(graph, registry(), r, job);
            job.streamText = true;
            const auto streamed = buildExport(graph, registry(), r, job);
            QVERIFY(whole && wholeOnThreads && streamed);
            QCOMPARE(wholeOnThreads->files.size(), whole->files.size());
            for (std::size_t f = 0; f < whole->files.size(); ++f)
                QVERIFY2(wholeOnThreads->files[f].bytes == whole->files[f].bytes, exportExtension(format));
            const std::string where = dir.path().toStdString() + "/" + exportExtension(format) + (split ? "_split" : ".out");
            const auto err = writeExport(*streamed, {where, {}}, split);
            QVERIFY2(!err, err.value_or("").c_str());
            std::size_t biggest = 0;
            for (const ExportFile &f : whole->files) {
                const std::string got = readFile(split ? where + "/" + f.name : where);
                QVERIFY2(got == f.bytes, (std::string(exportExtension(format)) + (split ? " split " + f.name : "")).c_str());
                biggest = std::max(biggest, f.bytes.size());
            }
            if (!split)
                QVERIFY2(biggest > 2 * TextOut::kPiece || format == ExportFormat::Gltf, exportExtension(format));
        }
    // a device that fills up: the located error, as for bytes held whole
    ExportJob job;
    job.layers = exportedLayers(graph, registry());
    job.streamText = true;
    const auto streamed = buildExport(graph, registry(), r, job);
    QVERIFY(streamed);
    const auto full = writeExport(*streamed, {"/dev/full", {}}, false);
    QVERIFY2(full && full->find("/dev/full") != std::string::npos, full.value_or("no error").c_str());
}

// A chunked world streamed to a file: each row's text is written while the next row is placed
// (on a thread of its own), and the file holds the bytes of a run on one thread; a run stopped
// from its progress leaves no file. (Under ThreadSanitizer in CI: the writer beside the placement.)
void TestExport::aStreamedExportOnThreadsHoldsTheBytesOfOneThread()
{
    LoadResult loaded = loadGraphFile(testsDir() + "/data/chunks/small.grove.yaml", registry());
    QVERIFY(loaded.ok());
    const std::vector<std::string> ids = exportedLayers(loaded.graph, registry());
    QTemporaryDir dir;
    auto stream = [&](ExportFormat format, int threads, const std::string &name, int stopAfterRows) {
        EvalRequest request;
        request.targets = ids;
        request.limits.placeWholeWorld = false;
        const EvalResult result = Evaluator(registry()).evaluate(loaded.graph, request);
        StreamExportJob job;
        job.layers = layersOf(result, ids);
        job.info.world = loaded.graph.world;
        job.format = format;
        job.region = {0, 0, 1024, 1024};
        job.threads = threads;
        std::atomic<bool> cancel{false};
        job.cancel = &cancel;
        int rows = 0;
        job.progress = [&](const StreamProgress &) { cancel = ++rows == stopAfterRows; };
        std::string error;
        const StreamStatus status = streamExport(job, dir.filePath(QString::fromStdString(name)).toStdString(), &error);
        return std::make_pair(status, error);
    };
    for (ExportFormat format : {ExportFormat::Json, ExportFormat::Csv}) {
        QCOMPARE(stream(format, 1, "one", 0).first, StreamStatus::Done);
        QCOMPARE(stream(format, 2, "two", 0).first, StreamStatus::Done);
        const std::string one = readFile(dir.filePath("one").toStdString());
        QVERIFY(one.size() > 100000);
        QVERIFY(readFile(dir.filePath("two").toStdString()) == one);
    }
    QCOMPARE(stream(ExportFormat::Json, 2, "stopped", 3).first, StreamStatus::Cancelled);
    QVERIFY(!QFile::exists(dir.filePath("stopped")));
}

QTEST_APPLESS_MAIN(TestExport)
#include "tst_export.moc"
