// Voronoi cells of point sites inside the world rectangle (Boost.Polygon's Voronoi builder) and
// their centroids: what the relax node's Lloyd rounds move points to.
#pragma once

#include "core/geometry/Polygon.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace grove {

// Boost.Polygon takes integer coordinates: a site (x, y) goes to (floor(x * s + 0.5), floor(y * s
// + 0.5)) with s the largest power of two for which max(width, height) * s <= 2^30 (a 1024-unit
// world gets 2^20 steps a unit, a 10^7-unit world 64). Powers of two keep x * s exact, so the
// grid does not depend on the machine.
double voronoiScale(double width, double height);

// Calls `cell(site, polygon)` once for each site that has a cell, in ascending site order, with
// its Voronoi cell clipped to [0, width] x [0, height] (a convex polygon, counter-clockwise in a
// y-up frame, without its closing vertex; it may be empty when the cell misses the rectangle).
// Boost.Polygon builds the diagram of the quantised sites. A closed cell is Boost's vertices cut to
// the rectangle; an open one (a site on the hull, with infinite edges) is the world rectangle cut
// by the bisector of its site and the site across each of its Boost edges (its Voronoi
// neighbours), which is the cell itself, its infinite edges clipped exactly.
// The polygon's coordinates are those of the quantised sites divided by the scale. Sites that
// are not finite or lie outside the rectangle have no cell; of sites that quantise to the same
// spot only the lowest index has one. `cancel`, when given, is asked between cells; it returning
// true stops the walk (the function then returns false).
bool forEachVoronoiCell(const std::vector<Vec2> &sites, double width, double height,
                        const std::function<void(std::size_t site, const std::vector<Vec2> &polygon)> &cell,
                        const std::function<bool()> &cancel = {});

// The signed area (positive counter-clockwise in a y-up frame) and the centroid of a polygon by the
// shoelace formulas; a polygon of zero area gives area 0 and the mean of its vertices.
double polygonArea(const std::vector<Vec2> &polygon);
Vec2 polygonCentroid(const std::vector<Vec2> &polygon);

// Cuts a convex polygon to the half-plane where (q - m) . n <= 0 (Sutherland-Hodgman, one edge).
void clipToHalfPlane(std::vector<Vec2> &polygon, Vec2 m, Vec2 n, std::vector<Vec2> &scratch);

} // namespace grove
