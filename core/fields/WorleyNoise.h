// Worley (cellular) noise in 2D: one hashed feature point per lattice cell, distances normalised to [0, 1].
#pragma once

#include "core/fields/NoiseLattice.h"

#include <cstdint>
#include <optional>
#include <string>

namespace grove {

enum class WorleyMode {
    F1,          // distance to the nearest feature point: round cells, dark at their centres
    F2MinusF1,   // second nearest minus nearest: dark cracks along the cell borders
};

// Samples one row (fixed y and seed) of Worley noise; consecutive x in the same lattice cell
// reuse its neighbourhood's feature points. The value depends only on (x, y, seed, mode, period).
class WorleyNoiseRow
{
public:
    // period: the cells repeat every period.x cells along x and period.y along y (0: never), so a
    // cell past the period's end holds the feature point of the cell at its start
    WorleyNoiseRow(double y, std::int32_t seed, WorleyMode mode, LatticePeriod period = {});
    double operator()(double x);  // in [0, 1]

private:
    static constexpr int kReach = 2;  // cells searched either side: exact for F1 and F2 (F2 < 2 cells)
    static constexpr int kSide = 2 * kReach + 1;
    void loadCell(std::uint32_t ix);
    // The hashed index of the cell `offset` cells from `cell` along an axis of `period` cells (0: none).
    static std::uint32_t neighbour(std::uint32_t cell, int offset, double period);

    std::int32_t m_seed;
    WorleyMode m_mode;
    LatticePeriod m_period;
    std::uint32_t m_iy;
    double m_fy;
    bool m_haveCell = false;
    std::uint32_t m_ix = 0;
    // feature points relative to the query's cell corner, so precision holds far from the origin
    double m_px[kSide * kSide], m_py[kSide * kSide];
};

// One sample of Worley noise in [0, 1].
double worleyNoise(double x, double y, std::int32_t seed, WorleyMode mode);

} // namespace grove
