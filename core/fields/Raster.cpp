// sampleRaster: rows handed out by an atomic counter to a few std::threads.
#include "core/fields/Raster.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace grove {

void sampleRaster(const Field &field, double x0, double y0, double dx, double dy, int width, int height,
                  double *out, int threads)
{
    if (width <= 0 || height <= 0)
        return;
    threads = std::clamp(threads, 1, std::max(1, height / 8));
    std::atomic<int> nextRow{0};
    auto work = [&] {
        constexpr int kRowsPerTake = 4;
        for (int start = nextRow.fetch_add(kRowsPerTake); start < height; start = nextRow.fetch_add(kRowsPerTake))
            for (int j = start; j < std::min(height, start + kRowsPerTake); ++j)
                field.sampleRow(x0, dx, y0 + j * dy, width, out + static_cast<size_t>(j) * static_cast<size_t>(width));
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto &t : pool)
        t.join();
}

int defaultRasterThreads()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace grove
