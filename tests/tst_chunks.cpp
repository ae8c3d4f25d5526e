// Chunked worlds: what a designer or a pipeline would notice. A chunk computed alone
// is that chunk of the whole run, bit for bit; any order, thread count or cache budget gives the
// same bytes; no pair is too close across chunk borders or layers; the borders leave no seam
// (densities at r/4 resolution beside a border against the interior); ids stay with their chunk
// when a house is added far away; bad chunk sizes and endless-world wiring are located errors.
#include "PointChecks.h"
#include "TestSupport.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/eval/Evaluator.h"
#include "core/graph/GraphWriter.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <set>

using namespace grove;
using namespace grove::test;

class TestChunks : public QObject
{
    Q_OBJECT

private slots:
    void phasesAndIds();
    void aChunkAloneIsThatChunkOfTheWholeRun();
    void aColdChunkCostsItsCone();
    void anyOrderAnyThreadsAnyBudgetSameBytes();
    void noPairTooCloseAcrossBordersAndLayers();
    void bordersLeaveNoSeam();
    void idsStayWhenAHouseIsAddedFarAway();
    void endlessWorldsByRegion();
    void lazyLayersArePlacedWholeForOtherNodes();
    void cancelStopsAndLeavesNothingHalfDone();
    void withoutChunkNothingChanges();
    void badChunksAreLocatedErrors();
};

namespace {

std::string chainGraph(const std::string &world, double big = 8, double small = 4)
{
    return "grove: 1\nworld: " + world + "\nnodes:\n"
           "  noise:\n    type: value_noise\n    params: {frequency: 0.01, seed: 3}\n"
           "  land:\n    type: allowed_rule\n    inputs: {field: noise}\n    params: {min: 0.35}\n"
           "  rocks:\n    type: place_layer\n    params: {radius: " + formatNumber(big) + "}\n"
           "  bushes:\n    type: place_layer\n    inputs: {obstacles: rocks.all, allowed: land}\n"
           "    params: {radius: " + formatNumber(small) + ", seed: 1}\n";
}

EvalResult evaluate(const Graph &graph, int threads = 1, bool whole = true, std::size_t budget = std::size_t(256) << 20)
{
    EvalRequest request;
    request.limits.threads = threads;
    request.limits.placeWholeWorld = whole;
    request.limits.chunkCacheBytes = budget;
    return evaluateGraph(graph, request);
}

PointLayerPtr layerOf(const EvalResult &result, const std::string &node)
{
    const PortValue v = result.outputWithRole(node, PortRole::LayerPoints);
    const auto *set = std::get_if<PointSetPtr>(&v);
    return set && *set && !(*set)->layers.empty() ? (*set)->layers.back() : nullptr;
}

// Points and ids as bytes: equal only when every bit is.
std::string bytesOf(const PointLayer &layer)
{
    std::string out(reinterpret_cast<const char *>(layer.points.data()), layer.points.size() * sizeof(PointXYR));
    out.append(reinterpret_cast<const char *>(layer.ids.data()), layer.ids.size() * sizeof(std::uint64_t));
    return out;
}

} // namespace

void TestChunks::phasesAndIds()
{
    // the phase order (0,0), (1,0), (1,1), (0,1), for negative indices too
    QCOMPARE(chunkPhase(0, 0), 0);
    QCOMPARE(chunkPhase(1, 0), 1);
    QCOMPARE(chunkPhase(1, 1), 2);
    QCOMPARE(chunkPhase(0, 1), 3);
    QCOMPARE(chunkPhase(-1, -1), 2);
    QCOMPARE(chunkPhase(-2, 3), 3);
    // same-phase chunks are never neighbours
    for (int j = -3; j <= 3; ++j)
        for (int i = -3; i <= 3; ++i)
            for (int dj = -1; dj <= 1; ++dj)
                for (int di = -1; di <= 1; ++di)
                    if (di || dj)
                        QVERIFY(chunkPhase(i, j) != chunkPhase(i + di, j + dj));
    // ids: exact in a double, ascending in export order, and they name their chunk
    const std::uint64_t last = chunkPointId(kChunkRange - 1, kChunkRange - 1, kChunkPointLimit - 1);
    QVERIFY(last < (std::uint64_t(1) << 53));
    QCOMPARE(static_cast<std::uint64_t>(static_cast<double>(last)), last);
    QVERIFY(chunkPointId(5, 2, 7) < chunkPointId(6, 2, 0));
    QVERIFY(chunkPointId(kChunkRange - 1, 2, 7) < chunkPointId(-kChunkRange, 3, 0));
    const ChunkCoord c = chunkOfId(chunkPointId(-17, 40, 99));
    QCOMPARE(c.i, -17);
    QCOMPARE(c.j, 40);
}

void TestChunks::aChunkAloneIsThatChunkOfTheWholeRun()
{
    const Graph graph = graphOf(chainGraph("{width: 1000, height: 700, seed: 11, chunk: 128}"));
    const EvalResult whole = evaluate(graph, 2);
    QVERIFY2(whole.ok(), formatAll(whole.diagnostics).c_str());
    for (const char *id : {"rocks", "bushes"}) {
        const PointLayerPtr all = layerOf(whole, id);
        QVERIFY(all && all->points.size() > 1000);
        QCOMPARE(all->ids.size(), all->points.size());
        // every chunk of each phase, asked alone of a fresh evaluation
        for (ChunkCoord c : {ChunkCoord{3, 2}, ChunkCoord{4, 2}, ChunkCoord{4, 3}, ChunkCoord{3, 3}, ChunkCoord{7, 5}}) {
            const EvalResult lazy = evaluate(graph, 1, false);
            const PointLayerPtr layer = layerOf(lazy, id);
            QVERIFY(layer && layer->lazy && layer->points.empty());
            const Region square{c.i * 128.0, c.j * 128.0, (c.i + 1) * 128.0, (c.j + 1) * 128.0};
            auto alone = layerInRegion(*layer, square, 1);
            auto cut = layerInRegion(*all, square, 1);
            QVERIFY(alone && cut && !alone->points.empty());
            QCOMPARE(alone->points.size(), cut->points.size());
            QCOMPARE(bytesOf(*alone), bytesOf(*cut));
            for (std::uint64_t pid : alone->ids)
                QCOMPARE(chunkOfId(pid), c);
        }
    }
}

void TestChunks::aColdChunkCostsItsCone()
{
    // One layer: a phase-3 chunk asked cold places its cone, 13 chunks with this phase order.
    const Graph graph = graphOf(chainGraph("{width: 2048, height: 2048, seed: 5, chunk: 128}"));
    const EvalResult lazy = evaluate(graph, 1, false);
    const PointLayerPtr rocks = layerOf(lazy, "rocks");
    QVERIFY(rocks && rocks->chunked);
    QVERIFY(chunkPhase(4, 5) == 3);
    QVERIFY(rocks->chunked->chunk(4, 5));
    QCOMPARE(rocks->chunked->placements(), std::uint64_t(13));
    // its neighbours are in the cone already: asking them again places nothing
    for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di)
            QVERIFY(rocks->chunked->chunk(4 + di, 5 + dj));
    QCOMPARE(rocks->chunked->placements(), std::uint64_t(13));
    // Scrolling a window right by one chunk at a time, with the cache: each new column also needs
    // the cones of its chunks, about two rows above and below the window and part of the next
    // column; taller windows share that halo among more chunks.
    for (int rows : {4, 8, 16}) {
        const EvalResult fresh = evaluate(graph, 1, false);
        const ChunkedLayer &layer = *layerOf(fresh, "rocks")->chunked;
        auto window = [&](int left) {
            std::vector<ChunkCoord> chunks;
            layer.chunksIn(Region{left * 128.0, 128, (left + 8) * 128.0, (1 + rows) * 128.0}, chunks);
            return chunks;
        };
        QCOMPARE(layer.prepare(window(0), 1, nullptr), ChunkStatus::Done);
        const std::uint64_t before = layer.placements();
        for (int left = 1; left <= 6; ++left)
            QCOMPARE(layer.prepare(window(left), 1, nullptr), ChunkStatus::Done);
        const double perNewChunk = static_cast<double>(layer.placements() - before) / (6.0 * rows);
        qInfo("scrolling an 8 x %d window: %.3f placements per newly visible chunk", rows, perNewChunk);
        QVERIFY(perNewChunk <= 1.0 + 3.0 / rows);  // the halo: at most three chunks a column
        QVERIFY(perNewChunk >= 1.0);
    }
}

void TestChunks::anyOrderAnyThreadsAnyBudgetSameBytes()
{
    const Graph graph = graphOf(chainGraph("{width: 900, height: 900, seed: 2, chunk: 100}"));
    const EvalResult one = evaluate(graph, 1);
    const EvalResult two = evaluate(graph, 2);
    const EvalResult four = evaluate(graph, 4);
    const EvalResult tiny = evaluate(graph, 3, true, 1);  // a one-byte budget: every chunk evicted at once
    for (const char *id : {"rocks", "bushes"}) {
        const std::string reference = bytesOf(*layerOf(one, id));
        QCOMPARE(bytesOf(*layerOf(two, id)), reference);
        QCOMPARE(bytesOf(*layerOf(four, id)), reference);
        QCOMPARE(bytesOf(*layerOf(tiny, id)), reference);
    }
    // chunks asked in a shuffled order, then stitched in export order, and a small budget
    const EvalResult lazy = evaluate(graph, 1, false, 64 << 10);
    const PointLayerPtr bushes = layerOf(lazy, "bushes");
    std::vector<ChunkCoord> chunks;
    QVERIFY(bushes->chunked->chunksIn(Region{0, 0, 900, 900}, chunks));
    QCOMPARE(chunks.size(), std::size_t(81));
    std::mt19937 shuffle(7);
    std::vector<ChunkCoord> order = chunks;
    std::shuffle(order.begin(), order.end(), shuffle);
    for (const ChunkCoord &c : order)
        QVERIFY(bushes->chunked->chunk(c.i, c.j));
    QVERIFY(bushes->chunked->cachedBytes() <= (64u << 10));
    auto stitched = layerInRegion(*bushes, Region{0, 0, 900, 900}, 1);
    QCOMPARE(bytesOf(*stitched), bytesOf(*layerOf(one, "bushes")));
    // quadrants asked separately hold the same points as the whole
    std::size_t total = 0;
    for (const Region &q : {Region{0, 0, 450, 450}, Region{450, 0, 900, 450}, Region{0, 450, 450, 900}, Region{450, 450, 900, 900}})
        total += layerInRegion(*bushes, q, 2)->points.size();
    QCOMPARE(total, layerOf(one, "bushes")->points.size());
}

void TestChunks::noPairTooCloseAcrossBordersAndLayers()
{
    // a density field gives every point its own radius: pairs keep min(ra, rb) across chunks
    const std::string text = chainGraph("{width: 1200, height: 800, seed: 9, chunk: 96}") +
                              "  density:\n    type: density\n    inputs: {field: noise}\n"
                              "    params: {min_radius: 3, max_radius: 12, gain: 2, bias: -0.5}\n"
                              "  flowers:\n    type: place_layer\n    inputs: {obstacles: bushes.all, radius: density}\n"
                              "    params: {radius: 3, seed: 2}\n";
    const EvalResult result = evaluate(graphOf(text), 2);
    QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
    std::vector<PointXYR> all;
    std::set<std::uint64_t> seen;
    for (const char *id : {"rocks", "bushes", "flowers"}) {
        const PointLayerPtr layer = layerOf(result, id);
        QVERIFY(layer->points.size() > 500);
        QCOMPARE(pairsTooClose(layer->points, 12), 0);
        seen.clear();
        for (std::uint64_t pid : layer->ids)
            QVERIFY(seen.insert(pid).second);  // unique within the layer
        all.insert(all.end(), layer->points.begin(), layer->points.end());
    }
    QCOMPARE(pairsTooClose(all, 12), 0);
    // the flowers do vary their radius (the test would be weak otherwise)
    double smallest = HUGE_VAL, largest = 0;
    for (const PointXYR &p : layerOf(result, "flowers")->points) {
        smallest = std::min(smallest, p.r);
        largest = std::max(largest, p.r);
    }
    QVERIFY(smallest < 4 && largest > 9);
}

void TestChunks::bordersLeaveNoSeam()
{
    // 2048 x 2048 at chunk = 32 r (r = 4): densities in r/4 bins beside every border, on the side
    // placed first and the side placed after, against the interior (farther than 3 r from any).
    const double r = 4, C = 128, W = 2048;
    const std::string layer = "nodes:\n  trees:\n    type: place_layer\n    params: {radius: 4}\n";
    const EvalResult chunked = evaluate(graphOf("grove: 1\nworld: {width: 2048, height: 2048, seed: 3, chunk: 128}\n" + layer), 2);
    const EvalResult whole = evaluate(graphOf("grove: 1\nworld: {width: 2048, height: 2048, seed: 3}\n" + layer), 1);
    const auto &points = layerOf(chunked, "trees")->points;
    double bins[2][4] = {}, band = 0, interior = 0;
    std::size_t phaseCount[4] = {};
    for (const PointXYR &p : points) {
        const int i = static_cast<int>(p.x / C), j = static_cast<int>(p.y / C);
        ++phaseCount[chunkPhase(i, j)];
        if (p.x < 3 * r || p.y < 3 * r || p.x > W - 3 * r || p.y > W - 3 * r)
            continue;
        const double ox = p.x - i * C, oy = p.y - j * C;
        const double dv = std::min(ox, C - ox), dh = std::min(oy, C - oy);
        if (dv > 3 * r && dh > 3 * r) {
            ++interior;
            continue;
        }
        const bool vertical = dv < r && dh > 3 * r, horizontal = dh < r && dv > 3 * r;
        if (!vertical && !horizontal)
            continue;
        const double d = vertical ? dv : dh;
        const int ni = vertical ? (ox < C / 2 ? i - 1 : i + 1) : i, nj = vertical ? j : (oy < C / 2 ? j - 1 : j + 1);
        bins[chunkPhase(i, j) < chunkPhase(ni, nj) ? 0 : 1][static_cast<int>(d / (r / 4))] += 1;
        band += d < r / 2;
    }
    const double n = W / C, segment = C - 6 * r, borders = 2 * (n - 1) * n;
    const double interiorDensity = interior / (n * n * segment * segment);
    for (int side = 0; side < 2; ++side)
        for (int k = 0; k < 4; ++k) {
            const double ratio = bins[side][k] / (borders * segment * r / 4) / interiorDensity;
            qInfo("%s side, %.2f r to %.2f r from the border: %.3f of the interior", side ? "later" : "earlier", k * 0.25,
                  (k + 1) * 0.25, ratio);
            QVERIFY2(std::fabs(ratio - 1) <= 0.10, qPrintable(QString::number(ratio)));
        }
    const double bandRatio = band / (borders * segment * r) / interiorDensity;
    qInfo("band within r/2 of a border: %.3f", bandRatio);
    QVERIFY(std::fabs(bandRatio - 1) <= 0.03);
    for (std::size_t count : phaseCount)
        QVERIFY(std::fabs(static_cast<double>(count) / (static_cast<double>(points.size()) / 4) - 1) <= 0.01);
    const double ratio = static_cast<double>(points.size()) / static_cast<double>(layerOf(whole, "trees")->points.size());
    qInfo("N r^2 / A: %.4f chunked, %.4f whole world (%.4f)", points.size() * r * r / (W * W),
          layerOf(whole, "trees")->points.size() * r * r / (W * W), ratio);
    QVERIFY(std::fabs(ratio - 1) <= 0.01);
}

void TestChunks::idsStayWhenAHouseIsAddedFarAway()
{
    const QTemporaryDir dir;
    const std::string csv = dir.path().toStdString() + "/houses.csv";
    auto graphWith = [&](const std::string &rows) {
        writeFile(csv, "x,y,r\n" + rows);
        Graph g = graphOf("grove: 1\nworld: {width: 1536, height: 1024, seed: 4, chunk: 128}\nnodes:\n"
                          "  houses:\n    type: points_file\n    params: {path: " + csv + "}\n"
                          "  trees:\n    type: place_layer\n    inputs: {obstacles: houses}\n    params: {radius: 6}\n");
        return g;
    };
    const EvalResult before = evaluate(graphWith("100,100,20\n"), 2);
    const EvalResult after = evaluate(graphWith("100,100,20\n1300,800,30\n"), 2);
    QVERIFY2(before.ok() && after.ok(), (formatAll(before.diagnostics) + formatAll(after.diagnostics)).c_str());
    const PointLayerPtr a = layerOf(before, "trees"), b = layerOf(after, "trees");
    // chunks more than four chunks from the new house's chunk (10, 6) keep every point and id
    std::map<std::uint64_t, std::pair<double, double>> old;
    for (std::size_t k = 0; k < a->points.size(); ++k)
        old[a->ids[k]] = {a->points[k].x, a->points[k].y};
    std::size_t far = 0, near = 0, nearChanged = 0;
    for (std::size_t k = 0; k < b->points.size(); ++k) {
        const ChunkCoord c = chunkOfId(b->ids[k]);
        auto it = old.find(b->ids[k]);
        const bool same = it != old.end() && it->second == std::make_pair(b->points[k].x, b->points[k].y);
        if (std::max(std::abs(c.i - 10), std::abs(c.j - 6)) > 4) {
            ++far;
            QVERIFY(same);
        } else {
            ++near;
            nearChanged += !same;
        }
    }
    QVERIFY(far > 2000);
    QVERIFY(nearChanged > 0 && near > 0);  // the house did move trees near it
}

void TestChunks::endlessWorldsByRegion()
{
    const Graph graph = graphOf(chainGraph("{seed: 8, chunk: 128}"));
    QVERIFY(graph.world.endless);
    const EvalResult result = evaluate(graph, 2);
    QVERIFY2(result.ok(), formatAll(result.diagnostics).c_str());
    const PointLayerPtr bushes = layerOf(result, "bushes");
    QVERIFY(bushes->lazy);
    // far from the origin, on negative coordinates too; the region's points only
    const Region far{-1e6, -5e5, -1e6 + 700, -5e5 + 500};
    auto part = layerInRegion(*bushes, far, 2);
    QVERIFY(part && part->points.size() > 1000);
    for (const PointXYR &p : part->points)
        QVERIFY(far.contains(p.x, p.y));
    QCOMPARE(pairsTooClose(part->points, 8), 0);
    // an endless world saves without width and height, and loads back the same
    const std::string saved = saveGraphToString(graph, registry());
    QVERIFY(saved.find("width") == std::string::npos);
    QVERIFY(saved.find("chunk: 128") != std::string::npos);
    QCOMPARE(graphOf(saved).world, graph.world);
    // beyond the chunk range: an error, not a wrapped id
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, layerInRegion(*bushes, Region{0, 0, 128.0 * kChunkRange + 10, 10}, 1));
}

void TestChunks::lazyLayersArePlacedWholeForOtherNodes()
{
    // a distance node reading the rocks gets them placed whole, also when layers stay lazy
    const std::string text = chainGraph("{width: 600, height: 400, seed: 8, chunk: 64}") +
                             "  near_rocks:\n    type: distance\n    inputs: {points: rocks}\n    params: {resolution: 4}\n";
    const EvalResult whole = evaluate(graphOf(text), 1, true);
    const EvalResult lazy = evaluate(graphOf(text), 1, false);
    QVERIFY(whole.ok() && lazy.ok());
    const auto a = std::get<FieldPtr>(whole.output("near_rocks")), b = std::get<FieldPtr>(lazy.output("near_rocks"));
    for (double y = 5; y < 400; y += 37)
        for (double x = 3; x < 600; x += 41)
            QCOMPARE(a->at(x, y), b->at(x, y));
    QVERIFY(a->at(300, 200) < 20);  // rocks are 8 apart: never far from one
}

void TestChunks::cancelStopsAndLeavesNothingHalfDone()
{
    const Graph graph = graphOf(chainGraph("{width: 4000, height: 4000, seed: 1, chunk: 128}", 8, 2));
    std::atomic<bool> cancel{true};
    Evaluator evaluator(registry());
    EvalRequest request;
    request.cancel = &cancel;
    QCOMPARE(evaluator.evaluate(graph, request).status, EvalResult::Status::Cancelled);
    // a lazy layer asked for a region with the flag up: nothing, and the next ask is whole
    const EvalResult lazy = evaluate(graph, 1, false);
    const PointLayerPtr rocks = layerOf(lazy, "rocks");
    QVERIFY(!layerInRegion(*rocks, Region{0, 0, 1000, 1000}, 2, &cancel));
    auto again = layerInRegion(*rocks, Region{0, 0, 1000, 1000}, 2);
    QVERIFY(again && again->points.size() > 5000);
    const EvalResult reference = evaluate(graph, 1, false);
    QCOMPARE(bytesOf(*again), bytesOf(*layerInRegion(*layerOf(reference, "rocks"), Region{0, 0, 1000, 1000}, 1)));
}

void TestChunks::withoutChunkNothingChanges()
{
    // the whole-world method keeps ids equal to indices and saves no chunk key
    const Graph graph = graphOf(chainGraph("{width: 300, height: 200, seed: 8}"));
    const EvalResult result = evaluate(graph);
    const PointLayerPtr rocks = layerOf(result, "rocks");
    QVERIFY(!rocks->chunked && rocks->ids.empty());
    QCOMPARE(rocks->idOf(5), std::uint64_t(5));
    QVERIFY(saveGraphToString(graph, registry()).find("chunk") == std::string::npos);
}

void TestChunks::badChunksAreLocatedErrors()
{
    auto problems = [](const std::string &text) {
        LoadResult r = load(text);
        if (!r.ok())
            return formatAll(r.diagnostics);
        EvalResult e = evaluate(r.graph);
        for (Diagnostic &d : e.diagnostics)
            locate(r, d);
        return formatAll(e.diagnostics);
    };
    // smaller than 4 radii: at world.chunk, line 2, column of the value
    const std::string small = problems(chainGraph("{width: 500, height: 500, seed: 1, chunk: 20}"));
    QCOMPARE(QString::fromStdString(small),
             QString("<graph>:2:50: error: node 'rocks' (place_layer): world chunk 20 is less than 4 times the largest "
                         "radius 8 of layer 'rocks'; use a chunk of at least 32 (about 32 radii, 256, places fastest) (at world.chunk)\n"));
    QVERIFY(problems(chainGraph("{width: 500, height: 500, seed: 1, chunk: -5}")).find("2:50: error: world chunk must be a finite number > 0") != std::string::npos);
    QVERIFY(problems(chainGraph("{width: 500, height: 500, seed: 1, chunk: .nan}")).find("world chunk must be a finite number > 0") != std::string::npos);
    QVERIFY(problems(chainGraph("{width: 1e7, height: 500, seed: 1, chunk: 100}")).find("more than 32768 chunks a side") != std::string::npos);
    QVERIFY(problems(chainGraph("{width: 500, height: 500, seed: 1, chunk: 1e6}", 8, 0.5)).find("could hold more than 2097152 points") != std::string::npos);
    QVERIFY(problems(chainGraph("{width: 500, seed: 1, chunk: 100}")).find("world needs a height (or neither width nor height: an endless world)") != std::string::npos);
    QVERIFY(problems(chainGraph("{seed: 1}")).find("world needs a width") != std::string::npos);
    // an endless world: nodes that need its size, and points wired out of it
    const std::string endless = chainGraph("{seed: 1, chunk: 128}");
    QVERIFY(problems(endless + "  grid:\n    type: jittered_grid\n").find("node 'grid' (jittered_grid) needs the world's width and height") != std::string::npos);
    QVERIFY(problems(endless + "  far:\n    type: distance\n    inputs: {points: rocks}\n").find("takes the points of rocks, which hold a layer with no end") != std::string::npos);
    // a radius field without a bound cannot say how far a chunk reaches
    QVERIFY(problems(chainGraph("{width: 500, height: 500, seed: 1, chunk: 100}") +
                     "  wild:\n    type: place_layer\n    inputs: {radius: noise}\n    params: {radius: 2}\n")
                .find("the radius input of layer 'wild' has no upper bound") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestChunks)
#include "tst_chunks.moc"
