// Seed 002's value noise and fBm, bit-exact: integer lattice hash, smoothstep, bilinear blend.
#pragma once

#include <cstdint>

namespace grove {

// JavaScript's ToInt32 on an integral double (wraps modulo 2^32; NaN and infinities give 0).
std::int32_t toInt32(double integral);

double valueNoise(double x, double y, std::int32_t seed);
double valueFbm(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence);
// valueFbm on a lattice that repeats every cellsX cells along x and cellsY along y (whole
// numbers at the first octave; octave o repeats every round(cells * lacunarity^o); 0: never).
// Scalar only: a wrapped world's noise.
double valueFbmPeriodic(double x, double y, std::int32_t seed, int octaves, double lacunarity, double persistence,
                        double cellsX, double cellsY);
// 3D value noise (place_volume's fields): the lattice hash gains a z term, iz * 2246822519 in
// uint32 (at iz = 0 it is hash2), and the blend is trilinear with smoothstep weights. valueFbm3
// sums octaves exactly as valueFbm does (seed + o * 1013, frequency times lacunarity).
double valueNoise3(double x, double y, double z, std::int32_t seed);
double valueFbm3(double x, double y, double z, std::int32_t seed, int octaves, double lacunarity, double persistence);
// out[i] = valueFbm(xs[i], y, ...), bit for bit, a row at a time (shared lattice rows and cells;
// four samples at a time in AVX2 where the CPU has it, chosen at run time).
void valueFbmRow(const double *xs, double y, int n, std::int32_t seed, int octaves, double lacunarity,
                 double persistence, double *out);

// Bounds lo <= valueFbm(x, y, ...) <= hi over the rectangle [x0, x1] x [y0, y1] of the coordinates
// valueFbm is given (edges included), before any widening for rounding (the caller widens). An
// octave whose piece of the lattice spans many cells counts as [0, 1].
void valueFbmRange(double x0, double x1, double y0, double y1, std::int32_t seed, int octaves, double lacunarity,
                   double persistence, double &lo, double &hi);

// Whether rows may take the AVX2 path when the CPU has it (default: yes); tests and benchmarks
// compare it with the scalar path. valueNoiseSimdActive: the CPU has AVX2 and it is enabled.
void setValueNoiseSimd(bool enabled);
bool valueNoiseSimdActive();

} // namespace grove
