// The preview: ground colours by label, sprites where the points are, only exported layers,
// PNG files that decode, the same bytes every run, and no half file after a failed write.
#include "TestSupport.h"

#include "core/eval/Evaluator.h"
#include "core/formats/PngWriter.h"
#include "core/render/PreviewRenderer.h"

#include <QTemporaryDir>

#include <zlib.h>

#include <atomic>
#include <cmath>
#include <filesystem>

using namespace grove;
using namespace grove::test;

class TestPreview : public QObject
{
    Q_OBJECT

private slots:
    void groundPixelsTakeTheirLabelsPaletteColour();
    void flatLabelsAreNotShaded();
    void withoutPaintNodeTheGroundIsNeutral();
    void dotIsDrawnAtItsPixel();
    void unexportedLayerIsNotDrawn();
    void paletteOfTheWrongSizeIsAClearError();
    void pngDecodesToTheImage();
    void sameGraphSameBytes();
    void aKeptScratchPaintsTheSameGround();
    void cancelReturnsNothing();
    void failedWriteLeavesNothing();
    void previewSizeKeepsTheAspect();
};

namespace {

// Two bands over a noise, cut at 0.5: enough to see both colours on a small world.
const char *kGroundYaml = R"(grove: 1
world: {width: 120, height: 80, seed: 7}
nodes:
  height:
    type: value_noise
    params: {frequency: 0.03}
  bands:
    type: threshold
    inputs: {field: height}
    params: {cuts: [0.45, 0.55], labels: [water, sand, grass], colors: ["#000010", "#000020", "#000030"]}
  paint:
    type: paint
    inputs: {ground: bands, shade: height}
    params: {palette: ["#2a669c", "#dac88c", "#769c48"], shading: %SHADING%, flat: [%FLAT%]}
)";

// A uniform green ground and one dot at a known spot.
const char *kDotYaml = R"(grove: 1
world: {width: 100, height: 60, seed: 3}
nodes:
  level:
    type: constant
    params: {value: 0.5}
  bands:
    type: threshold
    inputs: {field: level}
    params: {cuts: [0.3], labels: [water, land]}
  paint:
    type: paint
    inputs: {ground: bands}
    params: {palette: ["#2040a0", "#60a040"]}
  spot:
    type: random_points
    params: {count: 1, radius: 2, color: "#e01010", sprite: dot, export: %EXPORT%}
)";

std::string substitute(std::string text, const std::string &key, const std::string &value)
{
    for (size_t at; (at = text.find(key)) != std::string::npos;)
        text.replace(at, key.size(), value);
    return text;
}

Graph loaded(const std::string &text)
{
    LoadResult r = load(text);
    if (hasErrors(r.diagnostics))
        qWarning("%s", formatAll(r.diagnostics).c_str());
    return r.graph;
}

Graph groundGraph(const std::string &shading, const std::string &flat = {})
{
    return loaded(substitute(substitute(kGroundYaml, "%SHADING%", shading), "%FLAT%", flat));
}

Rgb pixel(const Image &image, int x, int y)
{
    const size_t i = (static_cast<size_t>(y) * static_cast<size_t>(image.width) + static_cast<size_t>(x)) * 3;
    return {image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]};
}

LabelsPtr labelsOf(const EvalResult &result, const std::string &node)
{
    PortValue v = result.output(node);
    const auto *l = std::get_if<LabelsPtr>(&v);
    return l ? *l : nullptr;
}

std::uint32_t u32(const std::string &s, size_t at)
{
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24
           | static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16
           | static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8
           | static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

} // namespace

void TestPreview::groundPixelsTakeTheirLabelsPaletteColour()
{
    Evaluator ev(registry());
    Graph g = groundGraph("0");
    EvalResult r = ev.evaluate(g);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const Image image = renderPreview(g, r, 120, 80);
    QCOMPARE(image.width, 120);
    QCOMPARE(image.height, 80);
    QCOMPARE(image.rgb.size(), size_t(120 * 80 * 3));
    LabelsPtr labels = labelsOf(r, "bands");
    QVERIFY(labels);
    const Rgb palette[] = {{0x2a, 0x66, 0x9c}, {0xda, 0xc8, 0x8c}, {0x76, 0x9c, 0x48}};
    int seen[3] = {0, 0, 0};
    for (int y = 0; y < 80; ++y)
        for (int x = 0; x < 120; ++x) {
            const int label = labels->at(x + 0.5, y + 0.5);
            QVERIFY(label >= 0 && label < 3);
            ++seen[label];
            QCOMPARE(pixel(image, x, y), palette[label]);
        }
    QVERIFY(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);  // the world shows every band

    // Scaled down, a pixel shows the label at its centre in world units.
    const Image half = renderPreview(g, r, 60, 40);
    QCOMPARE(pixel(half, 10, 20), palette[labels->at(21, 41)]);
}

void TestPreview::flatLabelsAreNotShaded()
{
    Evaluator ev(registry());
    Graph g = groundGraph("2", "water, sand");
    EvalResult r = ev.evaluate(g);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    const Image image = renderPreview(g, r, 120, 80);
    LabelsPtr labels = labelsOf(r, "bands");
    const Rgb grass{0x76, 0x9c, 0x48};
    int shadedGrass = 0;
    for (int y = 0; y < 80; ++y)
        for (int x = 0; x < 120; ++x) {
            const int label = labels->at(x + 0.5, y + 0.5);
            if (label == 0)
                QCOMPARE(pixel(image, x, y), (Rgb{0x2a, 0x66, 0x9c}));
            else if (label == 1)
                QCOMPARE(pixel(image, x, y), (Rgb{0xda, 0xc8, 0x8c}));
            else if (pixel(image, x, y) != grass)
                ++shadedGrass;
        }
    QVERIFY(shadedGrass > 0);  // the hills do show on the land
}

void TestPreview::withoutPaintNodeTheGroundIsNeutral()
{
    Evaluator ev(registry());
    Graph g = groundGraph("0");
    g.nodes.erase(g.nodes.begin() + g.indexOf("paint"));
    EvalResult r = ev.evaluate(g);
    QVERIFY(r.ok());
    const Image image = renderPreview(g, r, 30, 20);
    const Rgb first = pixel(image, 0, 0);
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 30; ++x)
            QCOMPARE(pixel(image, x, y), first);
}

void TestPreview::dotIsDrawnAtItsPixel()
{
    Evaluator ev(registry());
    Graph g = loaded(substitute(kDotYaml, "%EXPORT%", "true"));
    EvalResult r = ev.evaluate(g);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    PortValue v = r.output("spot", "points");
    const PointXYR p = std::get<PointSetPtr>(v)->layers.at(0)->points.at(0);
    const Image image = renderPreview(g, r, 100, 60);
    const Rgb ground{0x60, 0xa0, 0x40}, body{0xe0, 0x10, 0x10};
    const int px = static_cast<int>(std::floor(p.x)), py = static_cast<int>(std::floor(p.y));
    // The body's colour, possibly under the faint white highlight of a dot.
    Rgb lit = body;
    for (int c = 0; c < 3; ++c)
        lit[c] = static_cast<std::uint8_t>(body[c] + (((255 - body[c]) * 90) >> 8));
    const Rgb at = pixel(image, px, py);
    QVERIFY2(at == body || at == lit, qPrintable(QString("pixel %1,%2 is %3,%4,%5").arg(px).arg(py).arg(at[0]).arg(at[1]).arg(at[2])));
    // Only the sprite's neighbourhood changes.
    for (int y = 0; y < 60; ++y)
        for (int x = 0; x < 100; ++x)
            if (std::abs(x - px) > 3 || std::abs(y - py) > 3)
                QCOMPARE(pixel(image, x, y), ground);

    // At half size the dot lands on the half-size pixel.
    const Image half = renderPreview(g, r, 50, 30);
    const Rgb h = pixel(half, static_cast<int>(std::floor(p.x / 2)), static_cast<int>(std::floor(p.y / 2)));
    QVERIFY(h == body || h == lit);
}

void TestPreview::unexportedLayerIsNotDrawn()
{
    Evaluator ev(registry());
    Graph g = loaded(substitute(kDotYaml, "%EXPORT%", "false"));
    EvalResult r = ev.evaluate(g);
    QVERIFY(r.ok());
    QVERIFY(std::holds_alternative<PointSetPtr>(r.output("spot", "points")));  // evaluated, just not exported
    const Image image = renderPreview(g, r, 100, 60);
    for (int y = 0; y < 60; ++y)
        for (int x = 0; x < 100; ++x)
            QCOMPARE(pixel(image, x, y), (Rgb{0x60, 0xa0, 0x40}));
}

void TestPreview::paletteOfTheWrongSizeIsAClearError()
{
    Evaluator ev(registry());
    Graph g = loaded(substitute(kDotYaml, "%EXPORT%", "true"));
    g.node("paint")->setParam("palette", ValueList{"#000000"});
    EvalResult r = ev.evaluate(g);
    QCOMPARE(r.status, EvalResult::Status::Failed);
    const std::string text = formatAll(r.diagnostics);
    QVERIFY2(text.find("palette has 1 colours, but the ground has 2 labels") != std::string::npos, text.c_str());

    g.node("paint")->setParam("palette", ValueList{});
    g.node("paint")->setParam("flat", ValueList{"watr"});
    r = ev.evaluate(g);
    QCOMPARE(r.status, EvalResult::Status::Failed);
    QVERIFY2(formatAll(r.diagnostics).find("'watr'") != std::string::npos, formatAll(r.diagnostics).c_str());
}

void TestPreview::pngDecodesToTheImage()
{
    Evaluator ev(registry());
    Graph g = groundGraph("0.5");
    EvalResult r = ev.evaluate(g);
    const Image image = renderPreview(g, r, 37, 23);  // odd sizes: no row padding assumptions
    std::string error;
    const std::optional<std::string> png = encodePng(image, &error);
    QVERIFY2(png, error.c_str());
    const std::string &s = *png;
    QCOMPARE(s.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    QCOMPARE(u32(s, 8), 13u);
    QCOMPARE(s.substr(12, 4), std::string("IHDR"));
    QCOMPARE(u32(s, 16), 37u);
    QCOMPARE(u32(s, 20), 23u);
    QCOMPARE(s.substr(24, 5), std::string("\x08\x02\x00\x00\x00", 5));

    // Walk the chunks: check every CRC, gather IDAT, end at IEND.
    std::string idat;
    size_t at = 8;
    bool ended = false;
    while (at + 12 <= s.size()) {
        const std::uint32_t length = u32(s, at);
        const std::string type = s.substr(at + 4, 4);
        QVERIFY(at + 12 + length <= s.size());
        const uLong crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef *>(s.data() + at + 4), length + 4);
        QCOMPARE(u32(s, at + 8 + length), static_cast<std::uint32_t>(crc));
        if (type == "IDAT")
            idat += s.substr(at + 8, length);
        at += 12 + length;
        if (type == "IEND") {
            ended = true;
            break;
        }
    }
    QVERIFY(ended);
    QCOMPARE(at, s.size());

    const size_t stride = 37 * 3;
    std::string raw(23 * (1 + stride), '\0');
    uLongf rawSize = static_cast<uLongf>(raw.size());
    QCOMPARE(uncompress(reinterpret_cast<Bytef *>(raw.data()), &rawSize, reinterpret_cast<const Bytef *>(idat.data()),
                        static_cast<uLong>(idat.size())),
             Z_OK);
    QCOMPARE(static_cast<size_t>(rawSize), size_t(23 * (1 + 3 * 37)));

    // Undo the filters (None, Sub, Up, Average, Paeth) and compare with the image.
    std::vector<std::uint8_t> pixels(23 * stride);
    for (size_t y = 0; y < 23; ++y) {
        const int filter = static_cast<unsigned char>(raw[y * (1 + stride)]);
        QVERIFY(filter >= 0 && filter <= 4);
        for (size_t i = 0; i < stride; ++i) {
            const int v = static_cast<unsigned char>(raw[y * (1 + stride) + 1 + i]);
            const int a = i >= 3 ? pixels[y * stride + i - 3] : 0;
            const int b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
            const int c = i >= 3 && y > 0 ? pixels[(y - 1) * stride + i - 3] : 0;
            int pred = 0;
            if (filter == 1)
                pred = a;
            else if (filter == 2)
                pred = b;
            else if (filter == 3)
                pred = (a + b) / 2;
            else if (filter == 4) {
                const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
                pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            }
            pixels[y * stride + i] = static_cast<std::uint8_t>(v + pred);
        }
    }
    QVERIFY(pixels == image.rgb);
}

void TestPreview::sameGraphSameBytes()
{
    const Graph g = loaded(readFile(sourceDir() + "/presets/island_world.grove.yaml"));
    QVERIFY(!g.nodes.empty());
    const Graph &painted = g;  // the preset paints its own ground (height bands x moisture)
    QVERIFY(painted.node("paint"));

    Evaluator first(registry()), second(registry());
    EvalResult a = first.evaluate(painted);
    QVERIFY2(a.ok(), formatAll(a.diagnostics).c_str());
    EvalResult b = second.evaluate(painted);
    QVERIFY(b.ok());
    const Image ia = renderPreview(painted, a, 440, 240);
    const Image ib = renderPreview(painted, b, 440, 240);
    QVERIFY(ia.rgb == ib.rgb);
    QVERIFY(encodePng(ia) == encodePng(ib));

    QTemporaryDir dir;
    const std::string p1 = dir.filePath("a.png").toStdString(), p2 = dir.filePath("b.png").toStdString();
    QVERIFY(!writePreviewPng(painted, a, p1, 300));
    QVERIFY(!writePreviewPng(painted, b, p2, 300));
    QCOMPARE(readFile(p1), readFile(p2));
    const std::string png = readFile(p1);
    QCOMPARE(u32(png, 16), 300u);  // 880 x 480 capped at 300: 300 x 164
    QCOMPARE(u32(png, 20), 164u);
}

void TestPreview::aKeptScratchPaintsTheSameGround()
{
    // The editor keeps the ground's working rows from frame to frame: what the last frame left in
    // them (a bigger picture, a smaller one, another part of the world) must never show.
    const Graph g = groundGraph("0.8");
    Evaluator evaluator(registry());
    const EvalResult r = evaluator.evaluate(g);
    QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
    GroundScratch scratch;
    struct Frame
    {
        int width, height;
        Region region;
    };
    const Frame frames[] = {{240, 160, {}}, {400, 300, {}}, {90, 50, {}}, {240, 160, {30, 20, 90, 60}}, {240, 160, {}}};
    for (const Frame &f : frames) {
        RenderOptions fresh, kept;
        fresh.region = kept.region = f.region;
        kept.groundScratch = &scratch;
        // whatever a frame left, at its largest: another label everywhere, a steep shade
        scratch.labels.assign(std::max<std::size_t>(scratch.labels.size(), 120000), 1);
        scratch.shade.assign(scratch.labels.size(), 1e6);
        const Image want = renderGround(g, r, f.width, f.height, fresh);
        const Image got = renderGround(g, r, f.width, f.height, kept);
        QVERIFY(!want.empty());
        QVERIFY2(got.rgb == want.rgb, qPrintable(QStringLiteral("%1 x %2").arg(f.width).arg(f.height)));
        QCOMPARE(scratch.labels.size(), static_cast<std::size_t>(f.width) * static_cast<std::size_t>(f.height));
    }
}

void TestPreview::cancelReturnsNothing()
{
    Evaluator ev(registry());
    Graph g = groundGraph("0.5");
    EvalResult r = ev.evaluate(g);
    std::atomic<bool> cancel{true};
    RenderOptions options;
    options.cancel = &cancel;
    QVERIFY(renderPreview(g, r, 120, 80, options).empty());
}

void TestPreview::failedWriteLeavesNothing()
{
    Evaluator ev(registry());
    Graph g = groundGraph("0.5");
    EvalResult r = ev.evaluate(g);
    QTemporaryDir dir;
    const std::string path = dir.filePath("missing/preview.png").toStdString();
    const std::optional<std::string> error = writePreviewPng(g, r, path, 64);
    QVERIFY(error);
    QVERIFY2(!error->empty(), "the failure says why");
    QVERIFY(!std::filesystem::exists(dir.filePath("missing").toStdString()));
    QVERIFY(std::filesystem::is_empty(dir.path().toStdString()));  // no temporary file left behind

    QVERIFY(writePreviewPng(g, r, dir.filePath("ok.png").toStdString(), 0));  // a zero size is refused
    QVERIFY(!std::filesystem::exists(dir.filePath("ok.png").toStdString()));
}

void TestPreview::previewSizeKeepsTheAspect()
{
    QCOMPARE(previewSize(World{880, 480, 0}, 1024), std::make_pair(880, 480));
    QCOMPARE(previewSize(World{880, 480, 0}, 440), std::make_pair(440, 240));
    QCOMPARE(previewSize(World{100, 4000, 0}, 1000), std::make_pair(25, 1000));
    QCOMPARE(previewSize(World{100000, 1, 0}, 512), std::make_pair(512, 1));
}

QTEST_GUILESS_MAIN(TestPreview)
#include "tst_preview.moc"
