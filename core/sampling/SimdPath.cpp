// GROVE_SIMD: the one switch over the AVX2 and AVX-512 dispatches (ValueNoise, OccupancyGrid, RingCandidates,
// VolumePlacement).
#include "core/sampling/SimdPath.h"

#include "core/sampling/OccupancyGrid.h"
#include "core/sampling/RingCandidates.h"
#include "core/sampling/VolumePlacement.h"
#include "core/fields/ValueNoise.h"
#include "core/math/SeededRandom.h"

#include <cstdlib>

namespace grove {

std::string applySimdEnvironment()
{
    const char *env = std::getenv("GROVE_SIMD");
    const std::string want = env ? env : "";
    if (want.empty())
        return {};
    if (want != "avx512" && want != "avx2" && want != "sse2")
        return "GROVE_SIMD takes avx512, avx2 or sse2, got '" + want + "'";
    if (want == "avx512" && !cpuHasAvx512())
        return "GROVE_SIMD=avx512, but this CPU has no AVX-512";
    if (want != "sse2" && !cpuHasAvx2())
        return "GROVE_SIMD=" + want + ", but this CPU has no AVX2";
    const bool vectors = want != "sse2";
    setValueNoiseSimd(vectors);
    OccupancyGrid::setBatchSimd(want == "avx512" ? VectorWidth::Avx512 : vectors ? VectorWidth::Avx2 : VectorWidth::Sse2);
    setRingCandidatesSimd(vectors);
    setVolumeSimd(vectors);
    setRandomSimd(vectors);
    return {};
}

} // namespace grove
