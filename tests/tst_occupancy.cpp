// The occupancy grid decides most queries from 4-byte quantised cell codes. Its answers must be
// exactly those of testing every stored point: these cases aim at the thin band where a code
// cannot decide (a point at the radius, to within rounding), cells holding several points,
// obstacles off the map, radii smaller than the query's, and coordinates large beside the radius.
// A grid built on a freed grid's memory answers as a new one.
#include "core/base/LargeArray.h"
#include "core/base/ParallelFor.h"
#include "core/base/RecycledBlocks.h"
#include "core/sampling/OccupancyGrid.h"
#include "core/sampling/RingCandidates.h"
#include "core/math/SeededRandom.h"

#include <QtTest/QtTest>

#include <cmath>
#include <vector>

using namespace grove;

namespace {

struct Stored
{
    double x, y, r;
};

bool bruteFree(const std::vector<Stored> &points, double x, double y, double r)
{
    for (const Stored &p : points) {
        const double m = std::min(r, p.r);
        const double dx = p.x - x;
        const double dy = p.y - y;
        if (dx * dx + dy * dy < m * m)
            return false;
    }
    return true;
}

struct Scene
{
    double width, height, cell;
    std::vector<Stored> points;
    std::vector<Stored> queries;
};

// Points spread at random with radii in [rMin, rMax]; a share of them off the map; queries at
// random and at distances within a hair of r from stored points, on both sides.
Scene makeScene(double width, double height, double rMin, double rMax, double cell, int count, double offMap,
                std::int32_t seed)
{
    SeededRandom random(seed);
    Scene scene{width, height, cell, {}, {}};
    for (int i = 0; i < count; ++i) {
        double x = random.nextFloat() * width, y = random.nextFloat() * height;
        if (random.nextFloat() < offMap) {  // beyond an edge: clamped into the edge cells
            x = random.nextFloat() < 0.5 ? -random.nextFloat() * 3 * rMax : width + random.nextFloat() * 3 * rMax;
        }
        scene.points.push_back({x, y, rMin + random.nextFloat() * (rMax - rMin)});
    }
    const double hairs[] = {0, 1e-15, 1e-12, 1e-9, 1e-7, 1e-6, 2e-5, 1e-4, 1e-3};
    for (int i = 0; i < 4000; ++i) {
        const double r = rMin + random.nextFloat() * (rMax - rMin) * 1.5;
        if (i % 2 == 0) {
            scene.queries.push_back({random.nextFloat() * width, random.nextFloat() * height, r});
            continue;
        }
        const Stored &p = scene.points[static_cast<size_t>(random.nextFloat() * static_cast<double>(scene.points.size()))];
        const double m = std::min(r, p.r);
        const double hair = hairs[static_cast<size_t>(random.nextFloat() * 9)] * (random.nextFloat() < 0.5 ? -1 : 1);
        const double angle = random.nextFloat() * 6.283185307179586;
        const double d = m * (1 + hair);
        const double x = p.x + std::cos(angle) * d, y = p.y + std::sin(angle) * d;
        if (x >= 0 && x < width && y >= 0 && y < height)
            scene.queries.push_back({x, y, r});
    }
    return scene;
}

} // namespace

class TestOccupancy : public QObject
{
    Q_OBJECT

private slots:
    void answersEqualTestingEveryPoint_data();
    void answersEqualTestingEveryPoint();
    void chainsAndCodesAfterManyPointsInACell();
    void pointsComeBackInOrderPastTheFirstBlock();
    void ringCandidatesEqualOnBothPaths();
    void aFreedGridsMemoryServesTheNextOneClean();
};

void TestOccupancy::answersEqualTestingEveryPoint_data()
{
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("height");
    QTest::addColumn<double>("rMin");
    QTest::addColumn<double>("rMax");
    QTest::addColumn<double>("cell");
    QTest::addColumn<int>("count");
    QTest::addColumn<double>("offMap");
    // one radius, cells of r / sqrt(2): every cell holds at most one point of the layer
    QTest::newRow("one radius") << 200.0 << 150.0 << 2.0 << 2.0 << 2.0 / std::sqrt(2.0) << 3000 << 0.0;
    // obstacles smaller than the cell: cells hold chains of points
    QTest::newRow("small obstacles") << 100.0 << 100.0 << 0.2 << 3.0 << 2.0 << 4000 << 0.0;
    // radius field: radii up to 4x the cell's
    QTest::newRow("radius field") << 300.0 << 200.0 << 1.0 << 4.0 << 1.5 << 3000 << 0.0;
    // obstacles off the map land in the edge cells with offsets outside the cell
    QTest::newRow("off the map") << 120.0 << 80.0 << 1.0 << 2.5 << 1.0 << 2000 << 0.3;
    // coordinates thousands of radii long: rounding in the coordinates, not in the radius
    QTest::newRow("long world") << 4000.0 << 6.0 << 0.25 << 0.4 << 0.25 / std::sqrt(2.0) << 6000 << 0.05;
    // a small grid (a chunk's) holding more points than its first block: the block doubles twice
    QTest::newRow("outgrown first block") << 60.0 << 60.0 << 0.05 << 0.3 << 0.5 << 9000 << 0.02;
}

void TestOccupancy::answersEqualTestingEveryPoint()
{
    QFETCH(double, width);
    QFETCH(double, height);
    QFETCH(double, rMin);
    QFETCH(double, rMax);
    QFETCH(double, cell);
    QFETCH(int, count);
    QFETCH(double, offMap);
    const Scene scene = makeScene(width, height, rMin, rMax, cell, count, offMap, 12345);
    OccupancyGrid grid(width, height, cell);
    for (const Stored &p : scene.points)
        grid.add(p.x, p.y, p.r);

    int conflicts = 0, frees = 0, laneConflicts = 0, laneFrees = 0, nearCalls = 0;
    std::size_t gatheredCentres = 0;
    OccupancyGrid::NearSet set, lanesSet;
    for (const Stored &q : scene.queries) {
        const bool expected = bruteFree(scene.points, q.x, q.y, q.r);
        (expected ? frees : conflicts)++;
        QVERIFY2(grid.isFree(q.x, q.y, q.r) == expected,
                 qPrintable(QStringLiteral("isFree(%1, %2, %3)").arg(q.x, 0, 'g', 17).arg(q.y, 0, 'g', 17).arg(q.r)));
        // the gathered set, as a placement step uses it: gathered around a nearby centre with a
        // reach that covers every query's radius
        const double cx = q.x + 0.3 * q.r, cy = q.y - 0.2 * q.r;
        OccupancyGrid::setBatchSimd(VectorWidth::Sse2);
        grid.gatherNearSet(cx, cy, q.r * 1.9 + 1e-9, set);
        // gathered four cells at a time (AVX2, where the CPU has it): the same centres, in order
        OccupancyGrid::setBatchSimd(VectorWidth::Avx2);
        grid.gatherNearSet(cx, cy, q.r * 1.9 + 1e-9, lanesSet);
        QCOMPARE(lanesSet.count, set.count);
        for (std::size_t j = 0; j < set.count; ++j)
            QVERIFY2(lanesSet.x[j] == set.x[j] && lanesSet.y[j] == set.y[j] && lanesSet.cell[j] == set.cell[j],
                     qPrintable(QStringLiteral("centre %1 of %2 around (%3, %4)").arg(j).arg(set.count).arg(cx).arg(cy)));
        QCOMPARE(lanesSet.uncoded.size(), set.uncoded.size());
        for (std::size_t j = 0; j < set.uncoded.size(); ++j)
            QVERIFY(lanesSet.uncoded[j].x == set.uncoded[j].x && lanesSet.uncoded[j].y == set.uncoded[j].y);
        gatheredCentres += set.count;
        QVERIFY2(grid.isFreeInSet(set, q.x, q.y, q.r) == expected,
                 qPrintable(QStringLiteral("isFreeInSet(%1, %2, %3)").arg(q.x, 0, 'g', 17).arg(q.y, 0, 'g', 17).arg(q.r)));
        // a batch of queries at this radius, the query first and the others within half a radius
        // of it (fewer lanes for some), through every kernel the CPU runs (AVX-512, AVX2, SSE2
        // pairs): the same masks from each, and the lanes' answers, completed as the placement
        // completes them, are the exact ones
        const int lanes = 1 + static_cast<int>(static_cast<unsigned>(q.x * 1000) % 8);
        double xs[8] = {}, ys[8] = {};
        for (int i = 0; i < lanes; ++i) {
            xs[i] = q.x + (i % 3 - 1) * 0.17 * q.r * (i > 0);
            ys[i] = q.y + (i / 3 - 1) * 0.23 * q.r * (i > 0);
        }
        const OccupancyGrid::Query bounds = grid.queryAround(cx, cy, 0.8 * q.r, q.r);
        unsigned widestConflict = 0, widestNear = 0;
        for (VectorWidth lanesWidth : {VectorWidth::Avx512, VectorWidth::Avx2, VectorWidth::Sse2}) {
            OccupancyGrid::setBatchSimd(lanesWidth);
            const int simd = static_cast<int>(lanesWidth);  // asked for: the CPU may run a narrower one
            unsigned conflict = 0, near = 0;
            OccupancyGrid::batchMasks(set, xs, ys, lanes, bounds, conflict, near);
            if (lanesWidth == VectorWidth::Avx512) {
                widestConflict = conflict;
                widestNear = near;
            }
            QCOMPARE(conflict, widestConflict);
            QCOMPARE(near, widestNear);
            QCOMPARE(conflict >> lanes, (0xFFu >> lanes));  // lanes past the batch count as blocked
            for (int i = 0; i < lanes; ++i) {
                const bool want = bruteFree(scene.points, xs[i], ys[i], q.r);
                const unsigned bit = 1u << i;
                bool got;
                if (conflict & bit)
                    got = false;
                else if (near & bit)
                    got = (++nearCalls, grid.isFreeInSet(set, xs[i], ys[i], q.r));
                else
                    got = OccupancyGrid::isFreeAmong(xs[i], ys[i], q.r, set.uncoded);
                QVERIFY2(got == want, qPrintable(QStringLiteral("lane %1 of %2 (width %3) at (%4, %5, %6)")
                                                     .arg(i).arg(lanes).arg(simd)
                                                     .arg(xs[i], 0, 'g', 17).arg(ys[i], 0, 'g', 17).arg(q.r)));
                (want ? laneFrees : laneConflicts)++;
            }
        }
    }
    OccupancyGrid::setBatchSimd(VectorWidth::Avx512);
    QVERIFY(laneConflicts > 500);
    QVERIFY(laneFrees > 500);
    QVERIFY(nearCalls > 0);  // some lanes were too close to call from the codes
    QVERIFY(2 * gatheredCentres > scene.queries.size());  // the two gathers had centres to agree on
    // the scene must exercise both answers, including the hair-thin cases on each side
    QVERIFY(conflicts > 500);
    QVERIFY(frees > 500);
}

void TestOccupancy::chainsAndCodesAfterManyPointsInACell()
{
    // Ten points in one cell, then a query at exactly each one's radius: the cell's code must
    // give way to the exact chain, whatever order the points came in.
    OccupancyGrid grid(10, 10, 5);
    std::vector<Stored> points;
    for (int i = 0; i < 10; ++i) {
        points.push_back({1 + 0.3 * i, 2 + 0.1 * i, 0.05 + 0.01 * i});
        grid.add(points.back().x, points.back().y, points.back().r);
    }
    for (const Stored &p : points) {
        QCOMPARE(grid.isFree(p.x + p.r, p.y, 1.0), bruteFree(points, p.x + p.r, p.y, 1.0));
        QCOMPARE(grid.isFree(p.x + p.r * 0.999999, p.y, 1.0), false);
    }
    QCOMPARE(grid.size(), std::size_t(10));
}

void TestOccupancy::pointsComeBackInOrderPastTheFirstBlock()
{
    // A chunk-sized grid starts with a small block of points and doubles it as it fills: every
    // point, its chain and its answers must survive each move, and takePoints give back the
    // layer's points in the order they came, from any start.
    OccupancyGrid grid(40, 40, 2);
    std::vector<Stored> points;
    SeededRandom random(7);
    for (int i = 0; i < 40000; ++i) {
        points.push_back({random.nextFloat() * 40, random.nextFloat() * 40, 0.01 + 0.02 * random.nextFloat()});
        grid.add(points.back().x, points.back().y, points.back().r);
        if (i % 997 == 0) {  // answers asked while the points grow, not only at the end
            const double x = random.nextFloat() * 40, y = random.nextFloat() * 40;
            QCOMPARE(grid.isFree(x, y, 0.5), bruteFree(points, x, y, 0.5));
        }
    }
    QCOMPARE(grid.size(), points.size());
    for (std::size_t i = 0; i < points.size(); i += 13)
        QVERIFY(grid.point(i).x == points[i].x && grid.point(i).y == points[i].y && grid.point(i).r == points[i].r);
    // every point found through its cell's chain (for most points no other lies close enough to
    // block the query, so a lost link loses the points behind it)
    for (std::size_t i = 0; i < points.size(); ++i)
        QVERIFY2(!grid.isFree(points[i].x + 0.5 * points[i].r, points[i].y, 1.0), qPrintable(QStringLiteral("point %1").arg(i)));
    const std::vector<PointXYR> taken = grid.takePoints(100);
    QCOMPARE(taken.size(), points.size() - 100);
    for (std::size_t i = 0; i < taken.size(); ++i)
        QVERIFY2(taken[i].x == points[i + 100].x && taken[i].y == points[i + 100].y && taken[i].r == points[i + 100].r,
                 qPrintable(QStringLiteral("point %1").arg(i + 100)));
}

void TestOccupancy::ringCandidatesEqualOnBothPaths()
{
    // A step's ring candidates from the generator's draws, made by the scalar loop and by the
    // AVX2 lanes (where the CPU has them) in the chunks a step asks for: the same offsets, kept
    // from the same pairs, and the same draws used, whatever the radius or where the draws end.
    SeededRandom random(2024);
    std::vector<double> draws(400);
    std::size_t rejected = 0, made = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        random.fillFloats(draws.data(), draws.size());
        const double r = std::ldexp(1.0 + random.nextFloat(), static_cast<int>(random.nextFloat() * 40) - 20);
        const std::size_t available = 2 + static_cast<std::size_t>(random.nextFloat() * 300);
        const std::size_t want = 1 + static_cast<std::size_t>(random.nextFloat() * 60);
        std::vector<double> dx[2], dy[2];
        std::vector<std::size_t> after[2], used(2, 0), count(2, 0);
        for (int simd = 0; simd < 2; ++simd) {
            dx[simd].assign(want + 3, 0);
            dy[simd].assign(want + 3, 0);
            after[simd].assign(want + 3, 0);
            setRingCandidatesSimd(simd == 1);
            // as a step asks: eight first, then the rest
            for (std::size_t upTo : {std::min<std::size_t>(want, 8), want})
                makeRingCandidates(draws.data(), available, r, upTo, used[simd], count[simd],
                                   {dx[simd].data(), dy[simd].data(), after[simd].data()});
        }
        QCOMPARE(count[1], count[0]);
        QCOMPARE(used[1], used[0]);
        for (std::size_t i = 0; i < count[0]; ++i) {
            QVERIFY2(dx[1][i] == dx[0][i] && dy[1][i] == dy[0][i] && after[1][i] == after[0][i],
                     qPrintable(QStringLiteral("trial %1, candidate %2 of %3").arg(trial).arg(i).arg(count[0])));
            const double d2 = dx[0][i] * dx[0][i] + dy[0][i] * dy[0][i];
            QVERIFY(d2 >= r * r && d2 <= 4 * r * r);  // in the ring
        }
        made += count[0];
        rejected += used[0] / 2 - count[0];
    }
    setRingCandidatesSimd(true);
    // square rejection keeps about 59% of the pairs (the ring's 3 pi r^2 of the square's 16 r^2)
    QVERIFY(made > 30000);
    QVERIFY(rejected > made / 2 && rejected < made);
}

void TestOccupancy::aFreedGridsMemoryServesTheNextOneClean()
{
    // A chunked world places grid after grid of the same size: a freed grid's blocks are kept and
    // the next grid takes them. Nothing of the old grid may show through (a stale cell would
    // block a free spot), and what is kept stays bounded.
    releaseFreedMemory();
    QCOMPARE(recycledBlocks::keptBytes(), std::size_t(0));
    SeededRandom random(11);
    std::vector<Stored> old;
    {
        OccupancyGrid grid(300, 300, 1);  // 90,000 cells: each 4-byte array is 352 KiB
        for (int i = 0; i < 20000; ++i) {
            old.push_back({random.nextFloat() * 300, random.nextFloat() * 300, 0.5});
            grid.add(old.back().x, old.back().y, old.back().r);
        }
    }
    const std::size_t kept = recycledBlocks::keptBytes();
    QVERIFY(kept >= 2 * 90000 * sizeof(std::int32_t));  // at least the cells' heads and codes
    std::vector<Stored> fresh;
    {
        OccupancyGrid grid(300, 300, 1);
        QVERIFY(recycledBlocks::keptBytes() < kept);  // it took them back
        for (const Stored &p : old)
            QVERIFY(grid.isFree(p.x, p.y, 0.5));
        for (int i = 0; i < 3000; ++i) {
            fresh.push_back({random.nextFloat() * 300, random.nextFloat() * 300, 0.5});
            grid.add(fresh.back().x, fresh.back().y, fresh.back().r);
        }
        for (const Stored &p : old)
            QCOMPARE(grid.isFree(p.x, p.y, 0.5), bruteFree(fresh, p.x, p.y, 0.5));
        const std::vector<PointXYR> taken = grid.takePoints(0);
        QCOMPARE(taken.size(), fresh.size());
        QVERIFY(taken.back().x == fresh.back().x && taken.back().y == fresh.back().y);
    }
    // bounded: many blocks freed at once keep at most kKeptBytes; too small or too large, none
    {
        std::vector<LargeArray<std::uint8_t>> many(200);
        for (auto &a : many)
            a.resetUninitialized(std::size_t(1) << 20);
    }
    QVERIFY(recycledBlocks::keptBytes() <= recycledBlocks::kKeptBytes);
    QVERIFY(recycledBlocks::keptBytes() >= recycledBlocks::kKeptBytes - (std::size_t(1) << 20));
    releaseFreedMemory();  // an idle editor hands back what the threads freed, kept blocks too
    QCOMPARE(recycledBlocks::keptBytes(), std::size_t(0));
    {
        LargeArray<std::uint8_t> small(recycledBlocks::kSmallest - 1, 0), large(recycledBlocks::kLargest + 1, 0);
    }
    QCOMPARE(recycledBlocks::keptBytes(), std::size_t(0));
}

QTEST_GUILESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
