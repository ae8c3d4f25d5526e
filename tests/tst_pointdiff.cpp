// core/analysis/PointDiff, the matching grove-cli diff and the editor share: the lazy grid matching equals
// the all-pairs greedy on random sets, a million points match exactly in seconds, and crowds at
// one spot or far outliers do not make it look at every point for every point.
#include "TestSupport.h"

#include "core/analysis/PointDiff.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <tuple>

using namespace grove;

class TestPointDiff : public QObject
{
    Q_OBJECT

private slots:
    void matchesTheAllPairsGreedyOnRandomSets();
    void aMillionPointsInSeconds();
    void crowdsAndFarPointsLookAtFewPoints();
};

void TestPointDiff::matchesTheAllPairsGreedyOnRandomSets()
{
    // 2,000 small random pairs of layers, half on integer coordinates (many equal distances, so
    // the tie rules decide), with tolerances from 0 to beyond the world: the grid's lazy matching
    // equals sorting every pair and taking them greedily, pair for pair. Every third trial crowds
    // its points on three spots a side, every fifth has up to 150 points, a few of them far off
    // (so the grid keeps them aside)
    std::mt19937 rng(7);
    const double tolerances[] = {0, 0.5, 3, 5, 17, 100, 1e9};
    for (int trial = 0; trial < 2000; ++trial) {
        const bool crowded = trial % 3 == 2, spread = trial % 5 == 4;
        auto coordinate = [&] {
            const double u = std::uniform_real_distribution<double>(0, 50)(rng);
            if (crowded)
                return std::floor(u / 17);
            if (spread && rng() % 40 == 0)
                return u * 1e13;
            return trial % 2 ? std::floor(u) : u * 1.37 - 20;
        };
        PointLayer a, b;
        a.info.name = b.info.name = "l";
        const int most = spread ? 150 : 40;
        const int na = int(rng() % most), nb = int(rng() % most);
        for (int i = 0; i < na; ++i)
            a.points.push_back({coordinate(), coordinate(), 3});
        for (int j = 0; j < nb; ++j)
            b.points.push_back(j < na && rng() % 2 ? a.points[rng() % std::uint32_t(na)] : PointXYR{coordinate(), coordinate(), 3});
        PointDiffOptions options;
        options.tolerance = tolerances[trial % 7];
        auto pa = std::make_shared<PointLayer>(a), pb = std::make_shared<PointLayer>(b);
        const PointDiff d = diffPointLayers({pa}, {pb}, options);
        QVERIFY(d.ok());
        const LayerDiff &l = d.layers[0];
        // the brute force, with the same kept points (duplicates make several pairings equally right)
        std::vector<long> om(std::size_t(na), -1), nm(std::size_t(nb), -1);
        for (const DiffPair &k : l.keptPoints) {
            om[k.from.id] = long(k.to.id);
            nm[k.to.id] = long(k.from.id);
        }
        struct Pair
        {
            double d2;
            std::size_t i, j;
        };
        std::vector<Pair> pairs;
        const double t2 = *options.tolerance * *options.tolerance;
        for (std::size_t i = 0; i < std::size_t(na); ++i)
            for (std::size_t j = 0; j < std::size_t(nb); ++j) {
                const double dx = b.points[j].x - a.points[i].x, dy = b.points[j].y - a.points[i].y, d2 = dx * dx + dy * dy;
                if (om[i] < 0 && nm[j] < 0 && d2 <= t2)
                    pairs.push_back({d2, i, j});
            }
        std::sort(pairs.begin(), pairs.end(), [](const Pair &x, const Pair &y) { return std::tie(x.d2, x.i, x.j) < std::tie(y.d2, y.i, y.j); });
        std::vector<std::pair<std::uint64_t, std::uint64_t>> want, got;
        for (const Pair &p : pairs)
            if (om[p.i] < 0 && nm[p.j] < 0) {
                om[p.i] = long(p.j), nm[p.j] = long(p.i);
                want.emplace_back(p.i, p.j);
            }
        std::sort(want.begin(), want.end());
        for (const DiffPair &m : l.moved)
            got.emplace_back(m.from.id, m.to.id);
        QCOMPARE(got, want);
        QCOMPARE(l.kept + l.moved.size() + l.removed.size(), std::size_t(na));
        QCOMPARE(l.kept + l.moved.size() + l.added.size(), std::size_t(nb));
    }
}

void TestPointDiff::aMillionPointsInSeconds()
{
    // a million points on a jittered lattice; every 10th moves by 1.5 (under the radius 2), every
    // 13th is removed, every 7th is renumbered: the counts follow exactly, in seconds (grid, not n²)
    DiffLayer a{"l", {}}, b{"l", {}};
    std::size_t removed = 0, moved = 0, renumbered = 0;
    for (std::uint64_t i = 0; i < 1'000'000; ++i) {
        const double x = double(i % 1000) * 10 + double(pointHash01(1, i, 0)), y = double(i / 1000) * 10 + double(pointHash01(1, i, 1));
        a.points.push_back({x, y, 2, i});
        if (i % 13 == 0) {
            ++removed;
            continue;
        }
        DiffPoint p{x, y, 2, i};
        if (i % 10 == 0) {
            p.x += 1.5;
            ++moved;
        } else if (i % 7 == 0) {
            p.id += 5'000'000;
            ++renumbered;
        }
        b.points.push_back(p);
    }
    const PointDiff d = diffPoints({a}, {b});
    QVERIFY(d.ok());
    const LayerDiff &l = d.layers[0];
    QCOMPARE(l.moved.size(), moved);
    QCOMPARE(l.removed.size(), removed);
    QCOMPARE(l.added.size(), std::size_t(0));
    QCOMPARE(l.kept, 1'000'000 - removed - moved);
    QCOMPARE(l.renumbered(), renumbered);
    QCOMPARE(l.tolerance, 2.0);
}

void TestPointDiff::crowdsAndFarPointsLookAtFewPoints()
{
    // 20,000 points at one spot against 20,000 at a spot 0.5 away; then a jittered lattice moved
    // by 0.3 with one point 1e15 away on each side (far apart: removed, added): every pair is
    // found, in order, and the
    // matching looks at a few dozen points per point, not at every point per point (crowded in
    // one bucket, that was 20,000 each)
    constexpr std::uint64_t n = 20'000;
    for (int layout = 0; layout < 2; ++layout) {
        DiffLayer a{"l", {}}, b{"l", {}};
        for (std::uint64_t i = 0; i < n; ++i) {
            const double x = layout == 0 ? 5 : double(i % 150) * 4 + double(pointHash01(1, i, 0));
            const double y = layout == 0 ? 5 : double(i / 150) * 4 + double(pointHash01(1, i, 1));
            a.points.push_back({x, y, 1, i});
            b.points.push_back({x + (layout == 0 ? 0.5 : 0.3), y, 1, i});
        }
        if (layout == 1) {
            a.points.push_back({1e15, 1e15, 1, n});
            b.points.push_back({-1e15, 1e15, 1, n});
        }
        std::uint64_t looked = 0;
        PointDiffOptions options;
        options.looked = &looked;
        const PointDiff d = diffPoints({a}, {b}, options);
        QVERIFY(d.ok());
        const LayerDiff &l = d.layers[0];
        QCOMPARE(l.moved.size(), std::size_t(n));
        QCOMPARE(l.kept, std::size_t(0));
        QCOMPARE(l.added.size(), std::size_t(layout));
        QCOMPARE(l.removed.size(), std::size_t(layout));
        for (const DiffPair &m : l.moved)
            QCOMPARE(m.to.id, m.from.id);
        QVERIFY2(looked < 50 * n, std::to_string(looked).c_str());
    }
}

QTEST_APPLESS_MAIN(TestPointDiff)
#include "tst_pointdiff.moc"
