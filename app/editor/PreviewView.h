// The painted world: zoom (wheel, about the cursor), pan (drag), the selected output's overlay,
// a dashed circle for a layer's widest clearing; reports hovers and clicks in world units.
#pragma once

#include <QImage>
#include <QPointF>
#include <QWidget>

#include <optional>

namespace grove {

class PreviewView : public QWidget
{
    Q_OBJECT

public:
    explicit PreviewView(QWidget *parent = nullptr);

    // The picture covers the world [0, worldSize) at any resolution.
    // `generation`: the graph state the picture shows (PreviewSnapshot::generation).
    void setPicture(const QImage &image, QSizeF worldSize, quint64 generation = 0);
    void setOverlay(const QImage &overlay);
    // A dashed circle in world units (the selected layer's widest clearing); nullopt hides it.
    void setCircle(std::optional<QPointF> centre, double diameter = 0);
    void fitToView();

    const QImage &picture() const { return m_image; }
    bool hasOverlay() const { return !m_overlay.isNull(); }
    bool hasCircle() const { return m_circleCentre.has_value(); }
    QPointF worldAt(QPointF widgetPos) const;
    QPointF widgetAt(QPointF worldPos) const;
    double zoom() const { return m_scale; }
    // The generation of the picture the last paint showed: an edit is on screen once this reaches it.
    quint64 paintedGeneration() const { return m_paintedGeneration; }

    QSize sizeHint() const override { return {440, 260}; }

signals:
    void hovered(QPointF world, bool inside);
    void clicked(QPointF world);
    // After every paint that showed a picture: its generation and the paint's duration.
    void framePainted(quint64 generation, qint64 paintNs);
    // The map's size on screen changed (fit, zoom, resize): its longer side in device pixels.
    void displaySideChanged(int pixels);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void paintPicture();
    bool inWorld(QPointF world) const;
    void reportDisplaySide();
    // The picture with its overlay, scaled to `size` once: a paint is then a plain copy, not a
    // smooth rescale of the whole picture (which held the UI thread up while a slider dragged).
    const QImage *scaledPicture(QSize size, bool smooth);

    QImage m_image, m_overlay;
    quint64 m_generation = 0, m_paintedGeneration = 0;
    QImage m_scaled;           // cache of scaledPicture()
    bool m_scaledSmooth = false;
    QSizeF m_world{1, 1};
    double m_scale = 1;        // widget pixels per world unit
    QPointF m_offset;          // widget position of world (0, 0)
    bool m_fitted = true;      // follow the widget's size until the user zooms or pans
    std::optional<QPointF> m_circleCentre;
    double m_circleDiameter = 0;
    std::optional<QPoint> m_press;
    QPointF m_pressOffset;
    bool m_panning = false;
    int m_displaySide = 0;
};

} // namespace grove
