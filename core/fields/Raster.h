// Field rasters: rows of samples, split across threads with results independent of the count.
#pragma once

#include "core/base/DataTypes.h"

namespace grove {

// out[j * width + i] = field.at(x0 + i * dx, y0 + j * dy), bit for bit, using the field's row
// path. Rows are shared among `threads` workers (1: the calling thread only); every row is
// computed the same way whichever thread takes it, so the bytes never depend on the count.
void sampleRaster(const Field &field, double x0, double y0, double dx, double dy, int width, int height,
                  double *out, int threads = 1);

// A sensible worker count for rasters on this machine (hardware threads, at least 1).
int defaultRasterThreads();

} // namespace grove
