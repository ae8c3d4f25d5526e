// A wrapped world's arithmetic: a coordinate brought onto the torus, a lattice cell taken modulo
// a whole number of cells.
#pragma once

#include <cmath>
#include <cstdint>

namespace grove {

// v on [start, start + period): the same spot of a torus, brought in across the edges.
inline double wrapInto(double v, double start, double period)
{
    if (v >= start && v < start + period)
        return v;
    if (!std::isfinite(v))
        return v;
    double m = std::fmod(v - start, period);  // exact
    if (m < 0)
        m += period;
    const double w = start + m;
    return w < start + period ? w : start;  // rounding up to the far edge is the near one
}

// floor(v) modulo a lattice of `cells` cells (cells >= 1): the cell a periodic noise hashes.
inline std::uint32_t periodicCell(double floored, double cells)
{
    if (!std::isfinite(floored))
        return 0;
    double m = std::fmod(floored, cells);  // exact
    if (m < 0)
        m += cells;
    return static_cast<std::uint32_t>(m);
}

// Whether test(x', y') holds at (x, y) or at one of its images a period away across a wrapped
// side (periodX, periodY: the world's sides; 0: that axis does not wrap). What is drawn near one
// edge of a wrapped world (a house's keep-out, an erased circle) reaches in across the other; a
// shape wider than the world would need images further out, which the world's checks refuse.
template <class Test>
bool onTorus(double x, double y, double periodX, double periodY, const Test &test)
{
    const int nx = periodX > 0 ? 1 : 0, ny = periodY > 0 ? 1 : 0;
    for (int j = -ny; j <= ny; ++j)
        for (int i = -nx; i <= nx; ++i)
            if (test(x + i * periodX, y + j * periodY))
                return true;
    return false;
}

} // namespace grove
