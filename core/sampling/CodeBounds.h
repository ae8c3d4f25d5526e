// The bounds that let a cell's quantised point (OccupancyGrid's codes in 2D, place_volume's
// VolumeGrid in 3D) answer a query alone: the one place the allowance is worked out.
#pragma once

#include <algorithm>

namespace grove {

struct CodeBounds
{
    double free2;      // squared distances from a quantised centre >= this: clearly no conflict
    double conflict2;  // < this: clearly a conflict (-1: never)
};

// For a query at radius r on a grid whose points lie within quantError of their quantised
// centres. The allowance also covers rounding in the centre, the differences and the squares:
// `magnitude` is the query's coordinates' sizes, the grid's extent and r, summed, and the
// allowance 1e-12 of it, far below any radius a layer can use. A point is clearly closer than
// its min(r, its radius) when clearly closer than min(r, the smallest radius stored).
inline CodeBounds codeBounds(double quantError, double magnitude, double r, double smallestRadius)
{
    const double e = quantError + magnitude * 1e-12;
    const double far = r + e;
    const double near = std::min(r, smallestRadius) - e;
    return {far * far * (1 + 1e-12), near > 0 ? near * near * (1 - 1e-12) : -1.0};
}

} // namespace grove
