// Which vector path the run-time dispatch takes, forced from outside (GROVE_SIMD) so the build
// comparison (tests/compare-builds.sh) can hold each path to the same bytes.
#pragma once

#include "core/base/CpuFeatures.h"

#include <string>

namespace grove {

// GROVE_SIMD=avx512 (the default where the CPU has AVX-512F): as avx2, with the placement's batch
// test in 512-bit lanes. GROVE_SIMD=avx2 (the default where the CPU has AVX2 only): value noise's
// four-sample rows, the random stream's floats, the placement's gathered neighbours, batch test and
// ring candidates, and place_volume's candidates in 256-bit lanes. GROVE_SIMD=sse2: all on the
// x86-64 baseline, value noise's, the stream's, the gather's, the ring's and place_volume's scalar
// code, the batch test in SSE2 pairs.
// Unset or empty: the default. Returns an error for another value, or a path the CPU lacks;
// nothing changes then.
std::string applySimdEnvironment();

} // namespace grove
