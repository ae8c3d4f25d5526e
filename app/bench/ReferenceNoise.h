// A plain, straight C++ port of seed 002's hash2 / valueNoise / fbm, sample by sample: the
// baseline the raster benchmarks report ratios against.
#pragma once

#include <cmath>
#include <cstdint>

namespace grove::bench {

inline std::uint32_t referenceImul(std::int64_t a, std::int64_t b)
{
    return static_cast<std::uint32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
}

inline double referenceHash2(double ix, double iy, std::int32_t seed)
{
    std::uint32_t h = referenceImul(static_cast<std::int64_t>(ix), 374761393) + referenceImul(static_cast<std::int64_t>(iy), 668265263)
                      + referenceImul(seed, 1442695041);
    h = referenceImul(h ^ (h >> 13), 1274126177);
    return static_cast<double>(h ^ (h >> 16)) / 4294967296.0;
}

inline double referenceValueNoise(double x, double y, std::int32_t seed)
{
    const double ix = std::floor(x), iy = std::floor(y);
    auto smooth = [](double t) { return t * t * (3 - 2 * t); };
    auto lerp = [](double a, double b, double t) { return a + (b - a) * t; };
    const double fx = smooth(x - ix), fy = smooth(y - iy);
    const double v00 = referenceHash2(ix, iy, seed), v10 = referenceHash2(ix + 1, iy, seed);
    const double v01 = referenceHash2(ix, iy + 1, seed), v11 = referenceHash2(ix + 1, iy + 1, seed);
    return lerp(lerp(v00, v10, fx), lerp(v01, v11, fx), fy);
}

inline double referenceFbm(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence)
{
    double sum = 0, norm = 0, amp = 1, freq = 1;
    for (int o = 0; o < octaves; ++o) {
        sum += amp * referenceValueNoise(x * freq, y * freq, static_cast<std::int32_t>(static_cast<std::uint32_t>(seed) + static_cast<std::uint32_t>(o) * 1013u));
        norm += amp;
        amp *= persistence;
        freq *= lacunarity;
    }
    return sum / norm;
}

} // namespace grove::bench
