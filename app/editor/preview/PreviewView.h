// The painted world: zoom (wheel, about the cursor), pan (drag), the selected output's overlay,
// a dashed circle for a layer's widest clearing, a chunked world's chunk grid; reports hovers,
// clicks and the visible part of the world in world units.
#pragma once

#include <QImage>
#include <QPainter>
#include <QPointF>
#include <QWidget>

#include <functional>
#include <optional>
#include <vector>

namespace grove {

class PreviewView : public QWidget
{
    Q_OBJECT

public:
    explicit PreviewView(QWidget *parent = nullptr);

    // The picture covers the world [0, worldSize) at any resolution.
    // `generation`: the graph state the picture shows (PreviewSnapshot::generation).
    void setPicture(const QImage &image, QSizeF worldSize, quint64 generation = 0);
    // A picture of part of the world (a big chunked world's view): it covers `covers`. `home` is
    // where Fit goes: the whole world, or for an endless one (`endless`) a few chunks at the origin.
    void setRegionPicture(const QImage &image, QRectF covers, QRectF home, bool endless, quint64 generation = 0);
    // The chunk grid: the chunk side (0: none) and whether the borders are drawn.
    void setChunkSize(double chunk);
    void setChunkBordersVisible(bool visible);
    bool chunkBordersVisible() const { return m_showChunks; }
    // A line drawn over the map (a big world zoomed out: why no points show); empty: none.
    void setMessage(const QString &message);
    QString message() const { return m_message; }
    // The part of the world the widget shows, in world units.
    QRectF visibleWorld() const;
    QRectF pictureRect() const { return m_picRect; }
    void setOverlay(const QImage &overlay);
    // A dashed circle in world units (the selected layer's widest clearing); nullopt hides it.
    void setCircle(std::optional<QPointF> centre, double diameter = 0);
    void fitToView();
    // Zooms and pans so that `world` (world units) fills the view, as a wheel and drag would.
    void zoomTo(QRectF world);

    const QImage &picture() const { return m_image; }
    bool hasOverlay() const { return !m_overlay.isNull(); }
    bool hasCircle() const { return m_circleCentre.has_value(); }
    QPointF worldAt(QPointF widgetPos) const;
    QPointF widgetAt(QPointF worldPos) const;
    double zoom() const { return m_scale; }
    // The generation of the picture the last paint showed: an edit is on screen once this reaches it.
    quint64 paintedGeneration() const { return m_paintedGeneration; }
    // Reports the hover again where the pointer rests (what lies under it changed: a new picture);
    // nothing while the pointer is off the map.
    void reportHover();

    QSize sizeHint() const override { return {440, 260}; }

    // A hand-edit tool is on: the left button no longer pans (the middle one still does); its
    // presses, drags and releases are reported in world units, and Ctrl+wheel is the tool's.
    void setToolActive(bool on);
    bool toolActive() const { return m_toolActive; }
    // Drawn over the picture after everything else, in widget pixels (widgetAt maps world units),
    // so what they draw follows pan and zoom. Painters run in the order added.
    void addPainter(std::function<void(QPainter &)> painter) { m_painters.push_back(std::move(painter)); }

signals:
    void hovered(QPointF world, bool inside);
    void clicked(QPointF world);
    // With a tool on (setToolActive): the left button's press, drag, release and double-click,
    // and Ctrl+wheel steps (positive: up).
    void toolPressed(QPointF world);
    void toolDragged(QPointF world);
    void toolReleased(QPointF world);
    void toolDoubleClicked(QPointF world);
    void toolWheel(double steps);
    // After every paint that showed a picture: its generation and the paint's duration.
    void framePainted(quint64 generation, qint64 paintNs);
    // The map's size on screen changed (fit, zoom, resize): its longer side in device pixels.
    void displaySideChanged(int pixels);
    // What the widget shows changed (zoom, pan, fit, resize): the world rectangle, and the
    // widget's size in device pixels.
    void viewportChanged(QRectF world, QSize pixels);

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
    void paintChunkGrid(QPainter &p);
    void paintMessage(QPainter &p);
    bool inWorld(QPointF world) const;
    void reportDisplaySide();
    void reportViewport();
    void setHome(QRectF home, bool endless);
    void keepInRange();  // an endless world: the view's centre stays within the chunk range
    // The picture with its overlay, scaled to `size` once: a paint is then a plain copy, not a
    // smooth rescale of the whole picture (which held the UI thread up while a slider dragged).
    const QImage *scaledPicture(QSize size, bool smooth);

    QImage m_image, m_overlay;
    quint64 m_generation = 0, m_paintedGeneration = 0;
    QImage m_scaled;           // cache of scaledPicture()
    bool m_scaledSmooth = false;
    QSizeF m_world{1, 1};
    QRectF m_home{0, 0, 1, 1};   // where Fit goes
    QRectF m_picRect{0, 0, 1, 1};  // the world rectangle the picture covers
    bool m_endless = false;
    double m_chunk = 0;
    bool m_showChunks = false;
    QString m_message;
    QRectF m_reportedWorld;
    QSize m_reportedPixels;
    double m_scale = 1;        // widget pixels per world unit
    QPointF m_offset;          // widget position of world (0, 0)
    bool m_fitted = true;      // follow the widget's size until the user zooms or pans
    std::optional<QPointF> m_circleCentre;
    double m_circleDiameter = 0;
    std::optional<QPointF> m_hoverPos;  // the pointer over the map, in widget pixels
    std::optional<QPoint> m_press;
    QPointF m_pressOffset;
    bool m_panning = false;
    int m_displaySide = 0;
    bool m_toolActive = false;
    bool m_toolDown = false;
    std::vector<std::function<void(QPainter &)>> m_painters;
};

} // namespace grove
