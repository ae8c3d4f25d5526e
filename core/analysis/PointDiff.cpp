// PointDiff: kept points by exact position, moved points by a nearest-first greedy matching over
// NearestPoints grids of the new side's positions, the rest added or removed.
#include "core/analysis/PointDiff.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/geometry/DistanceTransform.h"

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

// The free new points for nearest-first queries. Points at one position make one site (its
// points in index order, always taken lowest first), so a query visits a crowd at one spot once,
// not point by point. The sites sit in NearestPoints grids: each grid covers a core of the
// positions left (their 1st to 99th percentiles, widened by that spread and the tolerance each
// side) and what lies outside goes on to the next grid, so a few far points never stretch a grid
// until every site shares a bucket.
class FreeSites
{
public:
    FreeSites(const std::vector<DiffPoint> &points, const std::vector<std::size_t> &members, double tolerance)
        : m_reach(tolerance * (1 + 1e-9))
    {
        const auto bits = [&](std::size_t i) {
            return std::pair(std::bit_cast<std::uint64_t>(points[i].x), std::bit_cast<std::uint64_t>(points[i].y));
        };
        m_members = members;
        std::stable_sort(m_members.begin(), m_members.end(), [&](std::size_t l, std::size_t r) { return bits(l) < bits(r); });
        std::vector<Vec2> where;
        for (std::size_t k = 0; k < m_members.size(); ++k)
            if (k == 0 || bits(m_members[k]) != bits(m_members[k - 1])) {
                m_start.push_back(k);
                where.push_back({points[m_members[k]].x, points[m_members[k]].y});
            }
        m_next = m_start;
        m_start.push_back(m_members.size());
        std::vector<std::size_t> left(where.size());
        for (std::size_t s = 0; s < left.size(); ++s)
            left[s] = s;
        constexpr std::size_t kFewLeft = 64, kMostLevels = 16;
        while (!left.empty()) {
            std::vector<std::size_t> in, out;
            if (left.size() <= kFewLeft || m_levels.size() + 1 == kMostLevels) {
                in.swap(left);
            } else {
                const Region core = coreOf(where, left, tolerance);
                for (std::size_t s : left)
                    (where[s].x >= core.x0 && where[s].x <= core.x1 && where[s].y >= core.y0 && where[s].y <= core.y1 ? in : out)
                        .push_back(s);
                left.swap(out);
            }
            std::vector<Vec2> at(in.size());
            for (std::size_t k = 0; k < in.size(); ++k)
                at[k] = where[in[k]];
            m_levels.push_back({NearestPoints(at), std::move(in)});
        }
    }

    // The up to `most` free points nearest to p within sqrt(limit2), by (squared distance, index),
    // nearest first.
    void nearest(const DiffPoint &p, double limit2, const std::vector<char> &taken, std::size_t most,
                 std::vector<std::pair<double, std::size_t>> &out)
    {
        out.clear();  // a max-heap while it fills: out.front() is the farthest kept
        for (const Level &level : m_levels)
            level.grid.walk(
                p.x, p.y, m_reach,
                [&](double, double, double d2, std::size_t local) {
                    if (d2 > limit2)
                        return false;
                    const std::size_t s = level.site[local];
                    ++m_looked;
                    std::size_t &k = m_next[s];
                    while (k < m_start[s + 1] && taken[m_members[k]])
                        ++k;
                    for (std::size_t j = k; j < m_start[s + 1]; ++j) {
                        ++m_looked;
                        if (taken[m_members[j]])
                            continue;
                        const std::pair<double, std::size_t> e{d2, m_members[j]};
                        if (out.size() == most) {
                            if (!(e < out.front()))
                                break;  // the site's later points are farther in the order too
                            std::pop_heap(out.begin(), out.end());
                            out.back() = e;
                        } else {
                            out.push_back(e);
                        }
                        std::push_heap(out.begin(), out.end());
                    }
                    return false;
                },
                [&](double bound) {
                    const double b = bound * (1 - 1e-12);
                    return !(b > limit2 || (out.size() == most && b > out.front().first));
                });
        std::sort_heap(out.begin(), out.end());
    }

private:
    // The box of the sites `of` from their 1st to 99th percentile, widened each side by its own
    // size and the tolerance.
    static Region coreOf(const std::vector<Vec2> &where, const std::vector<std::size_t> &of, double tolerance)
    {
        std::vector<double> v(of.size());
        const std::size_t lo = of.size() / 100, hi = of.size() - 1 - of.size() / 100;
        auto range = [&](auto coordinate) {
            for (std::size_t k = 0; k < of.size(); ++k)
                v[k] = coordinate(where[of[k]]);
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
            const double a = v[lo];
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(hi), v.end());
            const double b = v[hi], pad = (b - a) + tolerance;
            return std::pair(a - pad, b + pad);
        };
        const auto [x0, x1] = range([](const Vec2 &p) { return p.x; });
        const auto [y0, y1] = range([](const Vec2 &p) { return p.y; });
        return {x0, y0, x1, y1};
    }

    struct Level
    {
        NearestPoints grid;
        std::vector<std::size_t> site;  // the grid's point k is site site[k]
    };
public:
    std::uint64_t m_looked = 0;  // sites and points looked at

private:
    double m_reach;
    std::vector<std::size_t> m_members;     // the free points, site by site, each site's in index order
    std::vector<std::size_t> m_start;       // site s: m_members[m_start[s], m_start[s + 1])
    std::vector<std::size_t> m_next;        // site s: its points before m_next[s] are taken
    std::vector<Level> m_levels;
};

// Moved: the greedy matching over every pair within the tolerance, taken nearest first (ties by
// old index, then new index), computed lazily: each free old position (a slot: its points in index
// order, which all see the same candidates in the same order) offers its nearest free candidate
// to one queue for its first point left, and looks again when its candidates were taken by
// closer pairs. A crowd at one spot is one slot that takes a batch as large as the crowd (up to
// kMostBatch), so it walks the grid once per batch, not once per point.
bool matchMoved(const std::vector<DiffPoint> &a, const std::vector<DiffPoint> &b, double tolerance,
                std::vector<std::int64_t> &oldMatch, std::vector<std::int64_t> &newMatch, const PointDiffOptions &options)
{
    const std::atomic<bool> *cancel = options.cancel;
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
    FreeSites grid(b, freeNew, tolerance);
    std::vector<char> taken(b.size(), 0);
    // the slots: free old points by position, each slot's in index order
    const auto bits = [&](std::size_t i) { return std::pair(std::bit_cast<std::uint64_t>(a[i].x), std::bit_cast<std::uint64_t>(a[i].y)); };
    std::stable_sort(freeOld.begin(), freeOld.end(), [&](std::size_t l, std::size_t r) { return bits(l) < bits(r); });
    std::vector<std::size_t> slotStart;
    for (std::size_t k = 0; k < freeOld.size(); ++k)
        if (k == 0 || bits(freeOld[k]) != bits(freeOld[k - 1]))
            slotStart.push_back(k);
    const std::size_t slots = slotStart.size();
    std::vector<std::size_t> member(slotStart);  // each slot's first point left (in freeOld)
    slotStart.push_back(freeOld.size());
    // Each slot's next candidates, (squared distance, new index) nearest first, in one flat
    // buffer: slot s holds candidates[start[s], start[s] + count[s]), at most room[s] (kBatch, or
    // as many as its points up to kMostBatch). A slot looks again only when it had room[s], so its
    // next batch fits where the last one was. Memory: at most max(kBatch, its points) candidates
    // and one queue entry per slot, so linear in the old layer, which the caller already holds (a
    // graph's layer is within its point budget).
    constexpr std::size_t kBatch = 8, kMostBatch = 4096;
    using Candidate = std::pair<double, std::size_t>;
    std::vector<Candidate> candidates, batch;
    std::vector<std::size_t> start(slots), room(slots);
    std::vector<std::uint32_t> count(slots), cursor(slots, 0);
    using Entry = std::tuple<double, std::size_t, std::size_t, std::size_t>;  // d2, old, new, slot
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
    for (std::size_t s = 0; s < slots; ++s) {
        if ((s & 4095) == 0 && cancelled(cancel))
            return false;
        room[s] = std::clamp(slotStart[s + 1] - slotStart[s], kBatch, kMostBatch);
        grid.nearest(a[freeOld[member[s]]], limit2, taken, room[s], batch);
        start[s] = candidates.size();
        count[s] = static_cast<std::uint32_t>(batch.size());
        candidates.insert(candidates.end(), batch.begin(), batch.end());
        if (!batch.empty())
            queue.emplace(batch[0].first, freeOld[member[s]], batch[0].second, s);
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
            if (++member[s] == slotStart[s + 1])
                continue;  // the slot's points are all matched
        }
        // the slot's nearest candidate left, for its first point left
        Candidate *c = candidates.data() + start[s];
        std::uint32_t &k = cursor[s];
        while (++k < count[s] && taken[c[k].second]) {
        }
        if (k >= count[s]) {
            if (count[s] < room[s])
                continue;  // it had every candidate within the tolerance: none is left
            grid.nearest(a[o], limit2, taken, room[s], batch);
            std::copy(batch.begin(), batch.end(), c);
            count[s] = static_cast<std::uint32_t>(batch.size());
            k = 0;
            if (batch.empty())
                continue;
        }
        queue.emplace(c[k].first, freeOld[member[s]], c[k].second, s);
    }
    if (options.looked)
        *options.looked += grid.m_looked;
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
        if (cancelled(options.cancel) || !matchMoved(a, b, d.tolerance, oldMatch, newMatch, options)) {
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
