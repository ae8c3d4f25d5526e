// Bridson in 3D: Marsaglia Gaussians for the direction, a cube root for the shell radius, both
// from + - * / and sqrt (ExactLog.h), on a bucket grid of cells r / sqrt(3).
#include "core/sampling/VolumePlacement.h"

#include "core/math/ExactLog.h"
#include "core/math/SeededRandom.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace grove {

double maxVolumePointsEstimate(double width, double height, double depth, double radius)
{
    return 1.4142135623730951 * (width + radius) * (height + radius) * (depth + radius) / (radius * radius * radius) + 1;
}

double volumeGridCells(double width, double height, double depth, double radius)
{
    const double cell = radius / std::sqrt(3.0);
    return (std::floor(width / cell) + 1) * (std::floor(height / cell) + 1) * (std::floor(depth / cell) + 1);
}

namespace {

// Points in buckets of side `cell`: each cell heads a list threaded through `next`. Points outside
// the volume fall into the border cells; a query looks at every cell within its radius.
class VolumeGrid
{
public:
    VolumeGrid(double width, double height, double depth, double cell)
        : m_cell(cell)
        , m_nx(static_cast<int>(std::floor(width / cell)) + 1)
        , m_ny(static_cast<int>(std::floor(height / cell)) + 1)
        , m_nz(static_cast<int>(std::floor(depth / cell)) + 1)
        , m_head(static_cast<std::size_t>(m_nx) * static_cast<std::size_t>(m_ny) * static_cast<std::size_t>(m_nz), -1)
    {
    }

    void add(const PointXYZR &p)
    {
        const std::size_t c = index(coord(p.x, m_nx), coord(p.y, m_ny), coord(p.z, m_nz));
        m_entries.push_back({p, m_head[c]});
        m_head[c] = static_cast<std::int32_t>(m_entries.size() - 1);
    }

    // The cells a query at radius `reach` may find a conflict in, nearest first, so a candidate
    // that fails (most do) fails after a few cells. A cell d cells away along an axis is at
    // least (|d| - 1) cells away from any point of the query's own cell; cells farther than
    // `reach` are left out. Stored points and queries lie inside the volume (off-volume
    // candidates are turned down first), so no cell needs clamping.
    void prepare(double reach)
    {
        m_reach = reach;
        m_offsets.clear();
        m_steps.clear();
        const int span = static_cast<int>(std::ceil(reach / m_cell));
        if (span > 8)  // a far larger radius (a radius field): the plain scan
            return;
        std::vector<std::pair<double, std::array<int, 3>>> all;
        for (int k = -span; k <= span; ++k)
            for (int j = -span; j <= span; ++j)
                for (int i = -span; i <= span; ++i) {
                    auto g = [&](int d) { return std::max(std::abs(d) - 1, 0) * m_cell; };
                    const double gap2 = g(i) * g(i) + g(j) * g(j) + g(k) * g(k);
                    if (gap2 < reach * reach)
                        all.push_back({gap2 + 1e-9 * m_cell * m_cell * (i * i + j * j + k * k), {i, j, k}});
                }
        std::sort(all.begin(), all.end());
        m_span = span;
        for (const auto &[d, o] : all) {
            m_offsets.push_back(o);
            m_steps.push_back((static_cast<std::ptrdiff_t>(o[2]) * m_ny + o[1]) * m_nx + o[0]);
        }
    }

    // No stored point q with |q - (x, y, z)| < min(r, q.r).
    bool isFree(double x, double y, double z, double r) const
    {
        if (r == m_reach && !m_offsets.empty() && x >= 0 && y >= 0 && z >= 0) {
            const int ci = coord(x, m_nx), cj = coord(y, m_ny), ck = coord(z, m_nz);
            const auto near = [&](std::size_t cell) { return cellConflicts(cell, x, y, z, r); };
            // a cell `span` or more from every face: every offset lands in the grid, no checks
            if (ci >= m_span && cj >= m_span && ck >= m_span && ci < m_nx - m_span && cj < m_ny - m_span && ck < m_nz - m_span) {
                const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(index(ci, cj, ck));
                for (std::ptrdiff_t step : m_steps)
                    if (near(static_cast<std::size_t>(base + step)))
                        return false;
                return true;
            }
            for (const auto &o : m_offsets) {
                const int i = ci + o[0], j = cj + o[1], k = ck + o[2];
                if (i < 0 || j < 0 || k < 0 || i >= m_nx || j >= m_ny || k >= m_nz)
                    continue;
                if (near(index(i, j, k)))
                    return false;
            }
            return true;
        }
        const int x0 = coord(x - r, m_nx), x1 = coord(x + r, m_nx);
        const int y0 = coord(y - r, m_ny), y1 = coord(y + r, m_ny);
        const int z0 = coord(z - r, m_nz), z1 = coord(z + r, m_nz);
        // a radius far beyond the cells (a radius input's huge value): the stored points, once each
        const double cells = (x1 - x0 + 1.0) * (y1 - y0 + 1.0) * (z1 - z0 + 1.0);
        if (cells > static_cast<double>(m_entries.size())) {
            for (const Entry &e : m_entries)
                if (conflicts(e.point, x, y, z, r))
                    return false;
            return true;
        }
        for (int k = z0; k <= z1; ++k)
            for (int j = y0; j <= y1; ++j)
                for (int i = x0; i <= x1; ++i)
                    if (cellConflicts(index(i, j, k), x, y, z, r))
                        return false;
        return true;
    }

    // the stored points from the `first`th on, in the order they were added
    void copyPoints(std::size_t first, std::vector<PointXYZR> &out) const
    {
        out.clear();
        out.reserve(m_entries.size() - std::min(first, m_entries.size()));
        for (std::size_t p = first; p < m_entries.size(); ++p)
            out.push_back(m_entries[p].point);
    }

private:
    // q keeps (x, y, z) clear at min(r, q.r)
    static bool conflicts(const PointXYZR &q, double x, double y, double z, double r)
    {
        const double m = std::min(r, q.r);
        const double dx = q.x - x, dy = q.y - y, dz = q.z - z;
        return dx * dx + dy * dy + dz * dz < m * m;
    }
    // some point stored in the cell keeps (x, y, z) clear
    bool cellConflicts(std::size_t cell, double x, double y, double z, double r) const
    {
        for (std::int32_t p = m_head[cell]; p >= 0;) {
            const Entry &e = m_entries[static_cast<std::size_t>(p)];
            if (conflicts(e.point, x, y, z, r))
                return true;
            p = e.next;
        }
        return false;
    }

    // the cell column of a coordinate, clamped to the grid (NaN and infinities included)
    int coord(double v, int n) const
    {
        const double c = std::floor(v / m_cell);
        if (!(c >= 0))
            return 0;
        return c >= n - 1 ? n - 1 : static_cast<int>(c);
    }
    std::size_t index(int i, int j, int k) const
    {
        return (static_cast<std::size_t>(k) * static_cast<std::size_t>(m_ny) + static_cast<std::size_t>(j))
                   * static_cast<std::size_t>(m_nx)
               + static_cast<std::size_t>(i);
    }

    // a point and the next one in its cell's list (-1: none), read together rather than from two arrays
    struct Entry
    {
        PointXYZR point;
        std::int32_t next;
    };

    double m_cell;
    int m_nx, m_ny, m_nz;
    double m_reach = -1;
    int m_span = 0;
    std::vector<std::array<int, 3>> m_offsets;
    std::vector<std::ptrdiff_t> m_steps;  // the offsets as steps in the cell index
    std::vector<std::int32_t> m_head;
    std::vector<Entry> m_entries;
};

class VolumeSampler
{
public:
    VolumeSampler(const VolumeSettings &s, VolumeGrid &grid) : m_s(s), m_grid(grid), m_random(s.seed) {}

    double nextFloat() { return m_random.nextFloat(); }
    bool full() const { return m_full; }
    std::uint64_t placed() const { return m_placed; }
    const PlacementTally &tally() const { return m_tally; }

    // The checks are pure, so their order changes no point: off the volume, too close at the
    // layer's radius, not allowed, too close at the spot's own radius.
    bool tryAdd(double x, double y, double z)
    {
        ++m_tally.candidates;
        if (!(x >= 0 && y >= 0 && z >= 0 && x < m_s.width && y < m_s.height && z < m_s.depth)) {
            ++m_tally.offMap;
            return false;
        }
        if (!m_grid.isFree(x, y, z, m_s.radius)) {
            ++m_tally.tooClose;
            return false;
        }
        if (m_s.allowed && !m_s.allowed->at3(x, y, z)) {
            ++m_tally.notAllowed;
            return false;
        }
        double radius = m_s.radius;
        if (m_s.radiusField) {
            const double f = m_s.radiusField->at3(x, y, z);
            radius = m_s.radius < f ? f : m_s.radius;  // NaN keeps the layer's radius
            if (radius != m_s.radius && !m_grid.isFree(x, y, z, radius)) {
                ++m_tally.tooClose;
                return false;
            }
        }
        if (m_placed >= m_s.maxPoints) {
            m_full = true;
            return false;
        }
        const PointXYZR p{x, y, z, radius};
        m_grid.add(p);
        m_active.push_back(p);
        ++m_placed;
        return true;
    }

    // A standard Gaussian pair's first value by Marsaglia's polar method, and its second in `other`.
    double gaussian(double &other)
    {
        double u, v, s;
        do {
            u = nextFloat() * 2 - 1;
            v = nextFloat() * 2 - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        const double f = std::sqrt(-2 * exactLog(s) / s);
        other = v * f;
        return u * f;
    }

    bool step()
    {
        if (m_active.empty())
            return false;
        const std::size_t n = m_active.size();
        const auto a = static_cast<std::size_t>(std::floor(nextFloat() * static_cast<double>(n)));
        const PointXYZR parent = m_active[a];
        for (int i = 0; i < m_s.k; ++i) {
            double gy, unused;
            const double gx = gaussian(gy);
            const double gz = gaussian(unused);
            const double len = std::sqrt(gx * gx + gy * gy + gz * gz);
            const double dist = 2 * parent.r * exactCbrtUnit(0.125 + nextFloat() * 0.875);
            if (tryAdd(parent.x + gx / len * dist, parent.y + gy / len * dist, parent.z + gz / len * dist))
                return true;
            if (m_full)
                return false;
        }
        m_active[a] = m_active.back();
        m_active.pop_back();
        return true;
    }

private:
    const VolumeSettings &m_s;
    VolumeGrid &m_grid;
    SeededRandom m_random;
    std::vector<PointXYZR> m_active;
    std::uint64_t m_placed = 0;
    bool m_full = false;
    PlacementTally m_tally{true, m_s.radius};
};

} // namespace

PlacementStatus placeVolume(const VolumeSettings &s, const std::vector<PointXYZR> &obstacles, std::vector<PointXYZR> &out,
                            const PlacementControl &control)
{
    VolumeGrid grid(s.width, s.height, s.depth, s.radius / std::sqrt(3.0));
    grid.prepare(s.radius);
    for (const PointXYZR &p : obstacles)
        grid.add(p);
    VolumeSampler sampler(s, grid);
    std::uint64_t ticks = 0;
    const double expected = std::max(1.0, maxVolumePointsEstimate(s.width, s.height, s.depth, s.radius) * 0.5);
    auto poll = [&]() {  // true: stop now
        if ((++ticks & 4095) != 0)
            return false;
        if (control.cancel && control.cancel->load(std::memory_order_relaxed))
            return true;
        if (control.progress && (ticks & 65535) == 0)
            control.progress(std::min(0.99, static_cast<double>(sampler.placed()) / expected));
        return false;
    };

    switch (s.start) {
    case StartMode::Patches: {
        // every 2r cube gets up to k tries (3 draws each: x, y, z); cubes on the far faces are cut short
        const double spacing = s.radius * 2;
        for (double z = 0; z < s.depth; z += spacing)
            for (double y = 0; y < s.height; y += spacing)
                for (double x = 0; x < s.width; x += spacing) {
                    const double w = std::min(spacing, s.width - x), h = std::min(spacing, s.height - y);
                    const double d = std::min(spacing, s.depth - z);
                    for (int i = 0; i < s.k; ++i) {
                        const double px = x + sampler.nextFloat() * w;
                        const double py = y + sampler.nextFloat() * h;
                        const double pz = z + sampler.nextFloat() * d;
                        if (sampler.tryAdd(px, py, pz) || sampler.full())
                            break;
                    }
                    if (sampler.full())
                        return PlacementStatus::TooManyPoints;
                    if (poll())
                        return PlacementStatus::Cancelled;
                }
        break;
    }
    case StartMode::Random: {
        const double x = sampler.nextFloat() * s.width;
        const double y = sampler.nextFloat() * s.height;
        const double z = sampler.nextFloat() * s.depth;
        sampler.tryAdd(x, y, z);
        break;
    }
    case StartMode::Point: sampler.tryAdd(s.startX, s.startY, s.startZ); break;
    }
    while (sampler.step())
        if (poll())
            return PlacementStatus::Cancelled;
    if (sampler.full())
        return PlacementStatus::TooManyPoints;
    if (control.tally)
        *control.tally = sampler.tally();
    grid.copyPoints(obstacles.size(), out);
    return PlacementStatus::Done;
}

} // namespace grove
