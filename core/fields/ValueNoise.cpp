// Value noise: seed 002's hash2/valueNoise/fbm with JavaScript's integer semantics made explicit.
#include "core/fields/ValueNoise.h"

#include "core/base/CpuFeatures.h"
#include "core/fields/NoiseLattice.h"
#include "core/math/Torus.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GROVE_X86_SIMD 1
#include <immintrin.h>
#else
#define GROVE_X86_SIMD 0
#endif

namespace grove {

std::int32_t toInt32(double v)
{
    if (!std::isfinite(v))
        return 0;
    if (std::fabs(v) < 9.2e18)
        return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(v))));
    double m = std::fmod(v, 4294967296.0);  // exact for doubles
    if (m < 0)
        m += 4294967296.0;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(m));
}

namespace {

constexpr std::uint32_t kHashX = 374761393u;
constexpr std::uint32_t kHashY = 668265263u;
constexpr std::uint32_t kHashSeed = 1442695041u;

// hash2's finish on the already summed lattice terms; the scale by 2^-32 is exact, as the
// reference's division by 4294967296 is.
inline double finishHash(std::uint32_t h)
{
    h = (h ^ (h >> 13)) * 1274126177u;
    return static_cast<double>(h ^ (h >> 16)) * 0x1.0p-32;
}

inline double smooth(double t) { return t * t * (3 - 2 * t); }

// The lattice coordinates i = ToInt32(f0) and i1 = ToInt32(f0 + 1) of a floored coordinate. f0 + 1
// is formed in doubles first, which for |f0| < 2^31 equals the wrapped integer i + 1, so the
// fast path adds in uint32.
inline void latticeCoordinates(double f0, std::uint32_t &i, std::uint32_t &i1)
{
    if (std::fabs(f0) < 2147483647.0) {
        i = static_cast<std::uint32_t>(static_cast<std::int32_t>(f0));
        i1 = i + 1;
    } else {
        i = static_cast<std::uint32_t>(toInt32(f0));
        i1 = static_cast<std::uint32_t>(toInt32(f0 + 1));
    }
}

// One octave, with the seed's hash term precomputed.
inline double octave(double x, double y, std::uint32_t seedTerm)
{
    const double fx0 = std::floor(x), fy0 = std::floor(y);
    const double fx = smooth(x - fx0), fy = smooth(y - fy0);
    std::uint32_t ix, iy, ix1, iy1;
    latticeCoordinates(fx0, ix, ix1);
    latticeCoordinates(fy0, iy, iy1);
    const std::uint32_t ax = ix * kHashX, ax1 = ix1 * kHashX;
    const std::uint32_t by = iy * kHashY + seedTerm, by1 = iy1 * kHashY + seedTerm;
    const double v00 = finishHash(ax + by), v10 = finishHash(ax1 + by);
    const double v01 = finishHash(ax + by1), v11 = finishHash(ax1 + by1);
    return lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fy);
}

// latticeCoordinates on a lattice that repeats every `cells` cells (0: never).
inline void periodicCoordinates(double f0, double cells, std::uint32_t &i, std::uint32_t &i1)
{
    if (cells <= 0) {
        latticeCoordinates(f0, i, i1);
        return;
    }
    i = periodicCell(f0, cells);
    i1 = i + 1 == cells ? 0 : i + 1;
}

// octave() on a lattice that repeats every (cellsX, cellsY) cells.
inline double periodicOctave(double x, double y, std::uint32_t seedTerm, double cellsX, double cellsY)
{
    const double fx0 = std::floor(x), fy0 = std::floor(y);
    const double fx = smooth(x - fx0), fy = smooth(y - fy0);
    std::uint32_t ix, iy, ix1, iy1;
    periodicCoordinates(fx0, cellsX, ix, ix1);
    periodicCoordinates(fy0, cellsY, iy, iy1);
    const std::uint32_t ax = ix * kHashX, ax1 = ix1 * kHashX;
    const std::uint32_t by = iy * kHashY + seedTerm, by1 = iy1 * kHashY + seedTerm;
    const double v00 = finishHash(ax + by), v10 = finishHash(ax1 + by);
    const double v01 = finishHash(ax + by1), v11 = finishHash(ax1 + by1);
    return lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fy);
}

// One sample of one octave of a row: the lattice row's hash terms (by, by1) and blend weight fy
// are shared by the whole row.
inline double rowOctave(double px, double fy, std::uint32_t by, std::uint32_t by1)
{
    const double fx0 = std::floor(px);
    std::uint32_t ix, ix1;
    latticeCoordinates(fx0, ix, ix1);
    const std::uint32_t ax = ix * kHashX, ax1 = ix1 * kHashX;
    const double fx = smooth(px - fx0);
    return lerp(lerp(finishHash(ax + by), finishHash(ax1 + by), fx), lerp(finishHash(ax + by1), finishHash(ax1 + by1), fx), fy);
}

#if GROVE_X86_SIMD
// finishHash on four lanes; uint32 to double as (h - 2^31 as int32) + 2^31, exact
__attribute__((target("avx2"))) inline __m256d finish4(__m128i h)
{
    h = _mm_mullo_epi32(_mm_xor_si128(h, _mm_srli_epi32(h, 13)), _mm_set1_epi32(static_cast<int>(1274126177u)));
    h = _mm_xor_si128(h, _mm_srli_epi32(h, 16));
    const __m256d d = _mm256_cvtepi32_pd(_mm_xor_si128(h, _mm_set1_epi32(static_cast<int>(0x80000000u))));
    return _mm256_mul_pd(_mm256_add_pd(d, _mm256_set1_pd(2147483648.0)), _mm256_set1_pd(0x1.0p-32));
}

__attribute__((target("avx2"))) inline __m256d lerp4(__m256d a, __m256d b, __m256d t)
{
    return _mm256_add_pd(a, _mm256_mul_pd(_mm256_sub_pd(b, a), t));
}

// The same octave for four samples at once in AVX2 doubles: the same operations in the same
// order, no fused multiply-add, so every lane is bit-identical to rowOctave. A group with a
// lattice coordinate outside int32 (or NaN) goes through rowOctave instead. Returns how many
// samples it did (a multiple of 4); the caller does the rest.
__attribute__((target("avx2"))) int octaveRowAvx2(const double *xs, int n, double freq, double fy, std::uint32_t by,
                                                  std::uint32_t by1, double amp, double *out)
{
    const __m256d vfreq = _mm256_set1_pd(freq), vfy = _mm256_set1_pd(fy), vamp = _mm256_set1_pd(amp);
    const __m256d limit = _mm256_set1_pd(2147483647.0), sign = _mm256_set1_pd(-0.0);
    const __m256d two = _mm256_set1_pd(2.0), three = _mm256_set1_pd(3.0);
    const __m128i hashX = _mm_set1_epi32(static_cast<int>(kHashX)), one = _mm_set1_epi32(1);
    const __m128i rowTerm = _mm_set1_epi32(static_cast<int>(by)), rowTerm1 = _mm_set1_epi32(static_cast<int>(by1));
    // Neighbouring samples mostly share a lattice cell: a group of four in the cell of the last
    // hashed cell reuses its corners; any other group hashes its lanes' corners in vectors.
    double lastCell = std::nan("");
    __m256d c00 = _mm256_setzero_pd(), c10 = c00, c01 = c00, c11 = c00;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d px = _mm256_mul_pd(_mm256_loadu_pd(xs + i), vfreq);
        const __m256d fx0 = _mm256_floor_pd(px);
        if (_mm256_movemask_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, fx0), limit, _CMP_LT_OQ)) != 0xF) {
            for (int j = i; j < i + 4; ++j)
                out[j] += amp * rowOctave(xs[j] * freq, fy, by, by1);
            continue;
        }
        const __m256d t = _mm256_sub_pd(px, fx0);
        const __m256d fx = _mm256_mul_pd(_mm256_mul_pd(t, t), _mm256_sub_pd(three, _mm256_mul_pd(two, t)));
        __m256d v00, v10, v01, v11;
        if (_mm256_movemask_pd(_mm256_cmp_pd(fx0, _mm256_set1_pd(lastCell), _CMP_EQ_OQ)) == 0xF) {
            v00 = c00, v10 = c10, v01 = c01, v11 = c11;
        } else {
            const __m128i ix = _mm256_cvttpd_epi32(fx0);
            const __m128i ax = _mm_mullo_epi32(ix, hashX), ax1 = _mm_mullo_epi32(_mm_add_epi32(ix, one), hashX);
            v00 = finish4(_mm_add_epi32(ax, rowTerm));
            v10 = finish4(_mm_add_epi32(ax1, rowTerm));
            v01 = finish4(_mm_add_epi32(ax, rowTerm1));
            v11 = finish4(_mm_add_epi32(ax1, rowTerm1));
            // the last lane's cell is the likeliest for the next group
            lastCell = xs[i + 3] * freq;
            lastCell = std::floor(lastCell);
            c00 = _mm256_permute4x64_pd(v00, 0xFF);
            c10 = _mm256_permute4x64_pd(v10, 0xFF);
            c01 = _mm256_permute4x64_pd(v01, 0xFF);
            c11 = _mm256_permute4x64_pd(v11, 0xFF);
        }
        const __m256d top = lerp4(v00, v10, fx);
        const __m256d bottom = lerp4(v01, v11, fx);
        const __m256d value = lerp4(top, bottom, vfy);
        _mm256_storeu_pd(out + i, _mm256_add_pd(_mm256_loadu_pd(out + i), _mm256_mul_pd(vamp, value)));
    }
    return i;
}

// One sample's octaves, four at a time in AVX2 lanes (each lane its own frequency and seed), the
// scalar octave's operations in the same order; the lanes' terms are then summed in octave order
// as the scalar loop sums them, so the result is bit-identical. False (nothing written) when a
// lattice coordinate leaves int32 or is NaN: the scalar path takes the sample.
__attribute__((target("avx2"))) bool fbmPointAvx2(double x, double y, const double *freqs, const double *amps,
                                                  const std::uint32_t *seedTerms, int octaves, double &sum)
{
    const __m256d limit = _mm256_set1_pd(2147483647.0), sign = _mm256_set1_pd(-0.0);
    const __m256d two = _mm256_set1_pd(2.0), three = _mm256_set1_pd(3.0);
    const __m128i hashX = _mm_set1_epi32(static_cast<int>(kHashX)), hashY = _mm_set1_epi32(static_cast<int>(kHashY));
    const __m128i one = _mm_set1_epi32(1);
    alignas(32) double terms[32];
    const __m256d vx = _mm256_set1_pd(x), vy = _mm256_set1_pd(y);
    for (int o = 0; o < octaves; o += 4) {
        const __m256d freq = _mm256_loadu_pd(freqs + o);
        const __m256d px = _mm256_mul_pd(vx, freq), py = _mm256_mul_pd(vy, freq);
        const __m256d fx0 = _mm256_floor_pd(px), fy0 = _mm256_floor_pd(py);
        const __m256d inX = _mm256_cmp_pd(_mm256_andnot_pd(sign, fx0), limit, _CMP_LT_OQ);
        const __m256d inY = _mm256_cmp_pd(_mm256_andnot_pd(sign, fy0), limit, _CMP_LT_OQ);
        if (_mm256_movemask_pd(_mm256_and_pd(inX, inY)) != 0xF)
            return false;
        const __m256d tx = _mm256_sub_pd(px, fx0), ty = _mm256_sub_pd(py, fy0);
        const __m256d fx = _mm256_mul_pd(_mm256_mul_pd(tx, tx), _mm256_sub_pd(three, _mm256_mul_pd(two, tx)));
        const __m256d fy = _mm256_mul_pd(_mm256_mul_pd(ty, ty), _mm256_sub_pd(three, _mm256_mul_pd(two, ty)));
        const __m128i ix = _mm256_cvttpd_epi32(fx0), iy = _mm256_cvttpd_epi32(fy0);
        const __m128i seed = _mm_loadu_si128(reinterpret_cast<const __m128i *>(seedTerms + o));
        const __m128i ax = _mm_mullo_epi32(ix, hashX), ax1 = _mm_mullo_epi32(_mm_add_epi32(ix, one), hashX);
        const __m128i by = _mm_add_epi32(_mm_mullo_epi32(iy, hashY), seed);
        const __m128i by1 = _mm_add_epi32(_mm_mullo_epi32(_mm_add_epi32(iy, one), hashY), seed);
        const __m256d top = lerp4(finish4(_mm_add_epi32(ax, by)), finish4(_mm_add_epi32(ax1, by)), fx);
        const __m256d bottom = lerp4(finish4(_mm_add_epi32(ax, by1)), finish4(_mm_add_epi32(ax1, by1)), fx);
        _mm256_store_pd(terms + o, _mm256_mul_pd(_mm256_loadu_pd(amps + o), lerp4(top, bottom, fy)));
    }
    double s = 0;
    for (int o = 0; o < octaves; ++o)
        s += terms[o];
    sum = s;
    return true;
}

bool hasAvx2()
{
    static const bool yes = cpuHasAvx2();
    return yes;
}
#endif

std::atomic<bool> g_simdEnabled{true};

} // namespace

void setValueNoiseSimd(bool enabled) { g_simdEnabled.store(enabled); }

bool valueNoiseSimdActive()
{
#if GROVE_X86_SIMD
    return hasAvx2() && g_simdEnabled.load();
#else
    return false;
#endif
}

double valueNoise(double x, double y, std::int32_t seed)
{
    return octave(x, y, static_cast<std::uint32_t>(seed) * kHashSeed);
}

double valueFbm(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence)
{
#if GROVE_X86_SIMD
    // Two or more octaves (up to 24, the node's limit): their lanes at once. The frequencies and
    // amplitudes are the scalar loop's, made by the same multiplications; lanes past the last
    // octave compute a harmless extra term that is never added.
    if (octaves >= 2 && octaves <= 24 && hasAvx2() && g_simdEnabled.load(std::memory_order_relaxed)) {
        double freqs[28], amps[28], norm = 0, amp = 1, freq = 1;
        std::uint32_t seedTerms[28];
        std::uint32_t octaveSeed = static_cast<std::uint32_t>(seed);
        const int padded = (octaves + 3) & ~3;
        for (int o = 0; o < padded; ++o) {
            freqs[o] = o < octaves ? freq : 1;
            amps[o] = o < octaves ? amp : 0;
            seedTerms[o] = octaveSeed * kHashSeed;
            if (o < octaves) {
                norm += amp;
                amp *= persistence;
                freq *= lacunarity;
                octaveSeed += 1013u;
            }
        }
        double sum;
        if (fbmPointAvx2(x, y, freqs, amps, seedTerms, octaves, sum))
            return sum / norm;
    }
#endif
    double sum = 0, norm = 0, amp = 1, freq = 1;
    std::uint32_t octaveSeed = static_cast<std::uint32_t>(seed);
    for (int o = 0; o < octaves; ++o) {
        sum += amp * octave(x * freq, y * freq, octaveSeed * kHashSeed);
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
        octaveSeed += 1013u;  // seed + o * 1013, wrapped as Math.imul wraps it
    }
    return sum / norm;
}

double valueFbmPeriodic(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence,
                        double cellsX, double cellsY)
{
    double sum = 0, norm = 0, amp = 1, freq = 1;
    std::uint32_t octaveSeed = static_cast<std::uint32_t>(seed);
    for (int o = 0; o < octaves; ++o) {
        const double px = cellsX > 0 ? std::round(cellsX * freq) : 0, py = cellsY > 0 ? std::round(cellsY * freq) : 0;
        sum += amp * periodicOctave(x * freq, y * freq, octaveSeed * kHashSeed, px, py);
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
        octaveSeed += 1013u;
    }
    return sum / norm;
}

void valueFbmRow(const double *xs, double y, int n, std::int32_t seed, int octaves, double lacunarity,
                 double persistence, double *out)
{
    for (int i = 0; i < n; ++i)
        out[i] = 0;
    double norm = 0, amp = 1, freq = 1;
    std::uint32_t octaveSeed = static_cast<std::uint32_t>(seed);
    for (int o = 0; o < octaves; ++o) {
        const std::uint32_t seedTerm = octaveSeed * kHashSeed;
        // The row shares y: its lattice row, blend weight and hash terms are computed once.
        const double py = y * freq;
        const double fy0 = std::floor(py);
        const double fy = smooth(py - fy0);
        std::uint32_t iy, iy1;
        latticeCoordinates(fy0, iy, iy1);
        const std::uint32_t by = iy * kHashY + seedTerm, by1 = iy1 * kHashY + seedTerm;
        int done = 0;
#if GROVE_X86_SIMD
        if (hasAvx2() && g_simdEnabled.load(std::memory_order_relaxed))
            done = octaveRowAvx2(xs, n, freq, fy, by, by1, amp, out);
#endif
        // Neighbouring samples mostly share a lattice cell: keep the last cell's corner values.
        double lastCell = std::nan("");
        double v00 = 0, v10 = 0, v01 = 0, v11 = 0;
        for (int i = done; i < n; ++i) {
            const double px = xs[i] * freq;
            const double fx0 = std::floor(px);
            if (!(fx0 == lastCell)) {
                lastCell = fx0;
                std::uint32_t ix, ix1;
                latticeCoordinates(fx0, ix, ix1);
                const std::uint32_t ax = ix * kHashX, ax1 = ix1 * kHashX;
                v00 = finishHash(ax + by);
                v10 = finishHash(ax1 + by);
                v01 = finishHash(ax + by1);
                v11 = finishHash(ax1 + by1);
            }
            const double fx = smooth(px - fx0);
            out[i] += amp * lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fy);
        }
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
        octaveSeed += 1013u;
    }
    for (int i = 0; i < n; ++i)
        out[i] = out[i] / norm;
}

namespace {

// One octave's bounds over [px0, px1] x [py0, py1] (lattice units). Within a lattice cell the
// octave is bilinear in the smoothstep weights, and the weights grow with the coordinate, so over
// a cell's piece of the rectangle its extremes are at that piece's corners. False when the
// rectangle spans too many cells to be worth it, or leaves the int32 lattice (the caller takes
// [0, 1], the range of every corner value).
bool octaveRange(double px0, double px1, double py0, double py1, std::uint32_t seedTerm, double &lo, double &hi)
{
    constexpr double kMaxCells = 6, kLimit = 1073741824.0;
    const double cx0 = std::floor(px0), cx1 = std::floor(px1), cy0 = std::floor(py0), cy1 = std::floor(py1);
    if (!(std::fabs(cx0) < kLimit && std::fabs(cx1) < kLimit && std::fabs(cy0) < kLimit && std::fabs(cy1) < kLimit)
        || cx1 - cx0 >= kMaxCells || cy1 - cy0 >= kMaxCells)
        return false;
    lo = 1;
    hi = 0;
    for (double cy = cy0; cy <= cy1; ++cy) {
        const double sy[2] = {smooth(std::max(py0, cy) - cy), smooth(std::min(py1, cy + 1) - cy)};
        const std::uint32_t iy = static_cast<std::uint32_t>(static_cast<std::int32_t>(cy));
        const std::uint32_t by = iy * kHashY + seedTerm, by1 = (iy + 1) * kHashY + seedTerm;
        for (double cx = cx0; cx <= cx1; ++cx) {
            const double sx[2] = {smooth(std::max(px0, cx) - cx), smooth(std::min(px1, cx + 1) - cx)};
            const std::uint32_t ix = static_cast<std::uint32_t>(static_cast<std::int32_t>(cx));
            const std::uint32_t ax = ix * kHashX, ax1 = (ix + 1) * kHashX;
            const double v00 = finishHash(ax + by), v10 = finishHash(ax1 + by);
            const double v01 = finishHash(ax + by1), v11 = finishHash(ax1 + by1);
            for (double wx : sx)
                for (double wy : sy) {
                    const double v = lerp(lerp(v00, v10, wx), lerp(v01, v11, wx), wy);
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
        }
    }
    return true;
}

} // namespace

void valueFbmRange(double x0, double x1, double y0, double y1, std::int32_t seed, int octaves, double lacunarity,
                   double persistence, double &lo, double &hi)
{
    double sumLo = 0, sumHi = 0, norm = 0, amp = 1, freq = 1;
    std::uint32_t octaveSeed = static_cast<std::uint32_t>(seed);
    for (int o = 0; o < octaves; ++o) {
        // the products valueFbm forms, at the rectangle's edges: rounding keeps their order
        const double ax = x0 * freq, bx = x1 * freq, ay = y0 * freq, by = y1 * freq;
        double l = 0, h = 1;
        if (!octaveRange(std::min(ax, bx), std::max(ax, bx), std::min(ay, by), std::max(ay, by), octaveSeed * kHashSeed, l, h)) {
            l = 0;
            h = 1;
        }
        sumLo += amp * (amp >= 0 ? l : h);
        sumHi += amp * (amp >= 0 ? h : l);
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
        octaveSeed += 1013u;
    }
    lo = sumLo / norm;
    hi = sumHi / norm;
}

// 3D: hash3(ix, iy, iz, seed) = finish(ix * kHashX + iy * kHashY + iz * kHashZ + seed * kHashSeed)
// in uint32 (Math.imul's wrap); at iz = 0 it is seed 002's hash2. Trilinear blend with smoothstep
// weights: x first, then y, then z.
namespace {

constexpr std::uint32_t kHashZ = 2246822519u;

inline double octave3(double x, double y, double z, std::uint32_t seedTerm)
{
    const double fx0 = std::floor(x), fy0 = std::floor(y), fz0 = std::floor(z);
    const double fx = smooth(x - fx0), fy = smooth(y - fy0), fz = smooth(z - fz0);
    std::uint32_t ix, iy, iz, ix1, iy1, iz1;
    latticeCoordinates(fx0, ix, ix1);
    latticeCoordinates(fy0, iy, iy1);
    latticeCoordinates(fz0, iz, iz1);
    const std::uint32_t ax = ix * kHashX, ax1 = ix1 * kHashX;
    const std::uint32_t by = iy * kHashY, by1 = iy1 * kHashY;
    const std::uint32_t cz = iz * kHashZ + seedTerm, cz1 = iz1 * kHashZ + seedTerm;
    const double v000 = finishHash(ax + by + cz), v100 = finishHash(ax1 + by + cz);
    const double v010 = finishHash(ax + by1 + cz), v110 = finishHash(ax1 + by1 + cz);
    const double v001 = finishHash(ax + by + cz1), v101 = finishHash(ax1 + by + cz1);
    const double v011 = finishHash(ax + by1 + cz1), v111 = finishHash(ax1 + by1 + cz1);
    const double lower = lerp(lerp(v000, v100, fx), lerp(v010, v110, fx), fy);
    const double upper = lerp(lerp(v001, v101, fx), lerp(v011, v111, fx), fy);
    return lerp(lower, upper, fz);
}

} // namespace

double valueNoise3(double x, double y, double z, std::int32_t seed)
{
    return octave3(x, y, z, static_cast<std::uint32_t>(seed) * kHashSeed);
}

double valueFbm3(double x, double y, double z, std::int32_t seed, int octaves, double lacunarity, double persistence)
{
    double sum = 0, norm = 0, amp = 1, freq = 1;
    std::uint32_t octaveSeed = static_cast<std::uint32_t>(seed);
    for (int o = 0; o < octaves; ++o) {
        sum += amp * octave3(x * freq, y * freq, z * freq, octaveSeed * kHashSeed);
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
        octaveSeed += 1013u;
    }
    return sum / norm;
}

} // namespace grove
