// PointDiff: kept points by exact position, moved points by a nearest-first greedy matching on a
// grid, the rest added or removed.
#include "PointDiff.h"

#include "ChunkedLayer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <queue>
#include <tuple>

namespace grove {

namespace {

bool cancelled(const std::atomic<bool> *cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

bool finitePoint(const DiffPoint &p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Kept: old and new points sorted by the bits of x and y (then id, then index) meet in groups of
// one position; in a group, equal ids pair first, then the rest in index order.
void matchKept(const std::vector<DiffPoint> &a, const std::vector<DiffPoint> &b, std::vector<std::int64_t> &oldMatch,
               std::vector<std::int64_t> &newMatch)
{
    using Key = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::size_t>;
    auto keyOf = [](const std::vector<DiffPoint> &v, std::size_t i) {
        return Key{std::bit_cast<std::uint64_t>(v[i].x), std::bit_cast<std::uint64_t>(v[i].y), v[i].id, i};
    };
    auto sorted = [&](const std::vector<DiffPoint> &v) {
        std::vector<std::size_t> order(v.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t l, std::size_t r) { return keyOf(v, l) < keyOf(v, r); });
        return order;
    };
    const std::vector<std::size_t> oa = sorted(a), ob = sorted(b);
    auto samePos = [](const DiffPoint &p, const DiffPoint &q) {
        return std::bit_cast<std::uint64_t>(p.x) == std::bit_cast<std::uint64_t>(q.x)
               && std::bit_cast<std::uint64_t>(p.y) == std::bit_cast<std::uint64_t>(q.y);
    };
    auto posLess = [](const DiffPoint &p, const DiffPoint &q) {
        return std::pair(std::bit_cast<std::uint64_t>(p.x), std::bit_cast<std::uint64_t>(p.y))
               < std::pair(std::bit_cast<std::uint64_t>(q.x), std::bit_cast<std::uint64_t>(q.y));
    };
    std::size_t i = 0, j = 0;
    std::vector<std::size_t> restA, restB;
    while (i < oa.size() && j < ob.size()) {
        const DiffPoint &p = a[oa[i]], &q = b[ob[j]];
        if (!samePos(p, q)) {
            if (posLess(p, q))
                ++i;
            else
                ++j;
            continue;
        }
        std::size_t i1 = i, j1 = j;
        while (i1 < oa.size() && samePos(a[oa[i1]], p))
            ++i1;
        while (j1 < ob.size() && samePos(b[ob[j1]], p))
            ++j1;
        // both groups are sorted by id: pair equal ids like a merge
        restA.clear();
        restB.clear();
        std::size_t x = i, y = j;
        while (x < i1 && y < j1) {
            const std::uint64_t ia = a[oa[x]].id, ib = b[ob[y]].id;
            if (ia == ib) {
                oldMatch[oa[x]] = static_cast<std::int64_t>(ob[y]);
                newMatch[ob[y]] = static_cast<std::int64_t>(oa[x]);
                ++x, ++y;
            } else if (ia < ib) {
                restA.push_back(oa[x++]);
            } else {
                restB.push_back(ob[y++]);
            }
        }
        restA.insert(restA.end(), oa.begin() + static_cast<std::ptrdiff_t>(x), oa.begin() + static_cast<std::ptrdiff_t>(i1));
        restB.insert(restB.end(), ob.begin() + static_cast<std::ptrdiff_t>(y), ob.begin() + static_cast<std::ptrdiff_t>(j1));
        std::sort(restA.begin(), restA.end());
        std::sort(restB.begin(), restB.end());
        for (std::size_t k = 0; k < std::min(restA.size(), restB.size()); ++k) {
            oldMatch[restA[k]] = static_cast<std::int64_t>(restB[k]);
            newMatch[restB[k]] = static_cast<std::int64_t>(restA[k]);
        }
        i = i1;
        j = j1;
    }
}

// The free new points in cells (CSR), for nearest-first queries that widen ring by ring.
class FreeGrid
{
public:
    FreeGrid(const std::vector<DiffPoint> &points, const std::vector<std::size_t> &members, double tolerance)
        : m_points(points)
    {
        double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
        for (std::size_t i : members) {
            x0 = std::min(x0, points[i].x);
            y0 = std::min(y0, points[i].y);
            x1 = std::max(x1, points[i].x);
            y1 = std::max(y1, points[i].y);
        }
        const double w = x1 - x0, h = y1 - y0, n = static_cast<double>(members.size());
        // about two points a cell; never more than 2048 cells a side; rings of at most ~32 cells
        // to reach the tolerance, so a far point with nothing near stops early
        double cell = std::sqrt(std::max(w * h, 0.0) / n) * 1.5;
        cell = std::max({cell, std::max(w, h) / 2048, tolerance / 32});
        if (!(cell > 0) || !std::isfinite(cell))
            cell = 1;
        m_cell = cell;
        m_x0 = x0;
        m_y0 = y0;
        m_w = std::clamp(static_cast<std::int64_t>(w / cell) + 1, std::int64_t(1), std::int64_t(2049));
        m_h = std::clamp(static_cast<std::int64_t>(h / cell) + 1, std::int64_t(1), std::int64_t(2049));
        m_start.assign(static_cast<std::size_t>(m_w * m_h + 1), 0);
        std::vector<std::size_t> cellOf(members.size());
        for (std::size_t k = 0; k < members.size(); ++k) {
            const DiffPoint &p = points[members[k]];
            cellOf[k] = static_cast<std::size_t>(std::min(cellY(p.y), m_h - 1) * m_w + std::min(cellX(p.x), m_w - 1));
            ++m_start[cellOf[k] + 1];
        }
        for (std::size_t c = 1; c < m_start.size(); ++c)
            m_start[c] += m_start[c - 1];
        m_items.resize(members.size());
        std::vector<std::size_t> fill(m_start.begin(), m_start.end() - 1);
        for (std::size_t k = 0; k < members.size(); ++k)  // members ascend, so each cell does too
            m_items[fill[cellOf[k]]++] = members[k];
    }

    // The up to `most` free points nearest to p within sqrt(limit2), by (squared distance, index).
    void nearest(const DiffPoint &p, double limit2, const std::vector<char> &taken, std::size_t most,
                 std::vector<std::pair<double, std::size_t>> &out) const
    {
        out.clear();
        const std::int64_t cx = cellX(p.x), cy = cellY(p.y);
        for (std::int64_t m = 0;; ++m) {
            auto visit = [&](std::int64_t x, std::int64_t y) {
                const std::size_t c = static_cast<std::size_t>(y * m_w + x);
                for (std::size_t k = m_start[c]; k < m_start[c + 1]; ++k) {
                    const std::size_t i = m_items[k];
                    if (taken[i])
                        continue;
                    const double dx = m_points[i].x - p.x, dy = m_points[i].y - p.y, d2 = dx * dx + dy * dy;
                    if (d2 > limit2)
                        continue;
                    const std::pair<double, std::size_t> e{d2, i};
                    if (out.size() == most && !(e < out.back()))
                        continue;
                    out.insert(std::upper_bound(out.begin(), out.end(), e), e);
                    if (out.size() > most)
                        out.pop_back();
                }
            };
            const std::int64_t ya = cy - m, yb = cy + m, xa = cx - m, xb = cx + m;
            if (m == 0) {
                if (cx >= 0 && cx < m_w && cy >= 0 && cy < m_h)
                    visit(cx, cy);
            } else {
                for (std::int64_t y : {ya, yb})
                    if (y >= 0 && y < m_h)
                        for (std::int64_t x = std::max<std::int64_t>(xa, 0); x <= std::min(xb, m_w - 1); ++x)
                            visit(x, y);
                for (std::int64_t x : {xa, xb})
                    if (x >= 0 && x < m_w)
                        for (std::int64_t y = std::max<std::int64_t>(ya + 1, 0); y <= std::min(yb - 1, m_h - 1); ++y)
                            visit(x, y);
            }
            // every point of ring m + 1 and beyond is at least m cells away from p (less 1% of a
            // cell: a coordinate rounded into the neighbouring cell must not be skipped)
            const double bound = std::max(0.0, static_cast<double>(m) - 0.01) * m_cell, bound2 = bound * bound;
            if (bound2 > limit2 || (out.size() == most && bound2 > out.back().first))
                return;
            if (xa <= 0 && ya <= 0 && xb >= m_w - 1 && yb >= m_h - 1)
                return;  // the ring holds the whole grid
        }
    }

private:
    // A point far outside counts as in the first cell beyond the edge: distances to the grid's
    // cells only grow from there, so the ring bounds hold.
    std::int64_t cellX(double x) const { return cellIndex((x - m_x0) / m_cell, m_w); }
    std::int64_t cellY(double y) const { return cellIndex((y - m_y0) / m_cell, m_h); }
    static std::int64_t cellIndex(double v, std::int64_t size)
    {
        if (!(v >= 0))
            return v < 0 ? -1 : 0;
        return v >= static_cast<double>(size) ? size : static_cast<std::int64_t>(v);
    }

    const std::vector<DiffPoint> &m_points;
    double m_cell = 1, m_x0 = 0, m_y0 = 0;
    std::int64_t m_w = 1, m_h = 1;
    std::vector<std::size_t> m_start, m_items;
};

// Moved: the greedy matching over every pair within the tolerance, taken nearest first (ties by
// old index, then new index), computed lazily: each old point offers its nearest free candidate
// to one queue, and looks again (a few at a time) when its candidates were taken by closer pairs.
bool matchMoved(const std::vector<DiffPoint> &a, const std::vector<DiffPoint> &b, double tolerance,
                std::vector<std::int64_t> &oldMatch, std::vector<std::int64_t> &newMatch, const std::atomic<bool> *cancel)
{
    std::vector<std::size_t> freeOld, freeNew;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (oldMatch[i] < 0 && finitePoint(a[i]))
            freeOld.push_back(i);
    for (std::size_t j = 0; j < b.size(); ++j)
        if (newMatch[j] < 0 && finitePoint(b[j]))
            freeNew.push_back(j);
    if (freeOld.empty() || freeNew.empty() || !(tolerance > 0))
        return true;
    const double limit2 = tolerance * tolerance;
    const FreeGrid grid(b, freeNew, tolerance);
    std::vector<char> taken(b.size(), 0);
    constexpr std::uint8_t kBatch = 8;
    // Each free old point's next candidates, (squared distance, new index) nearest first, in one
    // flat buffer: slot s holds candidates[start[s], start[s] + count[s]). A slot looks again only
    // when it had kBatch, so its next batch (at most kBatch) fits where the last one was. Memory:
    // at most kBatch candidates and one queue entry per free old point, so linear in the old
    // layer, which the caller already holds (a graph's layer is within its point budget).
    using Candidate = std::pair<double, std::size_t>;
    std::vector<Candidate> candidates, batch;
    std::vector<std::size_t> start(freeOld.size());
    std::vector<std::uint8_t> count(freeOld.size()), cursor(freeOld.size(), 0);
    using Entry = std::tuple<double, std::size_t, std::size_t, std::size_t>;  // d2, old, new, slot
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    for (std::size_t s = 0; s < freeOld.size(); ++s) {
        if ((s & 4095) == 0 && cancelled(cancel))
            return false;
        grid.nearest(a[freeOld[s]], limit2, taken, kBatch, batch);
        start[s] = candidates.size();
        count[s] = static_cast<std::uint8_t>(batch.size());
        candidates.insert(candidates.end(), batch.begin(), batch.end());
        if (!batch.empty())
            queue.emplace(batch[0].first, freeOld[s], batch[0].second, s);
    }
    std::size_t steps = 0;
    while (!queue.empty()) {
        if ((++steps & 4095) == 0 && cancelled(cancel))
            return false;
        const auto [d2, o, n, s] = queue.top();
        queue.pop();
        if (!taken[n]) {
            taken[n] = 1;
            oldMatch[o] = static_cast<std::int64_t>(n);
            newMatch[n] = static_cast<std::int64_t>(o);
            continue;
        }
        Candidate *c = candidates.data() + start[s];
        std::uint8_t &k = cursor[s];
        while (++k < count[s] && taken[c[k].second]) {
        }
        if (k >= count[s]) {
            if (count[s] < kBatch)
                continue;  // it had every candidate within the tolerance: none is left
            grid.nearest(a[o], limit2, taken, kBatch, batch);
            std::copy(batch.begin(), batch.end(), c);
            count[s] = static_cast<std::uint8_t>(batch.size());
            k = 0;
            if (batch.empty())
                continue;
        }
        queue.emplace(c[k].first, o, c[k].second, s);
    }
    return true;
}

double largestRadius(const std::vector<DiffPoint> &a, const std::vector<DiffPoint> &b)
{
    double r = 0;
    for (const auto *side : {&a, &b})
        for (const DiffPoint &p : *side)
            if (std::isfinite(p.r))
                r = std::max(r, p.r);
    return r;
}

} // namespace

bool PointDiff::same() const
{
    return std::all_of(layers.begin(), layers.end(), [](const LayerDiff &l) { return l.same(); });
}

PointDiff diffPoints(const std::vector<DiffLayer> &oldLayers, const std::vector<DiffLayer> &newLayers,
                     const PointDiffOptions &options)
{
    PointDiff diff;
    // pair layers by (name, occurrence of that name)
    std::map<std::pair<std::string, std::size_t>, std::size_t> newByName;
    std::vector<std::pair<std::string, std::size_t>> newKeys;
    {
        std::map<std::string, std::size_t> seen;
        for (std::size_t j = 0; j < newLayers.size(); ++j) {
            newKeys.emplace_back(newLayers[j].name, seen[newLayers[j].name]++);
            newByName[newKeys.back()] = j;
        }
    }
    std::vector<char> newUsed(newLayers.size(), 0);
    std::vector<std::pair<const DiffLayer *, const DiffLayer *>> pairs;
    std::map<std::string, std::size_t> seen;
    for (const DiffLayer &l : oldLayers) {
        auto it = newByName.find({l.name, seen[l.name]++});
        if (it == newByName.end()) {
            pairs.emplace_back(&l, nullptr);
        } else {
            newUsed[it->second] = 1;
            pairs.emplace_back(&l, &newLayers[it->second]);
        }
    }
    for (std::size_t j = 0; j < newLayers.size(); ++j)
        if (!newUsed[j])
            pairs.emplace_back(nullptr, &newLayers[j]);

    static const std::vector<DiffPoint> none;
    for (const auto &[ol, nl] : pairs) {
        const std::vector<DiffPoint> &a = ol ? ol->points : none, &b = nl ? nl->points : none;
        LayerDiff d;
        d.name = ol ? ol->name : nl->name;
        d.inOld = ol != nullptr;
        d.inNew = nl != nullptr;
        d.oldCount = a.size();
        d.newCount = b.size();
        d.tolerance = options.tolerance ? *options.tolerance : largestRadius(a, b);
        std::vector<std::int64_t> oldMatch(a.size(), -1), newMatch(b.size(), -1);
        matchKept(a, b, oldMatch, newMatch);
        for (std::size_t i = 0; i < a.size(); ++i)
            if (oldMatch[i] >= 0) {
                const DiffPoint &q = b[static_cast<std::size_t>(oldMatch[i])];
                ++d.kept;
                d.keptSameId += a[i].id == q.id;
                if (a[i].id != q.id)
                    d.renumberedPoints.push_back({a[i], q});
                if (options.listKept)
                    d.keptPoints.push_back({a[i], q});
            }
        if (cancelled(options.cancel) || !matchMoved(a, b, d.tolerance, oldMatch, newMatch, options.cancel)) {
            diff.error = "cancelled";
            diff.layers.clear();
            return diff;
        }
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (oldMatch[i] < 0)
                d.removed.push_back(a[i]);
            else if (const DiffPoint &q = b[static_cast<std::size_t>(oldMatch[i])];
                     std::bit_cast<std::uint64_t>(q.x) != std::bit_cast<std::uint64_t>(a[i].x)
                     || std::bit_cast<std::uint64_t>(q.y) != std::bit_cast<std::uint64_t>(a[i].y))
                d.moved.push_back({a[i], q});
        }
        for (std::size_t j = 0; j < b.size(); ++j)
            if (newMatch[j] < 0)
                d.added.push_back(b[j]);
        diff.layers.push_back(std::move(d));
    }
    return diff;
}

DiffLayersLoad diffLayersOf(const std::vector<PointLayerPtr> &layers, const std::optional<Region> &region, int threads,
                            const std::atomic<bool> *cancel)
{
    DiffLayersLoad load;
    for (const PointLayerPtr &layer : layers) {
        if (!layer)
            continue;
        std::shared_ptr<const PointLayer> source = layer;
        if (region) {
            source = layerInRegion(*layer, *region, threads, cancel);
            if (!source) {
                load.error = "cancelled";
                load.layers.clear();
                return load;
            }
        } else if (layer->lazy) {
            load.error = "layer '" + layer->info.name + "' is endless (a chunked world without width and height): "
                         "give a region to compare";
            load.layers.clear();
            return load;
        }
        DiffLayer d;
        d.name = layer->info.name;
        d.points.resize(source->points.size());
        for (std::size_t i = 0; i < source->points.size(); ++i) {
            const PointXYR &p = source->points[i];
            d.points[i] = {p.x, p.y, p.r, source->idOf(i)};
        }
        load.layers.push_back(std::move(d));
    }
    return load;
}

PointDiff diffPointLayers(const std::vector<PointLayerPtr> &oldLayers, const std::vector<PointLayerPtr> &newLayers,
                          const PointDiffOptions &options, const std::optional<Region> &region, int threads)
{
    PointDiff diff;
    const DiffLayersLoad a = diffLayersOf(oldLayers, region, threads, options.cancel);
    if (!a.ok()) {
        diff.error = a.error;
        return diff;
    }
    const DiffLayersLoad b = diffLayersOf(newLayers, region, threads, options.cancel);
    if (!b.ok()) {
        diff.error = b.error;
        return diff;
    }
    return diffPoints(a.layers, b.layers, options);
}

} // namespace grove
