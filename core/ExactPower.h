// base^exponent that agrees on every machine for whole exponents (repeated squaring of IEEE doubles).
#pragma once

#include <cmath>

namespace grove {

// Whole exponents up to 1024 in size multiply out in a fixed order of IEEE operations, so every machine gets the
// same bits; other exponents fall back to std::pow, whose last bit may differ between C libraries.
inline double exactPower(double base, double exponent)
{
    if (exponent == std::floor(exponent) && std::fabs(exponent) <= 1024) {
        double result = 1, square = base;
        for (auto k = static_cast<unsigned>(std::fabs(exponent)); k; k >>= 1) {
            if (k & 1u)
                result *= square;
            square *= square;
        }
        return exponent < 0 ? 1 / result : result;
    }
    return std::pow(base, exponent);
}

} // namespace grove
