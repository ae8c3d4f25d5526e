// Paints a point spectrum into an RGB image for grove-cli check --spectrum.
#include "core/analysis/SpectrumImage.h"
#include "core/math/ExactLog.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace grove {

namespace {

// A dark-to-bright ramp (black, purple, orange, pale yellow): faint power stays visible on black.
Rgb ramp(double t)
{
    static constexpr std::array<std::array<double, 3>, 4> stops = {{{0, 0, 4}, {100, 22, 130}, {245, 120, 80}, {252, 250, 190}}};
    t = std::clamp(t, 0.0, 1.0) * 3;
    const int i = std::min(2, static_cast<int>(t));
    const double f = t - i;
    Rgb c;
    for (int ch = 0; ch < 3; ++ch)
        c[static_cast<size_t>(ch)] = static_cast<std::uint8_t>(std::lround(stops[static_cast<size_t>(i)][static_cast<size_t>(ch)] * (1 - f)
                                                                         + stops[static_cast<size_t>(i) + 1][static_cast<size_t>(ch)] * f));
    return c;
}

class SpectrumCanvas
{
public:
    explicit SpectrumCanvas(Image &image) : m_image(image) {}
    void set(int x, int y, Rgb c)
    {
        if (x < 0 || y < 0 || x >= m_image.width || y >= m_image.height)
            return;
        auto *p = m_image.rgb.data() + (static_cast<size_t>(y) * static_cast<size_t>(m_image.width) + static_cast<size_t>(x)) * 3;
        p[0] = c[0];
        p[1] = c[1];
        p[2] = c[2];
    }
    void fill(int x0, int y0, int x1, int y1, Rgb c)
    {
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x)
                set(x, y, c);
    }
    void line(double xa, double ya, double xb, double yb, Rgb c)
    {
        const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::fabs(xb - xa), std::fabs(yb - ya)))));
        for (int s = 0; s <= steps; ++s) {
            const double t = double(s) / steps;
            set(static_cast<int>(std::lround(xa + (xb - xa) * t)), static_cast<int>(std::lround(ya + (yb - ya) * t)), c);
        }
    }

private:
    Image &m_image;
};

} // namespace

Image renderSpectrumImage(const PointSpectrum &spectrum)
{
    const int m = std::max(spectrum.m, 1);
    const int cells = 2 * m + 1;
    const int scale = std::max(1, 520 / cells);
    const int panel = cells * scale, gap = 8, plotWidth = panel;
    Image image;
    image.width = panel + gap + plotWidth;
    image.height = panel;
    image.rgb.assign(static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3, 0);
    SpectrumCanvas canvas(image);
    canvas.fill(panel, 0, panel + gap, panel, {40, 40, 40});

    if (!spectrum.power.empty())
        for (int ky = -m; ky <= m; ++ky)
            for (int kx = -m; kx <= m; ++kx) {
                const double p = spectrum.at(kx, ky);
                const double t = p > 0 ? (exactLog10(p) + 2) / 3 : 0;  // no libm: the same pixels everywhere
                canvas.fill((kx + m) * scale, (ky + m) * scale, (kx + m + 1) * scale, (ky + m + 1) * scale, ramp(t));
            }

    // the radial average: x = |k| from 0 to m, y from 0 (bottom) to the plot's top
    const int left = panel + gap, margin = 12;
    // up to 4 (a Poisson disk's peak is about 2): a patchy allowed area's spike at the lowest
    // frequencies is clipped instead of flattening the rest
    double top = 1.5;
    for (double v : spectrum.radial)
        top = std::max(top, std::min(4.0, v * 1.1));
    auto px = [&](double k) { return left + margin + (plotWidth - 2 * margin) * k / m; };
    auto py = [&](double v) { return panel - margin - (panel - 2 * margin) * std::min(v, top) / top; };
    const double cut = std::min<double>(spectrum.lowFreqCut, m);
    canvas.fill(static_cast<int>(px(0)), margin, static_cast<int>(px(cut)), panel - margin, {28, 28, 52});
    canvas.line(px(0), py(0), px(m), py(0), {150, 150, 150});
    canvas.line(px(0), py(0), px(0), py(top), {150, 150, 150});
    for (double x = 0; x < m; x += 2.0 * m / (plotWidth - 2 * margin) * 3)  // white noise: 1, dashed
        canvas.line(px(x), py(1), px(std::min<double>(m, x + 1.5 * m / (plotWidth - 2 * margin) * 3)), py(1), {120, 120, 120});
    if (spectrum.radius > 0 && spectrum.side / spectrum.radius <= m)
        canvas.line(px(spectrum.side / spectrum.radius), py(0), px(spectrum.side / spectrum.radius), py(top), {70, 130, 230});
    for (int b = 2; b < static_cast<int>(spectrum.radial.size()); ++b)
        for (int thick = 0; thick < 2; ++thick)
            canvas.line(px(b - 1), py(spectrum.radial[static_cast<size_t>(b) - 1]) + thick, px(b),
                        py(spectrum.radial[static_cast<size_t>(b)]) + thick, {250, 215, 80});
    return image;
}

} // namespace grove
