// The periodogram of a point layer in a square window and its radial average: how blue a
// scatter's noise is (little power at low frequencies) and whether it has directions (peaks).
#pragma once

#include "core/base/DataTypes.h"

#include <cstddef>
#include <vector>

namespace grove {

struct PointSpectrum
{
    // The window: [x0, x0 + side) x [y0, y0 + side), in world units.
    double x0 = 0, y0 = 0, side = 0;
    double radius = 0;       // the layer's spacing the frequencies are read against
    std::size_t points = 0;  // points in the window
    int m = 0;               // frequencies (kx, ky) / side for |kx|, |ky| <= m
    // P(kx, ky) = |sum exp(-2 pi i (kx x + ky y) / side)|^2 / N, row ky + m, column kx + m;
    // (2m + 1)^2 values, DC (the centre) set to 0.
    std::vector<double> power;
    // Mean power over the annulus round(|k|) = b, b = 0..m (0: none, the DC left out).
    std::vector<double> radial;
    double lowFreq = 0;     // mean power over 0 < |k| < lowFreqCut: ~1 white noise, ~0 blue noise
    double lowFreqCut = 0;  // in units of 1/side: 0.5 side / radius, at least 1.5
    double anisotropy = 0;  // dB, 10 log10(variance / mean^2) per annulus averaged over b = 3..m

    double at(int kx, int ky) const
    {
        return power[static_cast<std::size_t>(ky + m) * static_cast<std::size_t>(2 * m + 1) + static_cast<std::size_t>(kx + m)];
    }
};

// The spectrum of `points` (all of them in `area`) at spacing `radius`. The window is the largest
// square centred in `area`, shrunk (centred) until the ring at 1/radius lies well inside the
// frequencies (|k| <= m, m <= 128, 2.5 side / radius <= m) and it holds at most 20,000 points,
// so a layer of any size costs under a second. Deterministic: one thread, a fixed order.
PointSpectrum computePointSpectrum(const std::vector<PointXYR> &points, const Region &area, double radius);

} // namespace grove
