// The canvas widget: wheel zoom about the cursor, middle-drag pan, framing, and the node palette.
#pragma once

#include <QGraphicsView>
#include <QList>

namespace grove {

class GraphScene;
class NodePalette;
class NodeRegistry;

class GraphView : public QGraphicsView
{
    Q_OBJECT

public:
    GraphView(GraphScene *scene, const NodeRegistry &registry, QWidget *parent = nullptr);

    void frameAll();
    // Scales the view about the cursor (clamped to what the wheel allows).
    void setZoom(double zoom);
    // Frames the selected nodes, or every node when none is selected.
    void frameSelection();
    // Actions offered when right-clicking a node (duplicate, delete, ...).
    void setNodeActions(const QList<QAction *> &actions) { m_nodeActions = actions; }
    // Opens the node palette at a view position; with `wireFrom` (an output, as a link's text) it lists
    // only nodes that can take that wire, and the chosen node arrives wired to it.
    void showPalette(QPoint viewPos, const QString &wireFrom = QString());
    NodePalette *palette() const { return m_palette; }
    // Where the cursor is in the scene, or the view's centre when it is outside.
    QPointF cursorScenePos() const;

signals:
    void addNodeRequested(const QString &typeId, QPointF scenePos, const QString &wireFrom);
    // A card was double-clicked (a group opens its file).
    void nodeDoubleClicked(const QString &id);
    // A .grove.yaml file was dropped on the canvas (from the presets browser or a file manager).
    void graphFileDropped(const QString &path, QPointF scenePos);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    bool focusNextPrevChild(bool next) override;

private:
    void frameRect(QRectF rect);
    // After every change of zoom: port names only where they are large enough to read.
    void zoomChanged();

    GraphScene *m_scene;
    NodePalette *m_palette;
    QList<QAction *> m_nodeActions;
    QPointF m_paletteScenePos;
    QString m_paletteWire;
    bool m_panning = false;
    bool m_framed = false;  // the view still shows what frameAll chose: keep it framed on resize
    QPoint m_panLast;
};

} // namespace grove
