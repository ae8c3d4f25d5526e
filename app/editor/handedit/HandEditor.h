// The preview's hand edits as undo steps: pins and erase areas of the selected layer, found by
// role (ParamRole::Pins, ParamRole::EraseAreas; drawn paths are PathEditor's); each edit is checked before it is applied, so a
// refused one leaves the graph as it was and says why.
#pragma once

#include "core/base/DataTypes.h"
#include "core/graph/NodeDescriptor.h"
#include "core/base/Value.h"

#include <QPointF>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace grove {

class Document;

// A point of the layer as the preview shows it: a pin (its index in the pins list) or a
// generated point, with what a move needs to keep it looking the same.
struct PickedPoint
{
    double x = 0, y = 0, r = 0;
    std::optional<std::size_t> pin;  // index into the pins param
    std::string type;                // the point's type name, or empty
    // A generated point's rotation and scale where the layer varies them (a pin made by a move
    // carries them, so the point looks the same); nothing: left to the hash.
    std::optional<double> rotation, scale;
};

// One area of an erase list, for drawing and hit tests: a circle or a polygon.
struct EraseShape
{
    bool circle = true;
    QPointF centre;
    double radius = 0;
    std::vector<QPointF> polygon;
};

class HandEditor
{
public:
    explicit HandEditor(Document *document) : m_document(document) {}

    // The node to edit; edits are refused (with a reason) unless it takes pins or erase areas.
    void setNode(const std::string &id) { m_node = id; }
    const std::string &node() const { return m_node; }
    // Why the tools cannot act on the node, or empty when they can.
    QString unavailableReason() const;
    bool takesPins() const { return pinsSpec() != nullptr; }
    bool takesErase() const { return eraseSpec() != nullptr; }
    bool takesPaths() const;  // drawn paths (the Path tool, PathEditor)

    ValueList pins() const;
    // A pin's position and type name ("" for none), read through the pins param's field roles.
    std::optional<QPointF> pinPosition(const Value &pin) const;
    std::string pinType(const Value &pin) const;
    ValueList eraseAreas() const;
    std::vector<EraseShape> eraseShapes() const;

    // The edits; each is one undo step, or refused: the returned text says why (empty: done).
    QString addPin(QPointF at, const std::string &type);
    QString deletePoint(const PickedPoint &point);
    QString movePoint(const PickedPoint &point, QPointF to);
    QString addEraseAreas(const ValueList &areas, const QString &what);
    QString removeEraseArea(std::size_t index);

    // Area values as the erase list stores them.
    static Value circleArea(double x, double y, double radius);
    static Value polygonArea(const std::vector<QPointF> &vertices);

private:
    const NodeDescriptor *descriptor() const;
    const ParamSpec *pinsSpec() const;
    const ParamSpec *eraseSpec() const;
    const Value *pinField(const Value &pin, FieldRole role) const;
    Value pinRecord(double x, double y, const std::string &type, std::optional<double> rotation,
                    std::optional<double> scale) const;
    // Why the node with these pins and erase list would be invalid (newly: problems it has
    // already are not the edit's fault), or empty.
    QString problemWith(const ValueList &pins, const ValueList &erase) const;
    QString apply(const QString &text, const std::optional<ValueList> &pins, const std::optional<ValueList> &erase);

    Document *m_document;
    std::string m_node;
};

} // namespace grove
