// recycledBlocks: a first-in first-out list of freed blocks under one lock.
#include "core/base/RecycledBlocks.h"

#include <deque>
#include <mutex>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GROVE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GROVE_ASAN 1
#endif
#ifdef GROVE_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace grove::recycledBlocks {
namespace {

struct Kept
{
    void *block;
    std::size_t capacity;
};

struct Store
{
    std::mutex mutex;
    std::deque<Kept> blocks;  // oldest first
    std::size_t bytes = 0;
};

Store &store()
{
    // Never destroyed: a LargeArray destroyed at exit may still give its block back, and what is
    // kept then stays reachable (no leak to report).
    static Store *s = new Store;
    return *s;
}

// Under AddressSanitizer a kept block reads as freed memory: a use after give() is still caught.
void poison(void *block, std::size_t bytes, bool on)
{
#ifdef GROVE_ASAN
    if (on)
        ASAN_POISON_MEMORY_REGION(block, bytes);
    else
        ASAN_UNPOISON_MEMORY_REGION(block, bytes);
#else
    (void)block, (void)bytes, (void)on;
#endif
}

void release(void *block, std::size_t capacity)
{
    poison(block, capacity, false);
    ::operator delete(block, std::align_val_t(kAlign));
}

} // namespace

void *take(std::size_t bytes, std::size_t &capacity)
{
    if (bytes >= kSmallest && bytes <= kLargest) {
        Store &s = store();
        std::lock_guard lock(s.mutex);
        auto best = s.blocks.end();
        for (auto it = s.blocks.begin(); it != s.blocks.end(); ++it)
            if (it->capacity >= bytes && it->capacity / 2 <= bytes && (best == s.blocks.end() || it->capacity < best->capacity))
                best = it;
        if (best != s.blocks.end()) {
            void *block = best->block;
            capacity = best->capacity;
            s.bytes -= capacity;
            s.blocks.erase(best);
            poison(block, capacity, false);
            return block;
        }
    }
    capacity = bytes;
    return ::operator new(bytes, std::align_val_t(kAlign));
}

void give(void *block, std::size_t capacity)
{
    if (!block)
        return;
    if (capacity < kSmallest || capacity > kLargest) {
        release(block, capacity);
        return;
    }
    poison(block, capacity, true);
    Store &s = store();
    std::deque<Kept> dropped;
    {
        std::lock_guard lock(s.mutex);
        s.blocks.push_back({block, capacity});
        s.bytes += capacity;
        while (s.bytes > kKeptBytes) {
            dropped.push_back(s.blocks.front());
            s.bytes -= s.blocks.front().capacity;
            s.blocks.pop_front();
        }
    }
    for (const Kept &k : dropped)
        release(k.block, k.capacity);
}

void clear()
{
    Store &s = store();
    std::deque<Kept> dropped;
    {
        std::lock_guard lock(s.mutex);
        dropped.swap(s.blocks);
        s.bytes = 0;
    }
    for (const Kept &k : dropped)
        release(k.block, k.capacity);
}

std::size_t keptBytes()
{
    Store &s = store();
    std::lock_guard lock(s.mutex);
    return s.bytes;
}

} // namespace grove::recycledBlocks
