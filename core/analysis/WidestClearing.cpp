// The widest clearing: a distance transform of the layer's points on the stats' cells for
// candidates, each refined against the exact points. On a wrapped world's torus the cells are
// padded by half the world along each wrapped axis with the cells across the seam, so every
// cell's nearest point, across a seam or not, is in the transform.
#include "core/analysis/WidestClearing.h"

#include "core/geometry/DistanceTransform.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace grove {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Distances in cells from each of the nx x ny cells to the nearest target cell (target(i, j)),
// +infinity with none. On the torus the grid is padded by half its size along each wrapped axis
// with the cells across the seam, which holds every cell's nearest target.
template <class Target>
bool distanceField(std::vector<double> &out, int nx, int ny, StatsTorus torus, const Target &target,
                   const std::atomic<bool> *cancel)
{
    const int px = torus.x ? (nx + 1) / 2 : 0, py = torus.y ? (ny + 1) / 2 : 0;
    const int cols = nx + 2 * px, rows = ny + 2 * py;
    std::vector<double> cells(static_cast<size_t>(cols) * static_cast<size_t>(rows));
    std::vector<int> column(static_cast<size_t>(cols));  // each padded column's cell in the world
    for (int i = 0; i < cols; ++i)
        column[static_cast<size_t>(i)] = px ? ((i - px) % nx + nx) % nx : i;
    for (int j = 0; j < rows; ++j) {
        const int sj = py ? ((j - py) % ny + ny) % ny : j;
        double *row = cells.data() + static_cast<size_t>(j) * static_cast<size_t>(cols);
        for (int i = 0; i < cols; ++i)
            row[i] = target(column[static_cast<size_t>(i)], sj) ? 0 : kInf;
    }
    if (!squaredDistanceTransform(cells, cols, rows, cancel))
        return false;
    if (!px && !py) {  // nothing padded: the transform is the field
        for (double &d : cells)
            d = std::sqrt(d);
        out = std::move(cells);
        return true;
    }
    out.resize(static_cast<size_t>(nx) * static_cast<size_t>(ny));
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
            out[static_cast<size_t>(j) * static_cast<size_t>(nx) + static_cast<size_t>(i)] =
                std::sqrt(cells[static_cast<size_t>(j + py) * static_cast<size_t>(cols) + static_cast<size_t>(i + px)]);
    return true;
}

} // namespace

double statsStep(bool masked, double width, double height)
{
    return std::max(std::sqrt(width * height / (masked ? 2.5e5 : 1e6)), 1e-9);
}

std::vector<PointXYR> torusGhosts(const std::vector<PointXYR> &points, double width, double height, StatsTorus torus,
                                  double band, std::vector<std::uint32_t> &ghostOf)
{
    std::vector<PointXYR> ghosts;
    ghostOf.clear();
    const int nx = torus.x ? 1 : 0, ny = torus.y ? 1 : 0;
    const auto near = [band](double v, double side) { return v >= -band && v < side + band; };
    for (std::size_t k = 0; k < points.size(); ++k) {
        const PointXYR &p = points[k];
        for (int j = -ny; j <= ny; ++j)
            for (int i = -nx; i <= nx; ++i) {
                if (i == 0 && j == 0)
                    continue;
                const PointXYR g{p.x + i * width, p.y + j * height, p.r};
                if (near(g.x, width) && near(g.y, height)) {
                    ghosts.push_back(g);
                    ghostOf.push_back(static_cast<std::uint32_t>(k));
                }
            }
    }
    return ghosts;
}

void widestClearing(LayerStats &s, const PointLayer &layer, const AllowedRaster &a, double width, double height,
                    StatsTorus torus, const std::function<const stats::Buckets &(double band)> &nearestPoints,
                    const StatsControl &control)
{
    const int nx = a.nx, ny = a.ny;
    const double step = a.step;
    auto index = [nx](int i, int j) { return static_cast<size_t>(j) * static_cast<size_t>(nx) + static_cast<size_t>(i); };
    std::vector<char> occupied(static_cast<size_t>(nx) * static_cast<size_t>(ny), 0);
    for (const auto &p : layer.points) {
        const int i = std::clamp(static_cast<int>(p.x / step), 0, nx - 1);
        const int j = std::clamp(static_cast<int>(p.y / step), 0, ny - 1);
        occupied[index(i, j)] = 1;
    }
    std::vector<double> edge;  // distance to the nearest forbidden cell, in cells
    if (!a.allowed.empty() && !distanceField(edge, nx, ny, torus, [&](int i, int j) { return !a.at(i, j); }, control.cancel))
        return;
    std::vector<double> field;
    if (!distanceField(field, nx, ny, torus, [&](int i, int j) { return occupied[index(i, j)] || !a.at(i, j); },
                       control.cancel))
        return;
    struct Candidate { double d, x, y; };
    std::vector<Candidate> best;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const double d = field[index(i, j)];
            if (a.at(i, j) && (best.size() < 8 || d > best.back().d)) {
                best.push_back({d, std::min(width, (i + 0.5) * step), std::min(height, (j + 0.5) * step)});
                std::sort(best.begin(), best.end(), [](const Candidate &l, const Candidate &r) { return l.d > r.d; });
                if (best.size() > 8)
                    best.pop_back();
            }
        }
    if (best.empty() || control.cancelled())
        return;  // nowhere allowed
    // The refined clearing stays within a few cells of its candidate, so its radius is below the
    // widest candidate's plus those cells: the ghosts it needs lie within that band.
    const double band = std::isfinite(best.front().d) ? (best.front().d + 4) * step : std::max(width, height);
    const stats::Buckets &own = nearestPoints(band);
    // Exact to the points; to a cell (rounded inwards) at the allowed area's edge.
    auto clearance = [&](double x, double y) {
        const double d = own.nearest(x, y);
        if (edge.empty())
            return d;
        const int i = std::clamp(static_cast<int>(x / step), 0, nx - 1), j = std::clamp(static_cast<int>(y / step), 0, ny - 1);
        return a.at(i, j) ? std::min(d, std::max(0.0, (edge[index(i, j)] - 1.5) * step)) : -1.0;
    };
    for (auto &c : best)
        c.d = clearance(c.x, c.y);
    Candidate top = best.front();
    for (Candidate c : best) {
        for (double h = step; h > step * 1e-4; h *= 0.5) {
            bool moved = true;
            while (moved) {
                moved = false;
                for (auto [ox, oy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}) {
                    const double x = std::clamp(c.x + ox * h, 0.0, width), y = std::clamp(c.y + oy * h, 0.0, height);
                    const double d = clearance(x, y);
                    if (d > c.d) {
                        c = {d, x, y};
                        moved = true;
                    }
                }
            }
        }
        if (c.d > top.d)
            top = c;
    }
    s.clearingX = top.x;
    s.clearingY = top.y;
    s.clearingDiameter = 2 * std::max(0.0, top.d);
}

} // namespace grove
