// The nearest of a set of sites (the voronoi node's regions) and how far a spot is from its
// region's border, through a uniform grid of buckets rather than a test of every site.
#pragma once

#include "DataTypes.h"
#include "Polygon.h"

#include <cstddef>
#include <vector>

namespace grove {

class SiteIndex
{
public:
    // Sites that are not finite are left out (they are nobody's nearest); indices stay those of `sites`.
    // With `core` given (the world widened by its size each side), only sites inside it go in the
    // grid and the few outside are tested at every query, so one far-off site cannot stretch the
    // grid until every site shares a bucket.
    explicit SiteIndex(const std::vector<Vec2> &sites, const Region *core = nullptr);

    std::size_t size() const { return m_count; }
    // The index of the site nearest (x, y) by dx*dx + dy*dy, the lower index on a tie; -1 with no
    // sites or a NaN spot.
    long long nearest(double x, double y) const;
    // True when (x, y) lies within `width` of its region's border: some other site b has a
    // bisector distance (|p-b|^2 - |p-a|^2) / (2 |a-b|) below width, a the nearest site. Sites at
    // a's very spot (no bisector) are skipped. The distance is to the whole border of the region
    // (its nearest edge), not only to the second nearest site's bisector.
    bool nearBorder(double x, double y, double width) const;

private:
    int colOf(double x) const;
    int rowOf(double y) const;
    std::size_t bucket(int col, int row) const
    {
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(col);
    }
    long long nearestWithSquared(double x, double y, double &best) const;
    bool inGrid(const Vec2 &p) const;

    double m_minX = 0, m_minY = 0, m_cell = 1, m_inverse = 0, m_margin = 0;
    int m_cols = 1, m_rows = 1;
    std::vector<std::size_t> m_start;    // per bucket: its first site in m_x/m_y/m_index
    std::vector<double> m_x, m_y;
    std::vector<std::size_t> m_index;    // the site's index in the caller's list, ascending per bucket
    std::vector<Vec2> m_site;            // every site by index (for the nearest site's position)
    std::vector<std::size_t> m_far;      // finite sites outside the core, ascending
    Region m_core;
    bool m_hasCore = false;
    std::size_t m_count = 0;
};

} // namespace grove
