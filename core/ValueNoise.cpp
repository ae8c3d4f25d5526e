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

double latticeHash(std::int32_t ix, std::int32_t iy, std::int32_t seed)
{
    std::uint32_t h = static_cast<std::uint32_t>(ix) * 374761393u + static_cast<std::uint32_t>(iy) * 668265263u
                      + static_cast<std::uint32_t>(seed) * 1442695041u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return static_cast<double>(h ^ (h >> 16)) / 4294967296.0;
}

namespace {
inline double smooth(double t) { return t * t * (3 - 2 * t); }
inline double lerp(double a, double b, double t) { return a + (b - a) * t; }
} // namespace

double valueNoise(double x, double y, std::int32_t seed)
{
    const double fx0 = std::floor(x), fy0 = std::floor(y);
    const double fx = smooth(x - fx0), fy = smooth(y - fy0);
    // ix + 1 is formed in doubles, as JavaScript does, before wrapping to int32
    const std::int32_t ix = toInt32(fx0), iy = toInt32(fy0);
    const std::int32_t ix1 = toInt32(fx0 + 1), iy1 = toInt32(fy0 + 1);
    const double v00 = latticeHash(ix, iy, seed), v10 = latticeHash(ix1, iy, seed);
    const double v01 = latticeHash(ix, iy1, seed), v11 = latticeHash(ix1, iy1, seed);
    return lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fy);
}

double valueFbm(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence)
{
    double sum = 0, norm = 0, amp = 1, freq = 1;
    for (int o = 0; o < octaves; ++o) {
        const std::int32_t octaveSeed =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(seed) + static_cast<std::uint32_t>(o) * 1013u);
        sum += amp * valueNoise(x * freq, y * freq, octaveSeed);
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
    }
    return sum / norm;
}

} // namespace grove
