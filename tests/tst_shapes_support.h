// What tst_shapes and tst_shape_files share: reference geometry (crossing number, distances to
// segments) and a fixture that evaluates graphs saved in a temporary folder.
#pragma once

#include "TestSupport.h"
#include "core/base/NumberText.h"

#include "core/eval/Evaluator.h"
#include "core/formats/PointsExport.h"

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <random>

using namespace grove;
using namespace grove::test;

namespace shapes_support {

using namespace grove;
using namespace grove::test;


struct P
{
    double x, y;
};

// The references, written here from the definitions, not taken from the code under test.
inline bool pnpoly(const std::vector<std::vector<P>> &rings, double x, double y)
{
    bool c = false;
    for (const auto &v : rings)
        for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++)
            if (((v[i].y > y) != (v[j].y > y)) && (x < (v[j].x - v[i].x) * (y - v[i].y) / (v[j].y - v[i].y) + v[i].x))
                c = !c;
    return c;
}

inline double segmentDistance(P p, P a, P b)
{
    const double vx = b.x - a.x, vy = b.y - a.y, wx = p.x - a.x, wy = p.y - a.y;
    const double c1 = vx * wx + vy * wy, c2 = vx * vx + vy * vy;
    if (c1 <= 0 || c2 == 0)
        return std::hypot(p.x - a.x, p.y - a.y);
    if (c2 <= c1)
        return std::hypot(p.x - b.x, p.y - b.y);
    const double t = c1 / c2;
    return std::hypot(p.x - (a.x + t * vx), p.y - (a.y + t * vy));
}

inline double polylineDistance(P p, const std::vector<P> &line)
{
    if (line.size() == 1)
        return std::hypot(p.x - line[0].x, p.y - line[0].y);
    double d = INFINITY;
    for (size_t i = 0; i + 1 < line.size(); ++i)
        d = std::min(d, segmentDistance(p, line[i], line[i + 1]));
    return d;
}

// (x, y) turned by deg clockwise (y down) about (ox, oy)
inline P turn(double ox, double oy, double dx, double dy, double deg)
{
    const double a = deg * M_PI / 180;
    return {ox + dx * std::cos(a) - dy * std::sin(a), oy + dx * std::sin(a) + dy * std::cos(a)};
}

// A reference world: polygons (rings), lines (distance < width), ellipses.
struct Reference
{
    std::vector<std::vector<std::vector<P>>> polygons;
    std::vector<std::vector<P>> lines;
    struct E
    {
        double cx, cy, a, b, deg;
    };
    std::vector<E> ellipses;
    double width = 0;

    bool covered(double x, double y) const
    {
        for (const auto &p : polygons)
            if (pnpoly(p, x, y))
                return true;
        for (const auto &l : lines)
            if (polylineDistance({x, y}, l) < width)
                return true;
        for (const auto &e : ellipses) {
            const double r = -e.deg * M_PI / 180, dx = x - e.cx, dy = y - e.cy;
            const double u = dx * std::cos(r) - dy * std::sin(r), v = dx * std::sin(r) + dy * std::cos(r);
            if ((u / e.a) * (u / e.a) + (v / e.b) * (v / e.b) < 1)
                return true;
        }
        return false;
    }
    // how far (x, y) lies from any boundary: disagreements closer than rounding are not failures
    double margin(double x, double y) const
    {
        double m = INFINITY;
        for (const auto &p : polygons)
            for (const auto &ring : p)
                for (size_t i = 0; i < ring.size(); ++i)
                    m = std::min(m, segmentDistance({x, y}, ring[i], ring[(i + 1) % ring.size()]));
        for (const auto &l : lines)
            m = std::min(m, std::abs(polylineDistance({x, y}, l) - width));
        return m;
    }
};


class ShapesFixture
{
protected:
    QTemporaryDir m_dir;

    std::string path(const std::string &name) const { return m_dir.path().toStdString() + "/" + name; }

    static std::string world(double w = 200, double h = 150) { return "grove: 1\nworld: {width: " + formatNumber(w) + ", height: " + formatNumber(h) + ", seed: 5}\nnodes:\n"; }

    // Evaluates `text` saved as g.grove.yaml in the temporary folder; the result, or the first
    // located diagnostic in `problem`.
    std::optional<EvalResult> run(const std::string &text, std::string *problem = nullptr)
    {
        const std::string file = path("g.grove.yaml");
        writeFile(file, text);
        LoadResult loaded = loadGraphFile(file, registry());
        if (!loaded.ok()) {
            if (problem)
                *problem = loaded.diagnostics.front().format();
            return std::nullopt;
        }
        Evaluator ev(registry());
        EvalResult r = ev.evaluate(loaded.graph);
        if (!r.ok()) {
            if (problem) {
                Diagnostic d = r.diagnostics.front();
                d.file = file;
                locate(loaded, d);
                *problem = d.format();
            }
            return std::nullopt;
        }
        return r;
    }

    MaskPtr maskOf(const std::string &file, const std::string &params, std::string *problem = nullptr)
    {
        auto r = run(world() + "  shp:\n    type: shapes\n    params: {path: \"" + file + "\"" + (params.empty() ? "" : ", " + params) + "}\n",
                     problem);
        return r ? std::get<MaskPtr>(r->output("shp")) : nullptr;
    }

    std::vector<PointXYR> pointsOf(const std::string &file, const std::string &params, std::string *problem = nullptr)
    {
        auto r = run(world() + "  pts:\n    type: points_file\n    params: {path: \"" + file + "\"" + (params.empty() ? "" : ", " + params) + "}\n",
                     problem);
        if (!r)
            return {{-1, -1, -1}};
        const auto set = std::get<PointSetPtr>(r->output("pts"));
        return set->layers.at(0)->points;
    }

    // The mask against the reference at n random points over [x0, x1) x [y0, y1).
    void compare(const Mask &mask, const Reference &ref, bool invert, int n, double x0, double y0, double x1, double y1,
                 int *insideCount = nullptr)
    {
        std::mt19937_64 rng(12345);
        std::uniform_real_distribution<double> ux(x0, x1), uy(y0, y1);
        int in = 0, skipped = 0;
        for (int i = 0; i < n; ++i) {
            const double x = ux(rng), y = uy(rng);
            const bool want = ref.covered(x, y) != invert;
            in += want != invert;
            if (mask.at(x, y) != want) {
                if (ref.margin(x, y) < 1e-9) {
                    ++skipped;
                    continue;
                }
                QFAIL(qPrintable(QString("at (%1, %2): mask %3, brute force %4").arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)
                                     .arg(mask.at(x, y)).arg(want)));
            }
        }
        QVERIFY(skipped <= 2);
        if (insideCount)
            *insideCount = in;
    }
};

} // namespace shapes_support
