// A bucket grid over the sites: nearest-site queries ring by ring, border tests within a box.
#include "SiteIndex.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grove {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

bool SiteIndex::inGrid(const Vec2 &p) const
{
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
        return false;
    return !m_hasCore || (p.x >= m_core.x0 && p.x <= m_core.x1 && p.y >= m_core.y0 && p.y <= m_core.y1);
}

SiteIndex::SiteIndex(const std::vector<Vec2> &sites, const Region *core) : m_site(sites)
{
    if (core) {
        m_core = *core;
        m_hasCore = true;
    }
    std::size_t n = 0;
    double maxX = 0, maxY = 0;
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const Vec2 &p = sites[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y))
            continue;
        ++m_count;
        if (!inGrid(p)) {
            m_far.push_back(i);
            continue;
        }
        if (n == 0) {
            m_minX = maxX = p.x;
            m_minY = maxY = p.y;
        }
        m_minX = std::min(m_minX, p.x);
        maxX = std::max(maxX, p.x);
        m_minY = std::min(m_minY, p.y);
        maxY = std::max(maxY, p.y);
        ++n;
    }
    if (n == 0) {
        m_start.assign(2, 0);
        return;
    }
    const double w = maxX - m_minX, h = maxY - m_minY;
    // about two sites a bucket; no more buckets along a side than half the sites
    const double cell = std::max(std::sqrt(2 * w * h / static_cast<double>(n)), 2 * std::max(w, h) / static_cast<double>(n));
    if (std::isfinite(w) && std::isfinite(h) && std::isfinite(cell) && cell > 0) {
        m_cell = cell;
        m_inverse = 1 / cell;
        m_cols = static_cast<int>(std::min(std::floor(w * m_inverse) + 1, 1e9));
        m_rows = static_cast<int>(std::min(std::floor(h * m_inverse) + 1, 1e9));
    }
    m_margin = m_cell * 1e-9 + (std::fabs(m_minX) + std::fabs(m_minY) + std::fabs(maxX) + std::fabs(maxY)) * 1e-15;
    const std::size_t buckets = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    m_start.assign(buckets + 1, 0);
    for (const Vec2 &p : sites)
        if (inGrid(p))
            ++m_start[bucket(colOf(p.x), rowOf(p.y)) + 1];
    for (std::size_t b = 0; b < buckets; ++b)
        m_start[b + 1] += m_start[b];
    m_x.resize(n);
    m_y.resize(n);
    m_index.resize(n);
    std::vector<std::size_t> fill(m_start.begin(), m_start.end() - 1);
    for (std::size_t i = 0; i < sites.size(); ++i) {
        const Vec2 &p = sites[i];
        if (!inGrid(p))
            continue;
        const std::size_t at = fill[bucket(colOf(p.x), rowOf(p.y))]++;
        m_x[at] = p.x;
        m_y[at] = p.y;
        m_index[at] = i;
    }
}

int SiteIndex::colOf(double x) const
{
    const double c = std::floor((x - m_minX) * m_inverse);
    return !(c > 0) ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
}

int SiteIndex::rowOf(double y) const
{
    const double r = std::floor((y - m_minY) * m_inverse);
    return !(r > 0) ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
}

long long SiteIndex::nearestWithSquared(double x, double y, double &best) const
{
    best = kInf;
    if (m_count == 0 || x != x || y != y)
        return -1;
    long long found = -1;
    for (std::size_t i : m_far) {
        const double dx = m_site[i].x - x, dy = m_site[i].y - y;
        const double d2 = dx * dx + dy * dy;
        if (d2 < best) {  // ascending indices: a tie keeps the lower
            best = d2;
            found = static_cast<long long>(i);
        }
    }
    if (m_index.empty())
        return found;
    const int cx = colOf(x), cy = rowOf(y);
    const auto visit = [&](int col, int row) {
        const std::size_t b = bucket(col, row);
        for (std::size_t i = m_start[b], end = m_start[b + 1]; i < end; ++i) {
            const double dx = m_x[i] - x, dy = m_y[i] - y;
            const double d2 = dx * dx + dy * dy;
            const long long idx = static_cast<long long>(m_index[i]);
            if (d2 < best || (d2 == best && idx < found)) {
                best = d2;
                found = idx;
            }
        }
    };
    const int most = std::max(m_cols, m_rows);
    for (int k = 0; k <= most; ++k) {
        const int c0 = cx - k, c1 = cx + k, r0 = cy - k, r1 = cy + k;
        const int cc0 = std::max(c0, 0), cc1 = std::min(c1, m_cols - 1);
        if (r0 >= 0)
            for (int c = cc0; c <= cc1; ++c)
                visit(c, r0);
        if (k > 0 && r1 < m_rows)
            for (int c = cc0; c <= cc1; ++c)
                visit(c, r1);
        const int rr0 = std::max(r0 + 1, 0), rr1 = std::min(r1 - 1, m_rows - 1);
        if (k > 0 && c0 >= 0)
            for (int r = rr0; r <= rr1; ++r)
                visit(c0, r);
        if (k > 0 && c1 < m_cols)
            for (int r = rr0; r <= rr1; ++r)
                visit(c1, r);
        if (c0 <= 0 && r0 <= 0 && c1 >= m_cols - 1 && r1 >= m_rows - 1)
            break;  // every bucket visited
        // every unvisited bucket lies in one of the slabs beyond the square of rings 0..k
        const double gridRight = m_minX + m_cols * m_cell, gridBottom = m_minY + m_rows * m_cell;
        const auto toRect = [&](double x0, double x1, double y0, double y1) {
            const double dx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
            const double dy = y < y0 ? y0 - y : y > y1 ? y - y1 : 0;
            return dx * dx + dy * dy;
        };
        double bound = kInf;
        if (c0 > 0)
            bound = std::min(bound, toRect(m_minX, m_minX + c0 * m_cell, m_minY, gridBottom));
        if (c1 < m_cols - 1)
            bound = std::min(bound, toRect(m_minX + (c1 + 1) * m_cell, gridRight, m_minY, gridBottom));
        if (r0 > 0)
            bound = std::min(bound, toRect(m_minX, gridRight, m_minY, m_minY + r0 * m_cell));
        if (r1 < m_rows - 1)
            bound = std::min(bound, toRect(m_minX, gridRight, m_minY + (r1 + 1) * m_cell, gridBottom));
        // shrunk by the rounding margin; strictly nearer only: an unvisited site at the same
        // distance may have a lower index
        const double gap = std::sqrt(bound) - m_margin;
        if (gap > 0 && best < gap * gap * (1 - 1e-12))
            break;
    }
    return found;
}

long long SiteIndex::nearest(double x, double y) const
{
    double best;
    return nearestWithSquared(x, y, best);
}

bool SiteIndex::nearBorder(double x, double y, double width) const
{
    double best;
    const long long a = nearestWithSquared(x, y, best);
    if (a < 0 || !(width > 0))
        return false;
    const double ax = m_site[static_cast<std::size_t>(a)].x, ay = m_site[static_cast<std::size_t>(a)].y;
    const auto bisectorNear = [&](double bx, double by) {
        const double dx = bx - x, dy = by - y;
        const double ex = bx - ax, ey = by - ay;
        const double ab = std::sqrt(ex * ex + ey * ey);
        return ab != 0 && (dx * dx + dy * dy - best) / (2 * ab) < width;  // ab 0: a itself, or a site on a's spot
    };
    for (std::size_t i : m_far)
        if (bisectorNear(m_site[i].x, m_site[i].y))
            return true;
    if (m_index.empty())
        return false;
    // (|pb|^2 - |pa|^2) / (2 |ab|) >= (|pb| - |pa|) / 2, so only sites with |pb| < |pa| + 2 width count
    const double reach = std::sqrt(best) + 2 * width;
    const double reach2 = reach * reach * (1 + 1e-12) + m_margin;
    const int c0 = colOf(x - reach - m_margin), c1 = colOf(x + reach + m_margin);
    const int r0 = rowOf(y - reach - m_margin), r1 = rowOf(y + reach + m_margin);
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c) {
            const std::size_t b = bucket(c, r);
            for (std::size_t i = m_start[b], end = m_start[b + 1]; i < end; ++i) {
                const double dx = m_x[i] - x, dy = m_y[i] - y;
                const double d2 = dx * dx + dy * dy;
                if (d2 > reach2)
                    continue;
                if (bisectorNear(m_x[i], m_y[i]))
                    return true;
            }
        }
    return false;
}

} // namespace grove
