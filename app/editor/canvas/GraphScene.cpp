// GraphScene: reacts to Document signals, and turns wire and node drags into commands.
#include "canvas/GraphScene.h"

#include "document/Document.h"
#include "common/EditorStyle.h"
#include "document/NodeCommands.h"
#include "document/ValueCommands.h"
#include "canvas/WireItem.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/NodeRegistry.h"

#include <QGraphicsSceneMouseEvent>
#include <QKeyEvent>
#include <QPainter>

#include <cmath>
#include <utility>

namespace grove {

namespace {
std::string ss(const QString &s) { return s.toStdString(); }
} // namespace

GraphScene::GraphScene(Document *document, QObject *parent)
    : QGraphicsScene(parent), m_document(document)
{
    setSceneRect(-50000, -50000, 100000, 100000);
    setItemIndexMethod(NoIndex);
    connect(document, &Document::graphReset, this, &GraphScene::rebuild);
    connect(document, &Document::nodeAdded, this, [this](const QString &id) {
        addNodeItem(ss(id));
        rebuildWires();
    });
    connect(document, &Document::nodeRemoved, this, [this](const QString &id) {
        removeNodeItem(ss(id));
        rebuildWires();
    });
    connect(document, &Document::nodeRenamed, this, [this](const QString &oldId, const QString &newId) {
        auto it = m_nodes.find(ss(oldId));
        if (it == m_nodes.end())
            return;
        NodeItem *item = it->second;
        m_nodes.erase(it);
        item->setNodeId(ss(newId));
        m_nodes[ss(newId)] = item;
        rebuildWires();
    });
    connect(document, &Document::nodeMoved, this, [this](const QString &id) {
        if (NodeItem *item = nodeItem(ss(id))) {
            const QPointF pos = m_document->nodePosition(ss(id));
            if (item->pos() != pos)
                item->setPos(pos);
        }
    });
    connect(document, &Document::nodeCollapsedChanged, this, [this](const QString &id) {
        if (NodeItem *item = nodeItem(ss(id))) {
            item->setCollapsed(m_document->isCollapsed(ss(id)));
            updateWiresOf(ss(id));
        }
    });
    connect(document, &Document::inputChanged, this, [this] { rebuildWires(); });
    connect(document, &Document::problemsChanged, this, &GraphScene::updateProblems);
    // a group's card shows its file's ports: another file, or the file edited, redraws it
    connect(document, &Document::paramChanged, this, [this] { refreshGroupCards(); });
    connect(document, &Document::problemsChanged, this, &GraphScene::refreshGroupCards);
    rebuild();
}

// Items die in QGraphicsScene's destructor and report a selection change on the way out: by then
// this class's maps are gone, so nobody may hear it.
GraphScene::~GraphScene()
{
    blockSignals(true);
    m_cursorHintBox = nullptr;
    m_cursorHint = nullptr;
    m_wires.clear();
    m_nodes.clear();
    clear();
}

void GraphScene::rebuild()
{
    endWireDrag();
    m_cursorHintBox = nullptr;  // clear() deletes it
    m_cursorHint = nullptr;
    m_wires.clear();
    m_nodes.clear();
    clear();
    for (const Node &n : m_document->graph().nodes)
        addNodeItem(n.id);
    rebuildWires();
    updateProblems();
}

void GraphScene::addNodeItem(const std::string &id)
{
    const Node *node = m_document->graph().node(id);
    if (!node || m_nodes.count(id))
        return;
    std::shared_ptr<const NodeDescriptor> held;
    if (node->type == kGroupType)
        held = m_groupDescriptors[id] = m_document->groups().descriptor(*node, m_document->graph().baseDir);
    const NodeDescriptor *desc = held ? held.get() : m_document->groups().find(*node, m_document->graph().baseDir);
    auto *item = new NodeItem(*node, desc, style::categoryColor(m_document->registry(), desc ? desc->category : ""));
    item->setPos(m_document->nodePosition(id));
    item->setCollapsed(m_document->isCollapsed(id));
    item->setPortLabelsShown(m_portLabelsShown);
    item->onMoved = [this](NodeItem *moved) { updateWiresOf(moved->nodeId()); };
    item->onToggleCollapsed = [this](NodeItem *toggled) {
        m_document->undoStack()->push(
            new SetCollapsedCommand(m_document, {toggled->nodeId()}, !toggled->isCollapsed()));
    };
    addItem(item);
    m_nodes[id] = item;
}

void GraphScene::refreshGroupCards()
{
    bool changed = false;
    for (const Node &node : m_document->graph().nodes) {
        if (node.type != kGroupType || !m_nodes.count(node.id))
            continue;
        const std::shared_ptr<const NodeDescriptor> desc = m_document->groups().descriptor(node, m_document->graph().baseDir);
        auto known = m_groupDescriptors.find(node.id);
        if (known != m_groupDescriptors.end() && known->second == desc)
            continue;
        const bool selected = m_nodes[node.id]->isSelected();
        removeNodeItem(node.id);
        addNodeItem(node.id);
        if (NodeItem *item = nodeItem(node.id))
            item->setSelected(selected);
        changed = true;
    }
    if (changed)
        rebuildWires();
}

void GraphScene::removeNodeItem(const std::string &id)
{
    auto it = m_nodes.find(id);
    if (it == m_nodes.end())
        return;
    delete it->second;
    m_nodes.erase(it);
}

NodeItem *GraphScene::nodeItem(const std::string &id) const
{
    auto it = m_nodes.find(id);
    return it == m_nodes.end() ? nullptr : it->second;
}

// Links are few; rebuilding them all keeps the scene trivially in step with the graph.
void GraphScene::rebuildWires()
{
    m_insertionHighlight = nullptr;
    // Out of m_wires before deleting: deleting a selected wire signals a selection change.
    for (WireItem *w : std::exchange(m_wires, {}))
        delete w;
    for (const Node &n : m_document->graph().nodes) {
        for (const auto &[port, link] : n.inputs) {
            NodeItem *src = nodeItem(link.node);
            NodeItem *dst = nodeItem(n.id);
            if (!src || !dst)
                continue;
            // A wire the validator would refuse (loaded from a file) is drawn in the problem colour.
            auto type = src->portType(false, link.port);
            const bool fits = type && dst->portType(true, port) == type;
            auto *wire = new WireItem(n.id, port, fits ? style::dataTypeColor(*type) : style::problem);
            addItem(wire);
            m_wires.push_back(wire);
            updateWire(wire);
        }
    }
}

void GraphScene::updateWire(WireItem *wire)
{
    const Node *n = m_document->graph().node(wire->toNode());
    const Link *link = n ? n->input(wire->toPort()) : nullptr;
    NodeItem *src = link ? nodeItem(link->node) : nullptr;
    NodeItem *dst = nodeItem(wire->toNode());
    if (src && dst)
        wire->setEnds(src->portScenePos(false, link->port), dst->portScenePos(true, wire->toPort()));
}

void GraphScene::updateWiresOf(const std::string &id)
{
    for (WireItem *w : m_wires) {
        if (w->toNode() == id) {
            updateWire(w);
            continue;
        }
        const Node *n = m_document->graph().node(w->toNode());
        const Link *link = n ? n->input(w->toPort()) : nullptr;
        if (link && link->node == id)
            updateWire(w);
    }
}

void GraphScene::updateProblems()
{
    std::map<std::string, QStringList> byNode;
    for (const Diagnostic &d : m_document->problems())
        if (!d.nodeId.empty())
            byNode[d.nodeId] << QString::fromStdString(d.message);
    for (const auto &[id, item] : m_nodes) {
        auto it = byNode.find(id);
        item->setProblems(it == byNode.end() ? QStringList() : it->second);
    }
}

std::vector<std::string> GraphScene::selectedNodeIds() const
{
    std::vector<std::string> ids;
    // Graph order, so copies and deletes are deterministic.
    for (const Node &n : m_document->graph().nodes)
        if (NodeItem *item = nodeItem(n.id); item && item->isSelected())
            ids.push_back(n.id);
    return ids;
}

std::vector<std::pair<std::string, std::string>> GraphScene::selectedWires() const
{
    std::vector<std::pair<std::string, std::string>> wires;
    for (WireItem *w : m_wires)
        if (w->isSelected())
            wires.emplace_back(w->toNode(), w->toPort());
    return wires;
}

void GraphScene::selectNodes(const std::vector<std::string> &ids)
{
    clearSelection();
    for (const auto &id : ids)
        if (NodeItem *item = nodeItem(id))
            item->setSelected(true);
}

QRectF GraphScene::nodesBoundingRect() const
{
    QRectF r;
    for (const auto &[id, item] : m_nodes)
        r = r.united(item->sceneBoundingRect());
    return r;
}

QRectF GraphScene::selectedNodesBoundingRect() const
{
    QRectF r;
    for (const auto &[id, item] : m_nodes)
        if (item->isSelected())
            r = r.united(item->sceneBoundingRect());
    return r;
}

std::optional<PortRef> GraphScene::portAt(QPointF scenePos) const
{
    for (QGraphicsItem *item : items(QRectF(scenePos - QPointF(14, 14), QSizeF(28, 28))))
        if (auto *node = dynamic_cast<NodeItem *>(item))
            if (auto port = node->portAt(scenePos))
                return port;
    return std::nullopt;
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        if (auto port = portAt(event->scenePos())) {
            if (!port->input) {
                // The first output is linked as plain `node`, as the file format prefers.
                Link from{port->node, port->index == 0 ? std::string() : port->port};
                beginWireDrag(from, event->scenePos(), std::nullopt);
                event->accept();
                return;
            }
            const Node *n = m_document->graph().node(port->node);
            if (const Link *link = n ? n->input(port->port) : nullptr) {
                beginWireDrag(*link, event->scenePos(), port);  // pick the wire up off the input
                event->accept();
                return;
            }
        }
    }
    QGraphicsScene::mousePressEvent(event);
    m_pressPositions.clear();
    if (event->button() == Qt::LeftButton)
        for (const auto &[id, item] : m_nodes)
            if (item->isSelected())
                m_pressPositions[id] = item->pos();
}

void GraphScene::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_dragWire) {
        NodeItem *src = nodeItem(m_dragFrom.node);
        QPointF end = event->scenePos();
        auto port = portAt(end);
        if (port && port->input) {
            auto problem = connectionProblem(m_document->graph(), m_document->groups(), m_dragFrom, port->node,
                                             port->port);
            if (!problem)
                end = nodeItem(port->node)->portScenePos(true, port->port);  // snap
            QString message = problem ? tr("Cannot connect: %1").arg(QString::fromStdString(*problem))
                                      : tr("Connect %1 to %2.%3")
                                            .arg(QString::fromStdString(m_dragFrom.toString()),
                                                 QString::fromStdString(port->node), QString::fromStdString(port->port));
            if (message != m_lastRefusal) {
                m_lastRefusal = message;
                emit statusMessage(message);
            }
            if (problem)
                showCursorHint(message, event->scenePos());
            else
                hideCursorHint();
        } else {
            hideCursorHint();
        }
        if (src)
            m_dragWire->setEnds(src->portScenePos(false, m_dragFrom.port), end);
        event->accept();
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
    if (m_pressPositions.size() == 1 && (event->buttons() & Qt::LeftButton)) {
        auto insertion = insertionAt(m_pressPositions.begin()->first, event->scenePos());
        setInsertionHighlight(insertion ? insertion->wire : nullptr);
    }
}

void GraphScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_dragWire) {
        finishWireDrag(event->scenePos());
        event->accept();
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    // A finished node drag becomes one move command for every node that moved.
    std::map<std::string, QPointF> from, to;
    for (const auto &[id, pos] : m_pressPositions)
        if (NodeItem *item = nodeItem(id); item && item->pos() != pos) {
            // Whole units keep the saved layout tidy.
            item->setPos(std::round(item->pos().x()), std::round(item->pos().y()));
            from[id] = pos;
            to[id] = item->pos();
        }
    m_pressPositions.clear();
    setInsertionHighlight(nullptr);
    if (to.empty())
        return;
    QUndoStack *stack = m_document->undoStack();
    std::optional<Insertion> insertion;
    if (to.size() == 1)
        insertion = insertionAt(to.begin()->first, event->scenePos());
    if (!insertion) {
        stack->push(new MoveNodesCommand(m_document, from, to));
        m_document->endMerge();  // the next drag is its own step
        return;
    }
    // Move and both links are one step: undo takes the node back out of the wire.
    const std::string id = to.begin()->first;
    const std::string target = insertion->wire->toNode(), port = insertion->wire->toPort();
    stack->beginMacro(tr("Insert %1 into %2.%3").arg(QString::fromStdString(id), QString::fromStdString(target),
                                                       QString::fromStdString(port)));
    stack->push(new MoveNodesCommand(m_document, from, to));
    stack->push(new SetInputCommand(m_document, id, insertion->input, insertion->from));
    stack->push(new SetInputCommand(m_document, target, port, insertion->output));
    stack->endMacro();
    m_document->endMerge();
    emit statusMessage(tr("Inserted %1 between %2 and %3.%4")
                           .arg(QString::fromStdString(id), QString::fromStdString(insertion->from.toString()),
                                QString::fromStdString(target), QString::fromStdString(port)));
}

void GraphScene::beginWireDrag(const Link &from, QPointF start, std::optional<PortRef> detached)
{
    NodeItem *src = nodeItem(from.node);
    if (!src)
        return;
    m_dragFrom = from;
    m_detached = detached;
    m_lastRefusal.clear();
    auto type = src->portType(false, from.port);
    m_dragWire = new WireItem({}, {}, type ? style::dataTypeColor(*type) : Qt::white);
    m_dragWire->setZValue(5);
    addItem(m_dragWire);
    m_dragWire->setEnds(src->portScenePos(false, from.port), start);
    if (detached)
        for (WireItem *w : m_wires)
            if (w->toNode() == detached->node && w->toPort() == detached->port)
                w->setVisible(false);
    // Light up every input that would take this wire: the validator decides, not the canvas.
    for (const Node &n : m_document->graph().nodes) {
        NodeItem *item = nodeItem(n.id);
        const NodeDescriptor *desc = m_document->groups().find(n, m_document->graph().baseDir);
        if (!item || !desc)
            continue;
        std::map<std::string, NodeItem::PortState> states;
        for (const PortSpec &in : desc->inputs)
            states[in.name] = connectionProblem(m_document->graph(), m_document->groups(), from, n.id, in.name)
                                  ? NodeItem::PortState::Refuses
                                  : NodeItem::PortState::Accepts;
        if (states.empty())
            states[""] = NodeItem::PortState::Refuses;  // still dim the node's outputs
        item->setInputStates(states);
    }
}

void GraphScene::finishWireDrag(QPointF scenePos)
{
    const Link from = m_dragFrom;
    const auto detached = m_detached;
    const auto port = portAt(scenePos);
    endWireDrag();
    QUndoStack *stack = m_document->undoStack();
    if (port && port->input) {
        if (detached && detached->node == port->node && detached->port == port->port) {
            rebuildWires();  // dropped back where it was
            return;
        }
        if (auto problem = connectionProblem(m_document->graph(), m_document->groups(), from, port->node, port->port)) {
            emit statusMessage(tr("Cannot connect %1 to %2.%3: %4")
                                   .arg(QString::fromStdString(from.toString()), QString::fromStdString(port->node),
                                        QString::fromStdString(port->port), QString::fromStdString(*problem)));
            rebuildWires();
            return;
        }
        if (detached) {
            stack->beginMacro(tr("Reconnect %1").arg(QString::fromStdString(from.toString())));
            stack->push(new SetInputCommand(m_document, detached->node, detached->port, std::nullopt));
            stack->push(new SetInputCommand(m_document, port->node, port->port, from));
            stack->endMacro();
        } else {
            stack->push(new SetInputCommand(m_document, port->node, port->port, from));
        }
        emit statusMessage(tr("Connected %1 to %2.%3")
                               .arg(QString::fromStdString(from.toString()), QString::fromStdString(port->node),
                                    QString::fromStdString(port->port)));
        return;
    }
    if (detached) {
        stack->push(new SetInputCommand(m_document, detached->node, detached->port, std::nullopt));
        return;
    }
    for (QGraphicsItem *item : items(scenePos))
        if (auto *node = dynamic_cast<NodeItem *>(item)) {
            connectToNode(from, node->nodeId());
            return;
        }
    emit statusMessage(QString());
    emit wireDroppedOnCanvas(QString::fromStdString(from.toString()), scenePos);
}

void GraphScene::endWireDrag()
{
    if (!m_dragWire)
        return;
    delete m_dragWire;
    m_dragWire = nullptr;
    m_detached.reset();
    hideCursorHint();
    for (const auto &[id, item] : m_nodes)
        item->setInputStates({});
    for (WireItem *w : m_wires)
        w->setVisible(true);
}

void GraphScene::keyPressEvent(QKeyEvent *event)
{
    if (m_dragWire && event->key() == Qt::Key_Escape) {
        endWireDrag();
        emit statusMessage(tr("Connection cancelled."));
        event->accept();
        return;
    }
    QGraphicsScene::keyPressEvent(event);
}

void GraphScene::drawBackground(QPainter *painter, const QRectF &rect)
{
    painter->fillRect(rect, style::canvasBackground);
    const double step = 20;
    const double zoom = painter->worldTransform().m11();
    if (zoom < 0.35)
        return;  // a grid finer than a few pixels is noise
    const double left = std::floor(rect.left() / step) * step;
    const double top = std::floor(rect.top() / step) * step;
    QVector<QLineF> minor, major;
    for (double x = left; x < rect.right(); x += step)
        (std::fmod(std::abs(x), step * 5) < 0.5 ? major : minor).append(QLineF(x, rect.top(), x, rect.bottom()));
    for (double y = top; y < rect.bottom(); y += step)
        (std::fmod(std::abs(y), step * 5) < 0.5 ? major : minor).append(QLineF(rect.left(), y, rect.right(), y));
    painter->setPen(QPen(style::gridMinor, 0));
    painter->drawLines(minor);
    painter->setPen(QPen(style::gridMajor, 0));
    painter->drawLines(major);
}

} // namespace grove
