// Layer statistics with a bucket grid: each of the layer's points against its neighbours for the
// pairs too close and the tightest pair, a distance field plus local refinement for the widest clearing.
// Linear in the points.
#include "core/analysis/LayerStats.h"

#include "core/analysis/StatsBuckets.h"
#include "core/analysis/WidestClearing.h"

#include "core/eval/Evaluator.h"
#include "core/base/NumberText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <optional>

namespace grove {

namespace {

using stats::Buckets;

// The pairs of the layer: its conflicts with everything placed before each of its points (pairs
// closer than min(ri, rj)), and its tightest pair when that is closer than a cell (else
// infinity). Only the layer's own points are visited, each against the points near it, so the
// work follows the layer's count and its neighbours, not the square of what earlier layers of
// wider radii pile into a cell. A point no wider than a cell finds every conflict of its own in
// the 3 x 3 cells around it (a conflict is closer than the smaller radius); the few wider ones
// reach out as far as their radius, and each pair is counted once.
// On a wrapped world's torus the grid also holds ghosts (copies of points across the seams): ids
// from `first` on are ghosts, ghostOf[id - first] the point each copies. A pair counts once, at
// the image nearest to each other (less than half a period apart on each wrapped axis).
struct Ghosts
{
    std::uint32_t first = std::numeric_limits<std::uint32_t>::max();
    const std::vector<std::uint32_t> *ghostOf = nullptr;
    double halfX = 0, halfY = 0;  // half the period of a wrapped axis (0: it does not wrap)

    std::uint32_t original(std::uint32_t id) const { return id >= first ? (*ghostOf)[id - first] : id; }
    bool nearestImage(double dx, double dy) const
    {
        return (halfX <= 0 || (dx > -halfX && dx <= halfX)) && (halfY <= 0 || (dy > -halfY && dy <= halfY));
    }
};

struct PairScan
{
    std::size_t tooClose = 0;
    double tightest = std::numeric_limits<double>::infinity();
    TightestPairs conflicts;  // (own index, id in the buckets)
};

PairScan scanPairs(const Buckets &buckets, const std::vector<PointXYR> &own, std::uint32_t firstOwn, bool countConflicts,
                   const Ghosts &ghosts, const StatsControl &control)
{
    PairScan scan;
    double tight2 = std::numeric_limits<double>::infinity();
    std::size_t count = 0;
    const double cell = buckets.cell();
    auto wide = [&](double r) { return !(r <= cell); };
    for (std::size_t i = 0; i < own.size(); ++i) {
        if ((i & 4095) == 0 && control.cancelled())
            return scan;
        const PointXYR &p = own[i];
        const std::uint32_t id = firstOwn + static_cast<std::uint32_t>(i);
        const bool pWide = wide(p.r);
        buckets.forEachNear(p.x, p.y, pWide ? buckets.ringsFor(p.r) : 1, [&](const Buckets::Item &q) {
            const std::uint32_t qid = ghosts.original(q.id);
            const double dx = p.x - q.x, dy = p.y - q.y;
            if (!ghosts.nearestImage(dx, dy))
                return;
            const bool qOwn = qid >= firstOwn;
            if (qOwn) {
                // an own pair once: by the narrow side when one is narrow, else by the lower id
                const bool qWide = wide(q.r);
                if (pWide == qWide ? qid <= id : pWide)
                    return;
            }
            const double d2 = dx * dx + dy * dy;
            const double m = spacingBetween(p.r, q.r);
            if (countConflicts && d2 < m * m) {
                ++count;
                scan.conflicts.offer(d2, static_cast<std::uint32_t>(i), qid);
            }
            if (qOwn)
                tight2 = std::min(tight2, d2);
        });
    }
    scan.tooClose = count;
    // A pair closer than a cell (less a hair for the rounding of x / cell) lies in adjacent cells.
    const double sure = 0.999 * cell;
    if (tight2 < sure * sure)
        scan.tightest = std::sqrt(tight2);
    return scan;
}

// The pair scan's cell: about one point per cell, and at least as wide as all but the widest
// hundredth of the layer's own radii, whatever the earlier layers' radii.
double pairCell(const std::vector<PointXYR> &own)
{
    std::vector<double> radii;
    radii.reserve(own.size());
    for (const auto &p : own)
        if (p.r > 0 && std::isfinite(p.r))
            radii.push_back(p.r);
    if (radii.empty())
        return 0;
    const std::size_t nth = radii.size() * 99 / 100;
    std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(nth), radii.end());
    return radii[nth] * (1 + 1e-12);  // a hair over, for the rounding of x / cell
}

// Why a layer holds far fewer points than its allowed area could (empty when it does not): the
// sampler's rejection counts, and how much of the area the obstacles' spacing covers.
std::string explainLayer(const PointLayer &layer, const std::vector<PointLayerPtr> &obstacles, const AllowedRaster &a,
                         double width, double height)
{
    const PlacementTally &t = layer.tally;
    if (!t.counted || t.radius <= 0)
        return {};
    constexpr double kBridsonDensity = 0.62;  // exact Bridson's points per r^2 on open ground
    const double capacity = kBridsonDensity * a.area() / (t.radius * t.radius);
    const std::size_t count = layer.points.size();
    if (count > 0 && static_cast<double>(count) >= 0.2 * capacity)
        return {};
    const std::string head = std::to_string(count) + (count == 1 ? " point: " : " points: ");
    if (a.allowedCells == 0)
        return head + "the allowed area is empty";
    // Which obstacle layer's spacing covers each allowed cell (a point rules out min(r, its r)).
    std::vector<PointXYR> all;
    std::vector<std::size_t> layerOf;
    for (std::size_t l = 0; l < obstacles.size(); ++l) {
        all.insert(all.end(), obstacles[l]->points.begin(), obstacles[l]->points.end());
        layerOf.resize(all.size(), l);
    }
    std::vector<std::size_t> covered(obstacles.size(), 0);
    std::size_t coveredCells = 0, coveredPercent = 0;
    if (!all.empty()) {
        const Buckets buckets({&all}, width, height);
        const int stride = std::max(1, static_cast<int>(std::sqrt(static_cast<double>(a.nx) * a.ny / 65536.0)));
        std::size_t sampled = 0;
        for (int j = 0; j < a.ny; j += stride)
            for (int i = 0; i < a.nx; i += stride) {
                if (!a.at(i, j))
                    continue;
                ++sampled;
                std::uint32_t which = 0;
                const double d = buckets.nearest((i + 0.5) * a.step, (j + 0.5) * a.step, -1, &which);
                if (d < spacingBetween(t.radius, all[which].r)) {
                    ++covered[layerOf[which]];
                    ++coveredCells;
                }
            }
        coveredPercent = sampled ? coveredCells * 100 / sampled : 0;
    }
    std::string blockers;
    for (std::size_t l = 0, named = 0; l < obstacles.size(); ++l) {
        const std::size_t biggest = static_cast<std::size_t>(
            std::max_element(covered.begin(), covered.end()) - covered.begin());
        if (covered.empty() || covered[biggest] == 0 || named == 2)
            break;
        const PointLayer &o = *obstacles[biggest];
        blockers += (named++ ? " or " : "") + formatForReading(std::min(t.radius, o.points.front().r)) + " of " + o.info.name;
        covered[biggest] = 0;
    }
    const bool obstaclesBlock = t.tooClose > 0 && !blockers.empty();
    if (count == 0 && obstaclesBlock)
        return head + "every candidate in the allowed area is within " + blockers + " (obstacles)";
    if (count == 0 && t.candidates > 0 && t.offMap == t.candidates)
        return head + "every candidate fell outside the world";
    if (count == 0)
        return head + "no candidate landed in the allowed area (too small or patchy for radius " + formatForReading(t.radius) + ")";
    const std::string share = std::to_string(static_cast<long long>(std::round(100 * count / capacity)));
    if (obstaclesBlock && coveredPercent >= 50)
        return head + "about " + share + "% of what the allowed area could hold; " + std::to_string(coveredPercent)
               + "% of it is within " + blockers + " (obstacles)";
    if (t.notAllowed > t.tooClose)
        return head + "about " + share + "% of what the allowed area could hold; most candidates fell outside it "
               "(too patchy for radius " + formatForReading(t.radius) + ")";
    return {};
}

// Widest clearing: the largest empty circle centred in the allowed area and lying inside it. A
// Euclidean distance transform (to the nearest point or forbidden cell) finds the best few centres
// to within a cell; a shrinking pattern search with exact nearest-point distances refines them.
// On a torus (a wrapped world) pairs and clearings are measured across the seams too.
LayerStats statsWithin(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double width, double height,
                       StatsTorus torus, const std::function<AllowedRaster()> &allowedArea, const StatsControl &control)
{
    LayerStats s;
    s.count = layer.points.size();
    // One grid of the earlier layers' points and the layer's own: conflicts, and the tightest
    // pair when it is closer than a cell.
    std::vector<const std::vector<PointXYR> *> sources;
    std::size_t firstOwn = 0;
    double maxR = 0;
    for (const auto &l : earlier) {
        sources.push_back(&l->points);
        firstOwn += l->points.size();
    }
    sources.push_back(&layer.points);
    for (const auto *src : sources)
        for (const auto &p : *src)
            maxR = std::max(maxR, p.r);
    // The grid spans the world and, across a wrapped side, a band as wide as a pair can reach.
    const auto around = [&](double band) {
        return Region{torus.x ? -band : 0, torus.y ? -band : 0, torus.x ? width + band : width, torus.y ? height + band : height};
    };
    std::vector<PointXYR> seamCopies;   // every source's ghosts, one after another
    std::vector<std::uint32_t> ghostOf;
    Ghosts ghosts;
    std::optional<Buckets> all;
    PairScan pairs;
    if (!layer.points.empty()) {
        const double cell = pairCell(layer.points);
        if (torus.wraps()) {
            const double band = std::max(cell, maxR) * (1 + 1e-9);
            std::uint32_t offset = 0;
            for (const auto *src : sources) {
                std::vector<std::uint32_t> of;
                for (const PointXYR &g : torusGhosts(*src, width, height, torus, band, of))
                    seamCopies.push_back(g);
                for (std::uint32_t k : of)
                    ghostOf.push_back(offset + k);
                offset += static_cast<std::uint32_t>(src->size());
            }
            ghosts = {offset, &ghostOf, torus.x ? width / 2 : 0, torus.y ? height / 2 : 0};
            std::vector<const std::vector<PointXYR> *> withGhosts = sources;
            withGhosts.push_back(&seamCopies);
            all.emplace(withGhosts, around(band), cell);
        } else {
            all.emplace(sources, width, height, cell);
        }
        pairs = scanPairs(*all, layer.points, static_cast<std::uint32_t>(firstOwn), maxR > 0, ghosts, control);
        s.tooClose = pairs.tooClose;
        for (const TightestPairs::Entry &e : pairs.conflicts.entries()) {
            TooClosePair pair{layer.points[e.a], {}, layer.info.name, std::sqrt(e.d2)};
            std::size_t id = e.b, l = 0;
            for (; l < earlier.size() && id >= earlier[l]->points.size(); ++l)
                id -= earlier[l]->points.size();
            pair.other = l < earlier.size() ? earlier[l]->points[id] : layer.points[id];
            if (l < earlier.size())
                pair.otherLayer = earlier[l]->info.name;
            s.tightestTooClose.push_back(std::move(pair));
        }
    }
    if (control.cancelled())
        return s.cancelled = true, s;
    if (control.progress)
        control.progress(0.2);
    const AllowedRaster area = allowedArea();
    if (control.progress)
        control.progress(0.4);
    s.why = explainLayer(layer, earlier, area, width, height);
    if (layer.points.empty() || control.cancelled())
        return s.cancelled = control.cancelled(), s;
    // Nearest-point queries need the layer's points alone (on the torus, with their ghosts within
    // `band` of the world; a wider band asked later builds the grid again).
    std::optional<Buckets> ownOnly;
    std::vector<PointXYR> ownGhosts;
    double ownBand = -1;
    const auto nearestPoints = [&](double band) -> const Buckets & {
        if (!torus.wraps()) {
            if (firstOwn == 0)
                return *all;
            if (!ownOnly)
                ownOnly.emplace(std::vector<const std::vector<PointXYR> *>{&layer.points}, width, height);
            return *ownOnly;
        }
        if (!ownOnly || band > ownBand) {
            std::vector<std::uint32_t> of;
            ownGhosts = torusGhosts(layer.points, width, height, torus, band, of);
            ownOnly.emplace(std::vector<const std::vector<PointXYR> *>{&layer.points, &ownGhosts}, around(band), 0.0);
            ownBand = band;
        }
        return *ownOnly;
    };
    if (control.progress)
        control.progress(0.5);
    widestClearing(s, layer, area, width, height, torus, nearestPoints, control);
    if (control.cancelled())
        return s.cancelled = true, s;
    if (layer.points.size() >= 2) {
        double tight = pairs.tightest;
        // no pair within a cell: each point's nearest neighbour, wherever it is (on the torus, a
        // neighbour farther than the ghosts' band may have a nearer image: the band widens to it)
        const auto nearestNeighbours = [&](const Buckets &own) {
            double t = std::numeric_limits<double>::infinity();
            for (size_t i = 0; i < layer.points.size() && !((i & 4095) == 0 && control.cancelled()); ++i)
                t = std::min(t, own.nearest(layer.points[i].x, layer.points[i].y, static_cast<std::int64_t>(i)));
            return t;
        };
        if (!std::isfinite(tight)) {
            tight = nearestNeighbours(nearestPoints(ownBand));
            if (torus.wraps() && std::isfinite(tight) && tight > ownBand)
                tight = nearestNeighbours(nearestPoints(tight * (1 + 1e-9)));
            if (control.cancelled())
                return s.cancelled = true, s;
        }
        s.tightest = tight;
    }
    s.cancelled = control.cancelled();
    return s;
}

} // namespace

AllowedRaster sampleAllowed(const Mask *mask, const Region &region, double step, const StatsControl &control)
{
    AllowedRaster a;
    a.region = region;
    a.step = step;
    a.nx = std::max(1, static_cast<int>(std::ceil((region.x1 - region.x0) / step)));
    a.ny = std::max(1, static_cast<int>(std::ceil((region.y1 - region.y0) / step)));
    if (!mask) {
        a.allowedCells = static_cast<size_t>(a.nx) * static_cast<size_t>(a.ny);
        return a;
    }
    a.allowed.resize(static_cast<size_t>(a.nx) * static_cast<size_t>(a.ny));
    for (int j = 0; j < a.ny && !control.cancelled(); ++j)
        for (int i = 0; i < a.nx; ++i) {
            const bool ok = mask->at(a.x(i), a.y(j));
            a.allowed[static_cast<size_t>(j) * static_cast<size_t>(a.nx) + static_cast<size_t>(i)] = ok;
            a.allowedCells += ok;
        }
    return a;
}

// Sampling a mask is most of a layer's stats (noise upon noise). While a designer drags one
// layer's slider, its allowed area stays the same object, so the last few samplings are kept.
static AllowedRaster cachedAllowed(const MaskPtr &mask, const Region &region, double step, const StatsControl &control)
{
    struct Entry
    {
        std::weak_ptr<const Mask> mask;
        Region region;
        double step;
        AllowedRaster raster;
    };
    static std::mutex mutex;
    static std::vector<Entry> recent;  // the most recent last
    constexpr size_t kKept = 8;
    {
        std::lock_guard lock(mutex);
        for (auto it = recent.begin(); it != recent.end(); ++it)
            if (it->mask.lock() == mask && it->region == region && it->step == step) {
                Entry hit = std::move(*it);
                recent.erase(it);
                recent.push_back(std::move(hit));
                return recent.back().raster;
            }
    }
    AllowedRaster raster = sampleAllowed(mask.get(), region, step, control);
    if (control.cancelled())
        return raster;
    std::lock_guard lock(mutex);
    std::erase_if(recent, [](const Entry &e) { return e.mask.expired(); });
    if (recent.size() >= kKept)
        recent.erase(recent.begin());
    recent.push_back({mask, region, step, raster});
    return raster;
}

LayerStats computeLayerStats(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double width,
                             double height, const Mask *allowed, const StatsControl &control, StatsTorus torus)
{
    return statsWithin(layer, earlier, width, height, torus, [&] {
        return sampleAllowed(allowed, {0, 0, width, height}, statsStep(allowed, width, height), control);
    }, control);
}

LayerStats computeVolumeStats(const PointLayer &layer, const std::vector<PointLayerPtr> &earlier, double width,
                              double height, double depth)
{
    struct P3
    {
        double x, y, z, r;
        bool own;
    };
    std::vector<P3> pts;
    double rmin = HUGE_VAL, rmax = 0;
    auto take = [&](const PointLayer &l, bool own) {
        for (std::size_t i = 0; i < l.points.size(); ++i) {
            const P3 p{l.points[i].x, l.points[i].y, i < l.z.size() ? l.z[i] : 0.0, l.points[i].r, own};
            if (!(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)))
                continue;
            pts.push_back(p);
            if (std::isfinite(p.r) && p.r > 0) {
                rmin = std::min(rmin, p.r);
                rmax = std::max(rmax, p.r);
            }
        }
    };
    take(layer, true);
    for (const auto &l : earlier)
        if (l->info.volume)
            take(*l, false);
    LayerStats st;
    st.volume = true;
    st.count = layer.points.size();
    const double r = layer.tally.counted ? layer.tally.radius : rmin;
    const double volume = width * height * depth;
    st.density = volume > 0 && std::isfinite(r) ? static_cast<double>(st.count) * r * r * r / volume : 0;
    if (pts.size() < 2 || !(rmin < HUGE_VAL))
        return st;
    // One pass over the pairs in neighbouring cells of side C = max(2 rmin, the 99th percentile
    // radius): every pair closer than its smaller radius when that radius is at most C, and
    // (Bridson puts a neighbour within 2r of every point) the tightest. The pairs of two points
    // both wider than C (at most 1% of the points) are counted apart, each with each.
    std::vector<double> radii;
    for (const P3 &p : pts)
        if (std::isfinite(p.r) && p.r > 0)
            radii.push_back(p.r);
    const std::size_t nth = radii.size() * 99 / 100;
    std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(nth), radii.end());
    const double cell = std::max(2 * rmin, radii[nth]);
    auto wide = [&](const P3 &p) { return !(p.r <= cell); };
    std::vector<std::uint32_t> wides;
    for (std::size_t i = 0; i < pts.size(); ++i)
        if (wide(pts[i]))
            wides.push_back(static_cast<std::uint32_t>(i));
    for (std::size_t a = 0; a < wides.size(); ++a)
        for (std::size_t b = a + 1; b < wides.size(); ++b) {
            const P3 &p = pts[wides[a]], &q = pts[wides[b]];
            if (!p.own && !q.own)
                continue;
            const double ex = p.x - q.x, ey = p.y - q.y, ez = p.z - q.z;
            const double m = spacingBetween(p.r, q.r);
            st.tooClose += ex * ex + ey * ey + ez * ez < m * m;
        }
    auto key = [&](const P3 &p) {
        auto c = [&](double v) { return static_cast<std::uint64_t>(std::clamp(std::floor(v / cell), -1048576.0, 1048575.0) + 1048576.0); };
        return (c(p.x) << 42) | (c(p.y) << 21) | c(p.z);
    };
    std::vector<std::pair<std::uint64_t, std::uint32_t>> order(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i)
        order[i] = {key(pts[i]), static_cast<std::uint32_t>(i)};
    std::sort(order.begin(), order.end());
    auto rangeOf = [&](std::uint64_t k) {
        auto lo = std::lower_bound(order.begin(), order.end(), std::make_pair(k, std::uint32_t(0)));
        auto hi = lo;
        while (hi != order.end() && hi->first == k)
            ++hi;
        return std::make_pair(lo, hi);
    };
    double best2 = HUGE_VAL;
    for (std::size_t a = 0; a < order.size(); ++a) {
        const P3 &p = pts[order[a].second];
        const std::uint64_t k = order[a].first;
        const std::int64_t cx = static_cast<std::int64_t>(k >> 42), cy = static_cast<std::int64_t>((k >> 21) & 0x1fffff),
                           cz = static_cast<std::int64_t>(k & 0x1fffff);
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy)
                for (std::int64_t dz = -1; dz <= 1; ++dz) {
                    const std::int64_t nx = cx + dx, ny = cy + dy, nz = cz + dz;
                    if (nx < 0 || ny < 0 || nz < 0 || nx > 0x1fffff || ny > 0x1fffff || nz > 0x1fffff)
                        continue;
                    const std::uint64_t nk = (static_cast<std::uint64_t>(nx) << 42) | (static_cast<std::uint64_t>(ny) << 21)
                                             | static_cast<std::uint64_t>(nz);
                    if (nk < k)
                        continue;  // each pair of cells once
                    auto [lo, hi] = rangeOf(nk);
                    for (auto it = lo; it != hi; ++it) {
                        if (nk == k && it->second <= order[a].second)
                            continue;  // each pair within a cell once
                        const P3 &q = pts[it->second];
                        if (!p.own && !q.own)
                            continue;
                        const double ex = p.x - q.x, ey = p.y - q.y, ez = p.z - q.z;
                        const double d2 = ex * ex + ey * ey + ez * ez;
                        const double m = spacingBetween(p.r, q.r);
                        if (d2 < m * m && !(wide(p) && wide(q)))
                            ++st.tooClose;
                        if (p.own && q.own)
                            best2 = std::min(best2, d2);
                    }
                }
    }
    st.tightest = best2 < HUGE_VAL ? std::sqrt(best2) : cell;  // no pair within a cell: at least that far
    return st;
}

std::vector<PointLayerPtr> obstaclesOf(const EvalResult &result, const std::string &nodeId, const PointLayerPtr &layer)
{
    // the node's own layer on its chain is `layer`, or the layer `layer` refines (an attribute
    // added to each point): either way not an obstacle of itself
    PointLayerPtr own;
    const PortValue points = result.outputWithRole(nodeId, PortRole::LayerPoints);
    if (const auto *set = std::get_if<PointSetPtr>(&points); set && *set && !(*set)->layers.empty())
        own = (*set)->layers.back();
    std::vector<PointLayerPtr> obstacles;
    const PortValue chain = result.outputWithRole(nodeId, PortRole::LayerChain);
    if (const auto *set = std::get_if<PointSetPtr>(&chain); set && *set)
        for (const auto &l : (*set)->layers)
            if (l != layer && l != own)
                obstacles.push_back(l);
    return obstacles;
}

LayerStats computeLayerStats(const EvalResult &result, const std::string &nodeId, const PointLayerPtr &layer,
                             const World &world, const StatsControl &control)
{
    // a layer answers for its spacing against what it was placed among: its obstacles
    const std::vector<PointLayerPtr> obstacles = obstaclesOf(result, nodeId, layer);
    if (layer->info.volume)
        return computeVolumeStats(*layer, obstacles, world.width, world.height, world.depth);
    // and for its clearings within where it may grow
    const PortValue allowed = result.inputWithRole(nodeId, PortRole::AllowedArea);
    const auto *input = std::get_if<MaskPtr>(&allowed);
    const MaskPtr *mask = layer->grownIn ? &layer->grownIn : input;
    return statsWithin(*layer, obstacles, world.width, world.height, StatsTorus{world.wrapX, world.wrapY}, [&] {
        const Region whole{0, 0, world.width, world.height};
        return mask && *mask ? cachedAllowed(*mask, whole, statsStep(true, world.width, world.height), control)
                             : sampleAllowed(nullptr, whole, statsStep(false, world.width, world.height), control);
    }, control);
}

} // namespace grove
