// The streamed export of a chunked world (grove-cli eval): chunks two rows at a time, written as they
// complete in export order, so memory holds a band of chunks, not the world. Also shards: a run of
// the region's chunks written as a partial export that `grove-cli merge` joins.
#pragma once

#include "core/sampling/ChunkedLayer.h"
#include "core/formats/PointsExport.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace grove {

struct StreamProgress
{
    std::size_t chunksDone = 0, chunksTotal = 0;
    std::uint64_t points = 0;
};

// Shard `index` of `count` (index from 0): a contiguous run of the region's chunks in export order.
struct ShardSpec
{
    std::size_t index = 0, count = 1;
};

struct StreamExportJob
{
    ExportFormat format = ExportFormat::Json;  // Json or Csv (the others are placed whole)
    ExportInfo info;                           // info.bounds: the region when one was asked for
    std::vector<PointLayerPtr> layers;         // the exported layers as evaluated: lazy, or held
    Region region;                             // clipped to a finite world by the chunks
    std::optional<ShardSpec> shard;            // a partial export (JSON only)
    int threads = 0;
    std::size_t cacheBytes = std::size_t(256) << 20;  // the most each layer's chunk cache keeps
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(const StreamProgress &)> progress;
};

enum class StreamStatus { Done, Cancelled, Failed };

// Chunks [begin, end) of `total`: shard `index` of `count`.
std::pair<std::size_t, std::size_t> shardRun(std::size_t index, std::size_t count, std::size_t total);

// The chunks of a region in export order (rows top to bottom, each left to right) as a span:
// the k-th is worked out, never listed, so a huge region costs nothing before its chunks are placed.
struct ChunkRun
{
    ChunkCoord first;
    std::size_t width = 0, total = 0;  // chunks a row, chunks in all (0: none)
    ChunkCoord at(std::size_t k) const
    {
        return {first.i + static_cast<int>(k % width), first.j + static_cast<int>(k / width)};
    }
};

// The region's chunks, from the first chunked layer among `layers` or their obstacles; none when
// none is chunked. Throws std::out_of_range when the region reaches beyond the chunk range.
ChunkRun regionChunks(const std::vector<PointLayerPtr> &layers, const Region &region);

// Writes the job's export to `path` (empty: standard output), atomically for a file. Failed
// carries the reason in *error; Cancelled and Failed leave nothing behind.
StreamStatus streamExport(const StreamExportJob &job, const std::string &path, std::string *error);

} // namespace grove
