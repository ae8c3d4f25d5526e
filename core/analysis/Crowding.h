// Points too close to each other, by the rule the layer statistics count them with (nearer than
// the smaller of the two radii): the pairs a layer's statistics name, and what stands too close
// to a point about to be placed (the editor's pin and move tools show it while dragging).
#pragma once

#include "core/base/DataTypes.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace grove {

namespace stats {
class Buckets;
}

// How near two points of radii a and b may come: the smaller radius.
inline double spacingBetween(double a, double b) { return std::min(a, b); }

// A point and another too close to it.
struct TooClosePair
{
    PointXYR point{0, 0, 0};
    PointXYR other{0, 0, 0};
    std::string otherLayer;  // the other point's layer, by name
    double distance = 0;
    double needed() const { return spacingBetween(point.r, other.r); }
};

// "the point at (412.3, 220.1) is 2.2 from rocks' point at (414.5, 220), nearer than the 11 the
// two need (the smaller of their radii, 11 and 34)"; `what` names the first point.
std::string describeTooClose(const TooClosePair &pair, const std::string &what = "the point");

// A layer's pairs too close for the Problems list: how many, and the tightest of them.
std::string tooCloseSummary(std::size_t count, const std::vector<TooClosePair> &tightest);

// Keeps the few tightest of many pairs (ties by their ids), for a summary to name.
class TightestPairs
{
public:
    struct Entry
    {
        double d2;
        std::uint32_t a, b;  // ids in whatever numbering the caller uses
        bool operator<(const Entry &o) const { return d2 != o.d2 ? d2 < o.d2 : a != o.a ? a < o.a : b < o.b; }
    };
    static constexpr std::size_t kKept = 3;
    void offer(double d2, std::uint32_t a, std::uint32_t b);
    const std::vector<Entry> &entries() const { return m_entries; }

private:
    std::vector<Entry> m_entries;  // sorted
};

// The points of some layers, for asking what stands too close to a point of radius r at (x, y).
class CrowdingIndex
{
public:
    struct Hit
    {
        std::size_t layer = 0, index = 0;  // which of the layers, which of its points
        TooClosePair pair;                 // pair.point: the asked point
        // where pair.other stands seen from the asked point: its copy across a seam of a wrapped
        // world when that copy is the near one, else pair.other itself
        double imageX = 0, imageY = 0;
    };

    // `bounds`: where the points mostly lie (the world, or the part of it a preview shows).
    // `periodX`, `periodY`: a wrapped world's width and height along the axes that wrap (0: the
    // axis does not), so a point near one edge is crowded by those across the other.
    CrowdingIndex(std::vector<PointLayerPtr> layers, const Region &bounds, double periodX = 0, double periodY = 0);
    ~CrowdingIndex();
    CrowdingIndex(const CrowdingIndex &) = delete;
    CrowdingIndex &operator=(const CrowdingIndex &) = delete;

    // Nearest first.
    std::vector<Hit> around(double x, double y, double r) const;
    const std::vector<PointLayerPtr> &layers() const { return m_layers; }

private:
    std::vector<PointLayerPtr> m_layers;
    double m_periodX = 0, m_periodY = 0;
    std::vector<std::size_t> m_first;  // each layer's first id in the buckets
    std::unique_ptr<const stats::Buckets> m_buckets;
};

} // namespace grove
