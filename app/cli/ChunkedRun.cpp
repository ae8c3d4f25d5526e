// Value parsers for the chunked-world flags, the progress line and the SIGINT flag.
#include "ChunkedRun.h"
#include "core/base/NumberText.h"

#include "core/sampling/RegionBudget.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace grove::cli {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl+C stops at once
}

bool finiteNumber(const std::string &text, double &v)
{
    return parseNumber(text, v) && std::isfinite(v);
}

std::string duration(double seconds)
{
    if (seconds < 60)
        return formatFixed(seconds, 1) + " s";
    char buf[32];
    if (seconds < 3600)
        std::snprintf(buf, sizeof buf, "%dm %02ds", int(seconds) / 60, int(seconds) % 60);
    else
        std::snprintf(buf, sizeof buf, "%dh %02dm", int(seconds) / 3600, int(seconds) / 60 % 60);
    return buf;
}

} // namespace

std::atomic<bool> &interruptFlag()
{
    return g_interrupted;
}

void installInterruptHandler()
{
    struct sigaction sa{};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
}

Problem parseRegion(const std::string &text, Region &region)
{
    const std::string usage = "--region takes x0,y0,x1,y1: four finite numbers with x0 < x1 and y0 < y1, got '" + text + "'";
    std::vector<double> v;
    std::size_t pos = 0;
    while (v.size() < 5) {
        const std::size_t comma = text.find(',', pos);
        double d = 0;
        if (!finiteNumber(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos), d))
            return usage;
        v.push_back(d);
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    if (v.size() != 4 || !(v[0] < v[2]) || !(v[1] < v[3]))
        return usage;
    region = {v[0], v[1], v[2], v[3]};
    return std::nullopt;
}

Problem parseShard(const std::string &text, ShardSpec &shard)
{
    const auto slash = text.find('/');
    const auto count = slash == std::string::npos ? std::nullopt : wholeNumber(text.substr(slash + 1), 1, 100000);
    const auto index = slash == std::string::npos ? std::nullopt : wholeNumber(text.substr(0, slash), 0, 99999);
    if (!count || !index || *index >= *count)
        return "--shard takes K/N: shard K of N, K from 0 to N-1 and N from 1 to 100000, got '" + text + "'";
    shard = {static_cast<std::size_t>(*index), static_cast<std::size_t>(*count)};
    return std::nullopt;
}

Problem regionTooLarge(const std::vector<PointLayerPtr> &layers, const Region &region, std::uint64_t maxPoints,
                       const std::string &howToChange)
{
    for (const PointLayerPtr &layer : layers)
        if (auto problem = regionOverBudget(*layer, layer->info.name, region, maxPoints, howToChange))
            return "--region: " + *problem;
    return std::nullopt;
}

Problem parseThreads(const std::string &text, int &threads)
{
    if (auto n = wholeNumber(text, 1, 256)) {
        threads = static_cast<int>(*n);
        return std::nullopt;
    }
    return "--threads takes a whole number from 1 to 256, got '" + text + "'";
}

void ProgressLine::update(const std::string &what, double fraction, std::uint64_t points)
{
    if (!m_on)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (m_drawn && now - m_last < std::chrono::milliseconds(100))
        return;
    m_last = now;
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    std::string line = what + " (" + formatFixed(100.0 * fraction, 0) + "%)";
    if (points > 0)
        line += ", " + std::to_string(points) + " points";
    line += ", " + duration(elapsed);
    if (fraction > 0.01 && fraction < 1)
        line += ", about " + duration(elapsed * (1 - fraction) / fraction) + " left";
    m_err << "\r" << line << "\033[K" << std::flush;
    m_drawn = true;
}

void ProgressLine::clear()
{
    if (m_drawn)
        m_err << "\r\033[K" << std::flush;
    m_drawn = false;
}

} // namespace grove::cli
