// PreviewView: one transform (scale + offset) maps world units to widget pixels.
#include "preview/PreviewView.h"
#include "preview/PreviewRegion.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include "core/sampling/ChunkedLayer.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {
constexpr int kClickSlack = 4;  // pixels a press may move and still be a click
constexpr double kMinZoomFactor = 0.25, kMaxZoomFactor = 64;
constexpr double kEndlessMinZoomFactor = 1.0 / 128;  // an endless world: out to 512 chunks across
constexpr double kMaxPixelsPerUnit = 16;  // a big world still zooms in until single points read well
constexpr double kOverlayOpacity = 0.62;
constexpr double kMinGridSpacing = 8;     // pixels between drawn chunk borders (every 2nd, 4th... beyond)
constexpr double kMinLabelledChunk = 64;  // pixels a chunk needs on screen for its (i, j) label
} // namespace

PreviewView::PreviewView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(200, 120);
    setCursor(Qt::CrossCursor);
    setFocusPolicy(Qt::ClickFocus);
}

void PreviewView::setPicture(const QImage &image, QSizeF worldSize, quint64 generation)
{
    const QSizeF size = worldSize.width() > 0 && worldSize.height() > 0 ? worldSize : QSizeF(1, 1);
    setRegionPicture(image, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size), false, generation);
}

void PreviewView::setRegionPicture(const QImage &image, QRectF covers, QRectF home, bool endless, quint64 generation)
{
    m_generation = generation;
    const bool newWorld = !sameWorldShown(m_endless, m_home, endless, home);
    if (image.cacheKey() == m_image.cacheKey() && covers == m_picRect && !newWorld) {
        if (generation != m_paintedGeneration)  // the same picture (a frame's follow-up): nothing to scale
            update();
        return;
    }
    m_image = image;
    m_scaled = {};
    m_picRect = covers.isValid() ? covers : QRectF(0, 0, 1, 1);
    setHome(home, endless);
    if (newWorld || m_fitted)
        fitToView();
    update();
}

void PreviewView::setHome(QRectF home, bool endless)
{
    m_home = home.isValid() ? home : QRectF(0, 0, 1, 1);
    m_endless = endless;
    m_world = m_home.size();
}

void PreviewView::setChunkSize(double chunk)
{
    if (chunk == m_chunk)
        return;
    m_chunk = chunk;
    update();
}

void PreviewView::setChunkBordersVisible(bool visible)
{
    if (visible == m_showChunks)
        return;
    m_showChunks = visible;
    update();
}

void PreviewView::setMessage(const QString &message)
{
    if (message == m_message)
        return;
    m_message = message;
    update();
}

QRectF PreviewView::visibleWorld() const
{
    return QRectF(worldAt(QPointF(0, 0)), worldAt(QPointF(width(), height())));
}

void PreviewView::setOverlay(const QImage &overlay)
{
    if (overlay.cacheKey() == m_overlay.cacheKey())
        return;
    m_overlay = overlay;
    m_scaled = {};
    update();
}

void PreviewView::setCircle(std::optional<QPointF> centre, double diameter)
{
    m_circleCentre = centre;
    m_circleDiameter = diameter;
    update();
}

void PreviewView::fitToView()
{
    m_fitted = true;
    const double margin = 6;
    m_scale = std::max(1e-6, std::min((width() - 2 * margin) / m_home.width(), (height() - 2 * margin) / m_home.height()));
    m_offset = QPointF((width() - m_home.width() * m_scale) / 2, (height() - m_home.height() * m_scale) / 2)
               - m_home.topLeft() * m_scale;
    reportDisplaySide();
    reportViewport();
    update();
}

void PreviewView::zoomTo(QRectF world)
{
    if (!world.isValid())
        return;
    m_fitted = false;
    m_scale = std::max(1e-6, std::min(width() / world.width(), height() / world.height()));
    m_offset = QPointF(width() / 2.0, height() / 2.0) - world.center() * m_scale;
    keepInRange();
    reportDisplaySide();
    reportViewport();
    update();
}

void PreviewView::reportDisplaySide()
{
    const int side = static_cast<int>(std::ceil(std::max(m_world.width(), m_world.height()) * m_scale * devicePixelRatioF()));
    if (side != m_displaySide) {
        m_displaySide = side;
        emit displaySideChanged(side);
    }
}

void PreviewView::reportViewport()
{
    const QRectF world = visibleWorld();
    const QSize pixels = (QSizeF(size()) * devicePixelRatioF()).toSize();
    if (world == m_reportedWorld && pixels == m_reportedPixels)
        return;
    m_reportedWorld = world;
    m_reportedPixels = pixels;
    emit viewportChanged(world, pixels);
    reportHover();  // a zoom, pan or fit moved the world under a still pointer
}

void PreviewView::reportHover()
{
    if (!m_hoverPos)
        return;
    const QPointF w = worldAt(*m_hoverPos);
    emit hovered(w, inWorld(w));
}

void PreviewView::keepInRange()
{
    if (!m_endless || !(m_chunk > 0))
        return;
    const double limit = kChunkRange * m_chunk;
    const QPointF centre = worldAt(QPointF(width() / 2.0, height() / 2.0));
    const QPointF kept(std::clamp(centre.x(), -limit, limit), std::clamp(centre.y(), -limit, limit));
    m_offset += (centre - kept) * m_scale;
}

QPointF PreviewView::worldAt(QPointF p) const
{
    return (p - m_offset) / m_scale;
}

QPointF PreviewView::widgetAt(QPointF w) const
{
    return w * m_scale + m_offset;
}

bool PreviewView::inWorld(QPointF w) const
{
    if (m_endless) {
        const double limit = kChunkRange * m_chunk;
        return w.x() >= -limit && w.y() >= -limit && w.x() < limit && w.y() < limit;
    }
    return w.x() >= 0 && w.y() >= 0 && w.x() < m_world.width() && w.y() < m_world.height();
}

void PreviewView::paintEvent(QPaintEvent *)
{
    QElapsedTimer clock;
    clock.start();
    paintPicture();
    {
        QPainter p(this);
        for (const auto &painter : m_painters) {
            p.save();
            painter(p);
            p.restore();
        }
        paintMessage(p);
    }
    if (!m_image.isNull()) {
        m_paintedGeneration = m_generation;
        emit framePainted(m_generation, clock.nsecsElapsed());
    }
}

void PreviewView::paintPicture()
{
    QPainter p(this);
    p.fillRect(rect(), QColor(24, 25, 28));
    const QRectF target(widgetAt(m_picRect.topLeft()), m_picRect.size() * m_scale);
    if (m_image.isNull()) {
        p.setPen(QColor(150, 150, 155));
        p.drawText(rect(), Qt::AlignCenter, tr("Evaluating…"));
        return;
    }
    // Smooth when shrinking; crisp pixels when zoomed in, so single points stay readable.
    const bool smooth = target.width() < m_image.width() * 1.5;
    const QSize size = target.size().toSize();
    if (const QImage *scaled = scaledPicture(size, smooth)) {
        p.drawImage(QPointF(std::round(target.x()), std::round(target.y())), *scaled);
    } else {
        // Zoomed in far: only the visible part is drawn, without smoothing, so no cache is needed.
        p.setRenderHint(QPainter::SmoothPixmapTransform, smooth);
        p.drawImage(target, m_image);
        if (!m_overlay.isNull()) {
            p.setOpacity(kOverlayOpacity);
            p.drawImage(target, m_overlay);
            p.setOpacity(1);
        }
    }
    p.setPen(QPen(QColor(255, 255, 255, 40), 1));
    p.setBrush(Qt::NoBrush);
    if (!m_endless)
        p.drawRect(QRectF(m_offset, m_world * m_scale));  // the world's edge
    if (m_showChunks && m_chunk > 0)
        paintChunkGrid(p);
    if (m_circleCentre) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setClipRect(target);  // a clearing at the world's edge stays on the map
        const QPointF c = widgetAt(*m_circleCentre);
        const double r = m_circleDiameter / 2 * m_scale;
        p.setPen(QPen(QColor(0, 0, 0, 150), 3.5, Qt::SolidLine));
        p.drawEllipse(c, r, r);
        QPen dashed(QColor(255, 240, 120), 2, Qt::DashLine);
        p.setPen(dashed);
        p.drawEllipse(c, r, r);
        p.drawLine(c - QPointF(5, 0), c + QPointF(5, 0));
        p.drawLine(c - QPointF(0, 5), c + QPointF(0, 5));
    }
}

void PreviewView::paintMessage(QPainter &p)
{
    if (m_message.isEmpty())
        return;
    p.setClipping(false);
    p.setRenderHint(QPainter::Antialiasing);
    QFont font = p.font();
    font.setBold(true);
    p.setFont(font);
    const QRect text = p.fontMetrics().boundingRect(rect().adjusted(24, 0, -24, 0), Qt::AlignCenter | Qt::TextWordWrap, m_message);
    const QRectF box = QRectF(text).adjusted(-12, -8, 12, 8).translated(0, -text.top() + 14);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(20, 22, 26, 215));
    p.drawRoundedRect(box, 6, 6);
    p.setPen(QColor(255, 214, 140));
    p.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, m_message);
}

// Lines on the chunk borders in view (every 2nd, 4th... when they would crowd), and each chunk's
// (i, j) at its top-left corner once a chunk is big enough on screen to hold it.
void PreviewView::paintChunkGrid(QPainter &p)
{
    const double c = m_chunk;
    QRectF area = visibleWorld();
    if (!m_endless)
        area = area.intersected(QRectF(QPointF(0, 0), m_world));
    if (area.isEmpty())
        return;
    const double pixels = c * m_scale;
    int step = 1;
    while (pixels * step < kMinGridSpacing && step < (1 << 20))
        step *= 2;
    const auto first = [&](double v) {
        const double i = std::floor(v / c);
        return static_cast<long long>(std::ceil(i / step) * step);
    };
    p.save();
    p.setClipRect(QRectF(widgetAt(area.topLeft()), area.size() * m_scale));
    p.setRenderHint(QPainter::Antialiasing, false);
    // a dark line beside a light one: the grid reads on pale sand and dark forest alike
    const QPen dark(QColor(0, 0, 0, 110), 1), light(QColor(255, 255, 255, 170), 1);
    for (long long i = first(area.left()); i * c <= area.right(); i += step) {
        const double x = std::round(widgetAt(QPointF(i * c, 0)).x());
        p.setPen(dark);
        p.drawLine(QPointF(x + 1, 0), QPointF(x + 1, height()));
        p.setPen(light);
        p.drawLine(QPointF(x, 0), QPointF(x, height()));
    }
    for (long long j = first(area.top()); j * c <= area.bottom(); j += step) {
        const double y = std::round(widgetAt(QPointF(0, j * c)).y());
        p.setPen(dark);
        p.drawLine(QPointF(0, y + 1), QPointF(width(), y + 1));
        p.setPen(light);
        p.drawLine(QPointF(0, y), QPointF(width(), y));
    }
    if (pixels >= kMinLabelledChunk) {
        QFont font = p.font();
        font.setPointSizeF(std::max(7.0, font.pointSizeF() - 1));
        p.setFont(font);
        const long long i0 = static_cast<long long>(std::floor(area.left() / c)), j0 = static_cast<long long>(std::floor(area.top() / c));
        const QPointF viewCorner = widgetAt(area.topLeft());
        for (long long j = j0; j * c < area.bottom(); ++j)
            for (long long i = i0; i * c < area.right(); ++i) {
                // at the chunk's top-left corner, or the view's when that is out of sight, while it fits
                const QPointF chunkCorner = widgetAt(QPointF(i * c, j * c));
                const QPointF corner(std::max(chunkCorner.x(), viewCorner.x()) + 5, std::max(chunkCorner.y(), viewCorner.y()) + 4);
                const QString label = QString("%1, %2").arg(i).arg(j);
                const QRectF box(corner, QSizeF(p.fontMetrics().horizontalAdvance(label) + 8, p.fontMetrics().height() + 2));
                // a sliver of a chunk at the view's edge gets no label: it would crowd its neighbour's
                const QPointF chunkEnd = widgetAt(QPointF((i + 1) * c, (j + 1) * c));
                if (chunkEnd.x() - corner.x() < box.width() + 24 || chunkEnd.y() - corner.y() < 2 * box.height() + 8)
                    continue;
                p.fillRect(box, QColor(0, 0, 0, 120));
                p.setPen(QColor(255, 255, 255, 225));
                p.drawText(box, Qt::AlignCenter, label);
            }
    }
    p.restore();
}

const QImage *PreviewView::scaledPicture(QSize size, bool smooth)
{
    // Past a few screens' worth of pixels, drawing the visible part directly is cheaper.
    if (size.isEmpty() || static_cast<qint64>(size.width()) * size.height() > 4LL * std::max(1, width() * height()))
        return nullptr;
    if (m_scaled.size() == size && m_scaledSmooth == smooth)
        return &m_scaled;
    const Qt::TransformationMode mode = smooth ? Qt::SmoothTransformation : Qt::FastTransformation;
    m_scaled = m_image.scaled(size, Qt::IgnoreAspectRatio, mode).convertToFormat(QImage::Format_RGB32);
    m_scaledSmooth = smooth;
    if (!m_overlay.isNull()) {
        QPainter p(&m_scaled);
        p.setOpacity(kOverlayOpacity);
        p.drawImage(QPoint(0, 0), m_overlay.scaled(size, Qt::IgnoreAspectRatio, mode));
    }
    return &m_scaled;
}

void PreviewView::resizeEvent(QResizeEvent *)
{
    if (m_fitted)
        fitToView();
    else
        reportViewport();
}

void PreviewView::setToolActive(bool on)
{
    m_toolActive = on;
    m_toolDown = false;
    if (!m_panning)
        setCursor(Qt::CrossCursor);
}

void PreviewView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    if (m_toolActive && (event->modifiers() & Qt::ControlModifier)) {
        emit toolWheel(steps);
        event->accept();
        return;
    }
    const QPointF cursor = event->position();
    m_hoverPos = cursor;
    const QPointF anchor = worldAt(cursor);
    const double fit = std::min(width() / m_home.width(), height() / m_home.height());
    m_scale = std::clamp(m_scale * std::pow(1.25, steps), fit * (m_endless ? kEndlessMinZoomFactor : kMinZoomFactor),
                         std::max(fit * kMaxZoomFactor, kMaxPixelsPerUnit));
    m_offset = cursor - anchor * m_scale;  // the world point under the cursor stays there
    m_fitted = false;
    keepInRange();
    reportDisplaySide();
    reportViewport();
    update();
    event->accept();
}

void PreviewView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton)
        return;
    if (m_toolActive && event->button() == Qt::LeftButton) {
        m_toolDown = true;
        emit toolPressed(worldAt(event->position()));
        return;
    }
    m_press = event->position().toPoint();
    m_pressOffset = m_offset;
    m_panning = event->button() == Qt::MiddleButton;
}

void PreviewView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    m_hoverPos = pos;
    const QRectF reported = m_reportedWorld;
    if (m_toolDown)
        emit toolDragged(worldAt(pos));
    if (m_press && (m_panning || (pos.toPoint() - *m_press).manhattanLength() > kClickSlack)) {
        m_panning = true;
        m_offset = m_pressOffset + (pos - QPointF(*m_press));
        m_fitted = false;
        keepInRange();
        reportViewport();
        setCursor(Qt::ClosedHandCursor);
        update();
    }
    if (m_reportedWorld == reported)  // a pan has reported it already
        reportHover();
}

void PreviewView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_toolDown && event->button() == Qt::LeftButton) {
        m_toolDown = false;
        emit toolReleased(worldAt(event->position()));
        return;
    }
    if (m_press && !m_panning && event->button() == Qt::LeftButton) {
        const QPointF w = worldAt(event->position());
        if (inWorld(w))
            emit clicked(w);
    }
    m_press.reset();
    m_panning = false;
    setCursor(Qt::CrossCursor);
}

void PreviewView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (m_toolActive && event->button() == Qt::LeftButton) {
        emit toolDoubleClicked(worldAt(event->position()));
        return;
    }
    fitToView();
}

void PreviewView::leaveEvent(QEvent *)
{
    m_hoverPos.reset();
    emit hovered({}, false);
}

} // namespace grove
