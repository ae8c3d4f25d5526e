// Crowding: the too-close rule's words and the index the editor asks while a point is dragged.
#include "core/analysis/Crowding.h"

#include "core/analysis/StatsBuckets.h"
#include "core/base/NumberText.h"
#include "core/math/ExactHypot.h"

#include <cmath>

namespace grove {

namespace {

// "rocks' point", "tree's point"
std::string whose(const std::string &name) { return name + (!name.empty() && name.back() == 's' ? "'" : "'s"); }
std::string at(const PointXYR &p) { return "(" + formatFixed(p.x, 1) + ", " + formatFixed(p.y, 1) + ")"; }

} // namespace

std::string describeTooClose(const TooClosePair &pair, const std::string &what)
{
    std::string text = what + " at " + at(pair.point) + " is " + formatFixed(pair.distance, 1) + " from "
                       + (pair.otherLayer.empty() ? std::string("a point") : whose(pair.otherLayer) + " point") + " at "
                       + at(pair.other) + ", nearer than the " + formatForReading(pair.needed()) + " the two need";
    if (pair.point.r != pair.other.r)
        text += " (the smaller of their radii, " + formatForReading(pair.point.r) + " and " + formatForReading(pair.other.r) + ")";
    return text;
}

std::string tooCloseSummary(std::size_t count, const std::vector<TooClosePair> &tightest)
{
    std::string text = std::to_string(count) + (count == 1 ? " pair" : " pairs") + " too close";
    if (tightest.empty())
        return text;
    text += count == 1 ? ": " : "; the tightest: ";
    return text + describeTooClose(tightest.front());
}

void TightestPairs::offer(double d2, std::uint32_t a, std::uint32_t b)
{
    const Entry e{d2, a, b};
    if (m_entries.size() == kKept && !(e < m_entries.back()))
        return;
    m_entries.insert(std::upper_bound(m_entries.begin(), m_entries.end(), e), e);
    if (m_entries.size() > kKept)
        m_entries.pop_back();
}

CrowdingIndex::CrowdingIndex(std::vector<PointLayerPtr> layers, const Region &bounds, double periodX, double periodY)
    : m_layers(std::move(layers)), m_periodX(periodX > 0 ? periodX : 0), m_periodY(periodY > 0 ? periodY : 0)
{
    std::vector<const std::vector<PointXYR> *> sources;
    std::size_t first = 0;
    for (const PointLayerPtr &l : m_layers) {
        m_first.push_back(first);
        sources.push_back(&l->points);
        first += l->points.size();
    }
    m_buckets = std::make_unique<const stats::Buckets>(sources, bounds, 0.0);
}

CrowdingIndex::~CrowdingIndex() = default;

std::vector<CrowdingIndex::Hit> CrowdingIndex::around(double x, double y, double r) const
{
    std::vector<Hit> hits;
    if (!(r > 0) || !std::isfinite(x) || !std::isfinite(y))
        return hits;
    // on a wrapped world the asked point's copies one period across each wrapped side ask too: a
    // point they find stands that far across the seam from the asked one
    const int nx = m_periodX > 0 ? 1 : 0, ny = m_periodY > 0 ? 1 : 0;
    for (int j = -ny; j <= ny; ++j)
        for (int i = -nx; i <= nx; ++i) {
            const double ax = x + i * m_periodX, ay = y + j * m_periodY;
            m_buckets->forEachNear(ax, ay, m_buckets->ringsFor(r), [&](const stats::Buckets::Item &q) {
                const double d = exactHypot(q.x - ax, q.y - ay);
                if (!(d < spacingBetween(r, q.r)))
                    return;
                Hit h;
                h.layer = static_cast<std::size_t>(std::upper_bound(m_first.begin(), m_first.end(), std::size_t(q.id)) - m_first.begin()) - 1;
                h.index = q.id - m_first[h.layer];
                h.pair.point = {x, y, r};
                h.pair.other = {q.x, q.y, q.r};
                h.pair.otherLayer = m_layers[h.layer]->info.name;
                h.pair.distance = d;
                h.imageX = q.x - i * m_periodX;
                h.imageY = q.y - j * m_periodY;
                hits.push_back(std::move(h));
            });
        }
    std::sort(hits.begin(), hits.end(), [](const Hit &a, const Hit &b) {
        return a.pair.distance != b.pair.distance ? a.pair.distance < b.pair.distance
               : a.layer != b.layer               ? a.layer < b.layer
                                                  : a.index < b.index;
    });
    // a world narrower than two radii finds a point through two copies: the nearer one stays
    std::vector<Hit> unique;
    for (Hit &h : hits)
        if (std::none_of(unique.begin(), unique.end(), [&](const Hit &u) { return u.layer == h.layer && u.index == h.index; }))
            unique.push_back(std::move(h));
    return unique;
}

} // namespace grove
