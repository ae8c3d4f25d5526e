// WireItem geometry and painting.
#include "canvas/WireItem.h"

#include "common/EditorStyle.h"

#include <QPainter>
#include <QPainterPathStroker>

#include <algorithm>
#include <cmath>

namespace grove {

WireItem::WireItem(std::string toNode, std::string toPort, QColor color)
    : m_toNode(std::move(toNode)), m_toPort(std::move(toPort)), m_color(color)
{
    setZValue(0);
    if (!m_toNode.empty())
        setFlag(ItemIsSelectable);
}

void WireItem::setEnds(QPointF from, QPointF to)
{
    const double dx = std::max(40.0, std::abs(to.x() - from.x()) * 0.5);
    QPainterPath path(from);
    path.cubicTo(from + QPointF(dx, 0), to - QPointF(dx, 0), to);
    setPath(path);
}

void WireItem::setHighlighted(bool on)
{
    if (on == m_highlighted)
        return;
    m_highlighted = on;
    update();
}

QPainterPath WireItem::shape() const
{
    QPainterPathStroker stroker;
    stroker.setWidth(10);
    return stroker.createStroke(path());
}

void WireItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setRenderHint(QPainter::Antialiasing);
    if (isSelected() || m_highlighted) {
        painter->setPen(QPen(m_highlighted ? QColor(Qt::white) : style::selection, m_highlighted ? 7 : 5, Qt::SolidLine,
                             Qt::RoundCap));
        painter->drawPath(path());
    }
    QPen pen(m_color, 2.5, m_toNode.empty() ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path());
}

} // namespace grove
