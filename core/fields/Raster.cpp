// sampleRaster: rows shared out by parallelFor, four at a time.
#include "core/fields/Raster.h"

#include "core/base/ParallelFor.h"

#include <algorithm>

namespace grove {

void sampleRaster(const Field &field, double x0, double y0, double dx, double dy, int width, int height,
                  double *out, int threads)
{
    if (width <= 0 || height <= 0)
        return;
    threads = std::clamp(threads, 1, std::max(1, height / 8));
    parallelFor(static_cast<std::size_t>(height), threads, 4, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t j = begin; j < end; ++j)
            field.sampleRow(x0, dx, y0 + static_cast<int>(j) * dy, width, out + j * static_cast<size_t>(width));
        return true;
    });
}

int defaultRasterThreads()
{
    return hardwareThreads();
}

} // namespace grove
