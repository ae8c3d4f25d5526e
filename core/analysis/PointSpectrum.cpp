// The periodogram, computed separably: per point, the powers of exp(-2 pi i x / side) for every
// kx and of exp(-2 pi i y / side) for every ky, then the sum over points of their products, a
// block of points at a time. The powers come from repeated multiplication, re-anchored with an
// exact sincos every 16 steps so the error stays near the rounding of one step. No libm: the same
// doubles on every machine.
#include "core/analysis/PointSpectrum.h"
#include "core/math/ExactHypot.h"
#include "core/math/ExactLog.h"
#include "core/math/ExactTrig.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace grove {

namespace {

constexpr int kMaxM = 128;
constexpr std::size_t kMaxPoints = 20000;
constexpr double kRingReach = 2.5;  // the frequencies reach 2.5 / radius
constexpr int kAnchorEvery = 16;

// e[k] = exp(-2 pi i k t) for k = 0..m, as re and im. The step and every 16th power come from
// unitVector (cos and sin of whole turns from + - * /, ExactTrig.h), not libm, so the spectrum and
// the figures `check` and `expect:` compare are the same doubles on every machine.
void powersOf(double t, int m, double *re, double *im)
{
    const auto turn = [](double turns) {  // exp(-2 pi i turns)
        const auto [c, s] = unitVector(turns - std::floor(turns));
        return std::pair<double, double>{c, -s};
    };
    const auto [sr, si] = turn(t);
    double cr = 1, ci = 0;
    for (int k = 0; k <= m; ++k) {
        if (k % kAnchorEvery == 0 && k > 0)
            std::tie(cr, ci) = turn(t * k);
        re[k] = cr;
        im[k] = ci;
        const double nr = cr * sr - ci * si;
        ci = cr * si + ci * sr;
        cr = nr;
    }
}

} // namespace

PointSpectrum computePointSpectrum(const std::vector<PointXYR> &points, const Region &area, double radius)
{
    PointSpectrum s;
    s.radius = radius;
    const double w = std::max(0.0, area.x1 - area.x0), h = std::max(0.0, area.y1 - area.y0);
    double side = std::min(w, h);
    if (radius > 0)
        side = std::min(side, kMaxM * radius / kRingReach);
    const double cx = area.x0 + w / 2, cy = area.y0 + h / 2;
    std::vector<PointXYR> inside;
    auto gather = [&] {
        inside.clear();
        const double x0 = cx - side / 2, y0 = cy - side / 2;
        for (const auto &p : points)
            if (p.x >= x0 && p.x < x0 + side && p.y >= y0 && p.y < y0 + side)
                inside.push_back(p);
    };
    gather();
    while (inside.size() > kMaxPoints) {  // shrink to about the cap: fewer points, same density
        side *= std::sqrt(0.98 * static_cast<double>(kMaxPoints) / static_cast<double>(inside.size()));
        gather();
    }
    s.side = side;
    s.x0 = cx - side / 2;
    s.y0 = cy - side / 2;
    s.points = inside.size();
    const int m = radius > 0 ? std::clamp(static_cast<int>(std::ceil(kRingReach * side / radius)), 16, kMaxM) : kMaxM;
    s.m = m;
    const int width = 2 * m + 1;
    s.power.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(width), 0.0);
    s.radial.assign(static_cast<std::size_t>(m) + 1, 0.0);
    if (inside.empty() || side <= 0)
        return s;

    // Sums for ky = 0..m and kx = -m..m; the other half is their conjugate mirror, P(-k) = P(k).
    const std::size_t cols = static_cast<std::size_t>(width), rows = static_cast<std::size_t>(m) + 1;
    std::vector<double> sumRe(rows * cols, 0.0), sumIm(rows * cols, 0.0);
    std::vector<double> exRe(cols), exIm(cols), eyRe(rows), eyIm(rows), posRe(rows), posIm(rows);
    for (const auto &p : inside) {
        powersOf((p.x - s.x0) / side, m, posRe.data(), posIm.data());
        for (int k = 0; k <= m; ++k) {  // negative kx: the conjugate
            exRe[static_cast<std::size_t>(m + k)] = posRe[static_cast<std::size_t>(k)];
            exIm[static_cast<std::size_t>(m + k)] = posIm[static_cast<std::size_t>(k)];
            exRe[static_cast<std::size_t>(m - k)] = posRe[static_cast<std::size_t>(k)];
            exIm[static_cast<std::size_t>(m - k)] = -posIm[static_cast<std::size_t>(k)];
        }
        powersOf((p.y - s.y0) / side, m, eyRe.data(), eyIm.data());
        for (std::size_t ky = 0; ky < rows; ++ky) {
            const double ar = eyRe[ky], ai = eyIm[ky];
            double *rowRe = sumRe.data() + ky * cols, *rowIm = sumIm.data() + ky * cols;
            for (std::size_t kx = 0; kx < cols; ++kx) {
                rowRe[kx] += exRe[kx] * ar - exIm[kx] * ai;
                rowIm[kx] += exRe[kx] * ai + exIm[kx] * ar;
            }
        }
    }
    const double n = static_cast<double>(inside.size());
    for (std::size_t ky = 0; ky < rows; ++ky)
        for (std::size_t kx = 0; kx < cols; ++kx) {
            const double p = (sumRe[ky * cols + kx] * sumRe[ky * cols + kx] + sumIm[ky * cols + kx] * sumIm[ky * cols + kx]) / n;
            s.power[(static_cast<std::size_t>(m) + ky) * cols + kx] = p;
            s.power[(static_cast<std::size_t>(m) - ky) * cols + (cols - 1 - kx)] = p;
        }
    s.power[static_cast<std::size_t>(m) * cols + static_cast<std::size_t>(m)] = 0;  // DC: N, not a frequency

    // Annuli of width 1/side; the low band; each annulus's spread for the anisotropy.
    s.lowFreqCut = radius > 0 ? std::max(0.5 * side / radius, 1.5) : 1.5;
    std::vector<double> sum(rows, 0.0), sumSq(rows, 0.0);
    std::vector<std::size_t> count(rows, 0);
    double lowSum = 0;
    std::size_t lowCount = 0;
    for (int ky = -m; ky <= m; ++ky)
        for (int kx = -m; kx <= m; ++kx) {
            if (kx == 0 && ky == 0)
                continue;
            const double k = exactHypot(kx, ky), p = s.at(kx, ky);
            if (k < s.lowFreqCut) {
                lowSum += p;
                ++lowCount;
            }
            const auto b = static_cast<std::size_t>(std::lround(k));
            if (b > static_cast<std::size_t>(m))
                continue;  // the square's corners: annuli there are cut off
            sum[b] += p;
            sumSq[b] += p * p;
            ++count[b];
        }
    s.lowFreq = lowCount ? lowSum / static_cast<double>(lowCount) : 0;
    double anisoSum = 0;
    int anisoCount = 0;
    for (std::size_t b = 1; b < rows; ++b) {
        if (!count[b])
            continue;
        const double mean = sum[b] / static_cast<double>(count[b]);
        s.radial[b] = mean;
        const double variance = std::max(0.0, sumSq[b] / static_cast<double>(count[b]) - mean * mean);
        if (b >= 3 && mean > 0 && variance > 0) {
            anisoSum += 10 * exactLog10(variance / (mean * mean));
            ++anisoCount;
        }
    }
    s.anisotropy = anisoCount ? anisoSum / anisoCount : 0;
    return s;
}

} // namespace grove
