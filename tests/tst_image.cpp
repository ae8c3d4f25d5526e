// The image node: PNGs written and read back by Qt's own image code (a reader Grove did not
// write), RAW heightmaps, placement only where the decoded image allows it, files relative to
// the graph, re-evaluation when the file changes, and every bad file a located error.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"

#include <QBuffer>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include <zlib.h>

#include <cmath>
#include <sys/stat.h>
#include <utime.h>

using namespace grove;
using namespace grove::test;

class TestImage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char *name) const { return (m_dir.path() + "/" + name).toStdString(); }

    // A graph in the temporary folder whose image node reads `file` (relative), with extra params.
    std::string graphText(const std::string &file, const std::string &params = {}, double w = 70, double h = 50) const
    {
        return "grove: 1\nworld: {width: " + formatNumber(w) + ", height: " + formatNumber(h) + ", seed: 3}\nnodes:\n  img:\n"
               "    type: image\n    params: {path: \"" + file + "\"" + (params.empty() ? "" : ", " + params) + "}\n";
    }

    // Evaluates `text` as if saved as GRAPH in the temporary folder; returns the image field or
    // null with the first diagnostic in `problem`.
    FieldPtr fieldOf(const std::string &text, std::string *problem = nullptr, Evaluator *evaluator = nullptr)
    {
        const std::string file = path("g.grove.yaml");
        writeFile(file, text);
        LoadResult loaded = loadGraphFile(file, registry());
        if (!loaded.ok()) {
            if (problem)
                *problem = loaded.diagnostics.front().format();
            return nullptr;
        }
        Evaluator local(registry());
        EvalResult r = (evaluator ? evaluator : &local)->evaluate(loaded.graph);
        if (!r.ok()) {
            if (problem) {
                Diagnostic d = r.diagnostics.front();
                d.file = file;
                locate(loaded, d);
                *problem = d.format();
            }
            return nullptr;
        }
        return std::get<FieldPtr>(r.output("img"));
    }

    // Bilinear sampling of an image by pixel centres, from values Qt decoded: the reference.
    static double bilinear(const std::vector<double> &v, int w, int h, double u, double t)
    {
        const double px = std::clamp(u * w - 0.5, 0.0, double(w - 1)), py = std::clamp(t * h - 0.5, 0.0, double(h - 1));
        const int x0 = int(px), y0 = int(py), x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
        const double fx = px - x0, fy = py - y0;
        auto at = [&](int x, int y) { return v[size_t(y) * size_t(w) + size_t(x)]; };
        const double top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * fx;
        const double bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * fx;
        return top + (bottom - top) * fy;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void greyPngsAtPixelCentresAndBetween_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("8-bit grey") << int(QImage::Format_Grayscale8);
        QTest::newRow("16-bit grey") << int(QImage::Format_Grayscale16);
    }
    void greyPngsAtPixelCentresAndBetween()
    {
        QFETCH(int, format);
        const int w = 7, h = 5;
        QImage img(w, h, QImage::Format(format));
        const bool deep = format == QImage::Format_Grayscale16;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const int v = (x * 37 + y * 91 + x * y * 13) % 256;
                if (deep)
                    reinterpret_cast<quint16 *>(img.scanLine(y))[x] = quint16(v * 257 + x);
                else
                    img.scanLine(y)[x] = uchar(v);
            }
        QVERIFY(img.save(m_dir.path() + "/grey.png"));
        // the reference: what Qt reads back from the file
        const QImage back(m_dir.path() + "/grey.png");
        QCOMPARE(back.format(), QImage::Format(format));
        std::vector<double> ref(size_t(w) * h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                ref[size_t(y) * w + x] = deep ? reinterpret_cast<const quint16 *>(back.constScanLine(y))[x] / 65535.0
                                              : back.constScanLine(y)[x] / 255.0;
        std::string problem;
        const FieldPtr f = fieldOf(graphText("grey.png", "min: -2, max: 6, outside: -9"), &problem);
        QVERIFY2(f, problem.c_str());
        // world 70 x 50: a pixel is 10 x 10
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                QVERIFY(std::abs(f->at(x * 10 + 5, y * 10 + 5) - (-2 + 8 * ref[size_t(y) * w + x])) < 1e-12);
        for (int i = 0; i < 400; ++i) {
            const double u = (i * 0.618034) - std::floor(i * 0.618034), t = (i * 0.7548777) - std::floor(i * 0.7548777);
            QVERIFY(std::abs(f->at(u * 70, t * 50) - (-2 + 8 * bilinear(ref, w, h, u, t))) < 1e-12);
        }
        QCOMPARE(f->at(-0.001, 10), -9.0);
        QCOMPARE(f->at(70, 10), -9.0);
        QCOMPARE(f->upperBound(), 6.0);
    }

    void colourChannelsAndPalettes()
    {
        QImage rgba(4, 3, QImage::Format_RGBA8888);
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 4; ++x)
                rgba.setPixelColor(x, y, QColor(x * 60, y * 100, 255 - x * 50, 40 + x * 50));
        QVERIFY(rgba.save(m_dir.path() + "/rgba.png"));
        QImage pal(4, 3, QImage::Format_Indexed8);
        pal.setColorTable({qRgb(10, 20, 30), qRgb(200, 100, 0), qRgb(255, 255, 255)});
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 4; ++x)
                pal.setPixel(x, y, uint((x + y) % 3));
        QVERIFY(pal.save(m_dir.path() + "/palette.png"));
        for (const char *file : {"rgba.png", "palette.png"}) {
            const QImage back = QImage(m_dir.path() + "/" + file).convertToFormat(QImage::Format_RGBA8888);
            for (const char *channel : {"red", "green", "blue", "alpha", "grey"}) {
                std::string problem;
                // world 40 x 30: pixels of 10
                const FieldPtr f = fieldOf(graphText(file, std::string("channel: ") + channel, 40, 30), &problem);
                QVERIFY2(f, problem.c_str());
                for (int y = 0; y < 3; ++y)
                    for (int x = 0; x < 4; ++x) {
                        const QColor c = back.pixelColor(x, y);
                        const std::string ch = channel;
                        const int want = ch == "red" ? c.red() : ch == "green" ? c.green() : ch == "blue" ? c.blue()
                                         : ch == "alpha" ? c.alpha()
                                                         : (299 * c.red() + 587 * c.green() + 114 * c.blue() + 500) / 1000;
                        QVERIFY2(f->at(x * 10 + 5, y * 10 + 5) == want / 255.0,
                                 qPrintable(QString("%1 %2 at %3,%4: %5, Qt %6").arg(file, channel).arg(x).arg(y)
                                                .arg(f->at(x * 10 + 5, y * 10 + 5) * 255).arg(want)));
                    }
            }
        }
    }

    void rawHeightmaps()
    {
        // 4 x 4, little endian: sample i is i * 4000 + 1
        std::string bytes;
        for (int i = 0; i < 16; ++i) {
            const int v = i * 4000 + 1;
            bytes += char(v & 0xFF);
            bytes += char(v >> 8);
        }
        writeFile(path("square.r16"), bytes);
        std::string problem;
        FieldPtr f = fieldOf(graphText("square.r16", "", 40, 40), &problem);
        QVERIFY2(f, problem.c_str());
        for (int i = 0; i < 16; ++i)
            QCOMPARE(f->at((i % 4) * 10 + 5, (i / 4) * 10 + 5), (i * 4000 + 1) / 65535.0);
        // the same bytes as 8 x 2
        f = fieldOf(graphText("square.r16", "raw_width: 8, raw_height: 2", 80, 20), &problem);
        QVERIFY2(f, problem.c_str());
        QCOMPARE(f->at(75, 15), (15 * 4000 + 1) / 65535.0);
        // 6 x 6 does not fit 32 bytes: a located error on path, with both sizes
        QVERIFY(!fieldOf(graphText("square.r16", "raw_width: 6, raw_height: 6"), &problem));
        QVERIFY2(problem.find("a 6 x 6 RAW heightmap has 72 bytes; this file has 32 (truncated?)") != std::string::npos, problem.c_str());
        QVERIFY2(problem.find("g.grove.yaml:6:") != std::string::npos, problem.c_str());
    }

    void placesOnlyWhereTheImageAllows()
    {
        // blocks of white and black: allowed where the bilinear sample is at least 0.5
        const int w = 24, h = 16;
        QImage img(w, h, QImage::Format_Grayscale8);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                img.scanLine(y)[x] = ((x / 5 + y / 4) % 2) ? 255 : 0;
        QVERIFY(img.save(m_dir.path() + "/mask.png"));
        const QImage back(m_dir.path() + "/mask.png");
        std::vector<double> ref(size_t(w) * h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                ref[size_t(y) * w + x] = back.constScanLine(y)[x] / 255.0;
        const std::string text = graphText("mask.png", "", 240, 160)
                                 + "  ok:\n    type: allowed_rule\n    inputs: {field: img}\n    params: {min: 0.5}\n"
                                   "  trees:\n    type: place_layer\n    inputs: {allowed: ok}\n    params: {radius: 2, start: patches}\n";
        writeFile(path("g.grove.yaml"), text);
        LoadResult loaded = loadGraphFile(path("g.grove.yaml"), registry());
        QVERIFY(loaded.ok());
        Evaluator ev(registry());
        EvalResult r = ev.evaluate(loaded.graph);
        QVERIFY(r.ok());
        const auto layer = layersOf(r, {"trees"});
        QCOMPARE(layer.size(), size_t(1));
        QVERIFY(layer[0]->points.size() > 500);
        int inWhiteCells = 0;
        for (const PointXYR &p : layer[0]->points) {
            const double v = bilinear(ref, w, h, p.x / 240, p.y / 160);
            QVERIFY2(v >= 0.5, qPrintable(QString("point (%1, %2) where the image gives %3").arg(p.x).arg(p.y).arg(v)));
            inWhiteCells += ref[size_t(int(p.y / 10)) * w + size_t(int(p.x / 10))] == 1.0;
        }
        QVERIFY(inWhiteCells > int(layer[0]->points.size()) * 9 / 10);
    }

    // A heightmap wired into a layer's height: every exported point carries z = height x scale
    // there (from Qt's decode), and the points are those of the same layer without it.
    void heightGivesEachPointItsZ()
    {
        const int w = 9, h = 6;
        QImage img(w, h, QImage::Format_Grayscale16);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                reinterpret_cast<quint16 *>(img.scanLine(y))[x] = quint16((x * 7001 + y * 9973) % 65536);
        QVERIFY(img.save(m_dir.path() + "/terrain.png"));
        const QImage back(m_dir.path() + "/terrain.png");
        std::vector<double> ref(size_t(w) * h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                ref[size_t(y) * w + x] = reinterpret_cast<const quint16 *>(back.constScanLine(y))[x] / 65535.0;
        const std::string layer = "  l:\n    type: place_layer\n    inputs: {height: img}\n    params: {radius: 4, height_scale: 250}\n";
        const std::string flat = "  l:\n    type: place_layer\n    params: {radius: 4, height_scale: 250}\n";
        auto evaluate = [&](const std::string &text) {
            writeFile(path("z.grove.yaml"), text);
            LoadResult loaded = loadGraphFile(path("z.grove.yaml"), registry());
            Evaluator ev(registry());
            EvalResult r = ev.evaluate(loaded.graph);
            return layersOf(r, {"l"});
        };
        const auto withZ = evaluate(graphText("terrain.png", "", 90, 60) + layer);
        const auto without = evaluate(graphText("terrain.png", "", 90, 60) + flat);
        QCOMPARE(withZ.size(), size_t(1));
        QCOMPARE(withZ[0]->points.size(), without[0]->points.size());
        QVERIFY(withZ[0]->points.size() > 50);
        QVERIFY(without[0]->z.empty());
        QCOMPARE(withZ[0]->z.size(), withZ[0]->points.size());
        for (size_t i = 0; i < withZ[0]->points.size(); ++i) {
            const PointXYR &p = withZ[0]->points[i];
            QCOMPARE(p.x, without[0]->points[i].x);
            QCOMPARE(p.y, without[0]->points[i].y);
            QVERIFY(std::abs(withZ[0]->z[i] - 250 * bilinear(ref, w, h, p.x / 90, p.y / 60)) < 1e-9);
        }
        // the JSON export writes it after y; a layer without height writes none
        ExportInfo info;
        const std::string json = exportPoints(ExportFormat::Json, info, withZ);
        QVERIFY(json.find(", \"z\": ") != std::string::npos);
        QVERIFY(exportPoints(ExportFormat::Json, info, without).find("\"z\"") == std::string::npos);
        const std::string csv = exportPoints(ExportFormat::Csv, info, withZ);
        QVERIFY(csv.rfind("layer,id,x,y,r,type,rot,scale,z\n", 0) == 0);
    }

    void relativeToTheGraphFromAnyFolder()
    {
        QImage img(2, 2, QImage::Format_Grayscale8);
        img.fill(128);
        QVERIFY(QDir(m_dir.path()).mkpath("inputs"));
        QVERIFY(img.save(m_dir.path() + "/inputs/flat.png"));
        writeFile(path("rel.grove.yaml"), graphText("inputs/flat.png")
                                              + "  l:\n    type: place_layer\n    inputs: {radius: img}\n    params: {radius: 3}\n");
        QProcess cli;
        cli.setWorkingDirectory(QDir::tempPath());  // not the graph's folder
        cli.start(GROVE_CLI, {"eval", QString::fromStdString(path("rel.grove.yaml")), "-o", "-"});
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        QVERIFY(cli.readAllStandardOutput().contains("\"count\": "));
    }

    void aChangedFileEvaluatesAgain()
    {
        QImage img(2, 2, QImage::Format_Grayscale8);
        img.fill(51);
        QVERIFY(img.save(m_dir.path() + "/live.png"));
        Evaluator ev(registry());
        std::string problem;
        FieldPtr f = fieldOf(graphText("live.png"), &problem, &ev);
        QVERIFY2(f, problem.c_str());
        QCOMPARE(f->at(10, 10), 0.2);
        // the same graph, the same Evaluator (its cache): unchanged file, same result object
        QCOMPARE(fieldOf(graphText("live.png"), &problem, &ev).get(), f.get());
        img.fill(204);
        QVERIFY(img.save(m_dir.path() + "/live.png"));
        // a repaint within the same second still counts (nanosecond times); make sure anyway
        struct stat st{};
        QCOMPARE(::stat(path("live.png").c_str(), &st), 0);
        const utimbuf later{st.st_atime, st.st_mtime + 2};
        QCOMPARE(::utime(path("live.png").c_str(), &later), 0);
        f = fieldOf(graphText("live.png"), &problem, &ev);
        QVERIFY2(f, problem.c_str());
        QCOMPARE(f->at(10, 10), 0.8);
    }

    void badFilesAreLocatedErrors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        // a PNG header that claims 100000 x 100000 (a valid chunk, CRC included), then nothing
        QByteArray huge("\x89PNG\r\n\x1a\n", 8);
        QByteArray ihdr("IHDR", 4);
        for (quint32 v : {100000u, 100000u})
            for (int s = 24; s >= 0; s -= 8)
                ihdr += char((v >> s) & 0xFF);
        ihdr += QByteArray("\x08\x00\x00\x00\x00", 5);
        huge += QByteArray("\x00\x00\x00\x0d", 4) + ihdr;
        const quint32 crc = quint32(crc32(0, reinterpret_cast<const Bytef *>(ihdr.constData()), uInt(ihdr.size())));
        for (int s = 24; s >= 0; s -= 8)
            huge += char((crc >> s) & 0xFF);
        QImage ok(64, 64, QImage::Format_Grayscale8);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
                ok.scanLine(y)[x] = uchar((x * 7 + y * 13) & 0xFF);
        QByteArray png;
        {
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            ok.save(&buffer, "PNG");
        }
        QTest::newRow("missing") << "nothere.png" << QByteArray() << "nothere.png: cannot open: No such file or directory";
        QTest::newRow("empty png") << "empty.png" << QByteArray("") << "empty.png: the file is empty";
        QTest::newRow("not a png") << "text.png" << QByteArray("hello, I am text, not an image\n") << "text.png: not a PNG file";
        QTest::newRow("truncated png") << "cut.png" << png.left(png.size() / 2)
                                       << "cut.png: the PNG could not be read: the file ends early (truncated?)";
        QTest::newRow("huge header") << "huge.png" << huge
                                     << "huge.png: the image is 100000 x 100000, larger than the limit of 65536 pixels a side and 256 Mi pixels in all";
        QTest::newRow("odd raw") << "odd.raw" << QByteArray("abc") << "odd.raw: a 16-bit RAW heightmap has an even number of bytes; this one has 3";
        QTest::newRow("raw not square") << "long.r16" << QByteArray(2 * 6, 'x') << "long.r16: its 6 samples are not a square";
        QTest::newRow("empty raw") << "empty.r16" << QByteArray("") << "empty.r16: the file is empty";
    }
    void badFilesAreLocatedErrors()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        if (file != "nothere.png")
            writeFile(path(file.toUtf8().constData()), bytes.toStdString());
        std::string problem;
        QVERIFY(!fieldOf(graphText(file.toStdString()), &problem));
        // located at the path param's value: line 6 of the graph, after "params: {path: "
        QVERIFY2(problem.find("g.grove.yaml:6:20: error: node 'img' (image): " + message.toStdString()) != std::string::npos,
                 problem.c_str());
        // and through grove-cli, with a layer that reads it: exit 1, the same message, nothing written
        writeFile(path("g.grove.yaml"), graphText(file.toStdString())
                                            + "  l:\n    type: place_layer\n    inputs: {radius: img}\n    params: {radius: 3}\n");
        QProcess cli;
        const QString out = m_dir.path() + "/never.json";
        cli.start(GROVE_CLI, {"eval", QString::fromStdString(path("g.grove.yaml")), "-o", out});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 1);
        QVERIFY(cli.readAllStandardError().contains(message.toUtf8()));
        QVERIFY(!QFile::exists(out));
    }

    void paramsAreChecked()
    {
        std::string problem;
        QVERIFY(!fieldOf(graphText(""), &problem));
        QVERIFY2(problem.find("no image file given: set path to a .png, .r16 or .raw file") != std::string::npos, problem.c_str());
        QVERIFY(!fieldOf(graphText("map.jpg"), &problem));
        QVERIFY2(problem.find("the image must be a .png, .r16 or .raw file") != std::string::npos, problem.c_str());
        QVERIFY(!fieldOf(graphText("x.raw", "raw_width: 4"), &problem));
        QVERIFY2(problem.find("give both raw_width and raw_height, or neither") != std::string::npos, problem.c_str());
    }
};

QTEST_MAIN(TestImage)
#include "tst_image.moc"
