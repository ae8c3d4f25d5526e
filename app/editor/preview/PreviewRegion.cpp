// PreviewRegion: the visible rectangle, clipped to the world, at the view's resolution.
#include "preview/PreviewRegion.h"

#include "core/sampling/ChunkedLayer.h"

#include <QLocale>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace grove {

namespace {
constexpr int kHomeChunks = 4;           // an endless world opens on 4 x 4 chunks
constexpr int kMaxRegionSide = 4096;     // pixels: a region picture is never bigger than a big screen
} // namespace

QRectF previewHome(const World &world)
{
    if (world.endless)
        return QRectF(0, 0, kHomeChunks * world.chunk, kHomeChunks * world.chunk);
    return QRectF(0, 0, world.width, world.height);
}

bool sameWorldShown(bool wasEndless, QRectF wasHome, bool endless, QRectF home)
{
    return wasEndless == endless && (endless || wasHome == home);
}

std::optional<RegionRun> regionRun(const World &world, QRectF visible, QSize pixels, bool fit)
{
    if (!visible.isValid() || pixels.isEmpty())
        return std::nullopt;
    QRectF bounds(0, 0, world.width, world.height);
    if (world.endless) {
        const double limit = kChunkRange * world.chunk;
        bounds = QRectF(QPointF(-limit, -limit), QPointF(limit, limit));
    }
    const QRectF part = visible.intersected(bounds);
    if (part.isEmpty())
        return std::nullopt;
    double kx = pixels.width() / visible.width(), ky = pixels.height() / visible.height();
    if (fit)
        kx = ky = std::min(kx, ky);
    RegionRun run;
    run.region = {part.left(), part.top(), part.right(), part.bottom()};
    run.width = std::clamp(static_cast<int>(std::ceil(part.width() * kx)), 1, kMaxRegionSide);
    run.height = std::clamp(static_cast<int>(std::ceil(part.height() * ky)), 1, kMaxRegionSide);
    return run;
}

QString overBudgetMessage(std::size_t chunks, std::size_t maxChunks)
{
    const QLocale locale;
    return QObject::tr("Zoom in to see the points: %1 chunks in view, at most %2 placed.")
        .arg(locale.toString(static_cast<qulonglong>(chunks)), locale.toString(static_cast<qulonglong>(maxChunks)));
}

} // namespace grove
