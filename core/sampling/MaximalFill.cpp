// Maximal Poisson-disk sampling (Ebeida et al.): background cells, exact coverage, darts, quarters.
#include "core/sampling/MaximalFill.h"

#include "core/base/HugePages.h"
#include "core/base/LargeArray.h"
#include "core/math/ExactHypot.h"
#include "core/math/SeededRandom.h"
#include "core/sampling/HeldPieces.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace grove {

namespace {

constexpr int kMaxDepth = 4;  // a cell splits into quarters down to 1/16 of its side
constexpr int kLattice = 4;   // a cell with a gap reads the allowed area on a 5 x 5 lattice

struct Rect
{
    double x0, y0, x1, y1;
    bool contains(double x, double y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
    // its four quarters, row by row: the order the fill visits them in (darts follow it)
    std::array<Rect, 4> quarters() const
    {
        const double mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
        return {Rect{x0, y0, mx, my}, Rect{mx, y0, x1, my}, Rect{x0, my, mx, y1}, Rect{mx, my, x1, y1}};
    }
};

// A stored point's disc as a cell sees it: what the point keeps clear at the cell's radius.
struct Disc
{
    double x, y, m2, m;
};

// Every point on the occupancy, copied once into cells of the background side in row order
// (counting sort), with the points the fill adds chained per cell: the occupancy keeps its points
// in Bridson's order, which is spatially random, so a cell's neighbours would each be a cache miss.
class CellPoints
{
public:
    CellPoints(const OccupancyGrid &occupancy, const PlacementSettings &s, double side)
        : m_x0(s.x0), m_y0(s.y0), m_side(side),
          m_cols(std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(s.width / side)))),
          m_rows(std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(s.height / side))))
    {
        const std::size_t cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
        const std::size_t n = occupancy.size();
        // The cells are written in random order: each write's line is asked for a few points
        // ahead, so the misses overlap instead of waiting one by one.
        constexpr std::size_t kAhead = 16;
        // every array here is written whole at once: LargeArray's huge pages (a 1024² layer's
        // maximal run: 26,303 page faults to 18,639)
        LargeArray<std::size_t> cellOfPoint;
        cellOfPoint.resetUninitialized(n);
        adviseHugePages(cellOfPoint.data(), n * sizeof(std::size_t));
        for (std::size_t i = 0; i < n; ++i)
            cellOfPoint[i] = cellOf(occupancy.point(i));
        m_start.reset(cells + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            if (i + kAhead < n)
                __builtin_prefetch(m_start.data() + cellOfPoint[i + kAhead] + 1, 1);
            ++m_start[cellOfPoint[i] + 1];
        }
        for (std::size_t c = 0; c < cells; ++c)
            m_start[c + 1] += m_start[c];
        // m_start[c] runs from the start of cell c to its end (the next cell's start) while the
        // points go in, in the occupancy's order; then it moves back by one cell
        m_points.resetUninitialized(n);
        adviseHugePages(m_points.data(), n * sizeof(PointXYR));
        for (std::size_t i = 0; i < n; ++i) {
            if (i + kAhead < n)
                __builtin_prefetch(m_start.data() + cellOfPoint[i + kAhead], 1);
            if (i + kAhead / 2 < n)
                __builtin_prefetch(m_points.data() + m_start[cellOfPoint[i + kAhead / 2]], 1);
            m_points[m_start[cellOfPoint[i]]++] = occupancy.point(i);
        }
        std::copy_backward(m_start.data(), m_start.data() + cells, m_start.data() + cells + 1);
        m_start[0] = 0;
        m_addedHead.reset(cells, -1);
    }

    // the points on the occupancy when the fill began, cell by cell in row order
    const LargeArray<PointXYR> &points() const { return m_points; }

    void add(const PointXYR &p)
    {
        const std::size_t c = cellOf(p);
        m_added.push_back(p);
        m_addedNext.push_back(m_addedHead[c]);
        m_addedHead[c] = static_cast<std::int32_t>(m_added.size() - 1);
    }

    // Calls visit(p) for every point within `reach` of the rectangle [x0, x1] x [y0, y1] (and
    // some beyond).
    template<typename Visit>
    void forEachNear(double x0, double y0, double x1, double y1, double reach, Visit visit) const
    {
        const std::int64_t c0 = colOf(x0 - reach), c1 = colOf(x1 + reach);
        const std::int64_t r0 = rowOf(y0 - reach), r1 = rowOf(y1 + reach);
        for (std::int64_t row = r0; row <= r1; ++row) {
            const std::size_t base = static_cast<std::size_t>(row) * static_cast<std::size_t>(m_cols);
            // a row's cells are contiguous in the copy: one run
            const std::uint32_t end = m_start[base + static_cast<std::size_t>(c1) + 1];
            for (std::uint32_t i = m_start[base + static_cast<std::size_t>(c0)]; i < end; ++i)
                visit(m_points[i]);
            if (m_added.empty())
                continue;
            for (std::int64_t col = c0; col <= c1; ++col)
                for (std::int32_t i = m_addedHead[base + static_cast<std::size_t>(col)]; i >= 0; i = m_addedNext[static_cast<std::size_t>(i)])
                    visit(m_added[static_cast<std::size_t>(i)]);
        }
    }

private:
    std::int64_t colOf(double x) const
    {
        const double c = std::floor((x - m_x0) / m_side);
        return c < 0 ? 0 : c >= static_cast<double>(m_cols) ? m_cols - 1 : static_cast<std::int64_t>(c);
    }
    std::int64_t rowOf(double y) const
    {
        const double r = std::floor((y - m_y0) / m_side);
        return r < 0 ? 0 : r >= static_cast<double>(m_rows) ? m_rows - 1 : static_cast<std::int64_t>(r);
    }
    std::size_t cellOf(const PointXYR &p) const
    {
        return static_cast<std::size_t>(rowOf(p.y)) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(colOf(p.x));
    }

    // The cells divide by the side (not multiply by its inverse): a point's cell orders the discs a
    // cell gathers, and that order picks which of a gap's vertices is tried first.
    double m_x0, m_y0, m_side;
    std::int64_t m_cols, m_rows;
    LargeArray<std::uint32_t> m_start;
    LargeArray<PointXYR> m_points;
    LargeArray<std::int32_t> m_addedHead;
    std::vector<std::int32_t> m_addedNext;
    std::vector<PointXYR> m_added;
};

// The discs gathered for one cell: a buffer that keeps its room between cells, so a gather can
// write every point it visits and count only those it keeps.
class DiscBuffer
{
public:
    std::size_t size() const { return m_count; }
    const Disc &operator[](std::size_t k) const { return m_discs[k]; }
    const Disc *begin() const { return m_discs.data(); }
    const Disc *end() const { return m_discs.data() + m_count; }
    // Writes d at the end; keep says whether it stays there.
    void write(const Disc &d, bool keep)
    {
        if (m_count == m_discs.size())
            m_discs.resize(2 * m_count + 16);
        m_discs[m_count] = d;
        m_count += keep ? 1 : 0;
    }
    void clear() { m_count = 0; }

private:
    std::vector<Disc> m_discs;
    std::size_t m_count = 0;
};

class GapFiller
{
public:
    GapFiller(const PlacementSettings &s, OccupancyGrid &occupancy, const FillTryAdd &tryAdd, double side)
        : m_s(s), m_occupancy(occupancy), m_cellPoints(occupancy, s, side), m_tryAdd(tryAdd),
          m_random(static_cast<std::int32_t>((static_cast<std::uint32_t>(s.seed) ^ 0x5bd1e995u) & 0x7fffffffu)),
          m_side(side), m_cols(static_cast<std::int64_t>(std::ceil(s.width / side))),
          m_rows(static_cast<std::int64_t>(std::ceil(s.height / side)))
    {
        markHeldPieces(PieceGrid{s.x0, s.y0, side, m_cols, m_rows, m_scale, s.radius}, m_cellPoints.points(), m_held);
    }

    bool full() const { return m_full; }
    std::int64_t cols() const { return m_cols; }
    std::int64_t rows() const { return m_rows; }

    // Background cell (i, j), clipped to the area.
    Rect baseCell(std::int64_t i, std::int64_t j) const
    {
        return {m_s.x0 + static_cast<double>(i) * m_side, m_s.y0 + static_cast<double>(j) * m_side,
                std::min(m_s.x0 + static_cast<double>(i + 1) * m_side, m_areaX1),
                std::min(m_s.y0 + static_cast<double>(j + 1) * m_side, m_areaY1)};
    }

    // A background cell, unless the points placed before the fill hold each of its 16 pieces.
    void fillBaseCell(std::int64_t i, std::int64_t j)
    {
        if (m_held[static_cast<std::size_t>(j) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(i)] != 0xFFFF)
            fillCell(baseCell(i, j), 0);
    }

    // One background cell (clipped to the area) and, when it needs them, its quarters.
    void fillCell(const Rect &cell, int depth)
    {
        // a background cell comes here with a piece no disc from before the fill holds, so one
        // disc alone rarely covers it: its first look skips that test
        for (bool firstLook = depth == 0;; firstLook = false) {
            if (m_full)
                return;
            const double radius = coverRadius(cell);
            // A disc that covers the cell alone has its centre near the cell: look there first.
            if (!firstLook) {
                gatherDiscs(cell, radius, (cell.x1 - cell.x0) / 2);
                if (coveredByOne(cell))
                    return;
            }
            gatherDiscs(cell, radius, radius * (1 + 1e-12));
            if (coveredPieceByPiece(cell))
                return;  // the same answer as the vertices below, sooner
            m_vertices.clear();
            uncoveredVertices(cell);
            if (m_vertices.empty())
                return;  // the discs cover the whole cell
            if (!anyAllowedOnLattice(cell))
                return;  // a gap, but no allowed ground on the cell's lattice
            if (throwDarts(cell) || tryVertices(cell))
                continue;  // one more point: look at what is left
            if (depth == kMaxDepth)
                return;  // the gap here is not allowed ground, at the finest cells
            for (const Rect &q : cell.quarters())
                fillCell(q, depth + 1);
            return;
        }
    }

private:
    // The sampler's checks for one spot; the point (and a wrapped world's images) when they pass.
    bool tryAt(double x, double y)
    {
        const std::size_t before = m_occupancy.size();
        const FillTry result = m_tryAdd(x, y);
        m_full = m_full || result == FillTry::Full;
        if (result != FillTry::Added)
            return false;
        for (std::size_t i = before; i < m_occupancy.size(); ++i)
            m_cellPoints.add(m_occupancy.point(i));
        return true;
    }

    // The radius a spot in the cell keeps clear: the layer's, or the radius field's smallest at
    // the cell's corners and centre.
    double coverRadius(const Rect &c) const
    {
        if (!m_s.radiusField)
            return m_s.radius;
        double r = HUGE_VAL;
        for (const auto &[x, y] : {std::pair{c.x0, c.y0}, {c.x1, c.y0}, {c.x0, c.y1}, {c.x1, c.y1},
                                   {(c.x0 + c.x1) / 2, (c.y0 + c.y1) / 2}})
            r = std::min(r, std::max(m_s.radius, m_s.radiusField->at(x, y)));
        return r;
    }

    // The stored points within `reach` of the cell (and some beyond) whose disc reaches into it.
    void gatherDiscs(const Rect &c, double radius, double reach)
    {
        m_discs.clear();
        m_cellPoints.forEachNear(c.x0, c.y0, c.x1, c.y1, reach, [&](const PointXYR &p) __attribute__((always_inline)) {
            const double m = std::min(radius, p.r);
            const double dx = std::max({0.0, c.x0 - p.x, p.x - c.x1});
            const double dy = std::max({0.0, c.y0 - p.y, p.y - c.y1});
            m_discs.write({p.x, p.y, m * m, m}, dx * dx + dy * dy < m * m);  // no branch to miss
        });
    }

    bool anyAllowedOnLattice(const Rect &c)
    {
        if (!m_s.allowed)
            return true;
        // the lattice lies in the cell: where the mask is decided over the cell, that is the answer
        const MaskOver over = m_s.allowed->over(Region{c.x0, c.y0, c.x1, c.y1});
        if (over != MaskOver::Mixed)
            return over == MaskOver::AllTrue;
        for (int j = 0; j <= kLattice; ++j)
            for (int i = 0; i <= kLattice; ++i) {
                const double x = std::min(c.x0 + (c.x1 - c.x0) * i / kLattice, std::nextafter(m_areaX1, -HUGE_VAL));
                const double y = std::min(c.y0 + (c.y1 - c.y0) * j / kLattice, std::nextafter(m_areaY1, -HUGE_VAL));
                if (m_s.allowed->at(x, y))
                    return true;
            }
        return false;
    }

    static bool inside(const Disc &d, double x, double y)
    {
        const double dx = x - d.x, dy = y - d.y;
        return dx * dx + dy * dy < d.m2;
    }

    bool coveredByOne(const Rect &c) const
    {
        for (const Disc &d : m_discs)
            if (inside(d, c.x0, c.y0) && inside(d, c.x1, c.y0) && inside(d, c.x0, c.y1) && inside(d, c.x1, c.y1))
                return true;
        return false;
    }

    // A sufficient test, much cheaper than the cell's vertices: each quarter of the cell (or the
    // quarters of that quarter, down to an eighth of the cell's side) lies inside one disc shrunk
    // by a margin. The margin exceeds what
    // rounding moves a vertex by (a crossing of near-tangent circles is the worst: a square root
    // of the rounding), so it never changes a point: every vertex uncoveredVertices computes lies
    // in the closed cell, so in a piece, and that piece's disc holds it strictly, and is not a
    // circle the vertex lies on (the margin keeps those out). The exact test would find no
    // uncovered vertex either; it runs only where this one cannot tell.
    bool coveredPieceByPiece(const Rect &c)
    {
        m_shrunk2.clear();
        for (const Disc &d : m_discs) {
            if (d.m != m_lastM) {  // the discs of a layer without a radius field share one radius
                const double margin = pieceMargin(d.m, m_scale);
                m_lastM = d.m;
                m_lastShrunk2 = d.m > margin ? (d.m - margin) * (d.m - margin) : -1.0;
            }
            m_shrunk2.push_back(m_lastShrunk2);
        }
        // Levels 1 and 2 at once: each disc's shrunk square against the 5 x 5 lattice of the
        // cell's quarters and their quarters (the same corners Rect::quarters gives), one bit per
        // lattice point, row by row. A piece whose corners are lattice points (i, j) and
        // (i + s, j + s) is held by a disc when the four bits are set: bit j * 5 + i of
        // mask & mask >> s & mask >> 5s & mask >> 6s.
        const double mx = (c.x0 + c.x1) / 2, my = (c.y0 + c.y1) / 2;
        const std::array<double, 5> xs{c.x0, (c.x0 + mx) / 2, mx, (mx + c.x1) / 2, c.x1};
        const std::array<double, 5> ys{c.y0, (c.y0 + my) / 2, my, (my + c.y1) / 2, c.y1};
        std::uint32_t heldLevel1 = 0, heldLevel2 = 0;  // the pieces held, by their first corner's bit
        for (std::size_t k = 0; k < m_discs.size(); ++k) {
            const Disc &d = m_discs[k];
            const double r2 = m_shrunk2[k];
            const double a0 = (xs[0] - d.x) * (xs[0] - d.x), a1 = (xs[1] - d.x) * (xs[1] - d.x),
                         a2 = (xs[2] - d.x) * (xs[2] - d.x), a3 = (xs[3] - d.x) * (xs[3] - d.x),
                         a4 = (xs[4] - d.x) * (xs[4] - d.x);
            // one lattice row's five bits (independent sums: no chain through the mask)
            const auto row = [&](double y) {
                const double b = (y - d.y) * (y - d.y);
                return static_cast<std::uint32_t>(a0 + b < r2) | static_cast<std::uint32_t>(a1 + b < r2) << 1
                     | static_cast<std::uint32_t>(a2 + b < r2) << 2 | static_cast<std::uint32_t>(a3 + b < r2) << 3
                     | static_cast<std::uint32_t>(a4 + b < r2) << 4;
            };
            const std::uint32_t mask = row(ys[0]) | row(ys[1]) << 5 | row(ys[2]) << 10 | row(ys[3]) << 15 | row(ys[4]) << 20;
            heldLevel1 |= mask & mask >> 2 & mask >> 10 & mask >> 12;
            heldLevel2 |= mask & mask >> 1 & mask >> 5 & mask >> 6;
        }
        // the quarters row by row; a quarter no disc holds by its quarters, and those by theirs
        for (std::size_t qj = 0; qj < 4; qj += 2)
            for (std::size_t qi = 0; qi < 4; qi += 2) {
                if (heldLevel1 >> (qj * 5 + qi) & 1)
                    continue;
                for (std::size_t j = qj; j < qj + 2; ++j)
                    for (std::size_t i = qi; i < qi + 2; ++i) {
                        if (heldLevel2 >> (j * 5 + i) & 1)
                            continue;
                        for (const Rect &p : Rect{xs[i], ys[j], xs[i + 1], ys[j + 1]}.quarters())
                            if (!pieceCovered(p))
                                return false;
                    }
            }
        return true;
    }

    // A piece at the finest level: one disc holds its four corners.
    bool pieceCovered(const Rect &q)
    {
        const auto holds = [&](std::size_t k) {
            const Disc &d = m_discs[k];
            const double r2 = m_shrunk2[k];
            const auto in = [&](double x, double y) { return (x - d.x) * (x - d.x) + (y - d.y) * (y - d.y) < r2; };
            return in(q.x0, q.y0) && in(q.x1, q.y0) && in(q.x0, q.y1) && in(q.x1, q.y1);
        };
        // the disc that held the last piece usually holds this one
        if (m_lastPiece < m_discs.size() && holds(m_lastPiece))
            return true;
        for (std::size_t k = 0; k < m_discs.size(); ++k)
            if (holds(k)) {
                m_lastPiece = k;
                return true;
            }
        return false;
    }

    // A spot on the boundaries of discs a and b (-1: none) that no other disc covers.
    void keepIfUncovered(double x, double y, int a, int b)
    {
        // the disc that covered the last vertex usually covers this one too: it goes first
        if (m_lastCover != a && m_lastCover != b && m_lastCover < static_cast<int>(m_discs.size())
            && inside(m_discs[static_cast<std::size_t>(m_lastCover)], x, y))
            return;
        for (int k = 0; k < static_cast<int>(m_discs.size()); ++k)
            if (k != a && k != b && inside(m_discs[static_cast<std::size_t>(k)], x, y)) {
                m_lastCover = k;
                return;
            }
        m_vertices.push_back({x, y, a, b});
    }

    // Every vertex of the cell's uncovered part: corners, circle-edge and circle-circle crossings.
    void uncoveredVertices(const Rect &c)
    {
        for (const auto &[x, y] : {std::pair{c.x0, c.y0}, {c.x1, c.y0}, {c.x0, c.y1}, {c.x1, c.y1}})
            keepIfUncovered(x, y, -1, -1);
        const int n = static_cast<int>(m_discs.size());
        for (int i = 0; i < n; ++i) {
            const Disc &d = m_discs[static_cast<std::size_t>(i)];
            // the circle against the two vertical and the two horizontal edges
            for (const double ex : {c.x0, c.x1}) {
                const double h2 = d.m2 - (ex - d.x) * (ex - d.x);
                if (h2 < 0)
                    continue;
                const double h = std::sqrt(h2);
                for (const double y : {d.y - h, d.y + h})
                    if (y >= c.y0 && y <= c.y1)
                        keepIfUncovered(ex, y, i, -1);
            }
            for (const double ey : {c.y0, c.y1}) {
                const double h2 = d.m2 - (ey - d.y) * (ey - d.y);
                if (h2 < 0)
                    continue;
                const double h = std::sqrt(h2);
                for (const double x : {d.x - h, d.x + h})
                    if (x >= c.x0 && x <= c.x1)
                        keepIfUncovered(x, ey, i, -1);
            }
            for (int j = i + 1; j < n; ++j) {
                const Disc &e = m_discs[static_cast<std::size_t>(j)];
                // the crossings lie in both discs' boxes: skip a pair whose boxes meet off the cell
                if (std::max({d.x - d.m, e.x - e.m, c.x0}) > std::min({d.x + d.m, e.x + e.m, c.x1})
                    || std::max({d.y - d.m, e.y - e.m, c.y0}) > std::min({d.y + d.m, e.y + e.m, c.y1}))
                    continue;
                const double dx = e.x - d.x, dy = e.y - d.y;
                const double dd2 = dx * dx + dy * dy;
                if (dd2 >= (d.m + e.m) * (d.m + e.m) || dd2 <= (d.m - e.m) * (d.m - e.m))
                    continue;  // apart, or one inside the other: no crossing
                const double dd = std::sqrt(dd2);
                const double along = (d.m2 - e.m2 + dd * dd) / (2 * dd);
                const double h = std::sqrt(std::max(0.0, d.m2 - along * along));
                const double bx = d.x + dx * along / dd, by = d.y + dy * along / dd;
                const double ox = -dy * h / dd, oy = dx * h / dd;
                if (c.contains(bx + ox, by + oy))
                    keepIfUncovered(bx + ox, by + oy, i, j);
                if (c.contains(bx - ox, by - oy))
                    keepIfUncovered(bx - ox, by - oy, i, j);
            }
        }
    }

    // A few random spots in the cell: the gap's fill lands anywhere in it, not only on a vertex.
    bool throwDarts(const Rect &c)
    {
        for (int i = 0; i < 2; ++i) {
            const double x = c.x0 + m_random.nextFloat() * (c.x1 - c.x0);
            const double y = c.y0 + m_random.nextFloat() * (c.y1 - c.y0);
            if (tryAt(x, y) || m_full)
                return !m_full;
        }
        return false;
    }

    // Each uncovered vertex, moved a hair off the circles it lies on and into the cell (on the
    // circle itself the rounding may put it inside).
    bool tryVertices(const Rect &c)
    {
        const double hair = 1e-9 * std::max(m_s.radius, std::fabs(c.x1) + std::fabs(c.y1));
        const double cx = (c.x0 + c.x1) / 2, cy = (c.y0 + c.y1) / 2;
        for (const Vertex &v : m_vertices) {
            double ux = cx - v.x, uy = cy - v.y;  // towards the cell's middle
            double len = exactHypot(ux, uy);
            ux = len > 0 ? ux / len : 0;
            uy = len > 0 ? uy / len : 0;
            for (const int k : {v.a, v.b})
                if (k >= 0) {
                    const Disc &d = m_discs[static_cast<std::size_t>(k)];
                    const double ax = v.x - d.x, ay = v.y - d.y, al = exactHypot(ax, ay);
                    if (al > 0) {
                        ux += 2 * ax / al;
                        uy += 2 * ay / al;
                    }
                }
            len = exactHypot(ux, uy);
            if (len > 0) {
                ux /= len;
                uy /= len;
            }
            for (const double step : {hair, hair * 1e3}) {
                const double x = std::clamp(v.x + ux * step, c.x0, std::nextafter(c.x1, -HUGE_VAL));
                const double y = std::clamp(v.y + uy * step, c.y0, std::nextafter(c.y1, -HUGE_VAL));
                if (tryAt(x, y))
                    return true;
                if (m_full)
                    return false;
            }
        }
        return false;
    }

    struct Vertex
    {
        double x, y;
        int a, b;  // the discs whose circles it lies on (-1: none)
    };

    const PlacementSettings &m_s;
    OccupancyGrid &m_occupancy;
    CellPoints m_cellPoints;
    const FillTryAdd &m_tryAdd;
    SeededRandom m_random;
    bool m_full = false;
    double m_areaX1 = m_s.x0 + m_s.width, m_areaY1 = m_s.y0 + m_s.height;
    DiscBuffer m_discs;
    std::vector<Vertex> m_vertices;
    int m_lastCover = 0;
    std::vector<double> m_shrunk2;  // per disc: its radius less the margin, squared (-1: no room)
    std::size_t m_lastPiece = 0;
    double m_lastM = -1, m_lastShrunk2 = -1;  // the last disc radius and its shrunk square
    // the largest coordinate of the area: the vertices' rounding grows with it
    double m_scale = std::max({std::fabs(m_s.x0), std::fabs(m_areaX1), std::fabs(m_s.y0), std::fabs(m_areaY1)});
    double m_side;
    std::int64_t m_cols, m_rows;
    LargeArray<std::uint16_t> m_held;           // per background cell: its pieces held before the fill
};

} // namespace

PlacementStatus fillGaps(const PlacementSettings &s, OccupancyGrid &occupancy, const FillTryAdd &tryAdd,
                         const std::atomic<bool> *cancel)
{
    GapFiller filler(s, occupancy, tryAdd, s.radius / std::sqrt(2.0));
    std::uint64_t ticks = 0;
    for (std::int64_t j = 0; j < filler.rows(); ++j)
        for (std::int64_t i = 0; i < filler.cols(); ++i) {
            filler.fillBaseCell(i, j);
            if (filler.full())
                return PlacementStatus::TooManyPoints;
            if ((++ticks & 4095) == 0 && cancel && cancel->load(std::memory_order_relaxed))
                return PlacementStatus::Cancelled;
        }
    return PlacementStatus::Done;
}

} // namespace grove
