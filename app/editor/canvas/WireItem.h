// A link on the canvas: a bezier from an output to an input, coloured by the data it carries.
#pragma once

#include <QGraphicsPathItem>

#include <string>

namespace grove {

class WireItem : public QGraphicsPathItem
{
public:
    // `toNode`/`toPort` name the input the wire feeds; empty for the wire being dragged.
    WireItem(std::string toNode, std::string toPort, QColor color);

    const std::string &toNode() const { return m_toNode; }
    const std::string &toPort() const { return m_toPort; }
    void setEnds(QPointF from, QPointF to);
    // Shown while a node dragged over the wire would be inserted into it.
    void setHighlighted(bool on);

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    QPainterPath shape() const override;

private:
    std::string m_toNode, m_toPort;
    QColor m_color;
    bool m_highlighted = false;
};

} // namespace grove
