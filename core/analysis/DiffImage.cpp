// DiffImage: discs and arrows painted straight into an RGB buffer (no Qt: grove-cli paints it).
#include "core/analysis/DiffImage.h"
#include "core/math/ExactHypot.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

class DiffCanvas
{
public:
    DiffCanvas(Image &image) : m_image(image) {}

    void disc(double cx, double cy, double radius, const Rgb &colour)
    {
        const int x0 = std::max(0, static_cast<int>(std::floor(cx - radius))), x1 = std::min(m_image.width - 1, static_cast<int>(std::ceil(cx + radius)));
        const int y0 = std::max(0, static_cast<int>(std::floor(cy - radius))), y1 = std::min(m_image.height - 1, static_cast<int>(std::ceil(cy + radius)));
        const double r2 = radius * radius;
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                const double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
                if (dx * dx + dy * dy <= r2)
                    put(x, y, colour);
            }
    }

    // A line of the given width: discs every half pixel (lines are short: arrows).
    void line(double ax, double ay, double bx, double by, double width, const Rgb &colour)
    {
        const double length = exactHypot(bx - ax, by - ay);
        const int steps = std::max(1, static_cast<int>(std::ceil(length * 2)));
        for (int i = 0; i <= steps; ++i) {
            const double t = static_cast<double>(i) / steps;
            disc(ax + (bx - ax) * t, ay + (by - ay) * t, width / 2, colour);
        }
    }

private:
    void put(int x, int y, const Rgb &c)
    {
        std::uint8_t *p = &m_image.rgb[(static_cast<std::size_t>(y) * static_cast<std::size_t>(m_image.width) + static_cast<std::size_t>(x)) * 3];
        p[0] = c[0];
        p[1] = c[1];
        p[2] = c[2];
    }

    Image &m_image;
};

} // namespace

std::pair<int, int> diffImageSize(const Region &area, int maxSide)
{
    const double w = area.x1 - area.x0, h = area.y1 - area.y0;
    if (!(w > 0) || !(h > 0) || maxSide < 1 || !std::isfinite(w) || !std::isfinite(h))
        return {0, 0};
    const double scale = maxSide / std::max(w, h);
    auto pixels = [&](double v) { return static_cast<int>(std::clamp(std::round(v * scale), 1.0, double(maxSide))); };
    return {pixels(w), pixels(h)};
}

Image renderDiffImage(const PointDiff &diff, const Region &area, int maxSide)
{
    Image image;
    const auto [w, h] = diffImageSize(area, maxSide);
    if (w == 0)
        return image;
    image.width = w;
    image.height = h;
    image.rgb.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3);
    for (std::size_t i = 0; i < image.rgb.size(); i += 3)
        std::copy(kDiffBackground.begin(), kDiffBackground.end(), image.rgb.begin() + static_cast<std::ptrdiff_t>(i));
    const double scale = w / (area.x1 - area.x0);
    auto px = [&](double x) { return (x - area.x0) * scale; };
    auto py = [&](double y) { return (y - area.y0) * scale; };
    // Kept points small, changed ones at least a few pixels across, so one change among
    // thousands of kept points is still seen at 1024 pixels.
    auto keptRadius = [&](double r) { return std::clamp(0.35 * r * scale, 1.0, 4.0); };
    auto changedRadius = [&](double r) { return std::clamp(0.5 * r * scale, 2.5, 6.0); };
    DiffCanvas canvas(image);
    for (const LayerDiff &l : diff.layers)
        for (const DiffPair &p : l.keptPoints)
            canvas.disc(px(p.to.x), py(p.to.y), keptRadius(p.to.r), kDiffKept);
    for (const LayerDiff &l : diff.layers)
        for (const DiffPoint &p : l.removed)
            canvas.disc(px(p.x), py(p.y), changedRadius(p.r), kDiffRemoved);
    for (const LayerDiff &l : diff.layers)
        for (const DiffPoint &p : l.added)
            canvas.disc(px(p.x), py(p.y), changedRadius(p.r), kDiffAdded);
    for (const LayerDiff &l : diff.layers)
        for (const DiffPair &m : l.moved) {
            const double ax = px(m.from.x), ay = py(m.from.y), bx = px(m.to.x), by = py(m.to.y);
            const double length = exactHypot(bx - ax, by - ay);
            if (!(length > 0) || !std::isfinite(length))
                continue;
            // a move of a pixel or less would vanish: arrows are at least 8 pixels long, in the
            // direction of the move, from the old place
            const double ux = (bx - ax) / length, uy = (by - ay) / length, shown = std::max(length, 8.0);
            const double tx = ax + ux * shown, ty = ay + uy * shown;
            canvas.line(ax, ay, tx, ty, 1.6, kDiffMoved);
            const double head = 4.0, c = 0.8775825618903728, s = 0.479425538604203;  // cos, sin 0.5: no libm
            canvas.line(tx, ty, tx - head * (ux * c - uy * s), ty - head * (uy * c + ux * s), 1.6, kDiffMoved);
            canvas.line(tx, ty, tx - head * (ux * c + uy * s), ty - head * (uy * c - ux * s), 1.6, kDiffMoved);
        }
    return image;
}

} // namespace grove
