// Layer metrics for grove-cli check. The pair and clearing metrics are LayerStats' own, measured
// in the region's frame; density and coverage read LayerStats' raster of the allowed area.
#include "core/analysis/LayerMetrics.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/analysis/LayerStats.h"
#include "core/analysis/PointSpectrum.h"
#include "core/analysis/WidestClearing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grove {

namespace {

// The allowed area seen from the region's corner (LayerStats measures from the origin).
class ShiftedMask : public Mask
{
public:
    ShiftedMask(const Mask &mask, double dx, double dy) : m_mask(mask), m_dx(dx), m_dy(dy) {}
    bool at(double x, double y) const override { return m_mask.at(x + m_dx, y + m_dy); }

private:
    const Mask &m_mask;
    double m_dx, m_dy;
};

PointLayerPtr shifted(const PointLayerPtr &layer, double dx, double dy)
{
    if (dx == 0 && dy == 0)
        return layer;
    auto copy = std::make_shared<PointLayer>();
    copy->info = layer->info;
    copy->tally = layer->tally;
    copy->points = layer->points;
    for (auto &p : copy->points) {
        p.x -= dx;
        p.y -= dy;
    }
    return copy;
}

// Points in square cells at least as wide as the farthest reach, so a sample's coverers lie in
// the 3 x 3 cells around it.
class ReachGrid
{
public:
    struct Item
    {
        double x, y, reach2;
    };

    ReachGrid(const Region &region, const std::vector<Item> &items, double cell) : m_region(region), m_cell(cell)
    {
        m_cols = std::max(1, static_cast<int>(std::ceil((region.x1 - region.x0) / cell)));
        m_rows = std::max(1, static_cast<int>(std::ceil((region.y1 - region.y0) / cell)));
        m_start.assign(static_cast<size_t>(m_cols) * static_cast<size_t>(m_rows) + 1, 0);
        for (const auto &it : items)
            ++m_start[cellOf(it.x, it.y) + 1];
        for (size_t c = 1; c < m_start.size(); ++c)
            m_start[c] += m_start[c - 1];
        m_items.resize(items.size());
        std::vector<std::size_t> fill(m_start.begin(), m_start.end() - 1);
        for (const auto &it : items)
            m_items[fill[cellOf(it.x, it.y)]++] = it;
    }

    bool covered(double x, double y) const
    {
        const int cx = col(x), cy = row(y);
        for (int r = std::max(0, cy - 1); r <= std::min(m_rows - 1, cy + 1); ++r)
            for (int c = std::max(0, cx - 1); c <= std::min(m_cols - 1, cx + 1); ++c) {
                const size_t cell = static_cast<size_t>(r) * static_cast<size_t>(m_cols) + static_cast<size_t>(c);
                for (std::size_t k = m_start[cell]; k < m_start[cell + 1]; ++k) {
                    const Item &q = m_items[k];
                    const double dx = q.x - x, dy = q.y - y;
                    if (dx * dx + dy * dy < q.reach2)
                        return true;
                }
            }
        return false;
    }

private:
    int col(double x) const { return static_cast<int>(std::clamp(std::floor((x - m_region.x0) / m_cell), 0.0, m_cols - 1.0)); }
    int row(double y) const { return static_cast<int>(std::clamp(std::floor((y - m_region.y0) / m_cell), 0.0, m_rows - 1.0)); }
    size_t cellOf(double x, double y) const { return static_cast<size_t>(row(y)) * static_cast<size_t>(m_cols) + static_cast<size_t>(col(x)); }

    Region m_region;
    double m_cell;
    int m_cols = 1, m_rows = 1;
    std::vector<std::size_t> m_start;
    std::vector<Item> m_items;
};

} // namespace

double layerRadius(const PointLayer &layer)
{
    if (layer.tally.counted && layer.tally.radius > 0)
        return layer.tally.radius;
    if (layer.chunked && layer.chunked->settings().placement.radius > 0)  // an endless world's layer counts nothing
        return layer.chunked->settings().placement.radius;
    double r = std::numeric_limits<double>::infinity();
    for (const auto &p : layer.points)
        r = std::min(r, p.r);
    return std::isfinite(r) ? r : 0;
}

AllowedRaster sampleArea(const MetricSubject &subject)
{
    const Region &g = subject.region;
    if (g.empty()) {
        AllowedRaster none;
        none.nx = none.ny = 0;
        return none;
    }
    const double step = std::max({subject.radius / 4, std::sqrt((g.x1 - g.x0) * (g.y1 - g.y0) / kMaxAreaSamples), 1e-9});
    return sampleAllowed(subject.allowed, g, step);
}

double coverage(const MetricSubject &subject, const AllowedRaster &area)
{
    if (area.allowedCells == 0)
        return 1;
    std::vector<ReachGrid::Item> items;
    double reach = area.step;
    for (const auto &p : subject.layer->points) {
        items.push_back({p.x, p.y, p.r * p.r});
        reach = std::max(reach, p.r);
    }
    // an obstacle keeps min(its r, the layer's) free of the layer, or its own r when it keeps it
    for (const auto &l : subject.earlier)
        for (const auto &p : l->points) {
            const double r = l->info.keepsRadius ? p.r : std::min(p.r, subject.radius);
            items.push_back({p.x, p.y, r * r});
            reach = std::max(reach, r);
        }
    if (subject.torus.wraps()) {  // the region is the world: each point's copies across the seams cover too
        const Region &g = subject.region;
        std::vector<PointXYR> at;
        at.reserve(items.size());
        for (const auto &it : items)
            at.push_back({it.x - g.x0, it.y - g.y0, 0});
        std::vector<std::uint32_t> ghostOf;
        const std::vector<PointXYR> ghosts = torusGhosts(at, g.x1 - g.x0, g.y1 - g.y0, subject.torus, reach, ghostOf);
        for (std::size_t k = 0; k < ghosts.size(); ++k)
            items.push_back({ghosts[k].x + g.x0, ghosts[k].y + g.y0, items[ghostOf[k]].reach2});
    }
    const ReachGrid grid(subject.region, items, reach);
    std::size_t covered = 0;
    for (int j = 0; j < area.ny; ++j)
        for (int i = 0; i < area.nx; ++i)
            if (area.at(i, j))
                covered += grid.covered(area.x(i), area.y(j));
    return static_cast<double>(covered) / static_cast<double>(area.allowedCells);
}

std::map<Metric, double> measureLayer(const MetricSubject &subject, const std::set<Metric> &wanted, PointSpectrum *spectrum)
{
    std::map<Metric, double> out;
    const PointLayer &layer = *subject.layer;
    const Region &g = subject.region;
    if (wanted.count(Metric::Count))
        out[Metric::Count] = static_cast<double>(layer.points.size());
    if (wanted.count(Metric::Tightest) || wanted.count(Metric::TooClose) || wanted.count(Metric::Clearing)) {
        std::vector<PointLayerPtr> earlier;
        for (const auto &l : subject.earlier)
            earlier.push_back(shifted(l, g.x0, g.y0));
        std::optional<ShiftedMask> mask;
        if (subject.allowed)
            mask.emplace(*subject.allowed, g.x0, g.y0);
        const LayerStats st = computeLayerStats(*shifted(subject.layer, g.x0, g.y0), earlier, g.x1 - g.x0, g.y1 - g.y0,
                                                mask ? &*mask : nullptr, {}, subject.torus);
        out[Metric::Tightest] = st.tightest;
        out[Metric::TooClose] = static_cast<double>(st.tooClose);
        out[Metric::Clearing] = st.clearingDiameter;
        if (layer.info.volume) {  // a volume's spacing is in 3D; its clearing is the top-down projection's
            const LayerStats v = computeVolumeStats(layer, subject.earlier, g.x1 - g.x0, g.y1 - g.y0, subject.depth);
            out[Metric::Tightest] = v.tightest;
            out[Metric::TooClose] = static_cast<double>(v.tooClose);
        }
    }
    if (wanted.count(Metric::Density) || wanted.count(Metric::Coverage)) {
        const AllowedRaster area = sampleArea(subject);
        const double a = area.area(), n = static_cast<double>(layer.points.size());
        out[Metric::Density] = a > 0 ? n * subject.radius * subject.radius / a : (n > 0 ? HUGE_VAL : 0);
        if (layer.info.volume) {  // N r^3 / V over the allowed part of the volume, sampled in 3D (64^3 spots)
            double allowedShare = 1;
            if (subject.allowed && subject.depth > 0) {
                constexpr int kSide = 64;
                std::size_t in = 0;
                for (int k = 0; k < kSide; ++k)
                    for (int j = 0; j < kSide; ++j)
                        for (int i = 0; i < kSide; ++i)
                            in += subject.allowed->at3(g.x0 + (i + 0.5) * (g.x1 - g.x0) / kSide, g.y0 + (j + 0.5) * (g.y1 - g.y0) / kSide,
                                                       (k + 0.5) * subject.depth / kSide);
                allowedShare = static_cast<double>(in) / (kSide * kSide * kSide);
            }
            const double v = (g.x1 - g.x0) * (g.y1 - g.y0) * subject.depth * allowedShare;
            out[Metric::Density] = v > 0 ? n * subject.radius * subject.radius * subject.radius / v : (n > 0 ? HUGE_VAL : 0);
        }
        if (wanted.count(Metric::Coverage))
            out[Metric::Coverage] = coverage(subject, area);
    }
    if (wanted.count(Metric::LowFreq) || wanted.count(Metric::Anisotropy) || spectrum) {
        PointSpectrum s = computePointSpectrum(layer.points, g, subject.radius);
        out[Metric::LowFreq] = s.lowFreq;
        out[Metric::Anisotropy] = s.anisotropy;
        if (spectrum)
            *spectrum = std::move(s);
    }
    for (auto it = out.begin(); it != out.end();)  // only what was asked
        it = wanted.count(it->first) ? std::next(it) : out.erase(it);
    return out;
}

} // namespace grove
