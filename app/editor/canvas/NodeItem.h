// A node on the canvas: a card with the id, the type's name, and ports from its descriptor.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/Graph.h"

#include <QColor>
#include <QGraphicsItem>
#include <QImage>
#include <QStringList>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace grove {

struct NodeDescriptor;

struct PortRef
{
    std::string node;
    std::string port;
    bool input = false;
    int index = 0;
};

class NodeItem : public QGraphicsItem
{
public:
    enum class PortState { Normal, Accepts, Refuses };
    // Below this zoom port names (8.5 pt) would be under ~8 pixels: the card draws its dots, and its
    // id larger in place of the type's name; hovering a port still names it.
    static constexpr double kPortLabelMinZoom = 0.75;

    NodeItem(const Node &node, const NodeDescriptor *descriptor, QColor color);

    const std::string &nodeId() const { return m_id; }
    void setNodeId(const std::string &id);
    void setProblems(const QStringList &messages);
    // A collapsed card shows only its header; wires meet at its edges.
    void setCollapsed(bool collapsed);
    bool isCollapsed() const { return m_collapsed; }
    // A small picture of the node's output, under the ports (null: none).
    void setThumbnail(const QImage &image);
    void setPortLabelsShown(bool shown);
    bool portLabelsShown() const { return m_portLabelsShown; }
    const QImage &thumbnail() const { return m_thumbnail; }

    // The port under a scene position, if any (with some slack around the dot).
    std::optional<PortRef> portAt(QPointF scenePos) const;
    QPointF portScenePos(bool input, const std::string &port) const;
    std::optional<DataType> portType(bool input, const std::string &port) const;
    // Highlights while a wire is dragged: empty map clears.
    void setInputStates(std::map<std::string, PortState> states);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    // Called with the item's new position after the user dragged it.
    std::function<void(NodeItem *)> onMoved;
    // Called when the header's collapse arrow is clicked.
    std::function<void(NodeItem *)> onToggleCollapsed;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant &value) override;
    void hoverMoveEvent(QGraphicsSceneHoverEvent *event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;

private:
    struct Port
    {
        std::string name;
        DataType type;
        bool optional;
        QString tip;
    };
    QPointF portPos(bool input, int index) const;
    QRectF arrowRect() const;
    double height() const;
    int portIndex(bool input, const std::string &port) const;

    std::string m_id;
    QString m_typeName;
    bool m_unknownType = false;
    QColor m_color;
    QString m_description;
    std::vector<Port> m_inputs, m_outputs;
    std::map<std::string, PortState> m_inputStates;
    QGraphicsEllipseItem *m_badge = nullptr;
    double m_expandedHeight = 0;
    bool m_collapsed = false;
    bool m_portLabelsShown = true;
    QImage m_thumbnail;
};

} // namespace grove
