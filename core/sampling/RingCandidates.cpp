// Ring candidates: the scalar loop and its AVX2 lanes, the same operations in the same order.
#include "core/sampling/RingCandidates.h"

#include "core/base/CpuFeatures.h"
#include "core/sampling/PackLanes.h"

#include <atomic>
#include <bit>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace grove {

namespace {

// One pair at a time. The test is two flags, not a branch: four pairs in ten fall outside the
// ring, in no order a predictor could learn. A rejected pair is written over by the next.
// Inlined into both loops below, so the vector loop takes its last pairs itself and returns
// through a vzeroupper. It used to end in a tail jump here, before which g++ 12 put none: the
// whole sampler after it ran with the ymm registers' upper halves in use, a quarter or more slower
// (tests/vector-exits checks the machine code for such an exit).
[[gnu::always_inline]] inline void ringPairs(const double *d, std::size_t available, double r, std::size_t upTo,
                                             std::size_t &used, std::size_t &count, const RingCandidates &out)
{
    std::size_t c = count, u = used;  // locals: the stores below could alias the references
    const double inner = r * r, outer = 4 * r * r;
    while (c < upTo && u + 2 <= available) {
        const double dx = (d[u] * 4 - 2) * r;
        const double dy = (d[u + 1] * 4 - 2) * r;
        u += 2;
        const double d2 = dx * dx + dy * dy;
        out.dx[c] = dx;
        out.dy[c] = dy;
        out.drawsAfter[c] = u;
        c += static_cast<std::size_t>(!(d2 < inner) & !(d2 > outer));
    }
    count = c;
    used = u;
}

void ringScalar(const double *d, std::size_t available, double r, std::size_t upTo, std::size_t &used, std::size_t &count,
                const RingCandidates &out)
{
    ringPairs(d, available, r, upTo, used, count, out);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Four pairs a pass, the kept lanes packed to the front in order. A pass that reaches `upTo` ends
// the step's use of draws at the pair that made its last candidate, as the scalar loop would; the
// lanes it stores past `upTo` are never read. The scalar loop takes the last few draws.
__attribute__((target("avx2"))) void ringAvx2(const double *d, std::size_t available, double r, std::size_t upTo,
                                              std::size_t &used, std::size_t &count, const RingCandidates &out)
{
    std::size_t c = count, u = used;  // and the arrays on locals: the lanes' stores may alias anything
    double *outX = out.dx, *outY = out.dy;
    std::size_t *outAfter = out.drawsAfter;
    const double innerR = r * r, outerR = 4 * r * r;
    const __m256d four = _mm256_set1_pd(4), two = _mm256_set1_pd(2), radius = _mm256_set1_pd(r);
    const __m256d inner = _mm256_set1_pd(innerR), outer = _mm256_set1_pd(outerR);
    const __m256i afterPairs = _mm256_setr_epi64x(2, 4, 6, 8);
    while (c < upTo && u + 8 <= available) {
        const __m256d a = _mm256_loadu_pd(d + u), b = _mm256_loadu_pd(d + u + 4);
        // [d0 d4 d2 d6] and [d1 d5 d3 d7], then lanes in pair order
        const __m256d us = _mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xD8);
        const __m256d vs = _mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xD8);
        const __m256d dx = _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(us, four), two), radius);
        const __m256d dy = _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(vs, four), two), radius);
        const __m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
        const __m256d kept = _mm256_and_pd(_mm256_cmp_pd(d2, inner, _CMP_NLT_UQ), _mm256_cmp_pd(d2, outer, _CMP_NGT_UQ));
        const int keep = _mm256_movemask_pd(kept);
        const __m256i pack = _mm256_load_si256(reinterpret_cast<const __m256i *>(kPackLanes[static_cast<std::size_t>(keep)].data()));
        const __m256i after = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(u)), afterPairs);
        _mm256_storeu_pd(outX + c, _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(dx), pack)));
        _mm256_storeu_pd(outY + c, _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(dy), pack)));
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(outAfter + c), _mm256_permutevar8x32_epi32(after, pack));
        const std::size_t taken = static_cast<std::size_t>(std::popcount(static_cast<unsigned>(keep)));
        if (c + taken >= upTo) {
            // the draws end after the pair of the (upTo - c)th kept lane: its bit found in the
            // mask, not read back from the store just made
            unsigned rest = static_cast<unsigned>(keep);
            for (std::size_t skipped = c + 1; skipped < upTo; ++skipped)
                rest &= rest - 1;
            u += 2 * (static_cast<std::size_t>(std::countr_zero(rest)) + 1);
            c = upTo;
        } else {
            c += taken;
            u += 8;
        }
    }
    count = c;
    used = u;
    ringPairs(d, available, r, upTo, used, count, out);
}
#else
constexpr auto ringAvx2 = ringScalar;  // never chosen: cpuHasAvx2() is false
#endif

std::atomic<bool> g_ringAvx2{cpuHasAvx2()};

} // namespace

void makeRingCandidates(const double *d, std::size_t available, double r, std::size_t upTo, std::size_t &used,
                        std::size_t &count, const RingCandidates &out)
{
    if (g_ringAvx2.load(std::memory_order_relaxed))
        ringAvx2(d, available, r, upTo, used, count, out);
    else
        ringScalar(d, available, r, upTo, used, count, out);
}

void setRingCandidatesSimd(bool allowed)
{
    g_ringAvx2.store(allowed && cpuHasAvx2());
}

} // namespace grove
