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

} // namespace grove
