// Big blocks kept for reuse after they are freed, instead of going back to the system.
#pragma once

#include <cstddef>

namespace grove {

// Work that allocates and frees blocks of the same few sizes over and over (a chunk's occupancy
// grid, placed one chunk after another on each thread) pays for fresh memory each time once the
// freed memory is handed back to the system (releaseFreedMemory): every page is faulted in and
// zeroed again. These functions keep a bounded number of freed blocks, from kSmallest up to
// kLargest bytes and kKeptBytes in all, and hand them out again. Thread-safe; blocks are
// aligned to kAlign bytes. What is kept stays resident, at most kKeptBytes.
namespace recycledBlocks {

inline constexpr std::size_t kAlign = 64;
inline constexpr std::size_t kSmallest = std::size_t(64) << 10;
inline constexpr std::size_t kLargest = std::size_t(16) << 20;
inline constexpr std::size_t kKeptBytes = std::size_t(48) << 20;

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
