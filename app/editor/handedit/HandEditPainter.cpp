// HandEditTools' drawing over the map: the layer's erase areas and pins, the hovered point, and
// the gesture in progress (brush, rectangle, polygon, move), in widget pixels from world units.
#include "handedit/HandEditTools.h"

#include "handedit/HandEditGeometry.h"
#include "handedit/PathTool.h"

#include "preview/PreviewView.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace grove {

namespace {
const QColor kEraseFill(230, 50, 40, 70), kEraseLine(255, 90, 80, 220);
using handedit::kShadow;
const QColor kPinRing(255, 255, 255), kPinDot(40, 160, 255);
const QColor kHover(255, 230, 90);
const QColor kTooClose(255, 80, 60), kMakesWay(255, 170, 40);
} // namespace

void HandEditTools::paint(QPainter &p)
{
    // the layer's hand edits show while it is selected (with the tools at hand) or a tool is on
    if (!toolsEnabled())
        return;
    const PreviewView &v = *m_view;
    p.setRenderHint(QPainter::Antialiasing);
    const double scale = v.zoom();
    QPainterPath areas;
    areas.setFillRule(Qt::WindingFill);
    for (const EraseShape &s : m_editor.eraseShapes()) {
        if (s.circle) {
            const double r = s.radius * scale;
            areas.addEllipse(v.widgetAt(s.centre), r, r);
        } else if (s.polygon.size() >= 3) {
            QPolygonF poly;
            for (const QPointF &c : s.polygon)
                poly << v.widgetAt(c);
            QPainterPath one;
            one.setFillRule(Qt::OddEvenFill);  // as the layer reads it: even-odd inside
            one.addPolygon(poly);
            one.closeSubpath();
            areas.addPath(one);
        }
    }
    if (!areas.isEmpty()) {
        const QPainterPath merged = areas.simplified();  // one outline for overlapping brush circles
        p.setPen(QPen(kEraseLine, 1.5));
        p.setBrush(kEraseFill);
        p.drawPath(merged);
    }
    for (const Value &pin : m_editor.pins()) {
        const std::optional<QPointF> at = m_editor.pinPosition(pin);
        if (!at)
            continue;
        const QPointF c = v.widgetAt(*at);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(kShadow, 4));
        p.drawEllipse(c, 7, 7);
        p.setPen(QPen(kPinRing, 2));
        p.drawEllipse(c, 7, 7);
        p.setPen(Qt::NoPen);
        p.setBrush(kPinDot);
        p.drawEllipse(c, 3, 3);
    }
    if (m_editor.takesPaths())
        m_path->paint(p, m_tool == Path);
    if (m_hoverPoint && m_tool != Select) {
        const QPointF c = v.widgetAt(QPointF(m_hoverPoint->x, m_hoverPoint->y));
        const double r = std::max(9.0, m_hoverPoint->r * scale);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(kShadow, 4));
        p.drawEllipse(c, r, r);
        p.setPen(QPen(m_tool == Delete ? QColor(255, 90, 80) : kHover, 2));  // Del would remove it
        p.drawEllipse(c, r, r);
    }
    paintGesture(p);
}

void HandEditTools::paintGesture(QPainter &p)
{
    const PreviewView &v = *m_view;
    const double scale = v.zoom();
    if (m_tool == Brush) {
        QPainterPath stroke;
        stroke.setFillRule(Qt::WindingFill);
        const double r = m_brushRadius * scale;
        for (const QPointF &c : m_stroke)
            stroke.addEllipse(v.widgetAt(c), r, r);
        if (!stroke.isEmpty()) {
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(255, 80, 60, 110));
            p.drawPath(stroke.simplified());
        }
        if (m_hover) {  // the brush cursor
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(kShadow, 3));
            p.drawEllipse(v.widgetAt(*m_hover), r, r);
            p.setPen(QPen(QColor(255, 255, 255, 230), 1.2));
            p.drawEllipse(v.widgetAt(*m_hover), r, r);
        }
    }
    if (m_tool == Area) {
        p.setPen(QPen(QColor(255, 255, 255, 230), 1.5, Qt::DashLine));
        p.setBrush(QColor(255, 80, 60, 70));
        if (m_rectStart && m_rectDragging && m_hover)
            p.drawRect(QRectF(v.widgetAt(*m_rectStart), v.widgetAt(*m_hover)).normalized());
        if (!m_polygon.empty()) {
            QPolygonF poly;
            for (const QPointF &c : m_polygon)
                poly << v.widgetAt(c);
            if (m_hover)
                poly << v.widgetAt(*m_hover);
            p.drawPolygon(poly);
            p.setPen(Qt::NoPen);
            p.setBrush(Qt::white);
            for (const QPointF &c : m_polygon)
                p.drawEllipse(v.widgetAt(c), 3.5, 3.5);
        }
    }
    if (m_tool == Move && m_moving && m_hover) {
        const QPointF from = v.widgetAt(QPointF(m_moving->x, m_moving->y)), to = v.widgetAt(*m_hover);
        p.setPen(QPen(kHover, 2, Qt::DashLine));
        p.drawLine(from, to);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(kHover, 2));
        p.drawEllipse(to, 7, 7);
        paintCrowding(p, *m_hover, m_moving->r);
    }
    if (m_tool == Pin && m_hover) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(255, 255, 255, 150), 1.5, Qt::DashLine));
        p.drawEllipse(v.widgetAt(*m_hover), 7, 7);
        paintCrowding(p, *m_hover, 0);
    }
}

// The spacing around a point about to be placed, and what stands too close to it: red, what
// stays too close (a pin there is refused; an earlier layer's point is a pair the table counts),
// amber, the layer's own points that will make way.
void HandEditTools::paintCrowding(QPainter &p, QPointF at, double r)
{
    const PreviewView &v = *m_view;
    const double scale = v.zoom();
    if (r <= 0)
        r = spacing();
    if (!(r > 0))
        return;
    const std::vector<Crowder> crowders = crowdersAt(at, r);
    const bool blocked = std::any_of(crowders.begin(), crowders.end(), [](const Crowder &c) { return c.staysTooClose(); });
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(blocked ? kTooClose : QColor(255, 255, 255, 90), blocked ? 1.5 : 1, Qt::DotLine));
    p.drawEllipse(v.widgetAt(at), r * scale, r * scale);
    for (const Crowder &c : crowders) {
        const QPointF centre = v.widgetAt(c.image);  // across a wrapped world's seam: its copy by the cursor
        const double ring = std::max(9.0, std::min(c.pair.other.r, 40.0) * scale * 0.5);
        p.setPen(QPen(kShadow, 4));
        p.drawEllipse(centre, ring, ring);
        p.setPen(c.staysTooClose() ? QPen(kTooClose, 2.5) : QPen(kMakesWay, 2, Qt::DashLine));
        p.drawEllipse(centre, ring, ring);
    }
}

} // namespace grove
