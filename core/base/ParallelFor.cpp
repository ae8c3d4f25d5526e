// parallelFor: blocks from an atomic counter, std::threads joined before it returns.
#include "core/base/ParallelFor.h"
#include "core/base/RecycledBlocks.h"

#include <algorithm>
#include <atomic>
#include <exception>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <mutex>
#include <thread>
#include <vector>

namespace grove {

bool parallelFor(std::size_t count, int threads, std::size_t grain,
                 const std::function<bool(std::size_t begin, std::size_t end, int worker)> &body)
{
    if (count == 0)
        return true;
    grain = std::max<std::size_t>(grain, 1);
    const std::size_t blocks = (count + grain - 1) / grain;
    const int workers = static_cast<int>(std::clamp<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), 1, blocks));
    std::atomic<std::size_t> next{0};
    std::atomic<bool> halted{false};
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto run = [&](int worker) {
        for (std::size_t begin; !halted.load(std::memory_order_relaxed) && (begin = next.fetch_add(grain)) < count;) {
            try {
                if (!body(begin, std::min(count, begin + grain), worker))
                    halted = true;
            } catch (...) {
                std::lock_guard lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
                halted = true;
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(workers - 1));
    for (int t = 1; t < workers; ++t)
        pool.emplace_back(run, t);
    run(0);
    for (auto &t : pool)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
    return !halted.load();
}

int hardwareThreads()
{
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void releaseFreedMemory()
{
    recycledBlocks::clear();
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace grove
