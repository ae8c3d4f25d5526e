// The exact squared distance transform and the nearest-point grid behind the `distance` node.
#include "DistanceTransform.h"

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

NearestPoints::NearestPoints(const std::vector<PointXYR> &points)
{
    build({&points});
}

NearestPoints::NearestPoints(const std::vector<const std::vector<PointXYR> *> &layers)
{
    build(layers);
}

void NearestPoints::build(const std::vector<const std::vector<PointXYR> *> &layers)
{
    std::size_t n = 0;
    bool first = true;
    for (const auto *layer : layers)
        for (const PointXYR &p : *layer) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y))
                continue;
            if (first) {
                m_minX = m_maxX = p.x;
                m_minY = m_maxY = p.y;
                first = false;
            }
            m_minX = std::min(m_minX, p.x);
            m_maxX = std::max(m_maxX, p.x);
            m_minY = std::min(m_minY, p.y);
            m_maxY = std::max(m_maxY, p.y);
            ++n;
        }
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
    const auto bucketOf = [&](const PointXYR &p) {
        return static_cast<std::size_t>(rowOf(p.y)) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(colOf(p.x));
    };
    // a counting sort by bucket, the bucket worked out twice rather than stored
    for (const auto *layer : layers)
        for (const PointXYR &p : *layer)
            if (std::isfinite(p.x) && std::isfinite(p.y))
                ++m_start[bucketOf(p) + 1];
    for (std::size_t b = 0; b < buckets; ++b)
        m_start[b + 1] += m_start[b];
    m_x.resize(n);
    m_y.resize(n);
    // m_start[b] runs through bucket b as it fills, ending where bucket b + 1 starts
    for (const auto *layer : layers)
        for (const PointXYR &p : *layer) {
            if (!std::isfinite(p.x) || !std::isfinite(p.y))
                continue;
            const std::size_t at = m_start[bucketOf(p)]++;
            m_x[at] = p.x;
            m_y[at] = p.y;
        }
    // shift back: bucket b starts where bucket b - 1 ended
    for (std::size_t b = buckets; b > 0; --b)
        m_start[b] = m_start[b - 1];
    m_start[0] = 0;
}

int NearestPoints::colOf(double x) const
{
    const double c = std::floor((x - m_minX) * m_inverse);
    return !(c > 0) ? 0 : c >= m_cols ? m_cols - 1 : static_cast<int>(c);
}

int NearestPoints::rowOf(double y) const
{
    const double r = std::floor((y - m_minY) * m_inverse);
    return !(r > 0) ? 0 : r >= m_rows ? m_rows - 1 : static_cast<int>(r);
}

double NearestPoints::nearestSquared(double x, double y) const
{
    if (x != x || y != y)
        return x + y;
    if (m_x.empty())
        return kInf;
    const int cx = colOf(x), cy = rowOf(y);
    double best = kInf;
    const auto visit = [&](int col, int row) {
        const std::size_t b = static_cast<std::size_t>(row) * static_cast<std::size_t>(m_cols) + static_cast<std::size_t>(col);
        for (std::size_t i = m_start[b], end = m_start[b + 1]; i < end; ++i) {
            const double dx = m_x[i] - x;
            const double dy = m_y[i] - y;
            const double d2 = dx * dx + dy * dy;
            if (d2 < best)
                best = d2;
        }
    };
    // squared distance from the spot to a rectangle
    const auto toRect = [&](double x0, double x1, double y0, double y1) {
        const double dx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0;
        const double dy = y < y0 ? y0 - y : y > y1 ? y - y1 : 0;
        return dx * dx + dy * dy;
    };
    const double left = m_minX - m_margin, right = m_maxX + m_margin;
    const double top = m_minY - m_margin, bottom = m_maxY + m_margin;
    for (int k = 0;; ++k) {
        // ring k: the buckets k columns or rows away from (cx, cy)
        const int c0 = cx - k, c1 = cx + k, r0 = cy - k, r1 = cy + k;
        const int cc0 = std::max(c0, 0), cc1 = std::min(c1, m_cols - 1);
        if (r0 >= 0)
            for (int c = cc0; c <= cc1; ++c)
                visit(c, r0);
        if (k > 0 && r1 < m_rows)
            for (int c = cc0; c <= cc1; ++c)
                visit(c, r1);
        const int rr0 = std::max(r0 + 1, 0), rr1 = std::min(r1 - 1, m_rows - 1);
        if (k > 0 && c0 >= 0)
            for (int r = rr0; r <= rr1; ++r)
                visit(c0, r);
        if (k > 0 && c1 < m_cols)
            for (int r = rr0; r <= rr1; ++r)
                visit(c1, r);
        // every bucket not yet visited lies in one of these slabs
        double bound = kInf;
        bool more = false;
        if (c0 > 0) {
            bound = std::min(bound, toRect(left, m_minX + c0 * m_cell + m_margin, top, bottom));
            more = true;
        }
        if (c1 < m_cols - 1) {
            bound = std::min(bound, toRect(m_minX + (c1 + 1) * m_cell - m_margin, right, top, bottom));
            more = true;
        }
        if (r0 > 0) {
            bound = std::min(bound, toRect(left, right, top, m_minY + r0 * m_cell + m_margin));
            more = true;
        }
        if (r1 < m_rows - 1) {
            bound = std::min(bound, toRect(left, right, m_minY + (r1 + 1) * m_cell - m_margin, bottom));
            more = true;
        }
        // nothing unvisited can be nearer (the factor covers rounding in the bound's squares)
        if (!more || best <= bound * (1 - 1e-12))
            break;
    }
    return best;
}

double NearestPoints::distance(double x, double y) const
{
    return std::sqrt(nearestSquared(x, y));
}

} // namespace grove
