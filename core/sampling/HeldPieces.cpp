#include "core/sampling/HeldPieces.h"

#include <algorithm>
#include <array>
#include <vector>

namespace grove {

namespace {

// ceil(v) and floor(v) for v in [0, hi] (NaN: 0), from a truncation: baseline x86_64 has no
// rounding instruction, and the library's calls were much of the rows' time.
std::int64_t ceilIn(double v, double hi)
{
    v = std::min(std::max(0.0, v), hi);  // this order: NaN gives 0
    const auto t = static_cast<std::int64_t>(v);
    return t + (static_cast<double>(t) < v);
}
std::int64_t floorIn(double v, double hi)
{
    v = std::min(std::max(0.0, v), hi);
    const auto t = static_cast<std::int64_t>(v);
    return t - (static_cast<double>(t) > v);
}

// What rounding moves an edge by in this file (the pieces' edges, the quotients, the chords'
// square roots near a disc's top), and more: a disc is shrunk by it too, so a piece marked here
// has its corners strictly inside the disc shrunk by pieceMargin.
double slackOf(const PieceGrid &g) { return 64 * 0x1p-52 * (g.scale + g.radius); }

// One disc of shrunk radius rho, row of pieces by row: each row's chord by a square root.
void markByRows(const PieceGrid &g, const PointXYR &p, double rho, LargeArray<std::uint16_t> &held)
{
    const double piece = g.side / 4;  // exact: a power of two
    const double perPiece = 1 / piece;
    const double pieceCols = static_cast<double>(4 * g.cols), pieceRows = static_cast<double>(4 * g.rows);
    const double slack = slackOf(g);
    const double px = p.x - g.x0, py = p.y - g.y0;
    // the rows of pieces whose two edges lie within rho of p.y
    const std::int64_t j1 = floorIn((py + rho) * perPiece, pieceRows) - 1;
    for (std::int64_t j = ceilIn((py - rho) * perPiece, pieceRows); j <= j1; ++j) {
        const double top = static_cast<double>(j) * piece - py;
        const double dy = std::max(std::fabs(top), std::fabs(top + piece));
        // the pieces whose two edges lie within the chord's half width w of p.x (none when the
        // row reaches past the disc: w < 0)
        const double w = std::sqrt(std::max(0.0, rho * rho - dy * dy)) - slack;
        const std::int64_t i0 = ceilIn((px - w) * perPiece, pieceCols);
        const std::int64_t count = floorIn((px + w) * perPiece, pieceCols) - i0;
        // the run as bits from its first cell's first piece: at most 12 pieces, 15 bits
        const unsigned run = ((1u << std::max<std::int64_t>(0, count)) - 1) << (i0 & 3);
        std::uint16_t *cell = held.data() + static_cast<std::size_t>(j >> 2) * static_cast<std::size_t>(g.cols)
                              + static_cast<std::size_t>(i0 >> 2);
        const unsigned shift = 4 * static_cast<unsigned>(j & 3);
        for (unsigned c = 0; c < 4; ++c)
            cell[c] = static_cast<std::uint16_t>(cell[c] | (run >> (4 * c) & 0xF) << shift);
    }
}

// The discs at the layer's own radius, all alike: a point's spot in its cell, to 1/kBins of the
// side each way, picks a stamp of the 5 x 5 cells around it (a disc of radius up to the cell's
// diagonal reaches no farther) with the pieces the disc holds from anywhere in that bin. A stamp
// is 25 ORs, where the rows cost a square root and two roundings for each of a disc's 11 rows.
class DiscStamps
{
public:
    static constexpr int kBins = 32;

    // rho: the shrunk radius (at most the cell's diagonal); tiny: how far, in cells, rounding may
    // move a point's computed spot in its cell
    DiscStamps(double rho, double side, double tiny) : m_stamps(kBins * kBins)
    {
        const double reach2 = (rho / side) * (rho / side);
        for (int by = 0; by < kBins; ++by)
            for (int bx = 0; bx < kBins; ++bx) {
                const double x0 = bx / double(kBins) - tiny, x1 = (bx + 1) / double(kBins) + tiny;
                const double y0 = by / double(kBins) - tiny, y1 = (by + 1) / double(kBins) + tiny;
                std::array<std::uint16_t, 25> &stamp = m_stamps[static_cast<std::size_t>(by * kBins + bx)];
                for (int cell = 0; cell < 25; ++cell) {
                    unsigned bits = 0;
                    for (int piece = 0; piece < 16; ++piece) {
                        // the piece in cells from the point's cell's corner, and its farthest
                        // distance from the bin on each axis
                        const int column = cell % 5 - 2, row = cell / 5 - 2;
                        const int pieceColumn = piece % 4, pieceRow = piece / 4;
                        const double px0 = column + 0.25 * pieceColumn, py0 = row + 0.25 * pieceRow;
                        const double dx = std::max(px0 + 0.25 - x0, x1 - px0), dy = std::max(py0 + 0.25 - y0, y1 - py0);
                        bits |= static_cast<unsigned>(dx * dx + dy * dy < reach2) << piece;
                    }
                    stamp[static_cast<std::size_t>(cell)] = static_cast<std::uint16_t>(bits);
                }
            }
    }

    void mark(const PieceGrid &g, const PointXYR &p, LargeArray<std::uint16_t> &held) const
    {
        // the spot in cells; a point more than two cells off the grid reaches none of it
        const double cx = (p.x - g.x0) / g.side + 2, cy = (p.y - g.y0) / g.side + 2;
        if (!(cx >= 0 && cy >= 0 && cx < static_cast<double>(g.cols + 4) && cy < static_cast<double>(g.rows + 4)))
            return;
        const auto ci = static_cast<std::int64_t>(cx), cj = static_cast<std::int64_t>(cy);
        const int bx = std::min(kBins - 1, static_cast<int>((cx - static_cast<double>(ci)) * kBins));
        const int by = std::min(kBins - 1, static_cast<int>((cy - static_cast<double>(cj)) * kBins));
        const std::array<std::uint16_t, 25> &stamp = m_stamps[static_cast<std::size_t>(by * kBins + bx)];
        // cells (ci - 4 .. ci, cj - 4 .. cj) of the grid: the point's cell is (ci - 2, cj - 2)
        const std::size_t cols = static_cast<std::size_t>(g.cols);
        if (ci >= 4 && cj >= 4 && ci < g.cols && cj < g.rows) {  // all 25 on the grid
            std::uint16_t *row = held.data() + static_cast<std::size_t>(cj - 4) * cols + static_cast<std::size_t>(ci - 4);
            for (std::size_t r = 0; r < 5; ++r, row += cols)
                for (std::size_t c = 0; c < 5; ++c)
                    row[c] = static_cast<std::uint16_t>(row[c] | stamp[r * 5 + c]);
            return;
        }
        for (std::int64_t r = 0; r < 5; ++r)
            for (std::int64_t c = 0; c < 5; ++c) {
                const std::int64_t i = ci - 4 + c, j = cj - 4 + r;
                if (i >= 0 && j >= 0 && i < g.cols && j < g.rows)
                    held[static_cast<std::size_t>(j) * cols + static_cast<std::size_t>(i)] |= stamp[static_cast<std::size_t>(r * 5 + c)];
            }
    }

private:
    std::vector<std::array<std::uint16_t, 25>> m_stamps;
};

} // namespace

void markHeldPieces(const PieceGrid &g, const LargeArray<PointXYR> &points, LargeArray<std::uint16_t> &held)
{
    // four cells past the last: markByRows writes four cells from a run's first (nothing into
    // those past its end), and an empty run may start one cell past a row's last
    held.reset(static_cast<std::size_t>(g.cols) * static_cast<std::size_t>(g.rows) + 4, 0);
    const double slack = slackOf(g);
    const auto shrunk = [&](double m) { return m - pieceMargin(m, g.scale) - slack; };
    const double rho = shrunk(g.radius);
    if (!(rho > 0) || !(g.side > 0) || points.size() == 0)
        return;
    // a spot's rounding in cells: a few ulps of the largest cell index, and a little more
    const double tiny = 16 * 0x1p-52 * static_cast<double>(std::max(g.cols, g.rows) + 4) + 1e-12;
    const DiscStamps stamps(std::min(rho, g.side * std::sqrt(2.0)), g.side, tiny);
    for (std::size_t k = 0; k < points.size(); ++k) {
        const PointXYR &p = points[k];
        if (p.r >= g.radius) {
            stamps.mark(g, p, held);
        } else if (const double r = shrunk(p.r); r > 0) {
            markByRows(g, p, r, held);  // a smaller disc (another layer's point)
        }
    }
}

} // namespace grove
