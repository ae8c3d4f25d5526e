// The nearest of a set of sites (the voronoi node's regions) and how far a spot is from its
// region's border, through NearestPoints' bucket grid rather than a test of every site.
#pragma once

#include "core/base/DataTypes.h"
#include "core/geometry/Polygon.h"
#include "core/geometry/DistanceTransform.h"

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
    explicit SiteIndex(const std::vector<Vec2> &sites, const Region *core = nullptr) : m_site(sites), m_points(sites, core) {}

    std::size_t size() const { return m_points.size(); }
    // The index of the site nearest (x, y) by dx*dx + dy*dy, the lower index on a tie; -1 with no
    // sites or a NaN spot.
    long long nearest(double x, double y) const { return m_points.nearestIndex(x, y); }
    // True when (x, y) lies within `width` of its region's border: some other site b has a
    // bisector distance (|p-b|^2 - |p-a|^2) / (2 |a-b|) below width, a the nearest site. Sites at
    // a's very spot (no bisector) are skipped. The distance is to the whole border of the region
    // (its nearest edge), not only to the second nearest site's bisector.
    bool nearBorder(double x, double y, double width) const;

private:
    std::vector<Vec2> m_site;  // every site by index (for the nearest site's position)
    NearestPoints m_points;
};

} // namespace grove
