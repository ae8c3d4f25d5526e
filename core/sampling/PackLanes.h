// Packing the kept lanes of a 4 x 64-bit AVX2 vector to its front, in order: the one table the
// vector paths that keep some lanes and drop others (gathered centres, ring candidates) share.
#pragma once

#include <array>
#include <cstddef>

namespace grove {

// For each mask of kept lanes (bit i: lane i kept), the 32-bit lane order for
// _mm256_permutevar8x32_epi32 that moves the kept 64-bit lanes to the front, lowest first.
constexpr std::array<std::array<int, 8>, 16> packLanesTable()
{
    std::array<std::array<int, 8>, 16> t{};
    for (int m = 0; m < 16; ++m) {
        int k = 0;
        for (int lane = 0; lane < 4; ++lane)
            if (m & (1 << lane)) {
                t[static_cast<std::size_t>(m)][static_cast<std::size_t>(2 * k)] = 2 * lane;
                t[static_cast<std::size_t>(m)][static_cast<std::size_t>(2 * k + 1)] = 2 * lane + 1;
                ++k;
            }
    }
    return t;
}
alignas(32) inline constexpr std::array<std::array<int, 8>, 16> kPackLanes = packLanesTable();

} // namespace grove
