// Large flat arrays of fixed size: no reallocation, no copy, cache-line aligned. Memory is only
// committed as it is written (resetUninitialized), so a big reservation that stays partly unused
// costs address space, not RAM.
//
// Huge pages were tried (madvise) and dropped: with the occupancy's codes and prefetching, TLB
// misses no longer show, while zeroing 2 MiB pages that are only partly used cost more system
// time than they saved (8192^2, four layers: 0.38 s of system time against 0.13 s).
#pragma once

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
        for (std::size_t i = 0; i < n; ++i)
            m_data[i] = fill;
    }

    // For trivial T written before it is read.
    void resetUninitialized(std::size_t n)
    {
        release();
        if (n == 0)
            return;
        m_bytes = n * sizeof(T);
        m_data = static_cast<T *>(::operator new(m_bytes, std::align_val_t(kAlign)));
        m_size = n;
    }

    void release()
    {
        if (m_data)
            ::operator delete(m_data, std::align_val_t(kAlign));  // unsized: Clang declares the sized form only with -fsized-deallocation
        m_data = nullptr;
        m_size = m_bytes = 0;
    }

    T *data() { return m_data; }
    const T *data() const { return m_data; }
    std::size_t size() const { return m_size; }
    T &operator[](std::size_t i) { return m_data[i]; }
    const T &operator[](std::size_t i) const { return m_data[i]; }

private:
    static constexpr std::size_t kAlign = 64;
    T *m_data = nullptr;
    std::size_t m_size = 0;
    std::size_t m_bytes = 0;
};

} // namespace grove
