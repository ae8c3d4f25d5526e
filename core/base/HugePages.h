// Advice to back memory about to be written whole with 2 MiB pages instead of 4 KiB ones.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace grove {

// Asks for huge pages over the whole 2 MiB pages inside [from, from + bytes), where the system
// allows it (Linux with transparent huge pages on "madvise" or "always"); elsewhere, or refused,
// nothing changes. Worth it only for memory that is about to be written in full: each huge page
// is one fault instead of 512, but a huge page written in one corner is still zeroed whole.
inline void adviseHugePages(void *from, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(from) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(from) + bytes) & ~(kHuge - 1);
    if (end > begin)
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)from, (void)bytes;
#endif
}

} // namespace grove
