// Awkward doubles for the number writer and the export formats: the edges of JavaScript's
// Number#toString layout (1e-7, 1e21), subnormals, -0, integers about 2^53, non-finite values
// and random bit patterns across every exponent. tests/data/export/awkward.* hold the exports of
// awkwardLayers() as the string-built writers (before writeNumber) wrote them.
#pragma once

#include "core/base/DataTypes.h"
#include "core/formats/PointsExport.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace grove::test {

// splitmix64: the same sequence on every machine and standard library.
struct SplitMix64
{
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

inline std::vector<double> awkwardDoubles()
{
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> v = {
        0.0, -0.0, 1, -1, 0.1, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 0.5, 100, 123456, 1e-7, -1e-7, 1e-6, 9.999999999999999e-7,
        1.0000000000000002e-7, 9.99999999999999e-8, 1e21, -1e21, 1e20, 9.999999999999998e20, 1.0000000000000001e21,
        123456789012345680000.0, 1e22, 1e-5, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
        1.7976931348623157e308, -1.7976931348623157e308, 4.9406564584124654e-324, 1e308, 1e-308, 1e-300, 1e300,
        0x1p53, 0x1p53 - 1, 0x1p53 + 2, -0x1p53, -(0x1p53 - 1), 0x1p54, 0x1p63, 0x1p64, 0x1p52 + 0.5, 4503599627370495.5,
        1e15, 1e16, 1e17, 12345678901234567890.0, 0.000001, 0.0000012345678901234567, 1.5e-7, 5e-7, 0.1e-6,
        1234.5678, 87.65432100000001, 1023.9999999999999, 1024, 0.30000000000000004, 3.141592653589793, 2.718281828459045,
        1.7976931348623157e307, 123e-20, 123e20, 1e-10, 1.25e-7, 8.5, -8.5, 1e100, 1e-100, 5e-7, 4.35,
        std::numeric_limits<double>::quiet_NaN(), inf, -inf,
    };
    for (std::int64_t i = 1; i <= 9007199254740992LL; i = i * 3 + 1)
        v.push_back(static_cast<double>(i));
    for (int e = -325; e <= 309; ++e)
        v.push_back(std::pow(10.0, e));
    SplitMix64 rng{20260114};
    for (int i = 0; i < 2000; ++i)  // random bit patterns: every exponent, subnormals, NaNs, infinities
        v.push_back(std::bit_cast<double>(rng.next()));
    for (int i = 0; i < 500; ++i)  // random integers up to 2^53, and world-like coordinates
        v.push_back(static_cast<double>(rng.next() >> (11 + rng.next() % 53)));
    for (int i = 0; i < 500; ++i)
        v.push_back(static_cast<double>(rng.next() >> 11) * 0x1.0p-53 * 1024);
    return v;
}

// Layers whose x, y, r, rotation and scale run through awkwardDoubles(), one with weighted types
// and special points, one with a name CSV must quote.
inline std::vector<PointLayerPtr> awkwardLayers()
{
    const std::vector<double> d = awkwardDoubles();
    auto typed = std::make_shared<PointLayer>();
    typed->info.name = "trees, \"old\"";
    typed->info.nodeId = "trees";
    typed->info.attributeSeed = 77;
    typed->info.types = {{"oak", 3}, {"pine, tall", 0.1 + 0.2}, {"bi\"rch", 1e-7}, {"spruce", 0}};
    typed->info.specialType = "oak";
    typed->info.specialCount = 5;
    typed->info.rotationMin = -1e-7;
    typed->info.rotationMax = 359.99999999999994;
    typed->info.scaleMin = 0.1 + 0.2;
    typed->info.scaleMax = 1e21;
    for (size_t i = 0; i + 2 < d.size(); i += 3)
        typed->points.push_back({d[i], d[i + 1], d[i + 2]});
    typed->assignSpecials();
    auto plain = std::make_shared<PointLayer>();
    plain->info.name = "rocks";
    plain->info.nodeId = "rocks";
    plain->info.attributeSeed = -5;
    plain->info.scaleMin = 5e-324;
    plain->info.scaleMax = 1.7976931348623157e308;
    for (size_t i = 1; i + 2 < d.size(); i += 3)
        plain->points.push_back({d[i + 1], d[i + 2], d[i]});
    return {typed, plain};
}

inline ExportInfo awkwardInfo()
{
    ExportInfo info;
    info.graphName = "Awkward \"numbers\"";
    info.graphFile = "awkward.grove.yaml";
    info.graphHash = "sha256:0123";
    info.world = {1024.5, 0.1 + 0.2, -7};
    return info;
}

} // namespace grove::test
