// PreviewView: one transform (scale + offset) maps world units to widget pixels.
#include "PreviewView.h"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace grove {

namespace {
constexpr int kClickSlack = 4;  // pixels a press may move and still be a click
constexpr double kMinZoomFactor = 0.25, kMaxZoomFactor = 64;
constexpr double kOverlayOpacity = 0.62;
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
    m_generation = generation;
    if (image.cacheKey() == m_image.cacheKey() && worldSize == m_world) {
        if (generation != m_paintedGeneration)  // the same picture (a frame's follow-up): nothing to scale
            update();
        return;
    }
    const bool newWorld = worldSize != m_world;
    m_image = image;
    m_scaled = {};
    m_world = worldSize.width() > 0 && worldSize.height() > 0 ? worldSize : QSizeF(1, 1);
    if (newWorld || m_fitted)
        fitToView();
    update();
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
    m_scale = std::max(1e-6, std::min((width() - 2 * margin) / m_world.width(), (height() - 2 * margin) / m_world.height()));
    m_offset = QPointF((width() - m_world.width() * m_scale) / 2, (height() - m_world.height() * m_scale) / 2);
    reportDisplaySide();
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
    return w.x() >= 0 && w.y() >= 0 && w.x() < m_world.width() && w.y() < m_world.height();
}

void PreviewView::paintEvent(QPaintEvent *)
{
    QElapsedTimer clock;
    clock.start();
    paintPicture();
    if (!m_image.isNull()) {
        m_paintedGeneration = m_generation;
        emit framePainted(m_generation, clock.nsecsElapsed());
    }
}

void PreviewView::paintPicture()
{
    QPainter p(this);
    p.fillRect(rect(), QColor(24, 25, 28));
    const QRectF target(m_offset, m_world * m_scale);
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
    p.drawRect(target);
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
}

void PreviewView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    const QPointF cursor = event->position();
    const QPointF anchor = worldAt(cursor);
    const double fit = std::min(width() / m_world.width(), height() / m_world.height());
    m_scale = std::clamp(m_scale * std::pow(1.25, steps), fit * kMinZoomFactor, fit * kMaxZoomFactor);
    m_offset = cursor - anchor * m_scale;  // the world point under the cursor stays there
    m_fitted = false;
    reportDisplaySide();
    update();
    event->accept();
}

void PreviewView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton)
        return;
    m_press = event->position().toPoint();
    m_pressOffset = m_offset;
    m_panning = event->button() == Qt::MiddleButton;
}

void PreviewView::mouseMoveEvent(QMouseEvent *event)
{
    const QPointF pos = event->position();
    if (m_press && (m_panning || (pos.toPoint() - *m_press).manhattanLength() > kClickSlack)) {
        m_panning = true;
        m_offset = m_pressOffset + (pos - QPointF(*m_press));
        m_fitted = false;
        setCursor(Qt::ClosedHandCursor);
        update();
    }
    const QPointF w = worldAt(pos);
    emit hovered(w, inWorld(w));
}

void PreviewView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_press && !m_panning && event->button() == Qt::LeftButton) {
        const QPointF w = worldAt(event->position());
        if (inWorld(w))
            emit clicked(w);
    }
    m_press.reset();
    m_panning = false;
    setCursor(Qt::CrossCursor);
}

void PreviewView::mouseDoubleClickEvent(QMouseEvent *)
{
    fitToView();
}

void PreviewView::leaveEvent(QEvent *)
{
    emit hovered({}, false);
}

} // namespace grove
