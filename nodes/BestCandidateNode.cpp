// best_candidate: Mitchell's best-candidate sampling: of m uniform candidates, keep the one farthest
// from every point kept so far.
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/math/SeededRandom.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace grove {

namespace {

// The kept points bucketed in a uniform grid, for the exact nearest distance to a candidate.
class NearestGrid
{
public:
    NearestGrid(double width, double height, double expectedPoints)
    {
        // about one point a cell once the layer is full
        m_cell = std::max(std::sqrt(width * height / std::max(1.0, expectedPoints)), 1e-9);
        // clamped as doubles, before the cast: a sliver of a world divides into astronomically many cells
        m_cols = static_cast<int>(std::clamp(std::ceil(width / m_cell), 1.0, 32768.0));
        m_rows = static_cast<int>(std::clamp(std::ceil(height / m_cell), 1.0, 32768.0));
        m_cell = std::max({m_cell, width / m_cols, height / m_rows});
        m_inverse = 1.0 / m_cell;
        m_cells.resize(static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows));
    }

    void add(double x, double y)
    {
        m_cells[index(col(x), row(y))].push_back({x, y});
        ++m_size;
    }

    // The smallest dx*dx + dy*dy from (x, y) to a kept point, or any value <= `floor` once it is
    // known to be at most `floor` (the candidate has lost). +inf with no point kept.
    double nearest2(double x, double y, double floor) const
    {
        if (m_size == 0)
            return HUGE_VAL;
        const int cc = col(x), cr = row(y);
        double best = HUGE_VAL;
        const int maxRing = std::max(m_cols, m_rows);
        for (int k = 0; k <= maxRing; ++k) {
            // ring k: the cells at Chebyshev distance k from (cc, cr), within the grid
            auto scan = [&](int c, int r) {
                for (const Pt &p : m_cells[index(c, r)]) {
                    const double dx = p.x - x, dy = p.y - y;
                    best = std::min(best, dx * dx + dy * dy);
                }
            };
            // its top and bottom rows, then its left and right columns between them: only cells
            // in the grid are visited, so a ring costs what it holds even in a sliver of a world
            const int c0 = std::max(0, cc - k), c1 = std::min(m_cols - 1, cc + k);
            if (cr - k >= 0)
                for (int c = c0; c <= c1; ++c)
                    scan(c, cr - k);
            if (k > 0 && cr + k < m_rows)
                for (int c = c0; c <= c1; ++c)
                    scan(c, cr + k);
            if (k > 0) {
                const int r0 = std::max(0, cr - k + 1), r1 = std::min(m_rows - 1, cr + k - 1);
                if (cc - k >= 0)
                    for (int r = r0; r <= r1; ++r)
                        scan(cc - k, r);
                if (cc + k < m_cols)
                    for (int r = r0; r <= r1; ++r)
                        scan(cc + k, r);
            }
            if (best <= floor)
                return best;
            if (cr - k <= 0 && cc - k <= 0 && cr + k >= m_rows - 1 && cc + k >= m_cols - 1)
                return best;  // every cell scanned
            // a point beyond ring k lies at least k cells away along one axis; one ring of slack
            // covers a candidate whose cell was rounded to its neighbour
            const double reach = (k - 1) * m_cell;
            if (k >= 2 && best <= reach * reach)
                return best;
        }
        return best;
    }

private:
    struct Pt
    {
        double x, y;
    };
    int col(double x) const { return std::clamp(static_cast<int>(std::floor(x * m_inverse)), 0, m_cols - 1); }
    int row(double y) const { return std::clamp(static_cast<int>(std::floor(y * m_inverse)), 0, m_rows - 1); }
    std::size_t index(int c, int r) const { return static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(c); }

    double m_cell, m_inverse;
    int m_cols, m_rows;
    std::vector<std::vector<Pt>> m_cells;
    std::size_t m_size = 0;
};

// Candidates one layer may try (count x candidates): a few seconds at worst (about 0.1
// microseconds a candidate), a bound on time as well as memory.
constexpr double kMaxCandidates = 2e7;

} // namespace

void registerBestCandidate(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d = scatterDescriptor(
        "best_candidate", "Best Candidate",
        "Mitchell's best-candidate sampling: for each of count points, draw `candidates` uniform candidates (x then y "
        "from the seeded stream) and keep the one farthest from every kept point (the first on a tie). Even like "
        "Poisson-disk without a minimum distance: you choose the count.");
    d.matchesSeedJs = false;
    d.params = {
        integer("count").defaultValue(100).min(0).max(1e9).soft(0, 2000).describe("how many points"),
        integer("candidates").defaultValue(10).min(1).max(1000).soft(1, 50)
            .describe("uniform candidates per point (m): more is more even and slower"),
        number("radius").defaultValue(10).min(0).max(1e7).soft(1, 100)
            .describe("the spacing these points are judged and drawn by (not enforced)"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Dot, "#969ca4");
    d.evaluate = [](EvalContext &ctx) {
        const double count = ctx.number("count");
        if (!withinPointBudget(ctx, count, "count"))
            return;
        const double m = ctx.number("candidates");
        if (count * m > kMaxCandidates) {
            ctx.failAt("count", formatNumber(count) + " points of " + formatNumber(m) + " candidates each are "
                                    + formatNumber(count * m) + " candidates, more than the " + formatNumber(kMaxCandidates)
                                    + " one best_candidate layer may try; use place_layer for large layers");
            return;
        }
        const World &w = ctx.world();
        const double r = ctx.number("radius");
        const auto n = static_cast<std::int64_t>(count);
        const auto tries = static_cast<int>(m);
        SeededRandom random(ctx.seed());
        NearestGrid grid(w.width, w.height, count);
        std::vector<PointXYR> points;
        points.reserve(static_cast<size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) {
            double bestX = 0, bestY = 0, bestD2 = -1;
            for (int j = 0; j < tries; ++j) {
                const double x = random.nextFloat() * w.width;
                const double y = random.nextFloat() * w.height;
                const double d2 = grid.nearest2(x, y, bestD2);
                if (d2 > bestD2) {
                    bestD2 = d2;
                    bestX = x;
                    bestY = y;
                }
            }
            grid.add(bestX, bestY);
            points.push_back({bestX, bestY, r});
            if ((i & 255) == 255) {
                if (ctx.cancelled())
                    return;
                ctx.progress(static_cast<double>(i + 1) / count);
            }
        }
        setLayerOutput(ctx, std::move(points));
    };
    d.wrapProblem = "it measures spacing only in the plane, not across the edges; use place_layer, which places on the torus";
    registry.add(std::move(d));
}

} // namespace grove
