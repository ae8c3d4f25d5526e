// atan and atan2 in degrees from + - * / only (no libm), so a slope or an aspect is the same double
// on every machine (libm's atan may differ by an ulp between machines, and a threshold downstream
// could flip). Relative error under 5e-16 (within 3 ulp) of the true angle: tst_terrain_nodes holds them to atanl.
#pragma once

namespace grove {

namespace exact_atan_detail {

// atan(k / 8) in degrees, k = 0..8, as hi + lo (hi the nearest double, lo the rest), computed to
// 60 digits.
inline constexpr double kHi[9] = {0.0,
                                  7.125016348901798,
                                  14.036243467926479,
                                  20.556045219583464,
                                  26.56505117707799,
                                  32.005383208083494,
                                  36.86989764584402,
                                  41.18592516570965,
                                  45.0};
inline constexpr double kLo[9] = {0.0,
                                  -1.2948639595014213e-16,
                                  -1.178545638282857e-16,
                                  7.735753643362621e-16,
                                  -6.673432494950659e-16,
                                  1.8761647814886433e-15,
                                  1.3346864989901319e-15,
                                  -2.0942594695766676e-15,
                                  0.0};
// 180 / pi as hi + lo
inline constexpr double kDegHi = 57.29577951308232;
inline constexpr double kDegLo = -1.9878495670576283e-15;

// atan(t) in degrees for t in [0, 1]: t = c + a rest with c = k / 8 the nearest eighth, so
// atan(t) = atan(c) + atan(u), u = (t - c) / (1 + t c), |u| <= 1/16; atan(u) by its Taylor series
// to u^19 (the next term is below 2^-60 of u), Horner in u^2 in a fixed order.
inline double atanUnitDegrees(double t)
{
    const int k = static_cast<int>(t * 8 + 0.5);  // 0..8
    const double c = k * 0.125;
    const double u = (t - c) / (1 + t * c);
    const double z = u * u;
    double p = -1.0 / 19;
    p = 1.0 / 17 + z * p;
    p = -1.0 / 15 + z * p;
    p = 1.0 / 13 + z * p;
    p = -1.0 / 11 + z * p;
    p = 1.0 / 9 + z * p;
    p = -1.0 / 7 + z * p;
    p = 1.0 / 5 + z * p;
    p = -1.0 / 3 + z * p;
    const double a = u + u * z * p;  // atan(u) in radians
    return kHi[k] + (a * kDegHi + (kLo[k] + a * kDegLo));
}

} // namespace exact_atan_detail

// atan(x) in degrees, in [-90, 90]; NaN for NaN.
inline double atanDegrees(double x)
{
    if (x != x)
        return x;
    const double a = x < 0 ? -x : x;
    const double d = a <= 1 ? exact_atan_detail::atanUnitDegrees(a) : 90 - exact_atan_detail::atanUnitDegrees(1 / a);
    return x < 0 ? -d : d;
}

// The angle of (x, y) in degrees, in (-180, 180], as std::atan2(y, x) * 180 / pi: 0 along +x, 90
// along +y. 0 for (0, 0); NaN when either is NaN.
inline double atan2Degrees(double y, double x)
{
    if (x != x || y != y)
        return x + y;
    const double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
    if (ax == 0 && ay == 0)
        return 0;
    double d;
    if (ax == ay)  // also both infinite
        d = 45;
    else if (ay < ax)
        d = exact_atan_detail::atanUnitDegrees(ay / ax);
    else
        d = 90 - exact_atan_detail::atanUnitDegrees(ax / ay);
    if (x < 0)
        d = 180 - d;
    return y < 0 ? -d : d;
}

} // namespace grove
