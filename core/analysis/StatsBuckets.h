// The layer statistics' bucket grid (LayerStats.cpp): the points of one or more layers copied into
// square cells, for neighbour and nearest-point queries.
#pragma once

#include "core/base/DataTypes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace grove::stats {

// Points copied into square cells (a counting sort), so a neighbour query reads contiguous
// memory instead of chasing indices into points stored in placement order.
class Buckets
{
public:
    struct Item
    {
        double x, y, r;
        std::uint32_t id;  // the point's index in the sources, concatenated
    };

    // Cells hold about one point each, and are at least `minCell` wide; the grid spans the world
    // from the origin (points beyond it fall into its edge cells).
    Buckets(const std::vector<const std::vector<PointXYR> *> &sources, double width, double height, double minCell = 0)
        : Buckets(sources, Region{0, 0, width, height}, minCell)
    {
    }

    // The same over `bounds` (a region preview's part of an endless world).
    Buckets(const std::vector<const std::vector<PointXYR> *> &sources, const Region &bounds, double minCell)
        : m_x0(bounds.x0), m_y0(bounds.y0)
    {
        const double width = bounds.x1 - bounds.x0, height = bounds.y1 - bounds.y0;
        std::size_t n = 0;
        for (const auto *s : sources)
            n += s->size();
        const double area = std::max(width * height, 1e-12);
        m_cell = std::sqrt(area / std::max<double>(1, static_cast<double>(n)));
        m_cell = std::max({m_cell, std::max(width, height) / 4096, minCell});
        m_cols = std::max(1, static_cast<int>(std::ceil(width / m_cell)));
        m_rows = std::max(1, static_cast<int>(std::ceil(height / m_cell)));
        m_start.assign(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows) + 1, 0);
        std::vector<std::uint32_t> cellOfPoint(n);
        std::size_t i = 0;
        for (const auto *s : sources)
            for (const auto &p : *s) {
                cellOfPoint[i] = static_cast<std::uint32_t>(cellOf(p.x, p.y));
                ++m_start[cellOfPoint[i++] + 1];
            }
        for (size_t c = 1; c < m_start.size(); ++c)
            m_start[c] += m_start[c - 1];
        m_items.resize(n);
        std::vector<std::uint32_t> fill(m_start.begin(), m_start.end() - 1);
        i = 0;
        for (const auto *s : sources)
            for (const auto &p : *s) {
                m_items[fill[cellOfPoint[i]]++] = {p.x, p.y, p.r, static_cast<std::uint32_t>(i)};
                ++i;
            }
    }

    double cell() const { return m_cell; }

    // Distance to the nearest point other than `skip`, searching rings outward; its index in *which.
    double nearest(double x, double y, std::int64_t skip = -1, std::uint32_t *which = nullptr) const
    {
        const int cx = clampCol(x), cy = clampRow(y);
        double best2 = std::numeric_limits<double>::infinity();
        const int maxRing = std::max(m_cols, m_rows);
        for (int ring = 0; ring <= maxRing; ++ring) {
            // every point in rings beyond this one is at least (ring - 1) cells away
            const double ringDist = (ring - 1) * m_cell;
            if (ring > 1 && ringDist * ringDist > best2)
                break;
            for (int row = cy - ring; row <= cy + ring; ++row) {
                if (row < 0 || row >= m_rows)
                    continue;
                const bool edgeRow = row == cy - ring || row == cy + ring;
                for (int col = cx - ring; col <= cx + ring; col += edgeRow ? 1 : 2 * ring) {
                    if (col >= 0 && col < m_cols) {
                        const size_t cell = static_cast<size_t>(row) * static_cast<size_t>(m_cols) + static_cast<size_t>(col);
                        for (std::uint32_t k = m_start[cell]; k < m_start[cell + 1]; ++k) {
                            const Item &q = m_items[k];
                            if (static_cast<std::int64_t>(q.id) == skip)
                                continue;
                            const double dx = q.x - x, dy = q.y - y;
                            const double d2 = dx * dx + dy * dy;
                            if (d2 < best2) {
                                best2 = d2;
                                if (which)
                                    *which = q.id;
                            }
                        }
                    }
                    if (ring == 0)
                        break;
                }
            }
        }
        return std::sqrt(best2);
    }

    // Calls f(item) for every point in the cells within `rings` cells of (x, y)'s cell (clamped
    // to the grid, which keeps every point closer than rings x cell to (x, y) among them, off the
    // map too).
    template<typename F>
    void forEachNear(double x, double y, int rings, F f) const
    {
        const int cx = clampCol(x), cy = clampRow(y);
        const int r0 = std::max(0, cy - rings), r1 = std::min(m_rows - 1, cy + rings);
        const int c0 = std::max(0, cx - rings), c1 = std::min(m_cols - 1, cx + rings);
        for (int row = r0; row <= r1; ++row) {
            const size_t base = static_cast<size_t>(row) * static_cast<size_t>(m_cols);
            for (std::uint32_t k = m_start[base + static_cast<size_t>(c0)]; k < m_start[base + static_cast<size_t>(c1) + 1]; ++k)
                f(m_items[k]);
        }
    }

    // How many cells a search must reach out to find every point closer than `d`.
    int ringsFor(double d) const
    {
        const double rings = std::ceil(d / m_cell * (1 + 1e-12));  // a hair over, for the rounding of x / cell
        const int most = std::max(m_cols, m_rows);
        return rings < most ? std::max(1, static_cast<int>(rings)) : most;  // NaN and infinity: every cell
    }

private:
    int clampCol(double x) const { return static_cast<int>(std::clamp(std::floor((x - m_x0) / m_cell), 0.0, m_cols - 1.0)); }
    int clampRow(double y) const { return static_cast<int>(std::clamp(std::floor((y - m_y0) / m_cell), 0.0, m_rows - 1.0)); }
    size_t cellOf(double x, double y) const
    {
        return static_cast<size_t>(clampRow(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(clampCol(x));
    }

    double m_x0 = 0, m_y0 = 0;
    double m_cell = 1;
    int m_cols = 1, m_rows = 1;
    std::vector<std::uint32_t> m_start;
    std::vector<Item> m_items;
};

} // namespace grove::stats
