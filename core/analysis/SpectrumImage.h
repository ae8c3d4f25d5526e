// A picture of a point spectrum: the periodogram, log-scaled with DC at the centre, beside its
// radial average against the white-noise level 1, the ring at 1/r and the low_freq band marked.
#pragma once

#include "core/base/Image.h"
#include "core/analysis/PointSpectrum.h"

namespace grove {

// Left: the periodogram, 10^-2 (black) to 10^1 (pale yellow), each frequency a square of pixels.
// Right, as tall: the radial average (yellow, clipped at 4) over |k| = 0..m; grey line: 1 (white noise); blue:
// the ring at 1/r; dim band: the low_freq frequencies.
Image renderSpectrumImage(const PointSpectrum &spectrum);

} // namespace grove
