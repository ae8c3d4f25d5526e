// Big blocks kept for reuse after they are freed, instead of going back to the system.
#pragma once

#include <cstddef>

namespace grove {

// Work that allocates and frees blocks of the same few sizes over and over (a chunk's occupancy
// grid, placed one chunk after another on each thread) gets them back from glibc poorly: a block
// freed in one thread's arena serves only that thread, so each arena comes to hold its own grids'
// memory, and what the system is handed back (releaseFreedMemory, or glibc trimming a heap's top)
// is faulted in and zeroed again by the next grid. These functions keep a bounded number of freed
// blocks, from kSmallest up to kLargest bytes and kKeptBytes in all, for any thread to take.
// Thread-safe; blocks are aligned to kAlign bytes. What is kept stays resident. A 16384² world
// streamed on 2 threads, untrimmed: peak RSS 262-290 MB and 73-79k page faults without them,
// 209-211 MB and 54-55k with them. Up to 4 MiB: a chunk's grid, not a whole world's (kept, a
// 1024² world's cells stayed resident after placement: peak RSS 42 to 56 MB).
namespace recycledBlocks {

inline constexpr std::size_t kAlign = 64;
inline constexpr std::size_t kSmallest = std::size_t(64) << 10;
inline constexpr std::size_t kLargest = std::size_t(4) << 20;
inline constexpr std::size_t kKeptBytes = std::size_t(32) << 20;

// A block of at least `bytes` (`capacity` says how many): a kept one of at most twice the size
// when there is one, or a new one.
void *take(std::size_t bytes, std::size_t &capacity);
// Frees a block from take(), or keeps it (dropping the longest-kept ones beyond kKeptBytes).
void give(void *block, std::size_t capacity);
// Frees every kept block (the work is over: an idle editor, the end of an export).
void clear();
// The bytes kept right now.
std::size_t keptBytes();

} // namespace recycledBlocks
} // namespace grove
