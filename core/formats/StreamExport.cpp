// Streamed export: bands of chunk rows prepared on threads (upstream layers first), each layer's points
// text spooled beside the output, then head, spools and tail assembled into the atomic output.
#include "core/formats/StreamExport.h"

#include "core/base/ParallelFor.h"
#include "core/base/RecycledBlocks.h"
#include "core/base/SafeFile.h"
#include "core/base/Value.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <tuple>
#include <unistd.h>

namespace grove {

namespace {

constexpr std::size_t kFlushBytes = std::size_t(4) << 20;
constexpr std::size_t kMinCacheBytes = std::size_t(8) << 20;

// Every lazy chunked layer the exported ones read from, upstream first, each once.
void gatherChunked(const PointLayerPtr &layer, std::vector<const ChunkedLayer *> &out)
{
    if (!layer->chunked)
        return;
    for (const PointLayerPtr &up : layer->chunked->settings().obstacles)
        gatherChunked(up, out);
    if (layer->lazy && std::find(out.begin(), out.end(), layer->chunked.get()) == out.end())
        out.push_back(layer->chunked.get());
}

const ChunkedLayer *firstChunked(const std::vector<PointLayerPtr> &layers)
{
    std::vector<const ChunkedLayer *> all;
    for (const PointLayerPtr &l : layers) {
        if (l->chunked)
            return l->chunked.get();
        gatherChunked(l, all);
    }
    return all.empty() ? nullptr : all.front();
}

bool streamed(const PointLayer &layer)
{
    return layer.lazy && layer.chunked;
}

// Copies a spool of CSV rows, dropping the empty z column (the comma before it, outside quotes)
// from each row: for the rare export whose only layers with heights came out empty.
std::optional<std::string> copyWithoutZ(SafeFile &file, const Spool &spool)
{
    std::vector<char> in(std::size_t(1) << 20);
    std::string out;
    bool quoted = false;
    int commas = 0;  // unquoted commas so far on the line: the 8th opens the z column
    for (std::uint64_t offset = 0; offset < spool.size();) {
        const ssize_t n = ::pread(spool.fd(), in.data(), in.size(), static_cast<off_t>(offset));
        if (n <= 0)
            return std::string("cannot read a temporary file back");
        offset += static_cast<std::uint64_t>(n);
        out.clear();
        for (ssize_t k = 0; k < n; ++k) {
            const char c = in[static_cast<std::size_t>(k)];
            if (c == '"')
                quoted = !quoted;
            if (c == ',' && !quoted && ++commas == 8)
                continue;  // z is empty on every row: its comma goes, attribute columns stay
            if (c == '\n' && !quoted)
                commas = 0;
            out += c;
        }
        if (auto err = file.write(out))
            return err;
    }
    return std::nullopt;
}

std::string shardLine(const StreamExportJob &job, std::size_t begin, std::size_t end, const ChunkRun &chunks, double chunkSide)
{
    auto coord = [](const ChunkCoord &c) { return "[" + std::to_string(c.i) + ", " + std::to_string(c.j) + "]"; };
    std::string s = "\"shard\": {\"index\": " + std::to_string(job.shard->index) + ", \"count\": "
                    + std::to_string(job.shard->count) + ", \"chunks\": {\"begin\": " + std::to_string(begin) + ", \"end\": "
                    + std::to_string(end) + ", \"total\": " + std::to_string(chunks.total);
    if (begin < end)
        s += ", \"first\": " + coord(chunks.at(begin)) + ", \"last\": " + coord(chunks.at(end - 1));
    s += "}, \"chunk\": " + formatNumber(chunkSide) + ", \"region\": [" + formatNumber(job.region.x0) + ", "
         + formatNumber(job.region.y0) + ", " + formatNumber(job.region.x1) + ", " + formatNumber(job.region.y1) + "]}";
    return s;
}

} // namespace

std::pair<std::size_t, std::size_t> shardRun(std::size_t index, std::size_t count, std::size_t total)
{
    // k <= count <= 100000 and total < 2^32 (the chunk range): the product fits 64 bits
    const auto at = [&](std::size_t k) {
        return static_cast<std::size_t>(std::uint64_t(k) * total / std::max<std::size_t>(count, 1));
    };
    return {at(index), at(index + 1)};
}

ChunkRun regionChunks(const std::vector<PointLayerPtr> &layers, const Region &region)
{
    ChunkRun run;
    const ChunkedLayer *c = firstChunked(layers);
    ChunkCoord first, last;
    if (!c || !c->chunkSpan(region, first, last))
        return run;
    if (first.i < -kChunkRange || first.j < -kChunkRange || last.i >= kChunkRange || last.j >= kChunkRange)
        throw std::out_of_range("the region reaches beyond chunk " + std::to_string(kChunkRange) + " from the origin");
    run.first = first;
    run.width = static_cast<std::size_t>(last.i - first.i + 1);
    run.total = run.width * static_cast<std::size_t>(last.j - first.j + 1);
    return run;
}

StreamStatus streamExport(const StreamExportJob &job, const std::string &path, std::string *error)
{
    auto failed = [&](std::string why) {
        if (error)
            *error = std::move(why);
        return StreamStatus::Failed;
    };
    const auto stopped = [&] { return job.cancel && job.cancel->load(std::memory_order_relaxed); };
    const bool json = job.format != ExportFormat::Csv;
    try {
        const ChunkRun chunks = regionChunks(job.layers, job.region);
        std::size_t begin = 0, end = chunks.total;
        if (job.shard)
            std::tie(begin, end) = shardRun(job.shard->index, job.shard->count, chunks.total);
        const bool writesHeld = !job.shard || job.shard->index == 0;
        const ChunkedLayer *grid = firstChunked(job.layers);
        const double side = grid ? grid->chunkSize() : 0;

        std::vector<const ChunkedLayer *> prep;
        for (const PointLayerPtr &l : job.layers)
            gatherChunked(l, prep);
        bool anyZ = false;  // CSV: a z column when some layer has heights
        for (const PointLayerPtr &l : job.layers)
            anyZ = anyZ || (streamed(*l) ? bool(l->chunked->settings().height) : !l->z.empty());
        // the attribute columns: held layers carry them (a refined layer is placed whole)
        const std::vector<std::string> attributes = attributeNames(job.layers);

        const std::size_t n = job.layers.size();
        std::vector<Spool> spools(n);
        std::vector<std::string> pending(n);
        std::vector<std::size_t> counts(n, 0);
        for (Spool &s : spools)
            if (auto err = s.open(SafeFile::spoolFolder(path)))
                return failed(*err);
        StreamProgress progress{0, end - begin, 0};
        auto add = [&](std::size_t li, const PointLayer &part) -> std::optional<std::string> {
            if (json)
                appendJsonPoints(pending[li], part, counts[li] == 0);
            else
                appendCsvRows(pending[li], part, anyZ, attributes);
            counts[li] += part.points.size();
            if (pending[li].size() < kFlushBytes)
                return std::nullopt;
            auto err = spools[li].append(pending[li]);
            pending[li].clear();
            return err;
        };

        // layers that are held whole (not chunked): the first shard writes them
        for (std::size_t li = 0; li < n; ++li) {
            if (streamed(*job.layers[li]) || !writesHeld)
                continue;
            auto part = layerInRegion(*job.layers[li], job.region, job.threads, job.cancel);
            if (!part)
                return StreamStatus::Cancelled;
            if (auto err = add(li, *part))
                return failed(*err);
        }

        // A band's text is written while the next band is placed (on a thread of its own when the
        // job has more than one): the writer has the spools, the pending text and the counts to
        // itself until it is joined. Its band stays in the chunk cache (room is kept for it), and
        // a chunk it finds gone is placed again, the same points.
        enum class Wrote { Done, Cancelled, Failed };
        std::string writeError;
        auto writeRows = [&](const std::vector<ChunkCoord> &rows) {
            for (std::size_t li = 0; li < n; ++li) {
                if (!streamed(*job.layers[li]))
                    continue;
                for (const ChunkCoord &c : rows) {
                    const Region cell{std::max(c.i * side, job.region.x0), std::max(c.j * side, job.region.y0),
                                      std::min((c.i + 1) * side, job.region.x1), std::min((c.j + 1) * side, job.region.y1)};
                    auto part = layerInRegion(*job.layers[li], cell, 1, job.cancel);
                    if (!part)
                        return Wrote::Cancelled;
                    if (auto err = add(li, *part)) {
                        writeError = *err;
                        return Wrote::Failed;
                    }
                }
            }
            return Wrote::Done;
        };
        std::future<Wrote> writing;  // declared after what it writes: joined before they go
        std::size_t rowsDone = 0;    // chunks of the rows written
        auto joinWriter = [&]() -> std::optional<StreamStatus> {
            if (!writing.valid())
                return std::nullopt;
            const Wrote w = writing.get();
            if (w == Wrote::Cancelled)
                return StreamStatus::Cancelled;
            if (w == Wrote::Failed)
                return failed(writeError);
            progress.points = 0;
            for (std::size_t c : counts)
                progress.points += c;
            progress.chunksDone = rowsDone;
            if (job.progress && !stopped())
                job.progress(progress);
            return std::nullopt;
        };

        // How many rows ahead each layer is placed: a chunk reaches into the row below of the
        // layers it reads, and an odd row leans on the even row below it, so each layer read by
        // another runs two rows ahead of it (upstream first in `prep`: a chain's first layer the
        // furthest). Placed ahead, phase by phase on every thread, their chunks are there when the
        // layers below ask, rather than placed one cone at a time inside another layer's chunk.
        const auto rowsAhead = [&](std::size_t p) { return 2 * static_cast<int>(prep.size() - 1 - p); };
        std::vector<std::size_t> largestBand(prep.size(), 0);
        for (std::size_t k = begin; k < end;) {
            const std::size_t rowEnd = std::min(end, (k / chunks.width + 1) * chunks.width);
            // An odd row's chunks (phases 2 and 3) lean on the row below: the two rows are placed,
            // and written, together, so the writer has a band while the next band is placed.
            const bool odd = chunks.at(k).j & 1;
            const std::size_t bandEnd = odd ? std::min(end, rowEnd + chunks.width) : rowEnd;
            std::vector<ChunkCoord> rows;  // written, in export order
            for (std::size_t c = k; c < bandEnd; ++c)
                rows.push_back(chunks.at(c));
            std::vector<ChunkCoord> band = rows;
            if (odd)
                for (std::size_t c = k; c < rowEnd; ++c)
                    if (c + chunks.width >= bandEnd)  // below this row, but past the region's run
                        band.push_back({chunks.at(c).i, chunks.at(c).j + 1});
            int iMin = band.front().i, iMax = band.front().i, jMax = band.front().j;
            for (const ChunkCoord &c : band) {
                iMin = std::min(iMin, c.i);
                iMax = std::max(iMax, c.i);
                jMax = std::max(jMax, c.j);
            }
            for (std::size_t p = 0; p < prep.size(); ++p) {
                std::vector<ChunkCoord> these = band;
                const int ahead = prep[p]->chunkSize() == side ? rowsAhead(p) : 0;
                if (ahead > 0) {
                    const int grow = ahead / 2;  // a row further down reaches a column further out
                    const Region below{(iMin - grow) * side, (jMax + 1) * side, (iMax + 1 + grow) * side, (jMax + 1 + ahead) * side};
                    if (!prep[p]->chunksIn(below, these))
                        these = band;  // past the chunk range: the cones place them when asked
                }
                if (prep[p]->prepare(these, job.threads, job.cancel) != ChunkStatus::Done)
                    return StreamStatus::Cancelled;
            }
            // Keep five of the largest bands so far per layer, and one more for each two rows it
            // runs ahead: the band being written (which holds the row above this band), this band,
            // the rows ahead and room. Older rows are the least recently used and go first. With
            // four, the writer's row was often gone and placed again (a 16384² world: 1.4 s more
            // CPU); eight held a third more memory for no faster run.
            for (std::size_t p = 0; p < prep.size(); ++p) {
                std::size_t bytes = 0;
                for (const ChunkCoord &c : band)
                    if (ChunkPointsPtr cp = prep[p]->chunk(c.i, c.j, job.cancel))
                        bytes += cp->bytes();
                largestBand[p] = std::max(largestBand[p], bytes);
                const std::size_t bands = 5 + static_cast<std::size_t>(rowsAhead(p) / 2);
                prep[p]->setCacheBudget(std::clamp(bands * largestBand[p], std::min(kMinCacheBytes, job.cacheBytes), job.cacheBytes));
            }
            // No trim between bands (releaseFreedMemory): the chunks' grids come from
            // recycledBlocks, and what the threads free is what the next band's chunks take. A
            // 16384² world on 2 threads peaked at 206-211 MB untrimmed, 201-203 trimmed after each
            // band, but faulted 54-55k pages in against 69-70k and ran 0.4-2.4 s faster in three
            // alternated pairs (8 threads: 243 against 230 MB). Without the kept blocks, the
            // threads' arenas hold the grids' memory apart: untrimmed, 262-290 MB.
            if (auto status = joinWriter())
                return *status;
            if (stopped())
                return StreamStatus::Cancelled;
            rowsDone += rows.size();
            writing = std::async(job.threads == 1 ? std::launch::deferred : std::launch::async, writeRows, std::move(rows));
            if (job.threads == 1)
                writing.wait();  // one thread: the band is written here, before the next is placed
            k = bandEnd;
        }
        if (auto status = joinWriter())
            return *status;
        recycledBlocks::clear();  // every band is placed: no grid will want the kept blocks
        for (std::size_t li = 0; li < n; ++li)
            if (auto err = spools[li].append(pending[li]))
                return failed(*err);
        pending.clear();
        if (stopped())
            return StreamStatus::Cancelled;

        // assembly: the head (with counts), each layer's spool, the tail. The output's temporary
        // file exists only from here on, so a second Ctrl+C (which kills) rarely leaves one.
        SafeFile file;
        if (auto err = file.open(path))
            return failed(*err);
        if (json) {
            ExportInfo info = job.info;
            if (auto err = file.write(jsonExportHead(info, job.shard ? shardLine(job, begin, end, chunks, side) : std::string())))
                return failed(*err);
            for (std::size_t li = 0; li < n; ++li) {
                if (auto err = file.write(jsonLayerHead(*job.layers[li], counts[li], li == 0)))
                    return failed(*err);
                if (auto err = file.copyFrom(spools[li].fd(), 0, spools[li].size(), "a temporary file", job.cancel))
                    return stopped() ? StreamStatus::Cancelled : failed(*err);
                if (auto err = file.write(jsonLayerTail(counts[li])))
                    return failed(*err);
            }
            if (auto err = file.write(jsonExportTail(n)))
                return failed(*err);
        } else {
            // the z column is there only when a layer with heights has points
            bool zWritten = false;
            for (std::size_t li = 0; li < n; ++li)
                zWritten = zWritten || (counts[li] > 0 && (streamed(*job.layers[li]) ? bool(job.layers[li]->chunked->settings().height)
                                                                                      : !job.layers[li]->z.empty()));
            if (auto err = file.write(csvExportHead(zWritten, attributes)))
                return failed(*err);
            for (std::size_t li = 0; li < n; ++li) {
                auto err = anyZ && !zWritten ? copyWithoutZ(file, spools[li])
                                             : file.copyFrom(spools[li].fd(), 0, spools[li].size(), "a temporary file", job.cancel);
                if (err)
                    return stopped() ? StreamStatus::Cancelled : failed(*err);
            }
        }
        if (stopped())
            return StreamStatus::Cancelled;
        if (auto err = file.commit())
            return failed(*err);
    } catch (const std::bad_alloc &) {
        return failed("out of memory");
    } catch (const std::exception &e) {
        return failed(std::string("chunked placement failed: ") + e.what());
    }
    return StreamStatus::Done;
}

} // namespace grove
