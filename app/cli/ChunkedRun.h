// grove-cli's chunked-world pieces: --threads, --region and --shard values, the progress line,
// Ctrl+C, and the streamed export of `eval`.
#pragma once

#include "CliOptions.h"

#include "core/base/DataTypes.h"
#include "core/formats/StreamExport.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace grove::cli {

inline constexpr int kExitInterrupted = 130;  // as a shell reports a command stopped by SIGINT

// Set by SIGINT once installInterruptHandler ran (grove-cli's main); a second Ctrl+C kills.
std::atomic<bool> &interruptFlag();
void installInterruptHandler();

// "x0,y0,x1,y1": four finite numbers with x0 < x1 and y0 < y1.
Problem parseRegion(const std::string &text, Region &region);
// Why `region` of these layers is more than may be placed (regionOverBudget: `maxPoints`, then
// `howToChange`), or nothing: asked by eval, check and diff before any chunk is placed.
Problem regionTooLarge(const std::vector<PointLayerPtr> &layers, const Region &region, std::uint64_t maxPoints,
                       const std::string &howToChange = ": ask for a smaller --region");
// "K/N": shard K (0 to N-1) of N (1 to 100000).
Problem parseShard(const std::string &text, ShardSpec &shard);
// Threads from 1 to 256.
Problem parseThreads(const std::string &text, int &threads);

// A status line on a terminal's stderr, redrawn in place at most ten times a second: what is
// done of how much, points so far, time spent and an estimate of the time left. Silent when off.
class ProgressLine
{
public:
    ProgressLine(std::ostream &err, bool on) : m_err(err), m_on(on) {}
    ~ProgressLine() { clear(); }
    bool on() const { return m_on; }
    // `what` says what is done of how much ("chunks 12/64"), `fraction` of the whole run in [0, 1].
    void update(const std::string &what, double fraction, std::uint64_t points);
    void clear();

private:
    std::ostream &m_err;
    bool m_on;
    bool m_drawn = false;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now(), m_last;
};

} // namespace grove::cli
