// A chunked world's layer (world.chunk): Bridson chunk by chunk after Wei 2008, each chunk
// computed on demand from its dependency cone alone, cached within a memory budget, and the
// same bytes in any order, on any thread count.
//
// Chunk (i, j) covers [i c, (i + 1) c) x [j c, (j + 1) c). Its phase orders the chunks:
// (0,0) -> 0, (1,0) -> 1, (1,1) -> 2, (0,1) -> 3 by the parities of i and j. A chunk sees the
// points of its lower-phase neighbours (already final) and every upstream layer's points near it
// as obstacles; same-phase chunks are a whole chunk apart, so they never interact. Its random
// stream is seeded from (layer seed, i, j) alone. Three things keep the borders seamless: a ghost
// margin (the chunk also samples two radii into its higher-phase neighbours, so its own points
// near the border are placed as if the world went on); ghost adoption (a later chunk takes over
// each of those ghost points that lies within a depth drawn from the point's hash and still
// fits, so the switch from one chunk's sample to the next is scattered over the margin, not a
// line); and frontier seeding (the placed neighbours' points within two radii of the chunk join
// its active list).
#pragma once

#include "core/base/DataTypes.h"
#include "core/sampling/PoissonPlacement.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace grove {

struct ChunkCoord
{
    int i = 0, j = 0;
    bool operator==(const ChunkCoord &) const = default;
};

// Chunk indices run over [-kChunkRange, kChunkRange) on each axis, and a chunk holds fewer than
// kChunkPointLimit points of a layer: ids pack (j, i, index) into 53 bits.
inline constexpr int kChunkRange = 32768;
inline constexpr std::uint32_t kChunkPointLimit = 1u << 21;

int chunkPhase(int i, int j);
std::uint64_t chunkPointId(int i, int j, std::uint32_t index);
ChunkCoord chunkOfId(std::uint64_t id);
// The chunk a coordinate falls in (floor(v / chunk)).
int chunkIndexOf(double v, double chunk);

// What a chunk holds: its own points in placement order (inside its square only).
struct ChunkPoints
{
    ChunkCoord coord;
    std::vector<PointXYR> points;
    // Points placed in the ghost margin (in the higher-phase neighbours), which those neighbours
    // may take as their own.
    std::vector<PointXYR> ghosts;
    std::vector<std::uint64_t> specialIds;  // sorted; this chunk's share of the layer's specials
    PlacementTally tally;
    std::size_t bytes() const { return sizeof(ChunkPoints) + (points.capacity() + ghosts.capacity()) * sizeof(PointXYR) + specialIds.capacity() * 8; }
};
using ChunkPointsPtr = std::shared_ptr<const ChunkPoints>;

struct ChunkedLayerSettings
{
    double chunk = 256;
    bool finite = true;                  // false: an endless world
    double worldWidth = 0, worldHeight = 0;
    PlacementSettings placement;         // radius, k, seed (the layer's), start, method, start point
    MaskPtr allowed;                     // owned here: chunks outlive the evaluation
    FieldPtr radius;
    double largestRadius = 0;            // max(radius, the radius field's bound): finite
    std::vector<PointLayerPtr> obstacles;  // upstream layers, in chain order
    // This layer's pins, in list order: every chunk that reaches one keeps clear of it, and the
    // chunk it lies in lists it first.
    std::vector<PointXYR> pins;
    LayerInfo info;                      // for the specials and the exports
    FieldPtr height;                     // z = height x heightScale, when set
    double heightScale = 1;
    std::size_t cacheBudget = std::size_t(256) << 20;  // bytes of chunks kept
};

enum class ChunkStatus { Done, Cancelled };

class ChunkedLayer
{
public:
    explicit ChunkedLayer(ChunkedLayerSettings settings);
    ~ChunkedLayer();
    ChunkedLayer(const ChunkedLayer &) = delete;
    ChunkedLayer &operator=(const ChunkedLayer &) = delete;

    const ChunkedLayerSettings &settings() const { return m_s; }
    double chunkSize() const { return m_s.chunk; }

    // Chunk (i, j), computing it and what it depends on when not cached. Thread-safe: many
    // threads may ask at once; a chunk being computed is waited for, never computed twice at
    // once. Null when cancelled.
    ChunkPointsPtr chunk(int i, int j, const std::atomic<bool> *cancel = nullptr) const;

    // The chunks a region overlaps (clipped to a finite world), in export order: rows of chunks
    // top to bottom, each left to right. False when the region reaches beyond the chunk range.
    bool chunksIn(const Region &region, std::vector<ChunkCoord> &out) const;
    // The same chunks as the span [first.i, last.i] x [first.j, last.j]; false when the region
    // overlaps none. The span may reach beyond the chunk range (chunksIn refuses that).
    bool chunkSpan(const Region &region, ChunkCoord &first, ChunkCoord &last) const;

    // Computes every chunk in `chunks` on `threads` threads (0: every core), phase by phase.
    // `progress` gets (chunks done, chunks total) now and then.
    ChunkStatus prepare(const std::vector<ChunkCoord> &chunks, int threads, const std::atomic<bool> *cancel,
                        const std::function<void(std::size_t, std::size_t)> &progress = {}) const;

    // Appends the points with x0 <= x < x1 and y0 <= y < y1 in export order, their ids, and
    // (with a height field) their z; the specials among them to `specials`. `release`: each
    // chunk leaves the cache once copied (placing a whole world: the copy is what stays).
    ChunkStatus collect(const Region &region, int threads, const std::atomic<bool> *cancel, std::vector<PointXYR> &points,
                        std::vector<std::uint64_t> &ids, std::vector<double> *z, std::vector<std::uint64_t> *specials,
                        bool release = false) const;

    // Chunk placements made so far (each chunk computation counts one), for cone tests and benches.
    std::uint64_t placements() const { return m_placements.load(); }
    std::size_t cachedBytes() const;
    void setCacheBudget(std::size_t bytes) const;
    void dropCache() const;

private:
    struct Slot
    {
        std::shared_future<ChunkPointsPtr> future;
        std::uint64_t lastUse = 0;
        std::size_t bytes = 0;  // 0 while computing
    };
    ChunkPointsPtr compute(int i, int j, const std::atomic<bool> *cancel) const;
    void obstaclesNear(const Region &area, const std::atomic<bool> *cancel, std::vector<PointXYR> &out, bool &cancelled) const;
    void evictLocked() const;
    void forget(int i, int j) const;

    ChunkedLayerSettings m_s;
    double m_cellSize;
    // upstream layers held as points: their chunk ranges (chunked ones) or a y-sorted order (others)
    struct Held;
    std::vector<std::unique_ptr<Held>> m_held;
    mutable std::mutex m_mutex;
    mutable std::map<std::pair<int, int>, Slot> m_cache;
    mutable std::size_t m_cachedBytes = 0;
    mutable std::size_t m_budget;
    mutable std::uint64_t m_clock = 0;
    mutable std::atomic<std::uint64_t> m_placements{0};
};

// The layer's points inside `region`, in export order, as a layer of their own (ids, z,
// specials): a chunked layer computes only the chunks the region needs (and their cones); other
// layers are filtered. Null when cancelled.
std::shared_ptr<PointLayer> layerInRegion(const PointLayer &layer, const Region &region, int threads,
                                          const std::atomic<bool> *cancel = nullptr);

// `set` with each lazy layer replaced by its points inside `region` (the others as they are):
// the same set when none is lazy, null when cancelled.
PointSetPtr withLazyLayersPlaced(const PointSetPtr &set, const Region &region, int threads,
                                 const std::atomic<bool> *cancel = nullptr);

// Threads to use for `requested` (0: every core).
int threadCount(int requested);

} // namespace grove
