// Large flat arrays of fixed size: no reallocation, no copy, cache-line aligned. Memory is only
// committed as it is written (resetUninitialized), so a big reservation that stays partly unused
// costs address space, not RAM. Blocks of 64 KiB to 4 MiB come from recycledBlocks and go back
// to it: the next grid of the same size reuses them without faulting them in again.
//
// Huge pages for memory that is only partly used were tried and dropped: zeroing 2 MiB pages
// that stay mostly empty cost more system time than the TLB misses they saved (8192^2, four
// layers: 0.38 s of system time against 0.13 s). An array filled whole (reset with a value) of
// 4 MiB or more does ask for them: every page is written at once, one fault per 2 MiB instead of
// 512 (a 1024^2 world: 18,457 page faults to 15,381).
#pragma once

#include "core/base/HugePages.h"
#include "core/base/RecycledBlocks.h"

#include <cstddef>
#include <new>

namespace grove {

template<typename T>
class LargeArray
{
public:
    LargeArray() = default;
    LargeArray(std::size_t n, const T &fill) { reset(n, fill); }
    ~LargeArray() { release(); }
    LargeArray(const LargeArray &) = delete;
    LargeArray &operator=(const LargeArray &) = delete;

    void reset(std::size_t n, const T &fill)
    {
        resetUninitialized(n);
        if (m_bytes >= (std::size_t(4) << 20))
            adviseHugePages(m_data, m_bytes);
        for (std::size_t i = 0; i < n; ++i)
            m_data[i] = fill;
    }

    // For trivial T written before it is read. `filledSoon`: the caller is about to write all of
    // it (a grid's next block of points, once a first block has filled): from 2 MiB up it starts
    // on a 2 MiB boundary and asks for huge pages.
    void resetUninitialized(std::size_t n, bool filledSoon = false)
    {
        release();
        if (n == 0)
            return;
        m_bytes = n * sizeof(T);
        m_huge = filledSoon && m_bytes >= kHugePageBytes;
        if (m_huge)
            m_data = HugePageAllocator<T>().allocate(n);
        else
            m_data = static_cast<T *>(recycledBlocks::take(m_bytes, m_capacity));
        m_size = n;
    }

    void release()
    {
        if (m_data && m_huge)
            HugePageAllocator<T>().deallocate(m_data, m_size);
        else if (m_data)
            recycledBlocks::give(m_data, m_capacity);
        m_data = nullptr;
        m_size = m_bytes = m_capacity = 0;
        m_huge = false;
    }

    T *data() { return m_data; }
    const T *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    T &operator[](std::size_t i) { return m_data[i]; }
    const T &operator[](std::size_t i) const { return m_data[i]; }

private:
    T *m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_bytes = 0;
    std::size_t m_capacity = 0;  // of a block from recycledBlocks
    bool m_huge = false;  // from HugePageAllocator
};

} // namespace grove
