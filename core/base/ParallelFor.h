// Work shared among threads, the one way Grove does it: rasters' rows, the preview's rows and
// chunked placement's chunks all go through parallelFor.
#pragma once

#include <cstddef>
#include <functional>

namespace grove {

// Runs body(begin, end, worker) over [0, count) in blocks of `grain` items, handed out in order
// by an atomic counter to `threads` workers: the calling thread (worker 0) and threads - 1 more
// (never more workers than blocks). Each item is done by exactly one call whichever worker takes
// it, so results that depend only on the item never depend on the thread count. A body that
// returns false stops the hand-out (blocks already taken finish); parallelFor then returns false.
// An exception from a body stops it too, and is rethrown here once every worker has stopped.
bool parallelFor(std::size_t count, int threads, std::size_t grain,
                 const std::function<bool(std::size_t begin, std::size_t end, int worker)> &body);

// The hardware threads of this machine, at least 1: what a thread count of 0 means.
int hardwareThreads();

// Hands the memory threads have freed back to the system. glibc keeps what each thread's arena
// held, between the blocks still in use: work that frees big blocks on several threads (chunks,
// rasters) would otherwise sit on the memory of its largest moment. The blocks recycledBlocks
// keeps go first. Elsewhere than glibc it only empties recycledBlocks.
void releaseFreedMemory();

} // namespace grove
