// Wrapped worlds (world.wrap), checked by plain geometry written here, not by Grove's occupancy:
// the output tiled 2 x 2 has no pair closer than r across the seams, layer with layer; the
// seams leave no density step at r/4 resolution; noise repeats with the world; the world key
// reads and writes back; what cannot wrap is a located error.
#include "TestSupport.h"

#include "core/analysis/LayerStats.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GraphWriter.h"

#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <map>
#include <random>

using namespace grove;
using namespace grove::test;

class TestWrap : public QObject
{
    Q_OBJECT

private slots:
    void wrapReadsAndWritesBack();
    void badWrapValuesAreLocatedErrors();
    void whatCannotWrapIsRefused();
    void noiseFrequencyThatCannotRepeatNamesTheNearestThatDoes();
    void tiledTwoByTwoNoPairTooCloseAcrossSeams();
    void seamsLeaveNoDensityStep();
    void noiseRepeatsWithTheWorld();
    void sameBytesInAnyThreadCount();
    void keptRadiiAndErasedAreasReachAcrossTheSeams();
    void statsMeasureAcrossTheSeams();
};

namespace {

std::string problems(const std::string &text)
{
    return formatAll(load(text).diagnostics);
}

bool mentions(const std::string &text, const std::string &part)
{
    if (text.find(part) != std::string::npos)
        return true;
    qWarning("'%s' not in:\n%s", part.c_str(), text.c_str());
    return false;
}

EvalResult evaluate(const Graph &graph, int threads = 1)
{
    EvalRequest request;
    request.limits.threads = threads;
    return evaluateGraph(graph, request);
}

const std::vector<PointXYR> &pointsOf(const EvalResult &result, const std::string &node)
{
    const PortValue v = result.outputWithRole(node, PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    if (!set || !*set || (*set)->layers.empty())
        qFatal("no layer from %s", node.c_str());
    return (*set)->layers.back()->points;
}

// Rocks, then bushes kept off the rocks on ground a noise allows: two layers on one occupancy.
std::string twoLayers(const std::string &world)
{
    return "grove: 1\nworld: " + world + "\nnodes:\n"
           "  noise:\n    type: value_noise\n    params: {frequency: 0.03125, seed: 3}\n"
           "  land:\n    type: allowed_rule\n    inputs: {field: noise}\n    params: {min: 0.3}\n"
           "  rocks:\n    type: place_layer\n    params: {radius: 9}\n"
           "  bushes:\n    type: place_layer\n    inputs: {obstacles: rocks.all, allowed: land}\n"
           "    params: {radius: 4, seed: 1}\n";
}

// The points in four copies, shifted by (0 or width, 0 or height): what a 2 x 2 tiling shows.
std::vector<PointXYR> tiled(const std::vector<PointXYR> &points, double width, double height)
{
    std::vector<PointXYR> out;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i)
            for (const PointXYR &p : points)
                out.push_back({p.x + i * width, p.y + j * height, p.r});
    return out;
}

// Pairs closer than min(ra, rb), by buckets of side `cell` (at least the largest radius) and the
// exact squared distance: plain geometry, nothing of Grove's.
int closePairs(const std::vector<PointXYR> &points, double cell)
{
    std::map<std::pair<long, long>, std::vector<std::size_t>> buckets;
    const auto key = [&](const PointXYR &p) { return std::make_pair(long(std::floor(p.x / cell)), long(std::floor(p.y / cell))); };
    for (std::size_t i = 0; i < points.size(); ++i)
        buckets[key(points[i])].push_back(i);
    int bad = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto [cx, cy] = key(points[i]);
        for (long dy = -1; dy <= 1; ++dy)
            for (long dx = -1; dx <= 1; ++dx) {
                const auto it = buckets.find({cx + dx, cy + dy});
                if (it == buckets.end())
                    continue;
                for (std::size_t j : it->second) {
                    if (j <= i)
                        continue;
                    const double ex = points[i].x - points[j].x, ey = points[i].y - points[j].y;
                    const double m = std::min(points[i].r, points[j].r);
                    bad += ex * ex + ey * ey < m * m;
                }
            }
    }
    return bad;
}

FieldPtr fieldOf(const std::string &world, const std::string &noise)
{
    const EvalResult r = evaluate(graphOf("grove: 1\nworld: " + world + "\nnodes:\n  n:\n    type: " + noise + "\n"));
    if (!r.ok())
        qFatal("%s", formatAll(r.diagnostics).c_str());
    return outputOf<FieldPtr>(r, "n");
}

} // namespace

void TestWrap::wrapReadsAndWritesBack()
{
    const std::string layer = "nodes:\n  trees:\n    type: place_layer\n";
    const std::pair<const char *, std::pair<bool, bool>> cases[] = {
        {"true", {true, true}}, {"x", {true, false}}, {"y", {false, true}}, {"false", {false, false}}};
    for (const auto &[text, axes] : cases) {
        const Graph g = graphOf("grove: 1\nworld: {width: 300, height: 200, seed: 1, wrap: " + std::string(text) + "}\n" + layer);
        QCOMPARE(g.world.wrapX, axes.first);
        QCOMPARE(g.world.wrapY, axes.second);
        const std::string saved = saveGraphToString(g, registry());
        const bool wraps = axes.first || axes.second;
        QCOMPARE(saved.find("  wrap: ") != std::string::npos, wraps);  // saved only when set
        if (wraps)
            QVERIFY(mentions(saved, "  wrap: " + std::string(text) + "\n"));
        QVERIFY(graphOf(saved).world == g.world);
    }
    // a graph without wrap saves as it did: no wrap key at all
    const Graph plain = graphOf("grove: 1\nworld: {width: 300, height: 200, seed: 1}\n" + layer);
    QVERIFY(saveGraphToString(plain, registry()).find("wrap") == std::string::npos);
}

void TestWrap::badWrapValuesAreLocatedErrors()
{
    const std::string layer = "nodes:\n  trees:\n    type: place_layer\n";
    for (const char *bad : {"3", "sideways", "[x]", "{x: true}", "yes"}) {
        const std::string p = problems("grove: 1\nworld:\n  width: 300\n  height: 200\n  wrap: " + std::string(bad) + "\n" + layer);
        QVERIFY(mentions(p, "test.grove.yaml:5:9: error: world wrap must be true (both axes), false, x or y"));
    }
}

void TestWrap::whatCannotWrapIsRefused()
{
    // an endless world has no edges; a chunked world's chunks would not see across them
    QVERIFY(mentions(problems("grove: 1\nworld: {seed: 1, chunk: 100, wrap: true}\nnodes:\n  t:\n    type: place_layer\n"),
                     "error: an endless world cannot wrap"));
    QVERIFY(mentions(problems("grove: 1\nworld: {width: 500, height: 500, chunk: 100, wrap: x}\nnodes:\n  t:\n    type: place_layer\n"),
                     "error: a chunked world cannot wrap: its chunks would not see their neighbours across the edges; remove world.chunk"));
    // nodes whose spacing or pattern stops at the edges, at the node's line
    const std::string world = "grove: 1\nworld: {width: 500, height: 500, wrap: true}\nnodes:\n";
    for (const char *type : {"best_candidate", "dart_throwing", "simplex_noise"})
        QVERIFY(mentions(problems(world + "  n:\n    type: " + type + "\n"),
                         "test.grove.yaml:4:3: error: node 'n' (" + std::string(type) + ") cannot be used in a wrapped world"));
    // without wrap they are fine
    QVERIFY(load("grove: 1\nworld: {width: 500, height: 500}\nnodes:\n  n:\n    type: best_candidate\n").ok());
    // inside a group file (and a group inside that), at the group node's line, naming the node inside
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    writeFile(base + "/cells.grove.yaml", "grove: 1\nworld: {width: 500, height: 500}\noutputs:\n  f: {from: w.field}\n"
                                          "nodes:\n  w:\n    type: simplex_noise\n");
    writeFile(base + "/outer.grove.yaml", "grove: 1\nworld: {width: 500, height: 500}\noutputs:\n  f: {from: c.f}\n"
                                          "nodes:\n  c:\n    type: group\n    params: {graph: cells.grove.yaml}\n");
    for (const char *file : {"cells.grove.yaml", "outer.grove.yaml"}) {
        writeFile(base + "/top.grove.yaml", world + "  g:\n    type: group\n    params: {graph: " + file + "}\n");
        const std::string p = formatAll(loadGraphFile(base + "/top.grove.yaml", registry()).diagnostics);
        QVERIFY(mentions(p, "top.grove.yaml:4:3: error: node 'g' (group) cannot be used in a wrapped world"));
        QVERIFY(mentions(p, "its node 'w' (simplex_noise) cannot"));
        writeFile(base + "/top.grove.yaml", "grove: 1\nworld: {width: 500, height: 500}\nnodes:\n"
                                            "  g:\n    type: group\n    params: {graph: " + std::string(file) + "}\n");
        QVERIFY2(loadGraphFile(base + "/top.grove.yaml", registry()).ok(), file);
    }
    // a radius wider than a wrapped side would crowd its own copy: refused at the param
    const EvalResult wide = evaluate(graphOf("grove: 1\nworld: {width: 300, height: 200, wrap: y}\nnodes:\n"
                                             "  t:\n    type: place_layer\n    params: {radius: 250}\n"));
    QVERIFY(!wide.ok());
    QVERIFY(mentions(formatAll(wide.diagnostics), "radius 250 is larger than the wrapped world (300 x 200)"));
}

void TestWrap::noiseFrequencyThatCannotRepeatNamesTheNearestThatDoes()
{
    const std::string world = "grove: 1\nworld: {width: 512, height: 384, wrap: true}\nnodes:\n";
    // 0.013 * 512 = 6.656 cells: the nearest whole count that also fits 384 is 7 / 512? 7 * 384 / 512
    // is not whole; frequencies that fit both are multiples of 1/128: 2/128 = 0.015625 is nearest
    QVERIFY(mentions(problems(world + "  n:\n    type: value_noise\n    params: {frequency: 0.013}\n"),
                     "test.grove.yaml:6:25: error: param 'frequency': frequency 0.013 does not repeat over the wrapped world "
                     "(512 x 384): it fits 6.656 lattice cells across, not a whole number; the nearest frequency that repeats is 0.015625"));
    // one axis: only the width counts (7 / 512)
    QVERIFY(mentions(problems("grove: 1\nworld: {width: 512, height: 384, wrap: x}\nnodes:\n  n:\n    type: gradient_noise\n"
                              "    params: {frequency: 0.013}\n"),
                     "the nearest frequency that repeats is 0.013671875"));
    // a lacunarity that leaves a later octave short of whole cells
    QVERIFY(mentions(problems(world + "  n:\n    type: gradient_noise\n    params: {frequency: 0.0078125, lacunarity: 2.3}\n"),
                     "param 'lacunarity': lacunarity 2.3 does not repeat over the wrapped world (512 x 384): octave 2 fits"));
    // whole cells everywhere: fine; and unwrapped worlds never ask
    QVERIFY(load(world + "  n:\n    type: value_noise\n    params: {frequency: 0.015625, octaves: 5}\n").ok());
    QVERIFY(load("grove: 1\nworld: {width: 512, height: 384}\nnodes:\n  n:\n    type: value_noise\n    params: {frequency: 0.013}\n").ok());
}

void TestWrap::tiledTwoByTwoNoPairTooCloseAcrossSeams()
{
    const double W = 320, H = 256;
    for (const bool wrap : {true, false}) {
        const EvalResult r = evaluate(graphOf(twoLayers("{width: 320, height: 256, seed: 5" + std::string(wrap ? ", wrap: true}" : "}"))));
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        std::vector<PointXYR> both = pointsOf(r, "rocks");
        const std::vector<PointXYR> &bushes = pointsOf(r, "bushes");
        both.insert(both.end(), bushes.begin(), bushes.end());
        QVERIFY(bushes.size() > 500);
        for (const PointXYR &p : both)
            QVERIFY(p.x >= 0 && p.x < W && p.y >= 0 && p.y < H);
        QCOMPARE(closePairs(both, 9), 0);  // within the tile, as ever
        const int acrossSeams = closePairs(tiled(both, W, H), 9);
        qInfo("%s: %zu points, %d pairs too close across the seams of a 2 x 2 tiling", wrap ? "wrapped" : "unwrapped",
              both.size(), acrossSeams);
        if (wrap)
            QCOMPARE(acrossSeams, 0);
        else
            QVERIFY(acrossSeams > 20);  // the checker bites: an unwrapped world crowds its seams
    }
}

void TestWrap::seamsLeaveNoDensityStep()
{
    // 4096 x 4096 at r = 4: the density in r/4 strips on either side of both seams of the tiling
    // (x = 0 | W and y = 0 | H), and in the whole band within r of them, against the interior
    // (farther than 3 r from any seam)
    const double r = 4, W = 4096;
    const std::string layer = "nodes:\n  trees:\n    type: place_layer\n    params: {radius: 4}\n";
    double worst[2] = {};
    for (const bool wrap : {true, false}) {
        const EvalResult res = evaluate(graphOf("grove: 1\nworld: {width: 4096, height: 4096, seed: 3" + std::string(wrap ? ", wrap: true}\n" : "}\n") + layer));
        QVERIFY(res.ok());
        double strips[8] = {}, interior = 0;  // strips 0-3: before the seam (x near W), 4-7: after (x near 0)
        for (const PointXYR &p : pointsOf(res, "trees")) {
            const double dx = std::min(p.x, W - p.x), dy = std::min(p.y, W - p.y);
            if (dx > 3 * r && dy > 3 * r) {
                ++interior;
                continue;
            }
            for (const auto &[d, v] : {std::pair{dx, p.x}, std::pair{dy, p.y}})
                if (d < r && std::min(dx, dy) == d && std::max(dx, dy) > 3 * r)
                    strips[(v > W / 2 ? 0 : 4) + static_cast<int>(d / (r / 4))] += 1;
        }
        const double interiorDensity = interior / ((W - 6 * r) * (W - 6 * r));
        const double stripArea = 2 * (W - 6 * r) * (r / 4);  // both seams, one side, r/4 wide
        for (int k = 0; k < 8; ++k) {
            const double expected = interiorDensity * stripArea;
            const double ratio = strips[k] / expected;
            // four standard deviations of a count this size
            const double tolerance = 4 / std::sqrt(expected);
            qInfo("%s, %s the seam, %.2f r to %.2f r: %.3f of the interior (tolerance %.3f)", wrap ? "wrapped" : "unwrapped",
                  k < 4 ? "before" : "after", (k % 4) * 0.25, (k % 4 + 1) * 0.25, ratio, tolerance);
            worst[wrap] = std::max(worst[wrap], std::fabs(ratio - 1) / tolerance);
        }
        double band = 0;
        for (double s : strips)
            band += s;
        const double expected = interiorDensity * stripArea * 8, ratio = band / expected, tolerance = 4 / std::sqrt(expected);
        qInfo("%s, the band within r of the seams: %.3f of the interior (tolerance %.3f)", wrap ? "wrapped" : "unwrapped", ratio, tolerance);
        worst[wrap] = std::max(worst[wrap], std::fabs(ratio - 1) / tolerance);
    }
    QVERIFY2(worst[1] <= 1, qPrintable(QString::number(worst[1])));
    QVERIFY2(worst[0] > 1, qPrintable(QString::number(worst[0])));  // an unwrapped world's edges show
}

void TestWrap::noiseRepeatsWithTheWorld()
{
    const double W = 512, H = 384;
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> ux(0, W), uy(0, H);
    for (const char *noise : {"value_noise\n    params: {frequency: 0.015625, octaves: 5}",
                              "gradient_noise\n    params: {frequency: 0.015625, octaves: 4, fractal: ridged}",
                              "worley_noise\n    params: {frequency: 0.03125, octaves: 3}",
                              "worley_noise\n    params: {frequency: 0.0078125, mode: f2_minus_f1, fractal: billow}"}) {
        const FieldPtr wrapped = fieldOf("{width: 512, height: 384, wrap: true}", noise);
        const FieldPtr plain = fieldOf("{width: 512, height: 384}", noise);
        double worst = 0, plainDiffers = 0, seam = 0;
        for (int i = 0; i < 2000; ++i) {
            const double x = ux(random), y = uy(random);
            const double v = wrapped->at(x, y);
            for (const auto &[sx, sy] : {std::pair{W, 0.0}, std::pair{0.0, H}, std::pair{-W, 2 * H}, std::pair{3 * W, -H}})
                worst = std::max(worst, std::fabs(wrapped->at(x + sx, y + sy) - v));
            plainDiffers = std::max(plainDiffers, std::fabs(plain->at(x + W, y) - plain->at(x, y)));
            // smooth across the seam: just inside the far edge is just before the near one
            seam = std::max(seam, std::fabs(wrapped->at(W - 1e-7, y) - wrapped->at(0, y)));
            seam = std::max(seam, std::fabs(wrapped->at(x, H - 1e-7) - wrapped->at(x, 0)));
        }
        // the raster path gives the point path's values
        double row[64];
        wrapped->sampleRow(W - 32, 1, 100, 64, row);
        for (int i = 0; i < 64; ++i)
            QCOMPARE(row[i], wrapped->at(W - 32 + i, 100));
        qInfo("%s: repeats within %.3g, across the seam within %.3g; unwrapped differs by up to %.3f",
              noise, worst, seam, plainDiffers);
        QVERIFY(worst <= 1e-12);
        QVERIFY(seam <= 1e-5);
        QVERIFY(plainDiffers > 0.1);  // the check bites: an unwrapped noise does not repeat
    }
}

void TestWrap::sameBytesInAnyThreadCount()
{
    const Graph g = graphOf(twoLayers("{width: 320, height: 256, seed: 5, wrap: x}"));
    const EvalResult one = evaluate(g, 1), two = evaluate(g, 2);
    QVERIFY(one.ok() && two.ok());
    for (const char *layer : {"rocks", "bushes"}) {
        const std::vector<PointXYR> &a = pointsOf(one, layer), &b = pointsOf(two, layer);
        QCOMPARE(a.size(), b.size());
        QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(PointXYR)) == 0);
    }
}

// A hand-placed house by one corner keeps its own radius across both seams; a circle erased by
// another edge stays empty on the far side of the seam too. Distances are measured on the torus here.
void TestWrap::keptRadiiAndErasedAreasReachAcrossTheSeams()
{
    const double W = 300, H = 200;
    const auto torus = [&](double ax, double ay, double bx, double by) {
        double dx = std::fabs(ax - bx), dy = std::fabs(ay - by);
        dx = std::min(dx, W - dx);
        dy = std::min(dy, H - dy);
        return std::hypot(dx, dy);
    };
    QTemporaryDir dir;
    const std::string base = dir.path().toStdString();
    writeFile(base + "/houses.csv", "x,y,r\n4,196,40\n");
    int acrossHouse[2] = {0, 0}, acrossErased[2] = {0, 0};
    for (bool wrap : {false, true}) {
        writeFile(base + "/w.grove.yaml", "grove: 1\nworld: {width: 300, height: 200, seed: 4" + std::string(wrap ? ", wrap: true" : "")
                                              + "}\nnodes:\n  houses: {type: points_file, params: {path: houses.csv}}\n"
                                                "  trees:\n    type: place_layer\n    inputs: {obstacles: houses}\n"
                                                "    params: {radius: 5, erase: [{circle: [297, 100, 25]}]}\n");
        const LoadResult loaded = loadGraphFile(base + "/w.grove.yaml", registry());
        QVERIFY2(loaded.ok(), formatAll(loaded.diagnostics).c_str());
        const EvalResult r = evaluate(loaded.graph);
        QVERIFY2(r.ok(), formatAll(r.diagnostics).c_str());
        const std::vector<PointXYR> &trees = pointsOf(r, "trees");
        QVERIFY(trees.size() > 500);
        for (const PointXYR &t : trees) {
            // in the plane they always hold
            QVERIFY(std::hypot(t.x - 4, t.y - 196) >= 40);
            QVERIFY(std::hypot(t.x - 297, t.y - 100) >= 25);
            acrossHouse[wrap] += torus(t.x, t.y, 4, 196) < 40;
            acrossErased[wrap] += torus(t.x, t.y, 297, 100) < 25;
        }
    }
    qInfo("trees within the house's radius across a seam: %d unwrapped, %d wrapped; within the erased circle: %d, %d",
          acrossHouse[0], acrossHouse[1], acrossErased[0], acrossErased[1]);
    QCOMPARE(acrossHouse[1], 0);
    QCOMPARE(acrossErased[1], 0);
    // the check bites: without wrap the far side of the seams is open ground
    QVERIFY(acrossHouse[0] > 10);
    QVERIFY(acrossErased[0] > 3);
}

// Statistics on the torus (what the 2 x 2 tiling shows): a pair across a seam is as close as its
// nearest copies, and a clearing by an edge ends at the points across it. Plain layers built
// here, each checked in the plane too so the difference is the seams.
void TestWrap::statsMeasureAcrossTheSeams()
{
    const double W = 300, H = 200;
    // a grid 10 apart from x = 15 to 295: 20 empty across the x seam, 15 at the plane's left edge
    PointLayer grid;
    for (double x = 15; x < W; x += 10)
        for (double y = 5; y < H; y += 10)
            grid.points.push_back({x, y, 4});
    const LayerStats plain = computeLayerStats(grid, {}, W, H), torus = computeLayerStats(grid, {}, W, H, nullptr, {}, {true, true});
    qInfo("widest clearing: %.3f in the plane at (%.2f, %.2f), %.3f on the torus at (%.2f, %.2f)", plain.clearingDiameter,
          plain.clearingX, plain.clearingY, torus.clearingDiameter, torus.clearingX, torus.clearingY);
    QVERIFY(std::fabs(plain.clearingDiameter - 2 * std::hypot(15.0, 5.0)) < 0.05);  // centred on the left edge
    QVERIFY(std::fabs(torus.clearingDiameter - 2 * std::hypot(10.0, 5.0)) < 0.05);  // midway across the seam
    QCOMPARE(torus.tightest, 10.0);
    QCOMPARE(torus.tooClose, std::size_t(0));

    // two of the layer's points 5 apart across the x seam, one 3 from an earlier layer's point across the y seam
    auto earlier = std::make_shared<PointLayer>();
    earlier->points = {{150, 198, 6}, {60, 60, 6}};
    PointLayer own;
    own.points = {{2, 50, 6}, {297, 50, 6}, {150, 1, 6}, {100, 120, 6}};
    for (StatsTorus wraps : {StatsTorus{false, false}, StatsTorus{true, false}, StatsTorus{false, true}, StatsTorus{true, true}}) {
        const LayerStats st = computeLayerStats(own, {earlier}, W, H, nullptr, {}, wraps);
        const std::size_t expected = (wraps.x ? 1 : 0) + (wraps.y ? 1 : 0);
        qInfo("wrap x %d y %d: %zu too close, tightest %.3f", wraps.x, wraps.y, st.tooClose, st.tightest);
        QCOMPARE(st.tooClose, expected);
        double tightest = INFINITY;  // by brute force over the nearest copies
        for (std::size_t i = 0; i < own.points.size(); ++i)
            for (std::size_t j = 0; j < i; ++j) {
                double dx = std::fabs(own.points[i].x - own.points[j].x), dy = std::fabs(own.points[i].y - own.points[j].y);
                dx = wraps.x ? std::min(dx, W - dx) : dx;
                dy = wraps.y ? std::min(dy, H - dy) : dy;
                tightest = std::min(tightest, std::hypot(dx, dy));
            }
        QCOMPARE(st.tightest, tightest);
        QCOMPARE(st.tightest < 100, wraps.wraps());  // 120.4 in the plane
    }
}

QTEST_GUILESS_MAIN(TestWrap)
#include "tst_wrap.moc"
