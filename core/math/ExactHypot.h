// sqrt(x² + y²) from + - * / and a square root only (IEEE 754 rounds each the same way on every
// machine), so a path's length or a distance is the same double on x86_64 and aarch64. libm's
// hypot is not: glibc computes it with a fused multiply-add where the CPU has one and without it
// on baseline x86_64, and the two differ by an ulp on about 13% of pairs (which moved the valley's
// fences on aarch64).
//
// The method is Borges' correction ("An improved algorithm for hypot(a, b)", 2019, the variant
// without a fused multiply-add): h = sqrt(x² + y²) rounded, then one Newton step on the residual
// h² - x² - y², written so that each of its products is exact or nearly so. These are the bits of
// glibc's hypot on x86_64 (2.36, Debian 12: 80 million pairs offline; tst_numbers compares two
// million wherever glibc is 2.35 or later, the release that brought this method), so the x86_64
// exports Grove pinned before it owned these bits did not move. Within one ulp of the true value;
// overflow and underflow are avoided by scaling by a power of two.
#pragma once

#include <cmath>
#include <limits>

namespace grove {

namespace exact_hypot_detail {

// big >= small > 0, neither huge nor tiny: the rounded root, less the residual over 2h
inline double corrected(double big, double small)
{
    const double h = std::sqrt(big * big + small * small);
    double t1;
    double t2;
    if (h <= 2.0 * small) {
        // h² - big² - small² = 2 small d + d² - big², with d = h - small
        const double d = h - small;
        t1 = big * (2.0 * d - big);
        t2 = (d - 2.0 * (big - small)) * d;
    } else {
        // h² - big² - small² = 2 big d + d² - small², with d = h - big
        const double d = h - big;
        t1 = 2.0 * d * (big - 2.0 * small);
        t2 = (4.0 * d - small) * small + d * d;
    }
    return h - (t1 + t2) / (2.0 * h);
}

inline constexpr double kHuge = 0x1p511;   // above: big² could overflow
inline constexpr double kTiny = 0x1p-511;  // below: small² could underflow
inline constexpr double kScale = 0x1p-600;
inline constexpr double kNegligible = 0x1p-54;  // small at most this part of big leaves big + small

}  // namespace exact_hypot_detail

// std::hypot's contract (either infinite: +inf, even with a NaN; else a NaN gives NaN), these bits
inline double exactHypot(double x, double y)
{
    using namespace exact_hypot_detail;
    if (!std::isfinite(x) || !std::isfinite(y))
        return std::isinf(x) || std::isinf(y) ? std::numeric_limits<double>::infinity() : x + y;
    x = std::fabs(x);
    y = std::fabs(y);
    const double big = x < y ? y : x;
    const double small = x < y ? x : y;
    if (big > kHuge) {
        if (small <= big * kNegligible)
            return big + small;
        return corrected(big * kScale, small * kScale) / kScale;
    }
    if (small < kTiny) {
        if (big >= small / kNegligible)
            return big + small;
        return corrected(big / kScale, small / kScale) * kScale;
    }
    if (small <= big * kNegligible)
        return big + small;
    return corrected(big, small);
}

}  // namespace grove
