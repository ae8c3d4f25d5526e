// Wire data helpers: raster rows, point attributes from the per-point hash, special points.
#include "core/base/DataTypes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <atomic>
#include <numeric>

namespace grove {

const char *dataTypeName(DataType type)
{
    switch (type) {
    case DataType::Field: return "field";
    case DataType::Labels: return "labels";
    case DataType::Mask: return "mask";
    case DataType::Points: return "points";
    }
    return "?";
}

Rgb parseHexColor(const std::string &s)
{
    Rgb c{0, 0, 0};
    if (s.size() != 7 || s[0] != '#')
        return c;
    for (size_t i = 0; i < 3; ++i) {
        unsigned v = 0;
        for (size_t j = 0; j < 2; ++j) {
            const char ch = s[1 + 2 * i + j];
            const unsigned digit = ch >= '0' && ch <= '9' ? unsigned(ch - '0')
                                   : ch >= 'a' && ch <= 'f' ? unsigned(ch - 'a' + 10)
                                   : ch >= 'A' && ch <= 'F' ? unsigned(ch - 'A' + 10)
                                                            : 0u;
            v = v * 16 + digit;
        }
        c[i] = static_cast<std::uint8_t>(v);
    }
    return c;
}

void Labels::sampleRow(double x0, double dx, double y, int n, int *out) const
{
    for (int i = 0; i < n; ++i)
        out[i] = at(x0 + i * dx, y);
}

Field::Field()
{
    static std::atomic<std::uint64_t> serials{0};
    m_serial = ++serials;
}

void Field::sampleRowShared(double x0, double dx, double y, int n, double *out) const
{
    struct Memo
    {
        std::uint64_t serial = 0;
        double x0 = 0, dx = 0, y = 0;
        std::vector<double> values;
    };
    thread_local Memo memo;
    const auto same = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
    if (memo.serial == m_serial && same(memo.x0, x0) && same(memo.dx, dx) && same(memo.y, y)
        && memo.values.size() == static_cast<size_t>(std::max(n, 0))) {
        std::copy(memo.values.begin(), memo.values.end(), out);
        return;
    }
    sampleRow(x0, dx, y, n, out);
    memo.serial = m_serial;
    memo.x0 = x0;
    memo.dx = dx;
    memo.y = y;
    memo.values.assign(out, out + std::max(n, 0));
}

double Field::upperBound() const
{
    return std::numeric_limits<double>::infinity();
}

FieldRange Field::rangeIn(const Region &) const
{
    return {};
}

std::uint64_t Labels::labelsIn(const Region &) const
{
    return kAnyLabel;
}

MaskOver Mask::over(const Region &) const
{
    return MaskOver::Mixed;
}

void Field::sampleRow(double x0, double dx, double y, int n, double *out) const
{
    for (int i = 0; i < n; ++i)
        out[i] = at(x0 + i * dx, y);
}

std::uint64_t pointHash(std::int32_t seed, std::uint64_t id, std::uint32_t salt)
{
    // splitmix64 finalizer over a combination of the three inputs
    std::uint64_t z = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(seed)) << 32 | salt)
                      ^ (id * 0x9E3779B97F4A7C15ull);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;  // second round: id and seed both avalanche
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double pointHash01(std::int32_t seed, std::uint64_t id, std::uint32_t salt)
{
    return static_cast<double>(pointHash(seed, id, salt) >> 11) * 0x1.0p-53;
}

namespace {
enum Salt : std::uint32_t { SaltType = 1, SaltRotation = 2, SaltScale = 3, SaltSpecial = 4 };
}

PointAttributes PointLayer::attributes(std::uint64_t id) const
{
    PointAttributes a;
    const std::int32_t seed = info.attributeSeed;
    if (!info.types.empty()) {
        if (!info.specialType.empty()
            && std::binary_search(specialIds.begin(), specialIds.end(), id)) {
            for (size_t i = 0; i < info.types.size(); ++i)
                if (info.types[i].name == info.specialType)
                    a.type = static_cast<int>(i);
        } else {
            double total = 0;
            for (const auto &t : info.types)
                total += t.weight;
            if (total > 0) {
                double pick = pointHash01(seed, id, SaltType) * total;
                a.type = static_cast<int>(info.types.size()) - 1;
                double acc = 0;
                for (size_t i = 0; i < info.types.size(); ++i) {
                    acc += info.types[i].weight;
                    if (pick < acc) {
                        a.type = static_cast<int>(i);
                        break;
                    }
                }
                // never land on a zero-weight type through rounding at the end
                while (a.type > 0 && info.types[a.type].weight <= 0)
                    --a.type;
            } else {
                a.type = 0;
            }
        }
    }
    a.rotation = info.rotationMin + pointHash01(seed, id, SaltRotation) * (info.rotationMax - info.rotationMin);
    a.scale = info.scaleMin + pointHash01(seed, id, SaltScale) * (info.scaleMax - info.scaleMin);
    if (!info.pinned.empty()) {
        auto it = std::lower_bound(info.pinned.begin(), info.pinned.end(), id,
                                   [](const PinnedAttributes &p, std::uint64_t v) { return p.id < v; });
        if (it != info.pinned.end() && it->id == id) {
            if (it->type >= 0 && it->type < static_cast<int>(info.types.size()))
                a.type = it->type;
            if (!std::isnan(it->rotation))
                a.rotation = it->rotation;
            if (!std::isnan(it->scale))
                a.scale = it->scale;
        }
    }
    return a;
}

std::shared_ptr<PointLayer> PointLayer::subset(const std::vector<char> &keep) const
{
    auto out = std::make_shared<PointLayer>();
    out->info = info;
    out->tally = tally;
    for (const AttributeColumn &c : columns)
        out->columns.push_back({c.name, {}});
    for (std::size_t k = 0; k < points.size() && k < keep.size(); ++k) {
        if (!keep[k])
            continue;
        out->points.push_back(points[k]);
        out->ids.push_back(idOf(k));
        if (!z.empty())
            out->z.push_back(z[k]);
        for (std::size_t c = 0; c < columns.size(); ++c)
            out->columns[c].values.push_back(columns[c].values[k]);
    }
    for (std::uint64_t id : out->ids)
        if (std::binary_search(specialIds.begin(), specialIds.end(), id))
            out->specialIds.push_back(id);
    std::sort(out->specialIds.begin(), out->specialIds.end());  // ids need not ascend in a layer's order
    return out;
}

void PointLayer::assignSpecials()
{
    specialIds.clear();
    if (info.specialType.empty() || info.specialCount <= 0 || points.empty())
        return;
    const size_t n = points.size();
    const size_t count = std::min<size_t>(n, static_cast<size_t>(info.specialCount));
    // The `count` ids with the smallest hash: spread over the layer, stable for a seed.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = {pointHash(info.attributeSeed, idOf(i), SaltSpecial), idOf(i)};
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), order.end());
    specialIds.reserve(count);
    for (size_t i = 0; i < count; ++i)
        specialIds.push_back(order[i].second);
    std::sort(specialIds.begin(), specialIds.end());
}

std::size_t PointSet::size() const
{
    std::size_t n = 0;
    for (const auto &l : layers)
        n += l->points.size();
    return n;
}

} // namespace grove
