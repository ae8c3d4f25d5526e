// Bridson's algorithm with the tutorial's exact draw order: square-rejection ring candidates,
// swap-remove retirement, and the patches pre-pass that seeds every 2r x 2r square.
#include "PoissonPlacement.h"

#include "SeededRandom.h"

#include <cmath>

namespace grove {

double maxPointsEstimate(double width, double height, double radius)
{
    // each point owns at least a hexagon of area (sqrt(3)/2) r^2; add a border of r
    return (width + radius) * (height + radius) / (0.8660254037844386 * radius * radius) + 1;
}

namespace {

class Sampler
{
public:
    Sampler(const PlacementSettings &s, OccupancyGrid &occupancy)
        : m_s(s), m_occupancy(occupancy), m_first(occupancy.size()), m_random(s.seed)
    {
    }

    std::size_t placed() const { return m_occupancy.size() - m_first; }
    std::size_t firstOwn() const { return m_first; }

    SeededRandom &random() { return m_random; }
    bool full() const { return m_full; }

    bool tryAdd(double x, double y)
    {
        if (x < 0 || y < 0 || x >= m_s.width || y >= m_s.height)
            return false;  // off the map
        // The checks are pure, so their order cannot change a point. The cheap one goes first:
        // a spot too close even at the layer's minimum radius is too close at its own radius
        // (min(radius, p.r) only grows with radius), so no noise is evaluated for it.
        if (!m_occupancy.isFree(x, y, m_s.radius))
            return false;  // too close
        if (m_s.allowed && !m_s.allowed->at(x, y))
            return false;  // wrong ground
        double radius = m_s.radius;
        if (m_s.radiusField) {
            radius = std::max(m_s.radius, m_s.radiusField->at(x, y));
            if (radius != m_s.radius && !m_occupancy.isFree(x, y, radius))
                return false;  // too close at this spot's own, larger radius
        }
        if (placed() >= m_s.maxPoints) {
            m_full = true;
            return false;
        }
        m_active.push_back(static_cast<std::uint32_t>(m_occupancy.size()));
        m_occupancy.add(x, y, radius);
        return true;
    }

    // One step places a point or retires one; false when the active list is empty.
    bool step()
    {
        if (m_active.empty())
            return false;
        const size_t a = static_cast<size_t>(std::floor(m_random.nextFloat() * static_cast<double>(m_active.size())));
        const PointXYR parent = m_occupancy.point(m_active[a]);
        const double pr = parent.r;
        for (int i = 0; i < m_s.k; ++i) {
            double dx, dy, d2;
            do {
                dx = (m_random.nextFloat() * 4 - 2) * pr;
                dy = (m_random.nextFloat() * 4 - 2) * pr;
                d2 = dx * dx + dy * dy;
            } while (d2 < pr * pr || d2 > 4 * pr * pr);
            if (tryAdd(parent.x + dx, parent.y + dy))
                return true;
            if (m_full)
                return false;
        }
        m_active[a] = m_active.back();
        m_active.pop_back();
        return true;
    }

private:
    const PlacementSettings &m_s;
    OccupancyGrid &m_occupancy;
    std::size_t m_first;  // the layer's own points follow the obstacles in the occupancy
    SeededRandom m_random;
    std::vector<std::uint32_t> m_active;
    bool m_full = false;
};

} // namespace

PlacementStatus placePoisson(const PlacementSettings &s, OccupancyGrid &occupancy, std::vector<PointXYR> &out,
                             const PlacementControl &control)
{
    Sampler sampler(s, occupancy);
    const double expected = std::max(1.0, maxPointsEstimate(s.width, s.height, s.radius) * 0.6);
    std::uint64_t ticks = 0;
    auto poll = [&]() -> bool {  // true: stop now
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
        // every 2r x 2r square gets up to k tries; squares on the far edges are cut short
        const double spacing = s.radius * 2;
        for (double y = 0; y < s.height; y += spacing) {
            for (double x = 0; x < s.width; x += spacing) {
                for (int i = 0; i < s.k; ++i) {
                    const double sx = x + sampler.random().nextFloat() * std::min(spacing, s.width - x);
                    const double sy = y + sampler.random().nextFloat() * std::min(spacing, s.height - y);
                    if (sampler.tryAdd(sx, sy))
                        break;
                    if (sampler.full())
                        return PlacementStatus::TooManyPoints;
                }
                if (poll())
                    return PlacementStatus::Cancelled;
            }
        }
        break;
    }
    case StartMode::Random: {
        const double x = sampler.random().nextFloat() * s.width;
        const double y = sampler.random().nextFloat() * s.height;
        sampler.tryAdd(x, y);
        break;
    }
    case StartMode::Point:
        sampler.tryAdd(s.startX, s.startY);
        break;
    }
    while (sampler.step()) {
        if (poll())
            return PlacementStatus::Cancelled;
    }
    if (sampler.full())
        return PlacementStatus::TooManyPoints;
    out = occupancy.takePoints(sampler.firstOwn());
    return PlacementStatus::Done;
}

} // namespace grove
