// GROVE_SIMD: the one switch over the AVX2 dispatches (ValueNoise, OccupancyGrid, RingCandidates,
// VolumePlacement).
#include "core/sampling/SimdPath.h"

#include "core/sampling/OccupancyGrid.h"
#include "core/sampling/RingCandidates.h"
#include "core/sampling/VolumePlacement.h"
#include "core/fields/ValueNoise.h"

#include <cstdlib>

namespace grove {

std::string applySimdEnvironment()
{
    const char *env = std::getenv("GROVE_SIMD");
    const std::string want = env ? env : "";
    if (want.empty())
        return {};
    if (want != "avx2" && want != "sse2")
        return "GROVE_SIMD takes avx2 or sse2, got '" + want + "'";
    if (want == "avx2" && !cpuHasAvx2())
        return "GROVE_SIMD=avx2, but this CPU has no AVX2";
    setValueNoiseSimd(want == "avx2");
    OccupancyGrid::setBatchSimd(want == "avx2");
    setRingCandidatesSimd(want == "avx2");
    setVolumeSimd(want == "avx2");
    return {};
}

std::string activeSimdPath() { return valueNoiseSimdActive() ? "avx2" : "sse2"; }

} // namespace grove
