// Chunked placement: the cone of a chunk, the cache, phase-ordered threads, region collection.
#include "core/sampling/ChunkedLayer.h"

#include "core/sampling/OccupancyGrid.h"
#include "core/base/HugePages.h"
#include "core/base/ParallelFor.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace grove {

namespace {

constexpr std::uint32_t kSaltChunkSeed = 0x43484e4b;  // "CHNK"
constexpr std::uint32_t kSaltSpecial = 4;            // as the whole-world layers' specials
// Tries each frontier point gets: enough that the chunk fills up to its placed neighbours.
// Measured on 2048 x 2048 at chunk = 32 r over three seeds (README, Chunked worlds): the ghost
// margin is three radii deep, a ghost point is taken over up to u^0.75 of that depth, and
// frontier points get 10 tries.
constexpr double kGhostRadii = 3;
constexpr int kFrontierTries = 10;
constexpr std::uint32_t kSaltAdopt = 0x41444f50;  // "ADOP"

// How deep into the chunk a neighbour's ghost point may lie and still be taken over: a depth
// from the point's own hash, u^0.75 of the ghost margin (square roots only: the same bits on
// every machine), so the switch from the neighbour's
// sample to the chunk's own is scattered over the margin rather than a line (a line shows: the
// chunk's own points pack against it, with a gap behind them).
double adoptionDepth(const PointXYR &p, std::int32_t seed, double margin)
{
    std::uint64_t x, y;
    std::memcpy(&x, &p.x, 8);
    std::memcpy(&y, &p.y, 8);
    const double u = pointHash01(seed, x ^ (y * 0x9E3779B97F4A7C15ull), kSaltAdopt);
    return margin * std::sqrt(u * std::sqrt(u));
}

std::uint64_t chunkKey(int i, int j)
{
    return (static_cast<std::uint64_t>(j + kChunkRange) << 16) | static_cast<std::uint64_t>(i + kChunkRange);
}

bool inRange(int i, int j)
{
    return i >= -kChunkRange && i < kChunkRange && j >= -kChunkRange && j < kChunkRange;
}

// The chunk's random stream: from the layer's seed and (i, j) alone, in Park-Miller's range.
std::int32_t chunkSeed(std::int32_t layerSeed, int i, int j)
{
    return static_cast<std::int32_t>(pointHash(layerSeed, chunkKey(i, j), kSaltChunkSeed) % 2147483646u) + 1;
}

double distanceToRect(const PointXYR &p, const Region &r)
{
    const double dx = p.x < r.x0 ? r.x0 - p.x : p.x >= r.x1 ? p.x - r.x1 : 0;
    const double dy = p.y < r.y0 ? r.y0 - p.y : p.y >= r.y1 ? p.y - r.y1 : 0;
    return std::sqrt(dx * dx + dy * dy);
}

Region grown(const Region &r, double by)
{
    return {r.x0 - by, r.y0 - by, r.x1 + by, r.y1 + by};
}

} // namespace

int chunkPhase(int i, int j)
{
    static constexpr int table[2][2] = {{0, 3}, {1, 2}};  // [i odd][j odd]
    return table[i & 1][j & 1];
}

std::uint64_t chunkPointId(int i, int j, std::uint32_t index)
{
    return (chunkKey(i, j) << 21) | index;
}

ChunkCoord chunkOfId(std::uint64_t id)
{
    const std::uint64_t key = id >> 21;
    return {static_cast<int>(key & 0xffff) - kChunkRange, static_cast<int>(key >> 16) - kChunkRange};
}

int chunkIndexOf(double v, double chunk)
{
    const double c = std::floor(v / chunk);
    return c < -kChunkRange - 1.0 ? -kChunkRange - 1 : c > kChunkRange ? kChunkRange : static_cast<int>(c);
}

int threadCount(int requested)
{
    return requested > 0 ? requested : hardwareThreads();
}

// An upstream layer whose points are held: found by chunk (a chunked layer's points are in
// chunk order) or by a y-sorted order (points from a file).
struct ChunkedLayer::Held
{
    PointLayerPtr layer;
    std::map<std::uint64_t, std::pair<std::size_t, std::size_t>> ranges;  // chunk key -> [begin, end)
    std::vector<std::uint32_t> byY;
    bool byChunk;  // a chunked layer placed whole: its points in chunk order, found by `ranges`

    explicit Held(PointLayerPtr l)
        : layer(std::move(l)), byChunk(layer->chunked && layer->ids.size() == layer->points.size())
    {
        const PointLayer &L = *layer;
        if (byChunk) {
            for (std::size_t b = 0; b < L.ids.size();) {
                const std::uint64_t key = L.ids[b] >> 21;
                std::size_t e = b;
                while (e < L.ids.size() && (L.ids[e] >> 21) == key)
                    ++e;
                ranges[key] = {b, e};
                b = e;
            }
        } else {
            byY.resize(L.points.size());
            for (std::size_t k = 0; k < byY.size(); ++k)
                byY[k] = static_cast<std::uint32_t>(k);
            std::stable_sort(byY.begin(), byY.end(), [&](std::uint32_t a, std::uint32_t b) { return L.points[a].y < L.points[b].y; });
        }
    }

    void near(const Region &area, double chunk, std::vector<PointXYR> &out) const
    {
        const PointLayer &L = *layer;
        auto take = [&](const PointXYR &p) {
            if (area.contains(p.x, p.y))
                out.push_back(p);
        };
        if (byChunk) {
            for (int j = chunkIndexOf(area.y0, chunk); j <= chunkIndexOf(area.y1, chunk); ++j)
                for (int i = chunkIndexOf(area.x0, chunk); i <= chunkIndexOf(area.x1, chunk); ++i) {
                    auto it = ranges.find(chunkKey(i, j));
                    if (it != ranges.end())
                        for (std::size_t k = it->second.first; k < it->second.second; ++k)
                            take(L.points[k]);
                }
            return;
        }
        auto first = std::lower_bound(byY.begin(), byY.end(), area.y0, [&](std::uint32_t a, double y) { return L.points[a].y < y; });
        for (auto it = first; it != byY.end() && L.points[*it].y < area.y1; ++it)
            take(L.points[*it]);
    }
};

ChunkedLayer::ChunkedLayer(ChunkedLayerSettings settings) : m_s(std::move(settings)), m_budget(m_s.cacheBudget)
{
    m_s.placement.allowed = m_s.allowed.get();
    m_s.placement.radiusField = m_s.radius.get();
    m_s.placement.radiusFieldMax = m_s.largestRadius;
    m_s.placement.maxPoints = 4ull * kChunkPointLimit;  // the chunk's own square holds fewer (checked before)
    // a radius field: cells of the typical radius (speed only, never a point), sampled over chunk (0, 0)
    m_cellSize = m_s.placement.radius / std::sqrt(2.0);
    if (m_s.radius) {
        std::vector<double> radii;
        for (int b = 0; b < 8; ++b)
            for (int a = 0; a < 8; ++a) {
                const double r = std::max(m_s.placement.radius, m_s.radius->at((a + 0.5) * m_s.chunk / 8, (b + 0.5) * m_s.chunk / 8));
                if (std::isfinite(r))
                    radii.push_back(r);
            }
        if (!radii.empty()) {
            std::nth_element(radii.begin(), radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2), radii.end());
            m_cellSize = std::clamp(radii[radii.size() / 2] / std::sqrt(2.0), m_cellSize, std::max(m_cellSize, m_s.chunk));
        }
    }
    for (const PointLayerPtr &layer : m_s.obstacles)
        if (!layer->lazy)
            m_held.push_back(std::make_unique<Held>(layer));
        else
            m_held.push_back(nullptr);
}

ChunkedLayer::~ChunkedLayer() = default;

void ChunkedLayer::obstaclesNear(const Region &area, const std::atomic<bool> *cancel, std::vector<PointXYR> &out,
                                 bool &cancelled) const
{
    for (std::size_t k = 0; k < m_s.obstacles.size(); ++k) {
        if (m_held[k]) {
            m_held[k]->near(area, m_s.chunk, out);
            continue;
        }
        const PointLayer &up = *m_s.obstacles[k];
        std::vector<ChunkCoord> chunks;
        if (!up.chunked || !up.chunked->chunksIn(area, chunks))
            continue;
        if (!up.refinements.empty()) {  // a filtered layer: only the points it kept
            const auto kept = layerInRegion(up, area, 1, cancel);
            if (!kept) {
                cancelled = true;
                return;
            }
            out.insert(out.end(), kept->points.begin(), kept->points.end());
            continue;
        }
        for (const ChunkCoord &c : chunks) {
            ChunkPointsPtr cp = up.chunked->chunk(c.i, c.j, cancel);
            if (!cp) {
                cancelled = true;
                return;
            }
            for (const PointXYR &p : cp->points)
                if (area.contains(p.x, p.y))
                    out.push_back(p);
        }
    }
}

ChunkPointsPtr ChunkedLayer::compute(int i, int j, const std::atomic<bool> *cancel) const
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        return nullptr;
    auto result = std::make_shared<ChunkPoints>();
    result->coord = {i, j};
    const double c = m_s.chunk;
    Region own{i * c, j * c, (i + 1) * c, (j + 1) * c};
    Region clip{-HUGE_VAL, -HUGE_VAL, HUGE_VAL, HUGE_VAL};
    if (m_s.finite)
        clip = {0, 0, m_s.worldWidth, m_s.worldHeight};
    auto clipped = [&](Region r) {
        return Region{std::max(r.x0, clip.x0), std::max(r.y0, clip.y0), std::min(r.x1, clip.x1), std::min(r.y1, clip.y1)};
    };
    own = clipped(own);
    if (own.empty())
        return result;
    ++m_placements;
    const int phase = chunkPhase(i, j);
    const double R = m_s.largestRadius;
    // the ghost margin: three radii into the neighbours that are placed after this chunk
    Region domain = own;
    const double G = kGhostRadii * R;
    if (chunkPhase(i - 1, j) > phase)
        domain.x0 -= G;
    if (chunkPhase(i + 1, j) > phase)
        domain.x1 += G;
    if (chunkPhase(i, j - 1) > phase)
        domain.y0 -= G;
    if (chunkPhase(i, j + 1) > phase)
        domain.y1 += G;
    domain = clipped(domain);
    const Region area = grown(domain, R);  // every point a candidate in the domain can conflict with

    std::vector<PointXYR> obstacles, frontier;
    bool cancelled = false;
    obstaclesNear(area, cancel, obstacles, cancelled);
    if (cancelled)
        return nullptr;
    std::vector<ChunkPointsPtr> lower;
    for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
            if ((di == 0 && dj == 0) || chunkPhase(i + di, j + dj) > phase || !inRange(i + di, j + dj))
                continue;
            ChunkPointsPtr n = chunk(i + di, j + dj, cancel);
            if (!n)
                return nullptr;
            lower.push_back(n);
            for (const PointXYR &p : n->points) {
                if (area.contains(p.x, p.y))
                    obstacles.push_back(p);
                if (distanceToRect(p, own) < 2 * R)
                    frontier.push_back(p);
            }
        }

    // the pins near this chunk are there before anything grows; those inside it lead its points
    std::vector<PointXYR> ownPins;
    for (const PointXYR &p : m_s.pins)
        if (area.contains(p.x, p.y)) {
            obstacles.push_back(p);
            if (own.contains(p.x, p.y))
                ownPins.push_back(p);
        }
    OccupancyGrid grid(area.x1 - area.x0, area.y1 - area.y0, m_cellSize, area.x0, area.y0);
    grid.addAll(obstacles);
    // the placed neighbours' ghost points inside this chunk, near their border, that still fit
    std::vector<PointXYR> adopted;
    for (const ChunkPointsPtr &n : lower) {
        const Region theirs{n->coord.i * c, n->coord.j * c, (n->coord.i + 1) * c, (n->coord.j + 1) * c};
        for (const PointXYR &p : n->ghosts)
            if (own.contains(p.x, p.y) && distanceToRect(p, theirs) < adoptionDepth(p, m_s.placement.seed, G) && grid.isFree(p.x, p.y, p.r)) {
                grid.add(p.x, p.y, p.r);
                adopted.push_back(p);
            }
    }
    PlacementSettings s = m_s.placement;
    s.x0 = domain.x0;
    s.y0 = domain.y0;
    s.width = domain.x1 - domain.x0;
    s.height = domain.y1 - domain.y0;
    s.seed = chunkSeed(m_s.placement.seed, i, j);
    std::size_t first = 0;
    PlacementControl control{cancel, {}, &result->tally};
    if (placeChunk(s, grid, adopted, frontier, kFrontierTries, first, control) != PlacementStatus::Done)
        return nullptr;
    // the ghost margin's points leave this chunk: the neighbours may take them. Both lists are
    // allocated once at their size (they stay cached; grown by doubling, a 16384² world's chunks
    // faulted in three times their points' memory), straight from the grid.
    std::size_t inside = 0;
    for (std::size_t k = first; k < grid.size(); ++k)
        inside += own.contains(grid.point(k).x, grid.point(k).y) ? 1 : 0;
    result->points.reserve(ownPins.size() + adopted.size() + inside);
    result->ghosts.reserve(grid.size() - first - inside);
    result->points.insert(result->points.end(), ownPins.begin(), ownPins.end());
    result->points.insert(result->points.end(), adopted.begin(), adopted.end());
    for (std::size_t k = first; k < grid.size(); ++k) {
        const PointXYR &p = grid.point(k);
        (own.contains(p.x, p.y) ? result->points : result->ghosts).push_back(p);
    }
    if (result->points.size() >= kChunkPointLimit)
        throw std::length_error("a chunk holds more points than its ids can number");
    // specials: this chunk's `count` points with the smallest hash
    const LayerInfo &info = m_s.info;
    if (!info.specialType.empty() && info.specialCount > 0 && !result->points.empty()) {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> order;
        for (std::uint32_t k = 0; k < result->points.size(); ++k) {
            const std::uint64_t id = chunkPointId(i, j, k);
            order.push_back({pointHash(info.attributeSeed, id, kSaltSpecial), id});
        }
        const std::size_t count = std::min<std::size_t>(order.size(), static_cast<std::size_t>(info.specialCount));
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end());
        for (std::size_t k = 0; k < count; ++k)
            result->specialIds.push_back(order[k].second);
        std::sort(result->specialIds.begin(), result->specialIds.end());
    }
    return result;
}

ChunkPointsPtr ChunkedLayer::chunk(int i, int j, const std::atomic<bool> *cancel) const
{
    const auto key = std::make_pair(i, j);
    std::unique_lock lock(m_mutex);
    for (auto it = m_cache.find(key); it != m_cache.end(); it = m_cache.find(key)) {
        it->second.lastUse = ++m_clock;
        std::shared_future<ChunkPointsPtr> f = it->second.future;
        lock.unlock();
        if (ChunkPointsPtr value = f.get())  // waits while another thread computes it
            return value;
        if (cancel && cancel->load(std::memory_order_relaxed))
            return nullptr;
        lock.lock();  // it was cancelled there, not here: look again, compute it if it is gone
    }
    // Only this thread removes a slot that is being computed (eviction takes finished ones).
    std::promise<ChunkPointsPtr> promise;
    m_cache[key] = Slot{promise.get_future().share(), ++m_clock, 0};
    lock.unlock();
    ChunkPointsPtr value;
    try {
        value = compute(i, j, cancel);
    } catch (...) {
        lock.lock();
        m_cache.erase(key);
        lock.unlock();
        promise.set_exception(std::current_exception());
        throw;
    }
    lock.lock();
    if (!value) {
        m_cache.erase(key);
    } else {
        Slot &slot = m_cache[key];
        slot.bytes = value->bytes();
        m_cachedBytes += slot.bytes;
        evictLocked();
    }
    lock.unlock();
    promise.set_value(value);
    return value;
}

void ChunkedLayer::evictLocked() const
{
    if (m_cachedBytes <= m_budget)
        return;
    std::vector<std::pair<std::uint64_t, std::pair<int, int>>> ready;
    for (const auto &[key, slot] : m_cache)
        if (slot.bytes)
            ready.push_back({slot.lastUse, key});
    std::sort(ready.begin(), ready.end());
    const std::size_t target = m_budget - m_budget / 4;  // a quarter of headroom: no eviction per insert
    for (const auto &[use, key] : ready) {
        if (m_cachedBytes <= target)
            break;
        auto it = m_cache.find(key);
        m_cachedBytes -= it->second.bytes;
        m_cache.erase(it);  // holders keep their copy: chunks are shared, immutable values
    }
}

void ChunkedLayer::forget(int i, int j) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_cache.find({i, j});
    if (it != m_cache.end() && it->second.bytes) {
        m_cachedBytes -= it->second.bytes;
        m_cache.erase(it);
    }
}

std::size_t ChunkedLayer::cachedBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_cachedBytes;
}

void ChunkedLayer::setCacheBudget(std::size_t bytes) const
{
    std::lock_guard lock(m_mutex);
    m_budget = bytes;
    evictLocked();
}

void ChunkedLayer::dropCache() const
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_cache.begin(); it != m_cache.end();) {
        if (it->second.bytes) {
            m_cachedBytes -= it->second.bytes;
            it = m_cache.erase(it);
        } else {
            ++it;
        }
    }
}

bool ChunkedLayer::chunkSpan(const Region &region, ChunkCoord &first, ChunkCoord &last) const
{
    Region r = region;
    if (m_s.finite)
        r = {std::max(r.x0, 0.0), std::max(r.y0, 0.0), std::min(r.x1, m_s.worldWidth), std::min(r.y1, m_s.worldHeight)};
    if (r.empty())
        return false;
    const double c = m_s.chunk;
    first = {chunkIndexOf(r.x0, c), chunkIndexOf(r.y0, c)};
    // x1 is excluded: a region ending on a chunk border does not reach the next chunk
    last = {chunkIndexOf(r.x1, c), chunkIndexOf(r.y1, c)};
    if (last.i * c >= r.x1)
        --last.i;
    if (last.j * c >= r.y1)
        --last.j;
    return true;
}

bool ChunkedLayer::chunksIn(const Region &region, std::vector<ChunkCoord> &out) const
{
    ChunkCoord first, last;
    if (!chunkSpan(region, first, last))
        return true;
    if (!inRange(first.i, first.j) || !inRange(last.i, last.j))
        return false;
    for (int j = first.j; j <= last.j; ++j)
        for (int i = first.i; i <= last.i; ++i)
            out.push_back({i, j});
    return true;
}

ChunkStatus ChunkedLayer::prepare(const std::vector<ChunkCoord> &chunks, int threads, const std::atomic<bool> *cancel,
                                  const std::function<void(std::size_t, std::size_t)> &progress) const
{
    std::atomic<std::size_t> done{0};
    bool stopped = false;
    for (int phase = 0; phase < 4 && !stopped; ++phase) {
        std::vector<ChunkCoord> these;
        for (const ChunkCoord &c : chunks)
            if (chunkPhase(c.i, c.j) == phase)
                these.push_back(c);
        // one chunk at a time; progress is told from the calling thread only (worker 0)
        stopped = !parallelFor(these.size(), threadCount(threads), 1, [&](std::size_t k, std::size_t, int worker) {
            const bool computed = chunk(these[k].i, these[k].j, cancel) != nullptr;
            ++done;
            if (worker == 0 && progress)
                progress(done.load(), chunks.size());
            return computed;
        });
    }
    if (stopped)
        return ChunkStatus::Cancelled;
    if (progress)
        progress(chunks.size(), chunks.size());
    return ChunkStatus::Done;
}

ChunkStatus ChunkedLayer::collect(const Region &region, int threads, const std::atomic<bool> *cancel,
                                  std::vector<PointXYR> &points, std::vector<std::uint64_t> &ids, std::vector<double> *z,
                                  std::vector<std::uint64_t> *specials, bool release) const
{
    std::vector<ChunkCoord> chunks;
    if (!chunksIn(region, chunks))
        throw std::out_of_range("the region reaches beyond chunk " + std::to_string(kChunkRange) + " from the origin");
    if (threads != 1 && prepare(chunks, threads, cancel) != ChunkStatus::Done)
        return ChunkStatus::Cancelled;
    // exact sizes first: growing by doubling would hold up to twice the points for a moment
    std::size_t total = points.size();
    for (const ChunkCoord &c : chunks) {
        ChunkPointsPtr cp = chunk(c.i, c.j, cancel);
        if (!cp)
            return ChunkStatus::Cancelled;
        total += cp->points.size();
    }
    points.reserve(total);
    ids.reserve(total);
    // written whole next (a region's edge chunks in part): a fault a huge page, not a fault a 4 KiB
    adviseHugePages(points.data() + points.size(), (points.capacity() - points.size()) * sizeof(PointXYR));
    adviseHugePages(ids.data() + ids.size(), (ids.capacity() - ids.size()) * sizeof(std::uint64_t));
    if (z && m_s.height)
        z->reserve(total);
    for (const ChunkCoord &c : chunks) {
        ChunkPointsPtr cp = chunk(c.i, c.j, cancel);
        if (!cp)
            return ChunkStatus::Cancelled;
        if (release)
            forget(c.i, c.j);
        for (std::uint32_t k = 0; k < cp->points.size(); ++k) {
            const PointXYR &p = cp->points[k];
            if (!region.contains(p.x, p.y))
                continue;
            const std::uint64_t id = chunkPointId(c.i, c.j, k);
            points.push_back(p);
            ids.push_back(id);
            if (z && m_s.height) {
                const double v = m_s.height->at(p.x, p.y) * m_s.heightScale;
                z->push_back(std::isfinite(v) ? v : 0.0);
            }
            if (specials && std::binary_search(cp->specialIds.begin(), cp->specialIds.end(), id))
                specials->push_back(id);
        }
    }
    return ChunkStatus::Done;
}

std::shared_ptr<PointLayer> layerInRegion(const PointLayer &layer, const Region &region, int threads,
                                          const std::atomic<bool> *cancel)
{
    if (layer.lazy && layer.chunked) {
        auto out = std::make_shared<PointLayer>();
        out->info = layer.info;
        out->tally = layer.tally;
        out->chunked = layer.chunked;
        if (layer.chunked->collect(region, threads, cancel, out->points, out->ids, &out->z, &out->specialIds)
            != ChunkStatus::Done)
            return nullptr;
        for (const auto &refinement : layer.refinements) {
            out = refinement->apply(*out, cancel);
            if (!out)
                return nullptr;
            out->chunked = layer.chunked;
        }
        return out;
    }
    std::vector<char> inside(layer.points.size());
    for (std::size_t k = 0; k < layer.points.size(); ++k)
        inside[k] = region.contains(layer.points[k].x, layer.points[k].y) ? 1 : 0;
    auto out = layer.subset(inside);
    out->chunked = layer.chunked;
    return out;
}

PointSetPtr withLazyLayersPlaced(const PointSetPtr &set, const Region &region, int threads, const std::atomic<bool> *cancel)
{
    if (!set || std::none_of(set->layers.begin(), set->layers.end(), [](const PointLayerPtr &l) { return l && l->lazy; }))
        return set;
    auto placed = std::make_shared<PointSet>();
    for (const PointLayerPtr &layer : set->layers) {
        if (!layer || !layer->lazy) {
            placed->layers.push_back(layer);
            continue;
        }
        auto part = layerInRegion(*layer, region, threads, cancel);
        if (!part)
            return nullptr;
        placed->layers.push_back(std::move(part));
    }
    return placed;
}

} // namespace grove
