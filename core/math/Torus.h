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

} // namespace grove
