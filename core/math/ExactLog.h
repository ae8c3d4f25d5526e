// ln and cube root from + - * / and sqrt only (no libm), so place_volume's candidates are the same
// doubles on every machine and in the JavaScript oracle (tests/oracle/volume.mjs does the same
// operations in the same order).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace grove {

// exactLog of N values at once: each lane exactLog's operations in the same order, so the lanes'
// chains of products overlap and each answer is exactLog's.
template<int N>
inline void exactLogN(const double *s, double *out)
{
    constexpr double kLn2Hi = 6.93147180369123816490e-01;  // fdlibm's split of ln 2
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kSqrt2 = 1.4142135623730951;
    double t[N], t2[N], p[N], de[N];
    bool special[N];
    for (int i = 0; i < N; ++i) {
        special[i] = !(s[i] > 0 && s[i] <= 1.7976931348623157e308);
        double m = special[i] ? 1 : s[i];
        int e = 0;
        if (const std::uint64_t bits = std::bit_cast<std::uint64_t>(m); (bits >> 52) != 0) {
            // a normal s: m in [1, 2) and e read from the bits, the values the halvings give
            e = static_cast<int>(bits >> 52) - 1023;
            m = std::bit_cast<double>((bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
        } else {
            while (m < 1) {  // a subnormal: at most 1074 doublings, each exact
                m = m * 2;
                e = e - 1;
            }
        }
        if (m > kSqrt2) {
            m = m * 0.5;
            e = e + 1;
        }
        t[i] = (m - 1) / (m + 1);
        t2[i] = t[i] * t[i];
        p[i] = 1.0 / 25;
        de[i] = e;
    }
#pragma GCC unroll 12
    for (int n = 11; n >= 0; --n)
        for (int i = 0; i < N; ++i)
            p[i] = p[i] * t2[i] + 1.0 / (2 * n + 1);
    for (int i = 0; i < N; ++i)
        out[i] = special[i] ? (s[i] == 0 ? -HUGE_VAL : s[i] > 0 ? s[i] : std::nan(""))  // +inf stays, the rest has no log
                            : de[i] * kLn2Hi + (de[i] * kLn2Lo + 2 * t[i] * p[i]);
}

// ln(s) for a finite s > 0. s = m 2^e with m in (sqrt(1/2), sqrt(2)] by exact halvings and
// doublings, then ln m = 2 atanh(t), t = (m - 1) / (m + 1), |t| < 0.172, by its series to t^25
// in Horner form, and e ln 2 with ln 2 split in two (the high part has 32 bits, so e * high is
// exact). Within a few ulp of the true value (tst_volume holds it to long double's logl).
// exactLogN's one-lane case.
inline double exactLog(double s)
{
    double out;
    exactLogN<1>(&s, &out);
    return out;
}

// log10(s) for a finite s > 0: exactLog over ln 10 (the spectrum's decibels and picture).
inline double exactLog10(double s)
{
    return exactLog(s) / 2.30258509299404568402;
}

// x^(1/3) for x in [1/8, 1] (place_volume's shell radius 2r x^(1/3)): a linear first guess, then
// six Newton steps y = y - (y^3 - x) / (3 y^2), each squaring the relative error (0.12 to below
// one ulp). Outside [1/8, 1] the guess is poor and the result is not meant to be used.
inline double exactCbrtUnit(double x)
{
    double y = 0.4 + 0.6 * x;
    for (int i = 0; i < 6; ++i)
        y = y - (y * y * y - x) / (3 * (y * y));
    return y;
}

} // namespace grove
