// The exact squared distance transform and the nearest-point grid behind the `distance` node.
#include "core/geometry/DistanceTransform.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grove {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
__extension__ typedef __int128 Wide;  // exact products of the breakpoints' numerators and denominators

// The lower envelope of one line's parabolas y = (q - v)^2 + f(v), one per finite cell v.
struct Envelope
{
    explicit Envelope(std::size_t n) : v(n), f(n), zNum(n), zDen(n) {}
    std::vector<std::int64_t> v, f;
    // z[k] = zNum[k] / zDen[k] (zDen > 0): where parabola k starts to be the lowest (k >= 1)
    std::vector<std::int64_t> zNum, zDen;
};

// One line of n cells, line[q * stride]: finite squared distances (whole numbers) and +inf,
// replaced by min over v of (q - v)^2 + line[v] (Felzenszwalb & Huttenlocher, "Distance
// Transforms of Sampled Functions", 2012). Values stay below 2^53, so they are exact doubles;
// the breakpoints are fractions compared by cross-multiplying in 128 bits, so the envelope is
// exact too.
void transformLine(double *line, std::ptrdiff_t stride, std::int64_t n, Envelope &e)
{
    std::int64_t k = -1;
    for (std::int64_t q = 0; q < n; ++q) {
        const double value = line[q * stride];
        if (!(value < kInf))
            continue;  // no target along this line's cell: not a parabola
        const std::int64_t fq = static_cast<std::int64_t>(value);
        std::int64_t num = 0, den = 1;
        while (k >= 0) {
            const std::int64_t p = e.v[static_cast<std::size_t>(k)];
            // the new parabola is the lower one from s = num / den on
            num = (fq + q * q) - (e.f[static_cast<std::size_t>(k)] + p * p);
            den = 2 * (q - p);
            // parabola k is never the lowest when the new one takes over before k does
            if (k > 0 && static_cast<Wide>(num) * e.zDen[static_cast<std::size_t>(k)]
                             <= static_cast<Wide>(e.zNum[static_cast<std::size_t>(k)]) * den) {
                --k;
                continue;
            }
            break;
        }
        ++k;
        const auto at = static_cast<std::size_t>(k);
        e.v[at] = q;
        e.f[at] = fq;
        e.zNum[at] = num;  // unused for k == 0 (from -inf)
        e.zDen[at] = den;
    }
    if (k < 0)
        return;  // no target: the line stays infinite
    std::int64_t j = 0;
    for (std::int64_t q = 0; q < n; ++q) {
        while (j < k && static_cast<Wide>(e.zNum[static_cast<std::size_t>(j + 1)])
                            < static_cast<Wide>(q) * e.zDen[static_cast<std::size_t>(j + 1)])
            ++j;
        const std::int64_t d = q - e.v[static_cast<std::size_t>(j)];
        line[q * stride] = static_cast<double>(d * d + e.f[static_cast<std::size_t>(j)]);
    }
}

} // namespace

bool squaredDistanceTransform(std::vector<double> &cells, int cols, int rows, const std::atomic<bool> *cancel,
                              const std::function<void(double)> &progress)
{
    if (cols <= 0 || rows <= 0)
        return true;
    const auto stop = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    Envelope e(static_cast<std::size_t>(std::max(cols, rows)));
    const double total = static_cast<double>(rows) + static_cast<double>(cols);
    // rows, in place
    for (int r = 0; r < rows; ++r) {
        if ((r & 63) == 0) {
            if (stop())
                return false;
            if (progress)
                progress(r / total);
        }
        transformLine(cells.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols), 1, cols, e);
    }
    // columns, through a copy of each: a contiguous line is faster than a strided one
    std::vector<double> line(static_cast<std::size_t>(rows));
    for (int c = 0; c < cols; ++c) {
        if ((c & 63) == 0) {
            if (stop())
                return false;
            if (progress)
                progress((rows + c) / total);
        }
        double *column = cells.data() + c;
        for (int r = 0; r < rows; ++r)
            line[static_cast<std::size_t>(r)] = column[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols)];
        transformLine(line.data(), 1, rows, e);
        for (int r = 0; r < rows; ++r)
            column[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols)] = line[static_cast<std::size_t>(r)];
    }
    if (progress)
        progress(1);
    return true;
}

NearestPoints::NearestPoints(const std::vector<PointXYR> &points, const Region *core)
{
    build([&](const auto &f) {
        for (const PointXYR &p : points)
            f(p.x, p.y);
    }, core);
}

NearestPoints::NearestPoints(const std::vector<const std::vector<PointXYR> *> &layers, const Region *core)
{
    build([&](const auto &f) {
        for (const auto *layer : layers)
            for (const PointXYR &p : *layer)
                f(p.x, p.y);
    }, core);
}

NearestPoints::NearestPoints(const std::vector<Vec2> &points, const Region *core)
{
    build([&](const auto &f) {
        for (const Vec2 &p : points)
            f(p.x, p.y);
    }, core);
}

// each(f) calls f(x, y) for every point, in the input's order
template <class EachPoint>
void NearestPoints::build(const EachPoint &each, const Region *core)
{
    const auto inGrid = [core](double x, double y) {
        return std::isfinite(x) && std::isfinite(y)
               && (!core || (x >= core->x0 && x <= core->x1 && y >= core->y0 && y <= core->y1));
    };
    std::size_t n = 0, index = 0;
    each([&](double x, double y) {
        const std::size_t i = index++;
        if (!inGrid(x, y)) {
            if (std::isfinite(x) && std::isfinite(y)) {
                m_farX.push_back(x);
                m_farY.push_back(y);
                m_farIndex.push_back(i);
            }
            return;
        }
        if (n == 0) {
            m_minX = m_maxX = x;
            m_minY = m_maxY = y;
        }
        m_minX = std::min(m_minX, x);
        m_maxX = std::max(m_maxX, x);
        m_minY = std::min(m_minY, y);
        m_maxY = std::max(m_maxY, y);
        ++n;
    });
    if (n == 0)
        return;
    const double w = m_maxX - m_minX, h = m_maxY - m_minY;
    // about two points a bucket; no more buckets along a side than half the points
    double cell = std::max(std::sqrt(2 * w * h / static_cast<double>(n)), 2 * std::max(w, h) / static_cast<double>(n));
    if (std::isfinite(w) && std::isfinite(h) && std::isfinite(cell) && cell > 0) {
        m_cell = cell;
        m_inverse = 1 / cell;
        m_cols = static_cast<int>(std::min(std::floor(w * m_inverse) + 1, 1e9));
        m_rows = static_cast<int>(std::min(std::floor(h * m_inverse) + 1, 1e9));
    } else {  // every point at one spot, or a box too wide for doubles: one bucket
        m_cell = 1;
        m_inverse = 0;
        m_cols = m_rows = 1;
    }
    // how far a bucket's points may sit outside its square through rounding
    m_margin = m_cell * 1e-9 + (std::fabs(m_minX) + std::fabs(m_minY) + std::fabs(m_maxX) + std::fabs(m_maxY)) * 1e-15;
    const std::size_t buckets = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    m_start.assign(buckets + 1, 0);
    const auto bucketOf = [&](double x, double y) {
        return static_cast<std::size_t>(rowOf(y)) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(colOf(x));
    };
    // a counting sort by bucket, the bucket worked out twice rather than stored
    each([&](double x, double y) {
        if (inGrid(x, y))
            ++m_start[bucketOf(x, y) + 1];
    });
    for (std::size_t b = 0; b < buckets; ++b)
        m_start[b + 1] += m_start[b];
    m_x.resize(n);
    m_y.resize(n);
    m_index.resize(n);
    // m_start[b] runs through bucket b as it fills, ending where bucket b + 1 starts
    index = 0;
    each([&](double x, double y) {
        const std::size_t i = index++;
        if (!inGrid(x, y))
            return;
        const std::size_t at = m_start[bucketOf(x, y)]++;
        m_x[at] = x;
        m_y[at] = y;
        m_index[at] = i;
    });
    // shift back: bucket b starts where bucket b - 1 ended
    for (std::size_t b = buckets; b > 0; --b)
        m_start[b] = m_start[b - 1];
    m_start[0] = 0;
}

double NearestPoints::nearestSquared(double x, double y) const
{
    if (x != x || y != y)
        return x + y;
    double best = kInf;
    walk(x, y, kInf,
         [&](double, double, double d2, std::size_t) {
             if (d2 < best)
                 best = d2;
             return false;
         },
         // nothing unvisited can be nearer
         [&](double bound) { return !(best <= bound * (1 - 1e-12)); });
    return best;
}

double NearestPoints::distance(double x, double y) const
{
    return std::sqrt(nearestSquared(x, y));
}

long long NearestPoints::nearestIndex(double x, double y, double *squared) const
{
    double best = kInf;
    long long found = -1;
    if (x == x && y == y)
        walk(x, y, kInf,
             [&](double, double, double d2, std::size_t index) {
                 const auto i = static_cast<long long>(index);
                 if (d2 < best || (d2 == best && i < found)) {
                     best = d2;
                     found = i;
                 }
                 return false;
             },
             // strictly nearer only: an unvisited point at the same distance may have a lower index
             [&](double bound) { return !(best < bound * (1 - 1e-12)); });
    if (squared)
        *squared = best;
    return found;
}

} // namespace grove
