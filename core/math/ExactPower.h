// base^exponent whose bits Grove owns: + - * / and exact scalings only, no libm pow or exp, so
// radial_falloff and math's power give the same doubles with every C library, compiler and CPU.
#pragma once

#include "core/math/ExactLog.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace grove {

// exactExp of N values at once, each lane exactExp's operations, so their chains overlap.
template<int N>
inline void exactExpN(const double *y, double *out)
{
    constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    constexpr double kInvLn2 = 1.44269504088896338700e+00;
    constexpr double kInvFactorial[13] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
                                          1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600};
    double r[N], p[N];
    int k[N];
    for (int i = 0; i < N; ++i) {
        const double v = std::isnan(y[i]) || y[i] > 709.8 || y[i] < -745.2 ? 0 : y[i];  // the others: below
        const double kd = v * kInvLn2;
        k[i] = static_cast<int>(kd < 0 ? kd - 0.5 : kd + 0.5);
        r[i] = (v - k[i] * kLn2Hi) - k[i] * kLn2Lo;
        p[i] = 1.0 / 6227020800.0;  // 1/13!
    }
#pragma GCC unroll 13  // the constants inline, no loop: the chains are the whole cost
    for (int n = 12; n >= 0; --n)
        for (int i = 0; i < N; ++i)
            p[i] = p[i] * r[i] + kInvFactorial[n];
    for (int i = 0; i < N; ++i) {
        if (std::isnan(y[i]))
            out[i] = y[i];
        else if (y[i] > 709.8)
            out[i] = std::numeric_limits<double>::infinity();
        else if (y[i] < -745.2)
            out[i] = 0;
        else if (k[i] >= -1022 && k[i] <= 1023)  // 2^k a normal double: one correctly rounded product, as scaleB
            out[i] = p[i] * std::bit_cast<double>(static_cast<std::uint64_t>(k[i] + 1023) << 52);
        else
            out[i] = std::ldexp(p[i], k[i]);  // IEEE scaleB: exact, or one correctly rounded step into the subnormals
    }
}

// e^y. y = k ln 2 + r with k the nearest whole number to y / ln 2 and |r| <= ln 2 / 2 (ln 2
// split in two: k * high is exact), e^r by its Taylor series to r^13 in Horner form (the next
// term is below 4e-18 of it), then scaled by 2^k, an exact operation (rounded once if subnormal).
// Within a few ulp of the true value (tst_numbers holds it to long double's powl).
// exactExpN's one-lane case.
inline double exactExp(double y)
{
    double out;
    exactExpN<1>(&y, &out);
    return out;
}

// Whole exponents up to 1024 in size multiply out by repeated squaring (exact for small powers of
// small integers, and the same fixed order of IEEE operations everywhere). Other exponents are
// e^(exponent ln base) through exactExp and exactLog, within a few ulp times |exponent ln base| of
// the true power. Special values as C's pow: x^0 = 1, 1^y = 1, 0^y = 0 or inf, a negative base
// with a fractional exponent NaN, infinities by their limits.
inline double exactPower(double base, double exponent)
{
    const bool whole = exponent == std::floor(exponent);
    if (whole && std::fabs(exponent) <= 1024) {
        double result = 1, square = base;
        for (auto k = static_cast<unsigned>(std::fabs(exponent)); k; k >>= 1) {
            if (k & 1u)
                result *= square;
            square *= square;
        }
        return exponent < 0 ? 1 / result : result;
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (base == 1)
        return 1;
    if (std::isnan(base) || std::isnan(exponent))
        return std::numeric_limits<double>::quiet_NaN();
    if (base < 0 && !whole)
        return std::numeric_limits<double>::quiet_NaN();
    // beyond 2^53 every double is even; below, a whole exponent here is odd or even as its half is
    const bool odd = whole && std::fabs(exponent) < 0x1p53 && std::floor(exponent / 2) * 2 != exponent;
    const double sign = base < 0 && odd ? -1 : 1;
    const double magnitude = std::fabs(base);
    if (std::isinf(exponent))
        return magnitude == 1 ? 1 : (magnitude < 1) == (exponent > 0) ? 0 : kInf;
    if (magnitude == 0)
        return exponent > 0 ? sign * 0.0 : sign * kInf;
    if (std::isinf(magnitude))
        return exponent > 0 ? sign * kInf : sign * 0.0;
    return sign * exactExp(exponent * exactLog(magnitude));
}

// base[i]^exponent for n bases, each exactPower(base[i], exponent): four at a time through the
// log and exp lanes where the exponent is not whole and the four bases are positive finite
// numbers other than 1 (exactPower's own path for them: 1 * exactExp(exponent exactLog(base))).
inline void exactPowers(const double *base, double exponent, double *out, int n)
{
    int i = 0;
    if (std::isfinite(exponent) && exponent != std::floor(exponent)) {
        for (; i + 4 <= n; i += 4) {
            bool lanes = true;
            for (int j = 0; j < 4; ++j)
                lanes = lanes && base[i + j] > 0 && base[i + j] <= 1.7976931348623157e308 && base[i + j] != 1;
            if (!lanes) {
                for (int j = 0; j < 4; ++j)
                    out[i + j] = exactPower(base[i + j], exponent);
                continue;
            }
            double y[4];
            exactLogN<4>(base + i, y);
            for (int j = 0; j < 4; ++j)
                y[j] = exponent * y[j];
            exactExpN<4>(y, out + i);
        }
    }
    for (; i < n; ++i)
        out[i] = exactPower(base[i], exponent);
}

} // namespace grove
