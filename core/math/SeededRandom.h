// Park-Miller "minimal standard" generator, bit-exact with the seed tutorial's SeededRandom.
#pragma once

#include "core/base/CpuFeatures.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GROVE_RANDOM_AVX2 1
#include <immintrin.h>
#else
#define GROVE_RANDOM_AVX2 0
#endif

namespace grove {

// Whether fillFloats may take its AVX2 lanes where the CPU has them (GROVE_SIMD=sse2 turns them off):
// the same values either way.
inline std::atomic<bool> g_randomSimd{cpuHasAvx2()};
inline void setRandomSimd(bool enabled) { g_randomSimd.store(enabled && cpuHasAvx2()); }

class SeededRandom
{
public:
    explicit SeededRandom(std::int32_t seed)
    {
        m_state = static_cast<std::int64_t>(seed) % 2147483647;  // truncating, as JS's %
        if (m_state <= 0)
            m_state += 2147483646;
    }

    std::int64_t next()
    {
        m_state = static_cast<std::int64_t>(mulMod(static_cast<std::uint64_t>(m_state), kMultiplier));
        return m_state;
    }

    // state * m mod (2^31 - 1) for state, m in [1, 2^31 - 2], by the Mersenne fold: the same
    // value as `%`, without a division. With m = 16807^j it jumps j draws ahead.
    static std::uint64_t mulMod(std::uint64_t state, std::uint64_t m)
    {
        const std::uint64_t x = state * m;  // < 2^62
        std::uint64_t r = (x & 0x7fffffffu) + (x >> 31);  // < 2^32 - 1, congruent to x
        if (r >= 0x7fffffffu)
            r -= 0x7fffffffu;
        return r;
    }
    static constexpr std::uint64_t kMultiplier = 16807;

    // Fills out[0..n) with the next n nextFloat() values: the same values as n calls. Interleaved
    // chains, each jumping as many draws as there are chains, so the multiplications (and the
    // divisions) overlap: eight in two AVX2 vectors where the CPU has them, else four.
    void fillFloats(double *out, std::size_t n)
    {
        std::size_t i = 0;
#if GROVE_RANDOM_AVX2
        if (n >= 16 && g_randomSimd.load(std::memory_order_relaxed))
            i = fillFloats8(out, n);
#endif
        if (n - i >= 8) {
            constexpr std::uint64_t a2 = 16807ull * 16807ull % 0x7fffffffu;
            constexpr std::uint64_t a4 = a2 * a2 % 0x7fffffffu;
            std::uint64_t s0 = mulMod(static_cast<std::uint64_t>(m_state), kMultiplier);
            std::uint64_t s1 = mulMod(s0, kMultiplier), s2 = mulMod(s1, kMultiplier), s3 = mulMod(s2, kMultiplier);
            for (; i + 4 <= n; i += 4) {
                out[i] = toFloat(s0);
                out[i + 1] = toFloat(s1);
                out[i + 2] = toFloat(s2);
                out[i + 3] = toFloat(s3);
                m_state = static_cast<std::int64_t>(s3);
                s0 = mulMod(s0, a4);
                s1 = mulMod(s1, a4);
                s2 = mulMod(s2, a4);
                s3 = mulMod(s3, a4);
            }
        }
        for (; i < n; ++i)
            out[i] = nextFloat();
    }

    // 1..2^31-2 mapped onto [0, 1).
    double nextFloat() { return toFloat(static_cast<std::uint64_t>(next())); }
    static double toFloat(std::uint64_t state) { return static_cast<double>(state - 1) / 2147483646.0; }

    std::int64_t state() const { return m_state; }

private:
#if GROVE_RANDOM_AVX2
    // fillFloats' first whole groups of eight, on eight chains in two vectors of four 64-bit lanes:
    // mulMod's product (32 x 32 bits: below 2^62), its fold and its one subtraction; toFloat's
    // state - 1 (below 2^31) made a double exactly through 2^52's mantissa, then the same division.
    // Returns how many it wrote.
    __attribute__((target("avx2"))) std::size_t fillFloats8(double *out, std::size_t n)
    {
        constexpr std::uint64_t a2 = 16807ull * 16807ull % 0x7fffffffu;
        constexpr std::uint64_t a4 = a2 * a2 % 0x7fffffffu;
        constexpr std::uint64_t a8 = a4 * a4 % 0x7fffffffu;
        std::uint64_t first[8];
        first[0] = mulMod(static_cast<std::uint64_t>(m_state), kMultiplier);
        for (int k = 1; k < 8; ++k)
            first[k] = mulMod(first[k - 1], kMultiplier);
        __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(first));
        __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(first + 4));
        const __m256i jump = _mm256_set1_epi64x(static_cast<long long>(a8));
        const __m256i low31 = _mm256_set1_epi64x(0x7fffffff), below = _mm256_set1_epi64x(0x7ffffffe);
        const __m256i one = _mm256_set1_epi64x(1), exponent = _mm256_set1_epi64x(0x4330000000000000ll);
        const __m256d two52 = _mm256_set1_pd(4503599627370496.0), scale = _mm256_set1_pd(2147483646.0);
        std::size_t i = 0;
        for (;; i += 8) {
            const __m256i states[2] = {lo, hi};
            for (int h = 0; h < 2; ++h) {  // toFloat
                const __m256i less = _mm256_or_si256(_mm256_sub_epi64(states[h], one), exponent);
                _mm256_storeu_pd(out + i + 4 * h, _mm256_div_pd(_mm256_sub_pd(_mm256_castsi256_pd(less), two52), scale));
            }
            if (i + 16 > n)
                break;
            __m256i *next[2] = {&lo, &hi};
            for (int h = 0; h < 2; ++h) {  // mulMod
                const __m256i x = _mm256_mul_epu32(*next[h], jump);
                const __m256i r = _mm256_add_epi64(_mm256_and_si256(x, low31), _mm256_srli_epi64(x, 31));
                *next[h] = _mm256_sub_epi64(r, _mm256_and_si256(_mm256_cmpgt_epi64(r, below), low31));
            }
        }
        m_state = _mm256_extract_epi64(hi, 3);  // the last draw written
        return i + 8;
    }
#endif

    std::int64_t m_state;
};

// world.seed + params.seed, wrapped to int32 (JS's `(a + b) | 0`).
inline std::int32_t effectiveSeed(std::int32_t worldSeed, std::int64_t paramSeed)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(worldSeed) + static_cast<std::uint32_t>(paramSeed));
}

} // namespace grove
