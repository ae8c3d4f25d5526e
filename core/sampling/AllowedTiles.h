// A placement's allowed area read through tiles: where the mask is decided over a whole tile
// (Mask::over), the tile answers its spots without evaluating the mask.
#pragma once

#include "core/base/DataTypes.h"

#include <cstdint>
#include <vector>

namespace grove {

// Answers exactly as the mask's at() does, spot for spot (over() is a bound that holds for every
// spot of the tile), so no point moves. A tile is decided the first time a spot in it is asked,
// so a tile no candidate reaches costs nothing: first its block of 8 x 8 tiles is asked as a
// whole (one question for the inside of a broad area), then, if the block is mixed, the tile. A
// tile the mask cannot decide asks at() for each spot. Single-threaded: one per sampler.
class AllowedTiles
{
public:
    // The area [x0, x0 + width) x [y0, y0 + height), in square tiles of about `side` (more if the
    // area would need over four million of them). A null mask allows everything.
    AllowedTiles(const Mask *mask, double x0, double y0, double width, double height, double side);

    bool at(double x, double y);

    // how many spots each way was answered (tests and benchmarks)
    std::uint64_t decided() const { return m_decided; }
    std::uint64_t asked() const { return m_asked; }

private:
    MaskOver decide(long column, long row);
    MaskOver over(long column, long row, long columns, long rows) const;

    const Mask *m_mask;
    double m_x0, m_y0, m_side = 1, m_inverse = 1;
    long m_columns = 0, m_rows = 0, m_blockColumns = 0;
    std::vector<std::uint8_t> m_tiles;   // 0: not yet decided, else 1 + MaskOver
    std::vector<std::uint8_t> m_blocks;  // a block of kBlock x kBlock tiles was asked as a whole
    std::uint64_t m_decided = 0, m_asked = 0;
};

} // namespace grove
