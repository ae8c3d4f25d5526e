// AllowedTiles: the tiles are decided lazily, each with a margin for the rounding of its spot.
#include "core/sampling/AllowedTiles.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

constexpr double kMaxTiles = 4194304;

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
        const std::size_t tile = static_cast<std::size_t>(row * m_columns + column);
        if (m_tiles.empty())
            m_tiles.assign(static_cast<std::size_t>(m_columns * m_rows), 0);
        const MaskOver over = m_tiles[tile] ? static_cast<MaskOver>(m_tiles[tile] - 1) : decide(tile, column, row);
        if (over != MaskOver::Mixed) {
            ++m_decided;
            return over == MaskOver::AllTrue;
        }
    }
    ++m_asked;
    return m_mask->at(x, y);
}

MaskOver AllowedTiles::decide(std::size_t tile, long column, long row)
{
    // The tile a spot falls in is found through rounded arithmetic, so the spot may lie a rounding
    // past the tile's edge: the tile is asked with a margin far wider than that.
    const double margin = m_side * 1e-3;
    const double x0 = m_x0 + static_cast<double>(column) * m_side, y0 = m_y0 + static_cast<double>(row) * m_side;
    const Region area{x0 - margin, y0 - margin, x0 + m_side + margin, y0 + m_side + margin};
    const MaskOver over = m_mask->over(area);
    m_tiles[tile] = static_cast<std::uint8_t>(1 + static_cast<int>(over));
    return over;
}

} // namespace grove
