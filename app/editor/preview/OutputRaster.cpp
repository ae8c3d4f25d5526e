// OutputRaster: rows through the core's row calls (sampleRaster for fields), dots for points.
#include "preview/OutputRaster.h"

#include "core/fields/Raster.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace grove {

namespace {

const QColor kBackground(28, 29, 33);

QColor rgb(const Rgb &c, int alpha = 255) { return QColor(c[0], c[1], c[2], alpha); }

} // namespace

QColor OutputRaster::ramp(double v)
{
    if (!std::isfinite(v))
        return QColor(255, 0, 255);
    v = std::clamp(v, 0.0, 1.0);
    // A few stops, linearly blended: deep blue, teal, green, yellow, near white.
    static const double stops[][3] = {{20, 30, 90}, {30, 120, 140}, {90, 170, 80}, {235, 215, 80}, {250, 250, 235}};
    const double t = v * 4;
    const int i = std::min(3, static_cast<int>(t));
    const double f = t - i;
    return QColor(static_cast<int>(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f),
                  static_cast<int>(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f),
                  static_cast<int>(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f));
}

QImage OutputRaster::render(const PortValue &value, const World &world, int width, int height, bool opaque, bool grey,
                            int threads)
{
    return render(value, Region{0, 0, world.width, world.height}, width, height, opaque, grey, threads);
}

QImage OutputRaster::render(const PortValue &value, const Region &region, int width, int height, bool opaque, bool grey,
                            int threads)
{
    if (width <= 0 || height <= 0 || region.empty())
        return {};
    const double sx = (region.x1 - region.x0) / width, sy = (region.y1 - region.y0) / height;
    const double x0 = region.x0, y0 = region.y0;
    QImage image(width, height, QImage::Format_ARGB32_Premultiplied);
    image.fill(opaque ? kBackground : QColor(0, 0, 0, 0));
    if (const auto *field = std::get_if<FieldPtr>(&value); field && *field) {
        std::vector<double> values(static_cast<size_t>(width) * height);
        sampleRaster(**field, x0 + 0.5 * sx, y0 + 0.5 * sy, sx, sy, width, height, values.data(), threads);
        // Fields are usually in [0, 1]; wider ones are shown over their own range.
        double lo = 0, hi = 1;
        for (double v : values)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        for (int y = 0; y < height; ++y) {
            auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
            for (int x = 0; x < width; ++x) {
                const double v = (values[static_cast<size_t>(y) * width + x] - lo) / (hi - lo);
                const int g = std::isfinite(v) ? static_cast<int>(std::clamp(v, 0.0, 1.0) * 255) : 0;
                line[x] = grey ? qRgb(g, g, g) : ramp(v).rgb();
            }
        }
        return image;
    }
    if (const auto *labels = std::get_if<LabelsPtr>(&value); labels && *labels) {
        const Labels &l = **labels;
        std::vector<int> row(static_cast<size_t>(width));
        for (int y = 0; y < height; ++y) {
            l.sampleRow(x0 + 0.5 * sx, sx, y0 + (y + 0.5) * sy, width, row.data());
            auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
            for (int x = 0; x < width; ++x) {
                const int i = row[static_cast<size_t>(x)];
                line[x] = i >= 0 && static_cast<size_t>(i) < l.colors.size() ? rgb(l.colors[static_cast<size_t>(i)]).rgb()
                                                                              : qRgb(128, 128, 128);
            }
        }
        return image;
    }
    if (const auto *mask = std::get_if<MaskPtr>(&value); mask && *mask) {
        const QRgb yes = opaque ? qRgb(120, 200, 110) : qPremultiply(qRgba(90, 230, 110, 150));
        const QRgb no = opaque ? kBackground.rgb() : qPremultiply(qRgba(120, 20, 40, 110));
        for (int y = 0; y < height; ++y) {
            auto *line = reinterpret_cast<QRgb *>(image.scanLine(y));
            for (int x = 0; x < width; ++x)
                line[x] = (*mask)->at(x0 + (x + 0.5) * sx, y0 + (y + 0.5) * sy) ? yes : no;
        }
        return image;
    }
    if (const auto *set = std::get_if<PointSetPtr>(&value); set && *set) {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing, !opaque);
        p.setPen(Qt::NoPen);
        const double k = (1 / sx + 1 / sy) / 2;
        for (const auto &layer : (*set)->layers) {
            if (!layer)
                continue;
            p.setBrush(rgb(layer->info.color).lighter(opaque ? 130 : 150));
            for (const PointXYR &pt : layer->points) {
                const double r = std::max(opaque ? 0.6 : 1.5, std::min(pt.r * 0.3, 4.0) * k);
                p.drawEllipse(QPointF((pt.x - x0) / sx, (pt.y - y0) / sy), r, r);
            }
        }
        return image;
    }
    return {};
}

} // namespace grove
