// GraphScene's wiring helpers: splicing a dropped node into a wire, a wire dropped on a card, the
// refusal shown at the cursor, and port labels by zoom.
#include "canvas/GraphScene.h"

#include "document/Document.h"
#include "document/ValueCommands.h"
#include "common/EditorStyle.h"
#include "canvas/WireItem.h"

#include "core/graph/GraphValidator.h"
#include "core/graph/NodeRegistry.h"

#include <QBrush>
#include <QGraphicsRectItem>
#include <QPen>

namespace grove {

std::optional<GraphScene::Insertion> GraphScene::insertionAt(const std::string &nodeId, QPointF scenePos) const
{
    const Graph &g = m_document->graph();
    const Node *node = g.node(nodeId);
    const NodeDescriptor *desc = node ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
    if (!desc || !node->inputs.empty())
        return std::nullopt;
    // Only a node that is not wired yet: splicing a wired one would silently rewire the graph.
    for (const Node &n : g.nodes)
        for (const auto &[port, link] : n.inputs)
            if (link.node == nodeId)
                return std::nullopt;
    WireItem *wire = nullptr;
    for (QGraphicsItem *item : items(QRectF(scenePos - QPointF(8, 8), QSizeF(16, 16)), Qt::IntersectsItemShape))
        if (auto *w = dynamic_cast<WireItem *>(item); w && w != m_dragWire && !w->toNode().empty()) {
            wire = w;
            break;
        }
    const Node *target = wire ? g.node(wire->toNode()) : nullptr;
    const Link *from = target ? target->input(wire->toPort()) : nullptr;
    if (!from)
        return std::nullopt;
    // The validator decides both halves, the second on the graph as the first leaves it.
    for (const PortSpec &in : desc->inputs) {
        if (connectionProblem(g, m_document->groups(), *from, nodeId, in.name))
            continue;
        Graph after = g;
        after.node(wire->toNode())->removeInput(wire->toPort());
        after.node(nodeId)->setInput(in.name, *from);
        for (size_t o = 0; o < desc->outputs.size(); ++o) {
            Link out{nodeId, o == 0 ? std::string() : desc->outputs[o].name};
            if (!connectionProblem(after, m_document->groups(), out, wire->toNode(), wire->toPort()))
                return Insertion{wire, *from, in.name, out};
        }
    }
    return std::nullopt;
}

void GraphScene::setInsertionHighlight(WireItem *wire)
{
    if (wire == m_insertionHighlight)
        return;
    if (m_insertionHighlight)
        m_insertionHighlight->setHighlighted(false);
    m_insertionHighlight = wire;
    if (wire)
        wire->setHighlighted(true);
}

// A wire let go on a card's body goes to its first input that takes it, preferring a free one.
bool GraphScene::connectToNode(const Link &from, const std::string &nodeId)
{
    const Node *node = m_document->graph().node(nodeId);
    const NodeDescriptor *desc = node ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
    if (!desc)
        return false;
    std::string chosen;
    for (int pass = 0; pass < 2 && chosen.empty(); ++pass)
        for (const PortSpec &in : desc->inputs)
            if ((pass == 1 || !node->input(in.name))
                && !connectionProblem(m_document->graph(), m_document->groups(), from, nodeId, in.name)) {
                chosen = in.name;
                break;
            }
    const QString fromText = QString::fromStdString(from.toString());
    if (chosen.empty()) {
        std::string reason = "it has no inputs";
        if (!desc->inputs.empty())
            reason = *connectionProblem(m_document->graph(), m_document->groups(), from, nodeId,
                                        desc->inputs.front().name);
        emit statusMessage(tr("Cannot connect %1 to %2: %3")
                               .arg(fromText, QString::fromStdString(nodeId), QString::fromStdString(reason)));
        return false;
    }
    m_document->undoStack()->push(new SetInputCommand(m_document, nodeId, chosen, from));
    emit statusMessage(
        tr("Connected %1 to %2.%3").arg(fromText, QString::fromStdString(nodeId), QString::fromStdString(chosen)));
    return true;
}

void GraphScene::showCursorHint(const QString &text, QPointF scenePos)
{
    if (!m_cursorHint) {
        // Pixels, not scene units: as legible zoomed out as in.
        m_cursorHintBox = new QGraphicsRectItem;
        m_cursorHintBox->setFlag(QGraphicsItem::ItemIgnoresTransformations);
        m_cursorHintBox->setZValue(10);
        m_cursorHintBox->setBrush(style::problem.darker(220));
        m_cursorHintBox->setPen(QPen(style::problem, 1));
        m_cursorHintBox->setAcceptedMouseButtons(Qt::NoButton);
        m_cursorHint = new QGraphicsSimpleTextItem(m_cursorHintBox);
        m_cursorHint->setBrush(style::cardText);
        m_cursorHint->setPos(22, 14);  // below and right of the pointer's tip
        addItem(m_cursorHintBox);
    }
    if (m_cursorHint->text() != text) {
        m_cursorHint->setText(text);
        m_cursorHintBox->setRect(m_cursorHint->mapRectToParent(m_cursorHint->boundingRect()).adjusted(-6, -3, 6, 3));
    }
    m_cursorHintBox->setPos(scenePos);
    m_cursorHintBox->setVisible(true);
    m_cursorHint->setVisible(true);
}

void GraphScene::hideCursorHint()
{
    if (m_cursorHintBox)
        m_cursorHintBox->setVisible(false);
}

void GraphScene::setPortLabelsShown(bool shown)
{
    if (shown == m_portLabelsShown)
        return;
    m_portLabelsShown = shown;
    for (const auto &[id, item] : m_nodes)
        item->setPortLabelsShown(shown);
}

} // namespace grove
