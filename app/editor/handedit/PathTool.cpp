// PathTool: the Path tool's gestures and keys, turned into PathEditor edits, and its drawing.
#include "handedit/PathTool.h"

#include "handedit/HandEditGeometry.h"

#include "preview/PreviewView.h"

#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <utility>

namespace grove {

namespace {
using handedit::distance;
using handedit::kDragPixels;
using handedit::kPickPixels;
using handedit::kShadow;
const QColor kLine(255, 206, 84), kHandle(255, 255, 255), kHot(255, 90, 80), kDrawing(120, 220, 255);
} // namespace

PathTool::PathTool(Document *document, PreviewView *view, QObject *parent)
    : QObject(parent), m_document(document), m_view(view), m_editor(document)
{
}

void PathTool::setNode(const std::string &id)
{
    m_editor.setNode(id);
    cancel();
}

double PathTool::pickSlack() const
{
    return kPickPixels / std::max(1e-9, m_view->zoom());
}

void PathTool::report(const QString &problem, const QString &done)
{
    emit statusMessage(problem.isEmpty() ? done : tr("Not done: %1").arg(problem));
    m_view->update();
}

std::optional<PathVertex> PathTool::target() const
{
    return m_hovered ? m_hovered : m_selected;
}

void PathTool::pressed(QPointF world)
{
    m_cursor = world;
    m_releaseEndsDoubleClick = false;  // a press after a double-click is a new click
    // while a path is drawn, presses are its vertices (on release); else a press may take a vertex
    if (m_drawing.empty())
        if (const std::optional<PathVertex> v = m_editor.vertexAt(world, pickSlack())) {
            m_drag = v;
            m_dragFrom = world;
            m_dragging = false;
        }
    m_view->update();
}

void PathTool::dragged(QPointF world)
{
    m_cursor = world;
    if (m_drag)
        m_dragging = m_dragging || distance(m_dragFrom, world) * m_view->zoom() > kDragPixels;
    m_view->update();
}

void PathTool::released(QPointF world)
{
    m_cursor = world;
    if (std::exchange(m_releaseEndsDoubleClick, false))
        return;
    if (m_drag) {
        const PathVertex v = *m_drag;
        const bool moved = m_dragging;
        m_drag.reset();
        m_dragging = false;
        if (moved) {
            m_selected = v;
            report(m_editor.moveVertex(v, world), tr("Moved vertex %1 of path %2 (Ctrl+Z undoes)").arg(v.vertex).arg(v.path));
        } else {
            m_selected = v;  // a click on a vertex selects it: Delete removes it
            emit statusMessage(tr("Vertex %1 of path %2: drag it to move, Delete removes it").arg(v.vertex).arg(v.path));
        }
        m_view->update();
        return;
    }
    m_selected.reset();
    if (m_drawing.size() >= 3 && distance(m_drawing.front(), world) <= pickSlack()) {
        // a click on the first vertex closes the path
        std::vector<QPointF> vertices;
        vertices.swap(m_drawing);
        report(m_editor.addPath(vertices, true), tr("Drew a closed path of %1 vertices (Ctrl+Z undoes)").arg(vertices.size()));
        return;
    }
    if (m_drawing.empty() || distance(m_drawing.back(), world) > pickSlack()) {
        m_drawing.push_back(world);
        if (m_drawing.size() == 1)
            emit statusMessage(tr("Drawing a path: click to add vertices; double-click or Enter finishes, a click on the "
                                  "first vertex closes it, Esc drops it"));
    }
    m_view->update();
}

// A double-click arrives as press, release, double-click, release (the map passes the last release
// on only after a press of its own: some platforms send press, release, press, double-click,
// release). The first click added its vertex; a last release is no new path's first vertex.
void PathTool::doubleClicked(QPointF world)
{
    if (m_drawing.empty())
        return;  // not drawing: the second press and release are a click of their own
    if (distance(m_drawing.back(), world) > pickSlack())
        m_drawing.push_back(world);
    finish();
    m_releaseEndsDoubleClick = true;
}

void PathTool::finish()
{
    std::vector<QPointF> vertices;
    vertices.swap(m_drawing);
    if (vertices.empty())
        return;
    report(m_editor.addPath(vertices, false), tr("Drew a path of %1 vertices (Ctrl+Z undoes)").arg(vertices.size()));
}

void PathTool::cancel()
{
    m_drawing.clear();
    m_drag.reset();
    m_dragging = false;
    m_selected.reset();
    m_hovered.reset();
    m_releaseEndsDoubleClick = false;
    m_view->update();
}

void PathTool::hovered(QPointF world, bool inside)
{
    m_cursor = inside || m_drag ? std::optional<QPointF>(world) : std::nullopt;
    m_hovered = inside && m_drawing.empty() && !m_drag ? m_editor.vertexAt(world, pickSlack()) : std::nullopt;
    m_view->update();
}

bool PathTool::takesKey(int key) const
{
    switch (key) {
    case Qt::Key_Return:
    case Qt::Key_Enter: return !m_drawing.empty();
    case Qt::Key_Escape: return busy();
    case Qt::Key_Delete:
    case Qt::Key_Backspace: return !m_drawing.empty() || target().has_value();
    default: return false;
    }
}

void PathTool::key(int key)
{
    if (key == Qt::Key_Return || key == Qt::Key_Enter) {
        finish();
    } else if (key == Qt::Key_Escape) {
        const bool drawing = !m_drawing.empty();
        cancel();
        emit statusMessage(drawing ? tr("Cancelled the path being drawn (nothing saved)") : tr("Cancelled"));
    } else if (!m_drawing.empty()) {
        m_drawing.pop_back();  // the path being drawn loses its last vertex; nothing is saved yet
        m_view->update();
    } else if (const std::optional<PathVertex> v = target()) {
        const std::size_t before = m_editor.paths().size();
        m_hovered.reset();
        m_selected.reset();
        const QString problem = m_editor.deleteVertex(*v);
        report(problem, m_editor.paths().size() < before
                            ? tr("Deleted path %1: too few vertices were left (Ctrl+Z undoes)").arg(v->path)
                            : tr("Deleted vertex %1 of path %2 (Ctrl+Z undoes)").arg(v->vertex).arg(v->path));
    }
}

void PathTool::paint(QPainter &p, bool active)
{
    const PreviewView &v = *m_view;
    p.setRenderHint(QPainter::Antialiasing);
    const std::vector<std::optional<DrawnPath>> paths = m_editor.paths();
    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (!paths[i])
            continue;
        QPolygonF line;
        for (std::size_t k = 0; k < paths[i]->points.size(); ++k) {
            QPointF at(paths[i]->points[k].x, paths[i]->points[k].y);
            if (m_drag && m_dragging && m_cursor && *m_drag == PathVertex{i, k})
                at = *m_cursor;  // the vertex follows the drag until it is dropped
            line << v.widgetAt(at);
        }
        if (paths[i]->closed)
            line << line.front();
        p.setBrush(Qt::NoBrush);
        // thin, so the points placed a few units beside the path still show at a zoomed-out view
        p.setPen(QPen(kShadow, 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPolyline(line);
        p.setPen(QPen(kLine, 1.4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawPolyline(line);
        if (!active)
            continue;
        for (std::size_t k = 0; k < paths[i]->points.size(); ++k) {
            const PathVertex here{i, k};
            const bool hot = (m_hovered && *m_hovered == here) || (m_selected && *m_selected == here);
            const double s = hot ? 5 : k == 0 ? 4.5 : 3.5;  // the first vertex (where the walk starts) a little larger
            p.setPen(QPen(kShadow, 1.5));
            p.setBrush(hot ? kHot : k == 0 ? kLine : kHandle);
            p.drawRect(QRectF(line[static_cast<int>(k)] - QPointF(s, s), QSizeF(2 * s, 2 * s)));
        }
    }
    if (m_drawing.empty() || !active)
        return;
    QPolygonF drawn;
    for (const QPointF &c : m_drawing)
        drawn << v.widgetAt(c);
    const bool closing = m_cursor && m_drawing.size() >= 3 && distance(m_drawing.front(), *m_cursor) <= pickSlack();
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(kShadow, 4));
    p.drawPolyline(drawn);
    p.setPen(QPen(kDrawing, 2));
    p.drawPolyline(drawn);
    if (m_cursor) {  // the rubber band from the last vertex to the cursor
        const QPointF to = closing ? drawn.front() : v.widgetAt(*m_cursor);
        p.setPen(QPen(kShadow, 3.5));
        p.drawLine(drawn.back(), to);
        p.setPen(QPen(kDrawing, 1.8, Qt::DashLine));
        p.drawLine(drawn.back(), to);
    }
    for (int k = 0; k < drawn.size(); ++k) {
        p.setPen(QPen(kShadow, 1.5));
        p.setBrush(k == 0 && closing ? kHot : kDrawing);
        const double r = k == 0 && closing ? 6 : 3.5;
        p.drawEllipse(drawn[k], r, r);
    }
}

} // namespace grove
