// The canvas model view: node and wire items mirroring the Document, and wire dragging.
#pragma once

#include "canvas/NodeItem.h"

#include "core/graph/Graph.h"

#include <QGraphicsScene>
#include <QPointF>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QGraphicsRectItem;
class QGraphicsSimpleTextItem;

namespace grove {

class Document;
class WireItem;

class GraphScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit GraphScene(Document *document, QObject *parent = nullptr);
    ~GraphScene() override;

    std::vector<std::string> selectedNodeIds() const;
    // Selected wires, as the inputs they feed.
    std::vector<std::pair<std::string, std::string>> selectedWires() const;
    void selectNodes(const std::vector<std::string> &ids);
    NodeItem *nodeItem(const std::string &id) const;
    QRectF nodesBoundingRect() const;
    // The selected nodes' cards; empty when nothing is selected.
    QRectF selectedNodesBoundingRect() const;
    // While a wire is dragged over an input that refuses it: the reason, beside the cursor.
    const QGraphicsSimpleTextItem *cursorHint() const { return m_cursorHint; }
    // Port names are drawn only when the view shows them large enough to read (GraphView decides).
    void setPortLabelsShown(bool shown);

signals:
    void statusMessage(const QString &message);
    // A wire from an output was let go over empty canvas: offer nodes that can take it.
    void wireDroppedOnCanvas(const QString &from, QPointF scenePos);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void drawBackground(QPainter *painter, const QRectF &rect) override;

private:
    void rebuild();
    void addNodeItem(const std::string &id);
    void removeNodeItem(const std::string &id);
    void rebuildWires();
    void updateWiresOf(const std::string &id);
    void updateWire(WireItem *wire);
    void updateProblems();
    std::optional<PortRef> portAt(QPointF scenePos) const;
    void beginWireDrag(const Link &from, QPointF start, std::optional<PortRef> detached);
    void finishWireDrag(QPointF scenePos);
    void endWireDrag();
    bool connectToNode(const Link &from, const std::string &nodeId);

    // Dropping a lone node on a wire splices it in: the wire's source feeds `input`, `output` feeds the wire's end.
    struct Insertion
    {
        WireItem *wire;
        Link from;
        std::string input;
        Link output;
    };
    std::optional<Insertion> insertionAt(const std::string &nodeId, QPointF scenePos) const;
    void setInsertionHighlight(WireItem *wire);
    void showCursorHint(const QString &text, QPointF scenePos);
    void hideCursorHint();

    Document *m_document;
    std::map<std::string, NodeItem *> m_nodes;
    // group cards: the descriptor each was drawn from (its file's ports), to redraw when it changes;
    // held, so the card's descriptor outlives a reload of the groups and a new one never takes its
    // address (which would look unchanged)
    std::map<std::string, std::shared_ptr<const NodeDescriptor>> m_groupDescriptors;
    void refreshGroupCards();
    std::vector<WireItem *> m_wires;

    // Wire drag state.
    WireItem *m_dragWire = nullptr;
    Link m_dragFrom;
    std::optional<PortRef> m_detached;  // the input whose link was picked up, if any
    QString m_lastRefusal;
    QGraphicsRectItem *m_cursorHintBox = nullptr;  // a dark plate under the hint's text
    QGraphicsSimpleTextItem *m_cursorHint = nullptr;
    bool m_portLabelsShown = true;

    // Node drag state: positions when the press began.
    std::map<std::string, QPointF> m_pressPositions;
    WireItem *m_insertionHighlight = nullptr;
};

} // namespace grove
