// Large flat arrays on 2 MiB-aligned memory with transparent huge pages requested, so random
// access across a big occupancy grid misses the TLB less. Fixed size, no reallocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace grove {

// Asks for transparent huge pages over the whole 2 MiB extents inside [p, p + bytes): one page
// fault and one TLB entry per 2 MiB instead of 512. A hint, ignored where unsupported.
inline void adviseHugePages(void *p, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t huge = std::uintptr_t(2) << 20;
    const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(p) + huge - 1) & ~(huge - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(huge - 1);
    if (end > begin)
        ::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

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
        resetUninitialized(n, true);
        for (std::size_t i = 0; i < n; ++i)
            m_data[i] = fill;
    }

    // For trivial T written before read: pages are only touched as they are written. Without
    // hugePages a small user (a layer of a few points) does not commit 2 MiB at its first write.
    void resetUninitialized(std::size_t n, bool hugePages)
    {
        release();
        if (n == 0)
            return;
        m_bytes = n * sizeof(T);
        m_data = static_cast<T *>(::operator new(m_bytes, std::align_val_t(kAlign)));
        if (hugePages)
            adviseHugePages(m_data, m_bytes);
        m_size = n;
    }

    void release()
    {
        if (m_data)
            ::operator delete(m_data, m_bytes, std::align_val_t(kAlign));
        m_data = nullptr;
        m_size = m_bytes = 0;
    }

    T *data() { return m_data; }
    const T *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    T &operator[](std::size_t i) { return m_data[i]; }
    const T &operator[](std::size_t i) const { return m_data[i]; }

private:
    static constexpr std::size_t kAlign = std::size_t(2) << 20;
    T *m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_bytes = 0;
};

// An allocator for vectors that grow large and are read at random (a layer's active points):
// from 2 MiB up it hands out 2 MiB-aligned memory with huge pages requested, as LargeArray does.
template<typename T>
struct HugePageAllocator
{
    using value_type = T;
    HugePageAllocator() = default;
    template<typename U>
    HugePageAllocator(const HugePageAllocator<U> &) {}

    T *allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHuge)
            return static_cast<T *>(::operator new(bytes));
        const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
        void *p = ::operator new(rounded, std::align_val_t(kHuge));
        adviseHugePages(p, rounded);
        return static_cast<T *>(p);
    }
    void deallocate(T *p, std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHuge)
            ::operator delete(p, bytes);
        else
            ::operator delete(p, (bytes + kHuge - 1) / kHuge * kHuge, std::align_val_t(kHuge));
    }
    template<typename U>
    bool operator==(const HugePageAllocator<U> &) const { return true; }

    static constexpr std::size_t kHuge = std::size_t(2) << 20;
};

} // namespace grove
