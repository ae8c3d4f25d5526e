// Whether an octave noise repeats over a wrapped world, and the nearest frequency that would.
#include "FractalNoiseField.h"

#include <cmath>
#include <limits>

namespace grove {

namespace {

double paramNumber(const ValueMap &params, const char *name, double fallback)
{
    for (const auto &[key, value] : params)
        if (key == name)
            return value.toNumber(fallback);
    return fallback;
}

// A whole number of lattice cells, at least one (within the rounding of side * frequency).
bool wholeCells(double cells)
{
    return std::isfinite(cells) && std::round(cells) >= 1 && std::fabs(cells - std::round(cells)) <= 1e-9 * std::max(1.0, cells);
}

} // namespace

void checkNoiseRepeats(const ValueMap &params, double periodX, double periodY, ParamIssues &issues)
{
    const double frequency = paramNumber(params, "frequency", 0);
    const double lacunarity = paramNumber(params, "lacunarity", 2);
    const int octaves = static_cast<int>(paramNumber(params, "octaves", 1));
    const auto fits = [&](double f) { return (periodX <= 0 || wholeCells(periodX * f)) && (periodY <= 0 || wholeCells(periodY * f)); };
    const std::string sides = periodX > 0 && periodY > 0 ? formatNumber(periodX) + " x " + formatNumber(periodY)
                              : periodX > 0             ? "width " + formatNumber(periodX)
                                                        : "height " + formatNumber(periodY);
    if (!fits(frequency)) {
        // the frequencies that fit one side are whole numbers of cells over it; walk outwards
        // from the given one to the nearest that fits the other side too
        const double side = periodX > 0 ? periodX : periodY;
        const double a0 = std::max(1.0, std::round(side * frequency));
        double best = std::numeric_limits<double>::quiet_NaN();
        for (int k = 0; k < 100000 && std::isnan(best); ++k)
            for (const double a : {a0 - k, a0 + k})
                if (a >= 1 && fits(a / side)
                    && (std::isnan(best) || std::fabs(a / side - frequency) < std::fabs(best - frequency)))
                    best = a / side;
        std::string msg = "frequency " + formatNumber(frequency) + " does not repeat over the wrapped world (" + sides
                          + "): it fits " + formatNumber(side * frequency) + " lattice cells across, not a whole number; ";
        msg += std::isnan(best) ? std::string("no frequency near it fits both sides: give the world sides with a common divisor")
                                : "the nearest frequency that repeats is " + formatNumber(best);
        issues.push_back({"frequency", msg});
        return;
    }
    // octave o has frequency * lacunarity^o: whole cells for every octave
    double product = 1;
    for (int o = 1; o < octaves; ++o) {
        product *= lacunarity;
        for (const double side : {periodX, periodY})
            if (side > 0 && !wholeCells(std::round(side * frequency) * product)) {
                issues.push_back({"lacunarity", "lacunarity " + formatNumber(lacunarity) + " does not repeat over the wrapped world ("
                                                    + sides + "): octave " + std::to_string(o + 1) + " fits "
                                                    + formatNumber(std::round(side * frequency) * product)
                                                    + " lattice cells across, not a whole number; use a whole-number lacunarity such as "
                                                    + formatNumber(std::max(1.0, std::round(lacunarity)))});
                return;
            }
    }
}

} // namespace grove
