// The fractal sum every noise shares: fbm, ridged and billow octaves of any [0, 1] noise, normalised.
#pragma once

#include "core/fields/NoiseLattice.h"
#include "core/math/Torus.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace grove {

enum class FractalKind {
    Fbm,     // the octaves as they are: rolling hills
    Ridged,  // 1 - |2f - 1| per octave: sharp crests where the noise crosses its middle
    Billow,  // |2f - 1| per octave: puffy bumps with sharp creases between them
};

struct FractalSettings
{
    double frequency = 1;  // applied first: octave o samples at (x * frequency) * lacunarity^o
    int octaves = 1;
    double lacunarity = 2;
    double persistence = 0.5;
    FractalKind kind = FractalKind::Fbm;
    // A wrapped world's sides (world units; 0: that axis does not wrap). The noise repeats over
    // them: coordinates come onto the torus and octave o's lattice repeats every
    // round(side * frequency * lacunarity^o) cells (whole numbers: the graph's check).
    double wrapWidth = 0, wrapHeight = 0;
};

// Octave o's lattice period along one axis, in cells (0: none), for a world side that wraps.
inline double octavePeriod(double side, double frequency, double octaveFrequency)
{
    return side > 0 ? std::round(std::round(side * frequency) * octaveFrequency) : 0;
}

inline double shapeOctave(double f, FractalKind kind)
{
    switch (kind) {
    case FractalKind::Fbm: return f;
    case FractalKind::Ridged: return 1 - std::fabs(2 * f - 1);
    case FractalKind::Billow: return std::fabs(2 * f - 1);
    }
    return f;
}

// sum_o amp_o * shape(noise_o) / sum_o amp_o, with octave o on seed + o * 1013 (seed 002's fbm).
// makeRow(y, seed, period) returns a row sampler (period: the octave's LatticePeriod): a callable taking x and returning a value in [0, 1].
template <class MakeRow>
double fractalAt(double x, double y, std::int32_t seed, const FractalSettings &s, const MakeRow &makeRow)
{
    if (s.wrapWidth > 0)
        x = wrapInto(x, 0, s.wrapWidth);
    if (s.wrapHeight > 0)
        y = wrapInto(y, 0, s.wrapHeight);
    const double fx = x * s.frequency, fy = y * s.frequency;
    double sum = 0, norm = 0, amp = 1, freq = 1;
    for (int o = 0; o < s.octaves; ++o) {
        auto row = makeRow(fy * freq, octaveSeed(seed, o),
                           LatticePeriod{octavePeriod(s.wrapWidth, s.frequency, freq), octavePeriod(s.wrapHeight, s.frequency, freq)});
        sum += amp * shapeOctave(row(fx * freq), s.kind);
        norm += amp;
        amp *= s.persistence;
        freq *= s.lacunarity;
    }
    return clampUnit(sum / norm);
}

// out[i] = fractalAt(x0 + i * dx, y, ...) bit for bit, one octave at a time along the row so each
// row sampler reuses its lattice cells.
template <class MakeRow>
void fractalRow(double x0, double dx, double y, int n, std::int32_t seed, const FractalSettings &s,
                const MakeRow &makeRow, double *out)
{
    for (int i = 0; i < n; ++i)
        out[i] = 0;
    if (s.wrapHeight > 0)
        y = wrapInto(y, 0, s.wrapHeight);
    const double fy = y * s.frequency;
    double norm = 0, amp = 1, freq = 1;
    for (int o = 0; o < s.octaves; ++o) {
        auto row = makeRow(fy * freq, octaveSeed(seed, o),
                           LatticePeriod{octavePeriod(s.wrapWidth, s.frequency, freq), octavePeriod(s.wrapHeight, s.frequency, freq)});
        for (int i = 0; i < n; ++i) {
            const double x = x0 + i * dx;
            const double fx = (s.wrapWidth > 0 ? wrapInto(x, 0, s.wrapWidth) : x) * s.frequency;
            out[i] += amp * shapeOctave(row(fx * freq), s.kind);
        }
        norm += amp;
        amp *= s.persistence;
        freq *= s.lacunarity;
    }
    for (int i = 0; i < n; ++i)
        out[i] = clampUnit(out[i] / norm);
}

// fractalAt in a volume: octave3(x, y, z, seed) is one octave of a 3D noise in [0, 1].
template <class Octave3>
double fractalAt3(double x, double y, double z, std::int32_t seed, const FractalSettings &s, const Octave3 &octave3)
{
    const double fx = x * s.frequency, fy = y * s.frequency, fz = z * s.frequency;
    double sum = 0, norm = 0, amp = 1, freq = 1;
    for (int o = 0; o < s.octaves; ++o) {
        sum += amp * shapeOctave(octave3(fx * freq, fy * freq, fz * freq, octaveSeed(seed, o)), s.kind);
        norm += amp;
        amp *= s.persistence;
        freq *= s.lacunarity;
    }
    return clampUnit(sum / norm);
}

} // namespace grove
