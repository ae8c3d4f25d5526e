// What this CPU can run, asked once by whoever dispatches to a vector path (value noise, the
// occupancy grid's batch test); core/sampling/SimdPath is the switch that forces one from outside.
#pragma once

namespace grove {

// Whether this CPU runs AVX2 code; always false off x86-64 (aarch64 takes the scalar and
// generic-vector paths, the sse2 path's bytes).
inline bool cpuHasAvx2()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

// Whether this CPU (and the system, which must save the 512-bit registers) runs AVX-512F code:
// the occupancy's batch test takes eight doubles a lane there.
inline bool cpuHasAvx512()
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx512f");
#else
    return false;
#endif
}

// The widest lanes a run-time dispatch may take (GROVE_SIMD narrows it from outside); a
// dispatch takes the widest it has that the CPU runs, up to this.
enum class VectorWidth { Sse2, Avx2, Avx512 };

} // namespace grove
