// Bridson's algorithm with the tutorial's exact draw order: square-rejection ring candidates,
// swap-remove retirement, and the patches pre-pass that seeds every 2r x 2r square.
#include "core/sampling/PoissonPlacement.h"

#include "core/math/DrawAhead.h"
#include "core/math/ExactHypot.h"
#include "core/math/ExactTrig.h"
#include "core/math/SeededRandom.h"
#include "core/math/Torus.h"
#include "core/sampling/AllowedTiles.h"
#include "core/sampling/MaximalFill.h"
#include "core/sampling/RingCandidates.h"

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grove {

double maxPointsEstimate(double width, double height, double radius)
{
    // each point owns at least a hexagon of area (sqrt(3)/2) r^2; add a border of r
    return (width + radius) * (height + radius) / (0.8660254037844386 * radius * radius) + 1;
}

namespace {

// cos and sin of 2*pi*j/k from + - * / only (ExactTrig.h), so the fast method's candidates are
// the same doubles on every machine.
class CircleDirections
{
public:
    const std::vector<std::pair<double, double>> &get(int k)
    {
        if (static_cast<int>(m_table.size()) != k) {
            m_table.clear();
            for (int j = 0; j < k; ++j)
                m_table.push_back(unitVector(static_cast<double>(j) / k));
        }
        return m_table;
    }

private:
    std::vector<std::pair<double, double>> m_table;
};

class Sampler
{
public:
    Sampler(const PlacementSettings &s, OccupancyGrid &occupancy)
        : m_s(s), m_occupancy(occupancy), m_first(occupancy.size()),
          m_firstOwn(occupancy.size() - occupancy.imageCount()), m_random(s.seed)
    {
    }

    // the layer's own points (a wrapped world's images left out)
    std::size_t placed() const { return m_occupancy.size() - m_occupancy.imageCount() - m_firstOwn; }
    const PlacementTally &tally() const { return m_tally; }
    std::size_t firstOwn() const { return m_first; }

    DrawAhead &random() { return m_random; }
    bool full() const { return m_full; }
    // off the placement area (the world's, or a chunk's with its ghost margin)
    bool outside(double x, double y) const { return x < m_s.x0 || y < m_s.y0 || x >= m_x1 || y >= m_y1; }

    // A point placed before (a neighbouring chunk's, already on the occupancy) as a parent: up
    // to `tries` candidates in its ring, the first that passes is a point (and joins the active
    // list). False when all fail: the parent retires.
    bool growFrom(const PointXYR &parent, int tries)
    {
        for (int i = 0; i < tries && !m_full; ++i) {
            double dx, dy;
            ringOffset(parent.r, dx, dy);
            if (tryAdd(parent.x + dx, parent.y + dy))
                return true;
        }
        return false;
    }
    std::size_t activeCount() const { return m_active.size(); }
    // A point already on the occupancy that grows as this layer's own (a chunk's share of a
    // neighbour's ghost margin).
    void adopt(const PointXYR &p) { m_active.push_back(p); }

    bool tryAdd(double x, double y)
    {
        return tryAddWith(x, y, [this](double px, double py, double r) { return m_occupancy.isFree(px, py, r); });
    }

    // One candidate's checks, whatever answers "is this spot clear at radius r": the grid, or the
    // neighbours a step gathered (they hold every point within the largest radius a candidate can
    // take). The checks are pure, so their order cannot change a point. The cheap one goes first:
    // a spot too close even at the layer's minimum radius is too close at its own radius
    // (min(radius, p.r) only grows with radius), so no noise is evaluated for it.
    template<typename IsFree>
    bool tryAddWith(double x, double y, IsFree isFree)
    {
        ++m_tally.candidates;  // the counts cost an increment on paths that exist anyway
        if (m_s.wrapX)
            x = wrapInto(x, m_s.x0, m_s.width);
        if (m_s.wrapY)
            y = wrapInto(y, m_s.y0, m_s.height);
        if (outside(x, y)) {
            ++m_tally.offMap;
            return false;  // off the map
        }
        if (!isFree(x, y, m_s.radius)) {
            ++m_tally.tooClose;
            return false;  // too close
        }
        return passRest(x, y, isFree);
    }

    // The checks after the spacing at the layer's radius: allowed ground (read through its tiles),
    // then the spot's own radius; the point when all pass.
    template<typename IsFree>
    bool passRest(double x, double y, IsFree isFree)
    {
        if (m_s.allowed || m_s.radiusField)  // the checks below take a while: start the write's fetch
            m_occupancy.prefetchForAdd(x, y);
        if (m_s.allowed && !m_allowed.at(x, y)) {
            ++m_tally.notAllowed;
            return false;  // wrong ground
        }
        double radius = m_s.radius;
        if (m_s.radiusField) {
            radius = std::max(m_s.radius, m_s.radiusField->at(x, y));
            if (radius != m_s.radius && !isFree(x, y, radius)) {
                ++m_tally.tooClose;
                return false;  // too close at this spot's own, larger radius
            }
        }
        return accept(x, y, radius);
    }

    // The candidate passed every check: it becomes a point and joins the active list.
    bool accept(double x, double y, double radius)
    {
        if (placed() >= m_s.maxPoints) {
            m_full = true;
            return false;
        }
        m_active.push_back({x, y, radius});
        m_occupancy.add(x, y, radius);
        return true;
    }

    // One step places a point or retires one; false when the active list is empty.
    bool step() { return m_s.method == PlacementMethod::Fast ? stepOnCircle() : stepInRing(); }

    // Bridson as the tutorial writes it: k candidates in the ring [r, 2r] by square rejection.
    bool stepInRing()
    {
        if (m_active.empty())
            return false;
        const size_t n = m_active.size();
        const size_t a = pick(m_random.nextFloat(), n);
        const PointXYR parent = m_active[a];
        const double pr = parent.r;
        const bool canGather = m_gather;
        const double reach = 2 * pr + m_largestRadius;
        if (canGather && a != m_predicted)  // every row of codes the step can read, at once
            m_occupancy.prefetchAround(parent.x, parent.y, reach);
        m_predicted = SIZE_MAX;

        if (!canGather) {  // no bound on the neighbours' radii: each candidate asks the grid
            for (int i = 0; i < m_s.k; ++i) {
                double dx, dy;
                ringOffset(pr, dx, dy);
                if (tryAdd(parent.x + dx, parent.y + dy))
                    return true;
                if (m_full)
                    return false;
            }
        } else {
            // The candidates' offsets depend only on the draws, so they are made ahead, eight at
            // a time, without a branch per rejected pair (a rejected pair is written over by the
            // next). The parent's neighbours are gathered once; each batch of eight is tested
            // against all of them in vector lanes, then taken in order: the first candidate that
            // passes every check is the point, and the draws resume just after it.
            const std::size_t want = static_cast<std::size_t>(m_s.k);
            resizeCandidates(want);
            std::size_t used = 0, count = 0;
            auto make = [&](std::size_t upTo) {
                while (count < upTo) {
                    const std::size_t available = m_random.ensure(used + 4 * (upTo - count) + 8);
                    makeRingCandidates(m_random.unread(), available, pr, upTo, used, count, candidates());
                }
            };
            make(std::min<std::size_t>(want, kBatch));
            m_occupancy.gatherNearSet(parent.x, parent.y, reach, m_set);
            const OccupancyGrid::Query q = m_occupancy.queryAround(parent.x, parent.y, 2 * pr, m_s.radius);
            size_t next = SIZE_MAX;
            for (std::size_t b = 0; b < want; b += kBatch) {
                if (b == kBatch) {
                    // The first batch failed, and a step that goes on usually fails (about half of
                    // all steps retire their point): make the rest now. The draw after them names
                    // the next step's parent if this step fails; ask for its memory while this
                    // step tests.
                    make(want);
                    if (n > 1) {
                        next = slotAfterRetiring(pick(m_random.peek(used), n - 1), a, n);
                        __builtin_prefetch(&m_active[next]);
                    }
                } else if (b == 2 * kBatch && next != SIZE_MAX) {  // it has arrived: its rows next
                    const PointXYR &p = m_active[next];
                    m_occupancy.prefetchAround(p.x, p.y, 2 * p.r + m_largestRadius);
                }
                if (testBatch(parent, b, std::min(kBatch, want - b), q))
                    return true;
                if (m_full)
                    return false;
            }
            m_random.skip(used);
            m_predicted = next;
        }
        m_active[a] = m_active.back();
        m_active.pop_back();
        return true;
    }

    static constexpr std::size_t kBatch = 8;

    // Candidates [b, b + lanes) of this step around `parent`: their spacing at the layer's radius
    // in one vector pass over the gathered neighbours, then each in order through the other
    // checks. True when one became a point (the draws then resume just after it).
    bool testBatch(const PointXYR &parent, std::size_t b, std::size_t lanes, const OccupancyGrid::Query &q)
    {
        double xs[kBatch] = {}, ys[kBatch] = {};
        for (std::size_t i = 0; i < lanes; ++i) {
            xs[i] = parent.x + m_candDx[b + i];
            ys[i] = parent.y + m_candDy[b + i];
        }
        return testPositions(xs, ys, b, lanes, q);
    }

    // The patches pass's square at (x, y), w x h: up to k tries at x + u w, y + v h, the first
    // that passes every check is the point. Each try takes two draws and none is rejected, so
    // the draws are read ahead and the tries tested eight at a time against the neighbours
    // gathered once around the square; the draws resume just after the try that placed.
    bool trySquare(double x, double y, double w, double h)
    {
        const std::size_t k = static_cast<std::size_t>(m_s.k);
        if (!m_gather) {  // no bound on the neighbours' radii, or a wrapped world: one at a time
            for (std::size_t i = 0; i < k; ++i) {
                const double sx = x + m_random.nextFloat() * w;
                const double sy = y + m_random.nextFloat() * h;
                if (tryAdd(sx, sy))
                    return true;
                if (m_full)
                    return false;
            }
            return false;
        }
        m_random.ensure(2 * k);
        const double *d = m_random.unread();
        resizeCandidates(k);
        for (std::size_t i = 0; i < k; ++i) {  // the draws; positions below
            m_candDx[i] = d[2 * i];
            m_candDy[i] = d[2 * i + 1];
            m_candAfter[i] = 2 * i + 2;
        }
        m_occupancy.gatherNearSet(x + w / 2, y + h / 2, exactHypot(w / 2, h / 2) * (1 + 1e-12) + m_largestRadius, m_set);
        const OccupancyGrid::Query q = m_occupancy.queryAround(x + w / 2, y + h / 2, std::max(w, h) / 2, m_s.radius);
        for (std::size_t b = 0; b < k; b += kBatch) {
            const std::size_t lanes = std::min(kBatch, k - b);
            double xs[kBatch] = {}, ys[kBatch] = {};
            for (std::size_t i = 0; i < lanes; ++i) {
                xs[i] = x + m_candDx[b + i] * w;  // the tutorial's x + u * min(spacing, width - x)
                ys[i] = y + m_candDy[b + i] * h;
            }
            if (testPositions(xs, ys, b, lanes, q))
                return true;
            if (m_full)
                return false;
        }
        m_random.skip(2 * k);
        return false;
    }

    // Candidates [b, b + lanes) at (xs, ys): spacing in vector lanes, then the rest in order.
    bool testPositions(const double *xs, const double *ys, std::size_t b, std::size_t lanes, const OccupancyGrid::Query &q)
    {
        unsigned conflict, near;
        OccupancyGrid::batchMasks(m_set, xs, ys, static_cast<int>(lanes), q, conflict, near);
        for (std::size_t i = 0; i < lanes; ++i) {
            const double x = xs[i], y = ys[i];
            ++m_tally.candidates;
            if (outside(x, y)) {
                ++m_tally.offMap;
                continue;
            }
            const unsigned bit = 1u << i;
            if ((conflict & bit)
                || (near & bit ? !m_occupancy.isFreeInSet(m_set, x, y, m_s.radius)
                               : !m_set.uncoded.empty() && !OccupancyGrid::isFreeAmong(x, y, m_s.radius, m_set.uncoded))) {
                ++m_tally.tooClose;
                continue;
            }
            if (passRest(x, y, [this](double px, double py, double r) { return m_occupancy.isFreeInSet(m_set, px, py, r); })) {
                m_random.skip(m_candAfter[b + i]);
                return true;
            }
            if (m_full)
                return false;
        }
        return false;
    }

    // The active slot a step picks with the draw u among n slots.
    static size_t pick(double u, size_t n) { return static_cast<size_t>(std::floor(u * static_cast<double>(n))); }
    // Where slot `picked` of the list after retiring slot a of n was before: retiring moves the
    // last slot into a.
    static size_t slotAfterRetiring(size_t picked, size_t a, size_t n) { return picked == a ? n - 1 : picked; }

    // One candidate offset in the ring [r, 2r] around a parent of radius r, by square rejection.
    void ringOffset(double pr, double &dx, double &dy)
    {
        double d2;
        do {
            dx = (m_random.nextFloat() * 4 - 2) * pr;
            dy = (m_random.nextFloat() * 4 - 2) * pr;
            d2 = dx * dx + dy * dy;
        } while (d2 < pr * pr || d2 > 4 * pr * pr);
    }

    // Martin Roberts' variant: k candidates evenly spaced on the circle just outside the
    // parent's radius, the whole circle turned by a random angle. Each candidate sits as close as
    // the spacing allows, so the layer packs denser (about 0.87 points per r^2 against Bridson's
    // 0.62) and fewer candidates fail. The directions come from exact arithmetic only (see
    // CircleDirections), so every machine draws the same points.
    bool stepOnCircle()
    {
        if (m_active.empty())
            return false;
        const size_t count = m_active.size();
        const size_t a = pick(m_random.nextFloat(), count);
        const PointXYR parent = m_active[a];
        const double reach = parent.r * (1 + 1e-7);
        // a uniformly random turn (c, s): a point in the unit disc, normalised (sqrt is exact)
        double u, v, n2;
        do {
            u = m_random.nextFloat() * 2 - 1;
            v = m_random.nextFloat() * 2 - 1;
            n2 = u * u + v * v;
        } while (n2 > 1 || n2 < 1e-4);
        const double n = std::sqrt(n2);
        const double c = u / n, s = v / n;
        const auto &dirs = m_directions.get(m_s.k);
        // With one radius for the layer, every conflict of every candidate lies within
        // reach + radius of the parent: gather those points once, then test each candidate
        // against that short list instead of walking grid cells k times. Same points, same test.
        const bool local = m_gather;
        // This step draws nothing more, so the next step's parent is known for either outcome:
        // ask for both while this step works.
        const double following = m_random.peek(0);
        const size_t ifPlaced = pick(following, count + 1);
        if (ifPlaced < count)
            __builtin_prefetch(&m_active[ifPlaced]);
        __builtin_prefetch(&m_active[slotAfterRetiring(pick(following, count - 1), a, count)]);
        if (local) {
            m_near.clear();
            m_occupancy.gatherNear(parent.x, parent.y, reach + m_largestRadius, m_near);
        }
        for (int i = 0; i < m_s.k; ++i) {
            const double dx = dirs[static_cast<size_t>(i)].first * c - dirs[static_cast<size_t>(i)].second * s;
            const double dy = dirs[static_cast<size_t>(i)].first * s + dirs[static_cast<size_t>(i)].second * c;
            const double x = parent.x + dx * reach, y = parent.y + dy * reach;
            if (local ? tryAddNear(x, y) : tryAdd(x, y))
                return true;
            if (m_full)
                return false;
        }
        m_active[a] = m_active.back();
        m_active.pop_back();
        return true;
    }

private:
    bool tryAddNear(double x, double y)
    {
        // a neighbour that blocked one candidate is tested first for the next: Roberts' candidates
        // walk round the circle, so it usually blocks that one too
        return tryAddWith(x, y, [this](double px, double py, double r) { return OccupancyGrid::isFreeAmong(px, py, r, m_near); });
    }

    CircleDirections m_directions;
    std::vector<PointXYR> m_near;
    OccupancyGrid::NearSet m_set;
    const PlacementSettings &m_s;
    OccupancyGrid &m_occupancy;
    std::size_t m_first;  // the layer's own points follow the obstacles in the occupancy
    std::size_t m_firstOwn;  // the same, a wrapped world's images left out
    DrawAhead m_random;
    // a step's candidates: offsets (or a square's draws), and the draws used once each is made
    std::vector<double> m_candDx, m_candDy;
    std::vector<std::size_t> m_candAfter;
    void resizeCandidates(std::size_t n)  // and three more: makeRingCandidates' lanes write past the last
    {
        m_candDx.resize(n + 3);
        m_candDy.resize(n + 3);
        m_candAfter.resize(n + 3);
    }
    RingCandidates candidates() { return {m_candDx.data(), m_candDy.data(), m_candAfter.data()}; }
    std::size_t m_predicted = SIZE_MAX;  // the active slot the next step will likely pick
    std::vector<PointXYR> m_active;  // points that may still grow neighbours, as copies: no lookup
    bool m_full = false;
    PlacementTally m_tally{true, m_s.radius};
    // the largest radius a candidate can take: the layer's, or its radius field's bound
    double m_largestRadius = m_s.radiusField ? std::max(m_s.radius, m_s.radiusFieldMax) : m_s.radius;
    double m_x1 = m_s.x0 + m_s.width, m_y1 = m_s.y0 + m_s.height;
    AllowedTiles m_allowed{m_s.allowed, m_s.x0, m_s.y0, m_s.width, m_s.height, 2 * m_s.radius};
    // Candidates may test against neighbours gathered around their parent: not in a wrapped
    // world, where a candidate beyond an edge is tested where it comes in, on the grid.
    bool m_gather = m_largestRadius < HUGE_VAL && !m_s.wrapX && !m_s.wrapY;
};

// Every 2r x 2r square of the area gets up to k tries; squares on the far edges are cut short.
template<typename Poll>
PlacementStatus patches(const PlacementSettings &s, Sampler &sampler, Poll &poll)
{
    const double spacing = s.radius * 2;
    for (double y = 0; y < s.height; y += spacing) {
        for (double x = 0; x < s.width; x += spacing) {
            sampler.trySquare(s.x0 + x, s.y0 + y, std::min(spacing, s.width - x), std::min(spacing, s.height - y));
            if (sampler.full())
                return PlacementStatus::TooManyPoints;
            if (poll())
                return PlacementStatus::Cancelled;
        }
    }
    return PlacementStatus::Done;
}

// Cancel and progress, looked at every 4096 calls.
class Poller
{
public:
    Poller(const PlacementControl &control, const Sampler &sampler, double expected)
        : m_control(control), m_sampler(sampler), m_expected(expected)
    {
    }
    bool operator()()  // true: stop now
    {
        if ((++m_ticks & 4095) != 0)
            return false;
        if (m_control.cancel && m_control.cancel->load(std::memory_order_relaxed))
            return true;
        if (m_control.progress && (m_ticks & 65535) == 0)
            m_control.progress(std::min(0.99, static_cast<double>(m_sampler.placed()) / m_expected));
        return false;
    }

private:
    const PlacementControl &m_control;
    const Sampler &m_sampler;
    double m_expected;
    std::uint64_t m_ticks = 0;
};

PlacementStatus grow(Sampler &sampler, Poller &poll)
{
    while (sampler.step()) {
        if (poll())
            return PlacementStatus::Cancelled;
    }
    return sampler.full() ? PlacementStatus::TooManyPoints : PlacementStatus::Done;
}

} // namespace

PlacementStatus placeChunk(const PlacementSettings &s, OccupancyGrid &occupancy, const std::vector<PointXYR> &adopted,
                           const std::vector<PointXYR> &frontier, int frontierTries, std::size_t &firstPlaced,
                           const PlacementControl &control)
{
    if (occupancy.imageCount() != 0)
        throw std::logic_error("placeChunk: a chunk's occupancy does not wrap");
    Sampler sampler(s, occupancy);
    Poller poll(control, sampler, std::max(1.0, maxPointsEstimate(s.width, s.height, s.radius) * 0.6));
    for (const PointXYR &p : adopted)
        sampler.adopt(p);
    // The frontier joins the active list: each step picks among both, so the chunk grows out of
    // its placed neighbours as Bridson grows anywhere; a frontier point gets more tries.
    std::vector<PointXYR> front = frontier;
    while (!front.empty() && !sampler.full()) {
        const std::size_t n = front.size() + sampler.activeCount();
        const std::size_t a = static_cast<std::size_t>(std::floor(sampler.random().nextFloat() * static_cast<double>(n)));
        if (a < front.size()) {
            if (!sampler.growFrom(front[a], frontierTries)) {
                front[a] = front.back();
                front.pop_back();
            }
        } else {
            sampler.step();
        }
        if (poll())
            return PlacementStatus::Cancelled;
    }
    PlacementStatus status = grow(sampler, poll);
    if (status == PlacementStatus::Done) {
        if (s.start == StartMode::Random)
            sampler.tryAdd(s.x0 + sampler.random().nextFloat() * s.width, s.y0 + sampler.random().nextFloat() * s.height);
        else if (s.start == StartMode::Point && !sampler.outside(s.startX, s.startY))
            sampler.tryAdd(s.startX, s.startY);
        status = grow(sampler, poll);
    }
    if (status == PlacementStatus::Done)
        status = patches(s, sampler, poll);
    if (status == PlacementStatus::Done)
        status = grow(sampler, poll);
    if (status != PlacementStatus::Done)
        return status;
    if (control.tally)
        *control.tally = sampler.tally();
    firstPlaced = sampler.firstOwn();
    return PlacementStatus::Done;
}

PlacementStatus placePoisson(const PlacementSettings &s, OccupancyGrid &occupancy, std::vector<PointXYR> &out,
                             const PlacementControl &control)
{
    Sampler sampler(s, occupancy);
    Poller poll(control, sampler, std::max(1.0, maxPointsEstimate(s.width, s.height, s.radius) * 0.6));

    switch (s.start) {
    case StartMode::Patches:
        if (PlacementStatus status = patches(s, sampler, poll); status != PlacementStatus::Done)
            return status;
        break;
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
    if (PlacementStatus status = grow(sampler, poll); status != PlacementStatus::Done)
        return status;
    if (s.maximal) {
        const FillTryAdd tryAdd = [&sampler](double x, double y) {
            return sampler.tryAdd(x, y) ? FillTry::Added : sampler.full() ? FillTry::Full : FillTry::Refused;
        };
        if (PlacementStatus status = fillGaps(s, occupancy, tryAdd, control.cancel); status != PlacementStatus::Done)
            return status;
    }
    if (control.tally)
        *control.tally = sampler.tally();
    out = occupancy.takePoints(sampler.firstOwn());
    return PlacementStatus::Done;
}

} // namespace grove
