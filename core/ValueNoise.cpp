// Value noise: seed 002's hash2/valueNoise/fbm with JavaScript's integer semantics made explicit.
#include "ValueNoise.h"

#include <cmath>

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
inline double lerp(double a, double b, double t) { return a + (b - a) * t; }

// One octave, with the seed's hash term precomputed. Lattice coordinates are ToInt32 of the
// floored doubles; ix + 1 is formed in doubles first, which for |ix| < 2^31 equals the wrapped
// integer ix + 1, so the fast path adds in uint32.
inline double octave(double x, double y, std::uint32_t seedTerm)
{
    const double fx0 = std::floor(x), fy0 = std::floor(y);
    const double fx = smooth(x - fx0), fy = smooth(y - fy0);
    std::uint32_t ix, iy, ix1, iy1;
    if (std::fabs(fx0) < 2147483647.0 && std::fabs(fy0) < 2147483647.0) {
        ix = static_cast<std::uint32_t>(static_cast<std::int32_t>(fx0));
        iy = static_cast<std::uint32_t>(static_cast<std::int32_t>(fy0));
        ix1 = ix + 1;
        iy1 = iy + 1;
    } else {
        ix = static_cast<std::uint32_t>(toInt32(fx0));
        iy = static_cast<std::uint32_t>(toInt32(fy0));
        ix1 = static_cast<std::uint32_t>(toInt32(fx0 + 1));
        iy1 = static_cast<std::uint32_t>(toInt32(fy0 + 1));
    }
    const std::uint32_t ax = ix * kHashX, ax1 = ix1 * kHashX;
    const std::uint32_t by = iy * kHashY + seedTerm, by1 = iy1 * kHashY + seedTerm;
    const double v00 = finishHash(ax + by), v10 = finishHash(ax1 + by);
    const double v01 = finishHash(ax + by1), v11 = finishHash(ax1 + by1);
    return lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fy);
}

} // namespace

double latticeHash(std::int32_t ix, std::int32_t iy, std::int32_t seed)
{
    return finishHash(static_cast<std::uint32_t>(ix) * kHashX + static_cast<std::uint32_t>(iy) * kHashY
                      + static_cast<std::uint32_t>(seed) * kHashSeed);
}

double valueNoise(double x, double y, std::int32_t seed)
{
    return octave(x, y, static_cast<std::uint32_t>(seed) * kHashSeed);
}

double valueFbm(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence)
{
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
        if (std::fabs(fy0) < 2147483647.0) {
            iy = static_cast<std::uint32_t>(static_cast<std::int32_t>(fy0));
            iy1 = iy + 1;
        } else {
            iy = static_cast<std::uint32_t>(toInt32(fy0));
            iy1 = static_cast<std::uint32_t>(toInt32(fy0 + 1));
        }
        const std::uint32_t by = iy * kHashY + seedTerm, by1 = iy1 * kHashY + seedTerm;
        // Neighbouring samples mostly share a lattice cell: keep the last cell's corner values.
        double lastCell = std::nan("");
        double v00 = 0, v10 = 0, v01 = 0, v11 = 0;
        for (int i = 0; i < n; ++i) {
            const double px = xs[i] * freq;
            const double fx0 = std::floor(px);
            if (!(fx0 == lastCell)) {
                lastCell = fx0;
                std::uint32_t ix, ix1;
                if (std::fabs(fx0) < 2147483647.0) {
                    ix = static_cast<std::uint32_t>(static_cast<std::int32_t>(fx0));
                    ix1 = ix + 1;
                } else {
                    ix = static_cast<std::uint32_t>(toInt32(fx0));
                    ix1 = static_cast<std::uint32_t>(toInt32(fx0 + 1));
                }
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

} // namespace grove
