// Advice to back memory about to be written whole with 2 MiB pages instead of 4 KiB ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace grove {

constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;  // a transparent huge page on x86-64

// Asks for huge pages over the whole 2 MiB pages inside [from, from + bytes), where the system
// allows it (Linux with transparent huge pages on "madvise" or "always"); elsewhere, or refused,
// nothing changes. Worth it only for memory that is about to be written in full: each huge page
// is one fault instead of 512, but a huge page written in one corner is still zeroed whole.
inline void adviseHugePages(void *from, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = kHugePageBytes;
    const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(from) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(from) + bytes) & ~(kHuge - 1);
    if (end > begin)
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)from, (void)bytes;
#endif
}

// A standard allocator for containers read at random all over (a place_volume grid's cells and
// points): an allocation of 2 MiB or more starts on a 2 MiB boundary and asks for huge pages, so
// its random reads land on a few pages instead of thousands. Grown a piece at a time
// (push_back), each 2 MiB page is zeroed whole at its first write: at most one page more than is
// used.
template<typename T>
struct HugePageAllocator
{
    using value_type = T;
    HugePageAllocator() = default;
    template<typename U>
    HugePageAllocator(const HugePageAllocator<U> &) noexcept
    {
    }

    T *allocate(std::size_t n)
    {
        if (n > static_cast<std::size_t>(-1) / 2 / sizeof(T))
            throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        void *p = ::operator new(bytes, alignmentFor(bytes));
        if (bytes >= kHugePageBytes)
            adviseHugePages(p, bytes);
        return static_cast<T *>(p);
    }
    void deallocate(T *p, std::size_t n) noexcept { ::operator delete(p, alignmentFor(n * sizeof(T))); }

    template<typename U>
    bool operator==(const HugePageAllocator<U> &) const noexcept
    {
        return true;
    }

private:
    static std::align_val_t alignmentFor(std::size_t bytes)
    {
        return std::align_val_t(bytes >= kHugePageBytes ? kHugePageBytes : alignof(T) > 16 ? alignof(T) : 16);
    }
};

} // namespace grove
