// The border test over NearestPoints' walk: the sites near enough to the spot to bound its region there.
#include "core/geometry/SiteIndex.h"

#include <cmath>

namespace grove {

bool SiteIndex::nearBorder(double x, double y, double width) const
{
    double best;
    const long long a = m_points.nearestIndex(x, y, &best);
    if (a < 0 || !(width > 0))
        return false;
    const double ax = m_site[static_cast<std::size_t>(a)].x, ay = m_site[static_cast<std::size_t>(a)].y;
    // (|pb|^2 - |pa|^2) / (2 |ab|) >= (|pb| - |pa|) / 2, so only sites with |pb| < |pa| + 2 width count
    const double reach = std::sqrt(best) + 2 * width;
    const double reach2 = reach * reach * (1 + 1e-12) + m_points.margin();
    return m_points.walk(
        x, y, reach,
        [&](double bx, double by, double d2, std::size_t) {
            if (d2 > reach2)
                return false;
            const double ex = bx - ax, ey = by - ay;
            const double ab = std::sqrt(ex * ex + ey * ey);
            return ab != 0 && (d2 - best) / (2 * ab) < width;  // ab 0: a itself, or a site on a's spot
        },
        [](double) { return true; });  // every bucket of the window
}

} // namespace grove
