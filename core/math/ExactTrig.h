// cos and sin from + - * / only (no libm), so whatever uses them gives the same doubles on every
// machine: the fast method's candidate directions, the engines' rotations.
#pragma once

#include <cmath>
#include <utility>

namespace grove {

// (cos, sin) of 2*pi*t for t in [0, 1): reduced to [-pi/4, pi/4] by octant, then Taylor series to
// well past double precision.
//
// The series is summed term by term for at most 30 terms, and stops early once a term can no
// longer change either sum: then |term| <= |sum| * 2^-55 for both, less than a quarter of an ulp
// (so it rounds away, even at a power of two), and every later term is smaller still (|x| < 1), so
// the sums are the bits the 30 terms give. A zero angle stops after one term, a typical one after
// about 15.
inline std::pair<double, double> unitVector(double t)
{
    constexpr double kQuarterPi = 0.78539816339744830962;
    constexpr double kQuarterUlp = 0x1p-55;
    const double turns8 = t * 8;  // octants
    const int octant = static_cast<int>(std::floor(turns8 + 0.5)) & 7;
    const double x = (turns8 - std::floor(turns8 + 0.5)) * kQuarterPi;  // in [-pi/4, pi/4]
    double c = 0, s = 0, term = 1;
    for (int n = 0; n < 30; ++n) {  // term = x^n / n!
        switch (n & 3) {
        case 0: c += term; break;
        case 1: s += term; break;
        case 2: c -= term; break;
        case 3: s -= term; break;
        }
        term = term * x / (n + 1);
        if (std::fabs(term) <= std::fmin(std::fabs(c), std::fabs(s)) * kQuarterUlp)
            break;
    }
    // rotate by octant * 45 degrees
    constexpr double h = 0.70710678118654752440;
    switch (octant) {
    case 0: return {c, s};
    case 1: return {(c - s) * h, (c + s) * h};
    case 2: return {-s, c};
    case 3: return {(-c - s) * h, (c - s) * h};
    case 4: return {-c, -s};
    case 5: return {(s - c) * h, (-c - s) * h};
    case 6: return {s, -c};
    default: return {(c + s) * h, (s - c) * h};
    }
}

// (cos, sin) of an angle in degrees, any finite value
inline std::pair<double, double> unitVectorDegrees(double degrees)
{
    double turns = std::fmod(degrees / 360.0, 1.0);
    if (turns < 0)
        turns += 1;
    if (turns >= 1)
        turns = 0;
    return unitVector(turns);
}

} // namespace grove
