// AllowedTiles: the tiles are decided lazily, each with a margin for the rounding of its spot.
#include "core/sampling/AllowedTiles.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

constexpr double kMaxTiles = 4194304;
constexpr long kBlock = 8;

} // namespace

AllowedTiles::AllowedTiles(const Mask *mask, double x0, double y0, double width, double height, double side)
    : m_mask(mask), m_x0(x0), m_y0(y0)
{
    if (!mask || !(width > 0 && height > 0 && side > 0) || !std::isfinite(width * height))
        return;  // no tiles: every spot asks the mask
    side = std::max(side, std::sqrt(width * height / kMaxTiles));
    m_side = side;
    m_inverse = 1 / side;
    m_columns = static_cast<long>(std::ceil(width / side));
    m_rows = static_cast<long>(std::ceil(height / side));
}

bool AllowedTiles::at(double x, double y)
{
    if (!m_mask)
        return true;
    const double cx = std::floor((x - m_x0) * m_inverse), cy = std::floor((y - m_y0) * m_inverse);
    if (cx >= 0 && cy >= 0 && cx < static_cast<double>(m_columns) && cy < static_cast<double>(m_rows)) {
        const long column = static_cast<long>(cx), row = static_cast<long>(cy);
        if (m_tiles.empty()) {
            m_tiles.assign(static_cast<std::size_t>(m_columns * m_rows), 0);
            m_blockColumns = (m_columns + kBlock - 1) / kBlock;
            m_blocks.assign(static_cast<std::size_t>(m_blockColumns * ((m_rows + kBlock - 1) / kBlock)), 0);
        }
        const std::uint8_t state = m_tiles[static_cast<std::size_t>(row * m_columns + column)];
        const MaskOver over = state ? static_cast<MaskOver>(state - 1) : decide(column, row);
        if (over != MaskOver::Mixed) {
            ++m_decided;
            return over == MaskOver::AllTrue;
        }
    }
    ++m_asked;
    return m_mask->at(x, y);
}

MaskOver AllowedTiles::decide(long column, long row)
{
    const long bx = column / kBlock, by = row / kBlock;
    std::uint8_t &block = m_blocks[static_cast<std::size_t>(by * m_blockColumns + bx)];
    if (!block) {
        block = 1;
        const long c0 = bx * kBlock, r0 = by * kBlock;
        const long c1 = std::min(c0 + kBlock, m_columns), r1 = std::min(r0 + kBlock, m_rows);
        const MaskOver whole = over(c0, r0, c1 - c0, r1 - r0);
        if (whole != MaskOver::Mixed) {
            for (long r = r0; r < r1; ++r)
                for (long c = c0; c < c1; ++c)
                    m_tiles[static_cast<std::size_t>(r * m_columns + c)] = static_cast<std::uint8_t>(1 + static_cast<int>(whole));
            return whole;
        }
    }
    const MaskOver one = over(column, row, 1, 1);
    m_tiles[static_cast<std::size_t>(row * m_columns + column)] = static_cast<std::uint8_t>(1 + static_cast<int>(one));
    return one;
}

MaskOver AllowedTiles::over(long column, long row, long columns, long rows) const
{
    // The tile a spot falls in is found through rounded arithmetic, so the spot may lie a rounding
    // past the tile's edge: the tiles are asked with a margin far wider than that.
    const double margin = m_side * 1e-3;
    const double x0 = m_x0 + static_cast<double>(column) * m_side, y0 = m_y0 + static_cast<double>(row) * m_side;
    const double x1 = m_x0 + static_cast<double>(column + columns) * m_side, y1 = m_y0 + static_cast<double>(row + rows) * m_side;
    return m_mask->over(Region{x0 - margin, y0 - margin, x1 + margin, y1 + margin});
}

} // namespace grove
