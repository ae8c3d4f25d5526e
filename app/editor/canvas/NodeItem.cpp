// NodeItem painting and port geometry.
#include "canvas/NodeItem.h"

#include "common/EditorStyle.h"

#include "core/graph/NodeDescriptor.h"

#include <QGraphicsEllipseItem>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsSimpleTextItem>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace grove {

namespace {
constexpr double kWidth = 200;
constexpr double kHeader = 42;
constexpr double kRow = 22;
constexpr double kPortRadius = 5.5;
constexpr double kHitRadius = 11;
} // namespace

NodeItem::NodeItem(const Node &node, const NodeDescriptor *descriptor, QColor color)
    : m_id(node.id), m_color(color)
{
    if (descriptor) {
        m_typeName = QString::fromStdString(descriptor->displayName);
        for (const auto &p : descriptor->inputs)
            m_inputs.push_back({p.name, p.type, p.optional,
                                QString::fromStdString(p.name + " (" + dataTypeName(p.type) + (p.optional ? ", optional" : "")
                                                       + "): " + p.description)});
        for (const auto &p : descriptor->outputs)
            m_outputs.push_back({p.name, p.type, false,
                                 QString::fromStdString(p.name + " (" + dataTypeName(p.type) + "): " + p.description)});
        m_description = QString::fromStdString(descriptor->description);
        setToolTip(m_description);
    } else {
        // Unknown type: keep its links visible so nothing silently disappears.
        m_unknownType = true;
        m_typeName = QObject::tr("unknown type '%1'").arg(QString::fromStdString(node.type));
        for (const auto &[port, link] : node.inputs)
            m_inputs.push_back({port, DataType::Field, false, QString()});
        m_outputs.push_back({"", DataType::Field, false, QString()});
    }
    // Two rows at least where there is an output: its thumbnail sits between the port names.
    const size_t rows = std::max<size_t>(m_outputs.empty() ? 1 : 2, std::max(m_inputs.size(), m_outputs.size()));
    m_expandedHeight = kHeader + 6 + static_cast<double>(rows) * kRow + 4;

    setFlags(ItemIsMovable | ItemIsSelectable | ItemSendsGeometryChanges);
    setZValue(1);
    setAcceptHoverEvents(true);

    m_badge = new QGraphicsEllipseItem(-9, -9, 18, 18, this);
    m_badge->setPos(kWidth - 4, 4);
    m_badge->setBrush(style::problem);
    m_badge->setPen(QPen(Qt::white, 1.5));
    auto *mark = new QGraphicsSimpleTextItem("!", m_badge);
    QFont f = mark->font();
    f.setBold(true);
    mark->setFont(f);
    mark->setBrush(Qt::white);
    mark->setPos(-mark->boundingRect().width() / 2, -mark->boundingRect().height() / 2);
    m_badge->setVisible(false);
}

void NodeItem::setNodeId(const std::string &id)
{
    m_id = id;
    update();
}

void NodeItem::setProblems(const QStringList &messages)
{
    m_badge->setVisible(!messages.isEmpty());
    m_badge->setToolTip(messages.join('\n'));
}

void NodeItem::setCollapsed(bool collapsed)
{
    if (collapsed == m_collapsed)
        return;
    prepareGeometryChange();
    m_collapsed = collapsed;
    update();
}

double NodeItem::height() const
{
    return m_collapsed ? kHeader : m_expandedHeight;
}

void NodeItem::setThumbnail(const QImage &image)
{
    // Every preview run hands out every card's thumbnail; most are the same image as before.
    if (image.cacheKey() == m_thumbnail.cacheKey())
        return;
    m_thumbnail = image;
    update();
}

void NodeItem::setPortLabelsShown(bool shown)
{
    if (shown == m_portLabelsShown)
        return;
    m_portLabelsShown = shown;
    update();
}

QRectF NodeItem::boundingRect() const
{
    return QRectF(-kPortRadius - 3, -12, kWidth + 2 * kPortRadius + 6, height() + 16);
}

QRectF NodeItem::arrowRect() const
{
    return QRectF(kWidth - 30, 8, 22, 22);
}

// Collapsed, every port sits at the middle of its edge, so wires stay attached.
QPointF NodeItem::portPos(bool input, int index) const
{
    if (m_collapsed)
        return QPointF(input ? 0 : kWidth, kHeader / 2);
    return QPointF(input ? 0 : kWidth, kHeader + 6 + kRow * (index + 0.5));
}

int NodeItem::portIndex(bool input, const std::string &port) const
{
    const auto &ports = input ? m_inputs : m_outputs;
    if (!input && port.empty())
        return ports.empty() ? -1 : 0;
    for (size_t i = 0; i < ports.size(); ++i)
        if (ports[i].name == port)
            return static_cast<int>(i);
    return -1;
}

std::optional<PortRef> NodeItem::portAt(QPointF scenePos) const
{
    if (m_collapsed)
        return std::nullopt;  // ports are not told apart: expand the card to wire it
    const QPointF p = mapFromScene(scenePos);
    for (int pass = 0; pass < 2; ++pass) {
        const bool input = pass == 0;
        const auto &ports = input ? m_inputs : m_outputs;
        for (size_t i = 0; i < ports.size(); ++i) {
            const QPointF d = p - portPos(input, static_cast<int>(i));
            // Generous on the outside, and along the row on the inside, so names are grabbable too.
            const bool onDot = d.x() * d.x() + d.y() * d.y() <= kHitRadius * kHitRadius;
            const bool onLabel = std::abs(d.y()) < kRow / 2 && (input ? d.x() >= 0 && d.x() < 60 : d.x() <= 0 && d.x() > -60);
            if (onDot || onLabel)
                return PortRef{m_id, ports[i].name, input, static_cast<int>(i)};
        }
    }
    return std::nullopt;
}

QPointF NodeItem::portScenePos(bool input, const std::string &port) const
{
    int i = portIndex(input, port);
    return mapToScene(i < 0 ? QPointF(input ? 0 : kWidth, kHeader / 2) : portPos(input, i));
}

std::optional<DataType> NodeItem::portType(bool input, const std::string &port) const
{
    int i = portIndex(input, port);
    if (i < 0)
        return std::nullopt;
    return (input ? m_inputs : m_outputs)[static_cast<size_t>(i)].type;
}

void NodeItem::setInputStates(std::map<std::string, PortState> states)
{
    m_inputStates = std::move(states);
    update();
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF card(0, 0, kWidth, height());

    // Body and coloured header.
    painter->setPen(Qt::NoPen);
    painter->setBrush(style::cardBody);
    painter->drawRoundedRect(card, 6, 6);
    QPainterPath header;
    header.addRoundedRect(QRectF(0, 0, kWidth, kHeader), 6, 6);
    header.addRect(QRectF(0, kHeader - 6, kWidth, 6));
    painter->setBrush(m_unknownType ? style::problem.darker(150) : m_color);
    painter->drawPath(header.simplified());

    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(isSelected() ? style::selection : QColor(20, 20, 22), isSelected() ? 2.5 : 1));
    painter->drawRoundedRect(card, 6, 6);

    QFont titleFont = painter->font();
    titleFont.setPointSizeF(m_portLabelsShown ? 10 : 15);  // zoomed out, the id fills the header
    titleFont.setBold(true);
    painter->setFont(titleFont);
    painter->setPen(style::cardText);
    const QRectF titleRect = m_portLabelsShown ? QRectF(10, 3, kWidth - 42, 20) : QRectF(8, 0, kWidth - 36, kHeader);
    painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter,
                      painter->fontMetrics().elidedText(QString::fromStdString(m_id), Qt::ElideRight,
                                                        int(titleRect.width())));
    QFont subFont = titleFont;
    subFont.setBold(false);
    subFont.setPointSizeF(8.5);
    painter->setFont(subFont);
    if (m_portLabelsShown) {
        painter->setPen(QColor(235, 235, 240, 190));
        painter->drawText(QRectF(10, 21, kWidth - 42, 17), Qt::AlignLeft | Qt::AlignVCenter,
                          painter->fontMetrics().elidedText(m_typeName, Qt::ElideRight, int(kWidth - 42)));
    }

    // The collapse arrow: pointing down when open, right when collapsed.
    const QRectF a = arrowRect().adjusted(6, 6, -6, -6);
    QPolygonF arrow;
    if (m_collapsed)
        arrow << a.topLeft() << QPointF(a.right(), a.center().y()) << a.bottomLeft();
    else
        arrow << a.topLeft() << a.topRight() << QPointF(a.center().x(), a.bottom());
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(235, 235, 240, 200));
    painter->drawPolygon(arrow);

    if (m_collapsed) {
        // One dot per side that has ports, where the wires meet.
        painter->setPen(QPen(QColor(20, 20, 22), 1.2));
        if (!m_inputs.empty()) {
            painter->setBrush(style::dataTypeColor(m_inputs.front().type));
            painter->drawEllipse(portPos(true, 0), kPortRadius, kPortRadius);
        }
        if (!m_outputs.empty()) {
            painter->setBrush(style::dataTypeColor(m_outputs.front().type));
            painter->drawEllipse(portPos(false, 0), kPortRadius, kPortRadius);
        }
        return;
    }

    if (!m_thumbnail.isNull()) {
        const double body = m_expandedHeight - kHeader;
        const QRectF frame((kWidth - m_thumbnail.width()) / 2, kHeader + (body - m_thumbnail.height()) / 2,
                           m_thumbnail.width(), m_thumbnail.height());
        painter->drawImage(frame.topLeft(), m_thumbnail);
        painter->setPen(QPen(QColor(0, 0, 0, 120), 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(frame.adjusted(-0.5, -0.5, 0.5, 0.5));
    }

    // Ports: dots on the edges, names inside.
    painter->setFont(subFont);
    const bool dragging = !m_inputStates.empty();
    for (int pass = 0; pass < 2; ++pass) {
        const bool input = pass == 0;
        const auto &ports = input ? m_inputs : m_outputs;
        for (size_t i = 0; i < ports.size(); ++i) {
            const QPointF c = portPos(input, static_cast<int>(i));
            QColor color = style::dataTypeColor(ports[i].type);
            double r = kPortRadius;
            if (input && dragging) {
                auto it = m_inputStates.find(ports[i].name);
                PortState s = it == m_inputStates.end() ? PortState::Refuses : it->second;
                if (s == PortState::Accepts) {
                    painter->setPen(QPen(Qt::white, 2));
                    painter->setBrush(Qt::NoBrush);
                    painter->drawEllipse(c, kPortRadius + 4, kPortRadius + 4);
                    r = kPortRadius + 1.5;
                } else {
                    color.setAlpha(70);
                }
            } else if (dragging) {
                color.setAlpha(70);
            }
            painter->setPen(QPen(QColor(20, 20, 22), 1.2));
            painter->setBrush(color);
            if (input && ports[i].optional)
                painter->setBrush(color.darker(160));
            painter->drawEllipse(c, r, r);
            if (!m_portLabelsShown)
                continue;
            painter->setPen(style::cardSubText);
            QRectF label = input ? QRectF(c.x() + 11, c.y() - kRow / 2, kWidth / 2, kRow)
                                 : QRectF(c.x() - 11 - kWidth / 2, c.y() - kRow / 2, kWidth / 2, kRow);
            painter->drawText(label, (input ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter,
                              QString::fromStdString(ports[i].name));
        }
    }
}

// Over a port the tooltip names it, its type and what it is for; elsewhere, the node type's text.
void NodeItem::hoverMoveEvent(QGraphicsSceneHoverEvent *event)
{
    QString tip = m_description;
    if (auto port = portAt(event->scenePos()))
        tip = (port->input ? m_inputs : m_outputs)[static_cast<size_t>(port->index)].tip;
    if (tip != toolTip())
        setToolTip(tip);
    QGraphicsItem::hoverMoveEvent(event);
}

void NodeItem::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && arrowRect().contains(event->pos()) && onToggleCollapsed) {
        onToggleCollapsed(this);
        event->accept();
        return;
    }
    QGraphicsItem::mousePressEvent(event);
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant &value)
{
    if (change == ItemPositionHasChanged && onMoved)
        onMoved(this);
    return QGraphicsItem::itemChange(change, value);
}

} // namespace grove
