// GraphView navigation and palette placement.
#include "canvas/GraphView.h"

#include "canvas/GraphScene.h"
#include "canvas/NodeItem.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>
#include "canvas/NodePalette.h"

#include <QContextMenuEvent>
#include <QMenu>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace grove {

GraphView::GraphView(GraphScene *scene, const NodeRegistry &registry, QWidget *parent)
    : QGraphicsView(scene, parent), m_scene(scene), m_palette(new NodePalette(registry, this))
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(RubberBandDrag);
    setAcceptDrops(true);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(AnchorUnderMouse);
    setViewportUpdateMode(FullViewportUpdate);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFocusPolicy(Qt::StrongFocus);
    connect(m_palette, &NodePalette::typeChosen, this,
            [this](const QString &typeId) { emit addNodeRequested(typeId, m_paletteScenePos, m_paletteWire); });
    connect(scene, &GraphScene::wireDroppedOnCanvas, this,
            [this](const QString &from, QPointF scenePos) { showPalette(mapFromScene(scenePos), from); });
}

void GraphView::frameAll()
{
    frameRect(m_scene->nodesBoundingRect());
    m_framed = true;
}

void GraphView::frameSelection()
{
    const QRectF selected = m_scene->selectedNodesBoundingRect();
    if (selected.isEmpty()) {
        frameAll();
        return;
    }
    frameRect(selected);
    m_framed = false;
}

void GraphView::frameRect(QRectF r)
{
    if (r.isEmpty()) {
        resetTransform();
        centerOn(0, 0);
        zoomChanged();
        return;
    }
    r.adjust(-40, -40, 40, 40);
    fitInView(r, Qt::KeepAspectRatio);
    // Never blow a small graph up past 1:1; text looks best there.
    if (transform().m11() > 1.0) {
        resetTransform();
        centerOn(r.center());
    }
    zoomChanged();
}

void GraphView::setZoom(double zoom)
{
    const double current = transform().m11();
    const double target = std::clamp(zoom, 0.1, 3.0);
    scale(target / current, target / current);  // anchored under the mouse
    zoomChanged();
}

void GraphView::zoomChanged()
{
    m_scene->setPortLabelsShown(transform().m11() >= NodeItem::kPortLabelMinZoom);
}

QPointF GraphView::cursorScenePos() const
{
    QPoint p = mapFromGlobal(QCursor::pos());
    if (!viewport()->rect().contains(p))
        p = viewport()->rect().center();
    return mapToScene(p);
}

void GraphView::showPalette(QPoint viewPos, const QString &wireFrom)
{
    m_paletteScenePos = mapToScene(viewPos);
    m_paletteWire = wireFrom;
    std::optional<DataType> takes;
    if (!wireFrom.isEmpty()) {
        const Link from = Link::parse(wireFrom.toStdString());
        if (NodeItem *source = m_scene->nodeItem(from.node))
            takes = source->portType(false, from.port);
    }
    m_palette->popup(viewport()->mapToGlobal(viewPos), takes);
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    setZoom(transform().m11() * std::pow(1.0015, event->angleDelta().y()));
    m_framed = false;
    event->accept();
}

void GraphView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::MiddleButton) {
        m_panning = true;
        m_framed = false;
        m_panLast = event->position().toPoint();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

namespace {
QString droppedGraph(const QMimeData *mime)
{
    for (const QUrl &url : mime ? mime->urls() : QList<QUrl>{})
        if (url.isLocalFile() && url.toLocalFile().endsWith(".grove.yaml"))
            return url.toLocalFile();
    return {};
}
} // namespace

void GraphView::dragEnterEvent(QDragEnterEvent *event)
{
    if (!droppedGraph(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QGraphicsView::dragEnterEvent(event);
}

void GraphView::dragMoveEvent(QDragMoveEvent *event)
{
    if (!droppedGraph(event->mimeData()).isEmpty())
        event->acceptProposedAction();
    else
        QGraphicsView::dragMoveEvent(event);
}

void GraphView::dropEvent(QDropEvent *event)
{
    const QString path = droppedGraph(event->mimeData());
    if (path.isEmpty()) {
        QGraphicsView::dropEvent(event);
        return;
    }
    event->acceptProposedAction();
    emit graphFileDropped(path, mapToScene(event->position().toPoint()));
}

void GraphView::mouseDoubleClickEvent(QMouseEvent *event)
{
    for (QGraphicsItem *item = itemAt(event->position().toPoint()); item; item = item->parentItem())
        if (auto *node = dynamic_cast<NodeItem *>(item)) {
            emit nodeDoubleClicked(QString::fromStdString(node->nodeId()));
            event->accept();
            return;
        }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panning) {
        const QPoint delta = event->position().toPoint() - m_panLast;
        m_panLast = event->position().toPoint();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning && event->button() == Qt::MiddleButton) {
        m_panning = false;
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent *event)
{
    const QPointF scenePos = mapToScene(event->pos());
    for (QGraphicsItem *item : m_scene->items(scenePos)) {
        if (auto *node = dynamic_cast<NodeItem *>(item)) {
            if (!node->isSelected())
                m_scene->selectNodes({node->nodeId()});
            if (!m_nodeActions.isEmpty())
                QMenu::exec(m_nodeActions, event->globalPos(), nullptr, this);
            return;
        }
    }
    showPalette(event->pos());
}

void GraphView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
        QPoint p = mapFromGlobal(QCursor::pos());
        if (!viewport()->rect().contains(p))
            p = viewport()->rect().center();
        showPalette(p);
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (m_framed)
        frameAll();
}

// Tab opens the palette instead of moving focus.
bool GraphView::focusNextPrevChild(bool)
{
    return false;
}

} // namespace grove
