// HandEditor: builds the new pins / erase lists, checks them as the loader would, pushes them.
#include "handedit/HandEditor.h"

#include "document/Document.h"
#include "document/ValueCommands.h"
#include "handedit/HandEditGeometry.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/graph/AreaValue.h"
#include "core/graph/NodeRegistry.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <set>

namespace grove {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("HandEditor", text); }

// Positions are stored to a tenth of a unit: a click is no more precise, and the file stays readable.
using handedit::tidy;

QString at(double x, double y) { return QString("(%1, %2)").arg(x).arg(y); }

} // namespace

const Value *HandEditor::pinField(const Value &pin, FieldRole role) const
{
    const ParamSpec *spec = pinsSpec();
    const RecordField *field = spec ? spec->fieldWithRole(role) : nullptr;
    return field ? pin.find(field->name) : nullptr;
}

std::optional<QPointF> HandEditor::pinPosition(const Value &pin) const
{
    const Value *x = pinField(pin, FieldRole::X), *y = pinField(pin, FieldRole::Y);
    if (!x || !y)
        return std::nullopt;
    return QPointF(x->toNumber(), y->toNumber());
}

std::string HandEditor::pinType(const Value &pin) const
{
    const Value *t = pinField(pin, FieldRole::Type);
    return t && t->isString() ? t->toString() : std::string();
}

// The record's keys are the pins param's fields with the Pins role's field roles (x, y and,
// where the node has them, type, rotation and scale).
Value HandEditor::pinRecord(double x, double y, const std::string &type, std::optional<double> rotation,
                            std::optional<double> scale) const
{
    const ParamSpec *spec = pinsSpec();
    // values made in place, never moved from a temporary Value: GCC 12 warns (falsely) on those
    ValueMap record;
    const auto add = [&](FieldRole role, const auto &value) {
        if (const RecordField *f = spec ? spec->fieldWithRole(role) : nullptr)
            record.emplace_back(f->name, value);
    };
    add(FieldRole::X, tidy(x));
    add(FieldRole::Y, tidy(y));
    if (!type.empty())
        add(FieldRole::Type, type);
    if (rotation)
        add(FieldRole::Rotation, std::round(*rotation * 100) / 100);
    if (scale)
        add(FieldRole::Scale, std::round(*scale * 1000) / 1000);
    return Value(record);
}

const NodeDescriptor *HandEditor::descriptor() const
{
    const Node *node = m_document->graph().node(m_node);
    return node ? m_document->registry().find(node->type) : nullptr;
}

const ParamSpec *HandEditor::pinsSpec() const
{
    const NodeDescriptor *d = descriptor();
    return d ? d->paramWithRole(ParamRole::Pins) : nullptr;
}

const ParamSpec *HandEditor::eraseSpec() const
{
    const NodeDescriptor *d = descriptor();
    return d ? d->paramWithRole(ParamRole::EraseAreas) : nullptr;
}

bool HandEditor::takesPaths() const
{
    const NodeDescriptor *d = descriptor();
    return d && d->paramWithRole(ParamRole::DrawnPaths);
}

QString HandEditor::unavailableReason() const
{
    if (m_node.empty() || !m_document->graph().node(m_node))
        return tr("Select a layer node that takes pins (e.g. a Place Layer) or drawn paths (a Place Path) to edit it by hand");
    if (!takesPins() && !takesErase() && !takesPaths())
        return tr("%1 takes no pins, erase areas or drawn paths: select a layer node that does, e.g. a Place Layer")
            .arg(QString::fromStdString(m_node));
    return {};
}

ValueList HandEditor::pins() const
{
    const ParamSpec *spec = pinsSpec();
    const Node *node = m_document->graph().node(m_node);
    const Value *v = spec && node ? node->param(spec->name) : nullptr;
    return v && v->isList() ? v->toList() : ValueList{};
}

ValueList HandEditor::eraseAreas() const
{
    const ParamSpec *spec = eraseSpec();
    const Node *node = m_document->graph().node(m_node);
    const Value *v = spec && node ? node->param(spec->name) : nullptr;
    return v && v->isList() ? v->toList() : ValueList{};
}

std::vector<EraseShape> HandEditor::eraseShapes() const
{
    std::vector<EraseShape> shapes;
    for (const std::optional<Area> &area : readAreaList(Value(eraseAreas()))) {
        EraseShape s;  // one per item, so an index names the same area in both
        if (area && area->circle) {
            s.centre = QPointF(area->centre.x, area->centre.y);
            s.radius = area->radius;
        } else if (area) {
            s.circle = false;
            for (const AreaPoint &v : area->polygon)
                s.polygon.emplace_back(v.x, v.y);
        }
        shapes.push_back(std::move(s));
    }
    return shapes;
}

Value HandEditor::circleArea(double x, double y, double radius)
{
    Area area;
    area.centre = {tidy(x), tidy(y)};
    area.radius = std::max(0.1, tidy(radius));
    return areaValue(area);
}

Value HandEditor::polygonArea(const std::vector<QPointF> &vertices)
{
    Area area;
    area.circle = false;
    for (const QPointF &v : vertices)
        area.polygon.push_back({tidy(v.x()), tidy(v.y())});
    return areaValue(area);
}

QString HandEditor::problemWith(const ValueList &pins, const ValueList &erase) const
{
    const NodeDescriptor *desc = descriptor();
    const Node *node = m_document->graph().node(m_node);
    if (!desc || !node)
        return unavailableReason();
    const World &world = m_document->graph().world;
    const ValueList before = this->pins();
    for (const Value &pin : pins) {
        if (std::find(before.begin(), before.end(), pin) != before.end())
            continue;  // only what the edit adds is its fault
        const QPointF position = pinPosition(pin).value_or(QPointF());
        const double x = position.x(), y = position.y();
        if (!world.endless && (x < 0 || y < 0 || x >= world.width || y >= world.height))
            return tr("A pin at %1 is outside the world (%2 × %3): not placed").arg(at(x, y)).arg(world.width).arg(world.height);
        const double reach = kChunkRange * world.chunk;  // an endless world's chunks end somewhere too
        if (world.endless && world.chunk > 0 && (std::abs(x) >= reach || std::abs(y) >= reach))
            return tr("A pin at %1 is beyond the chunk range (%2 units from the origin): not placed").arg(at(x, y)).arg(reach);
    }
    ValueMap params = node->params;
    for (auto &[name, value] : params) {
        if (pinsSpec() && name == pinsSpec()->name)
            value = Value(pins);
        if (eraseSpec() && name == eraseSpec()->name)
            value = Value(erase);
    }
    for (const ParamSpec *spec : {pinsSpec(), eraseSpec()})
        if (spec)
            if (auto problem = checkParamValue(*spec, spec == pinsSpec() ? Value(pins) : Value(erase)))
                return QString::fromStdString(*problem);
    if (!desc->checkParams)
        return {};
    ParamIssues old, now;
    desc->checkParams(completeParams(*desc, node->params), old);
    desc->checkParams(completeParams(*desc, params), now);
    std::set<std::string> known;
    for (const auto &issue : old)
        known.insert(issue.second);
    for (const auto &issue : now)
        if (!known.count(issue.second))
            return QString::fromStdString(issue.second);
    return {};
}

QString HandEditor::apply(const QString &text, const std::optional<ValueList> &pins, const std::optional<ValueList> &erase)
{
    if (QString why = unavailableReason(); !why.isEmpty())
        return why;
    if ((pins && !pinsSpec()) || (erase && !eraseSpec()))
        return tr("%1 takes no %2").arg(QString::fromStdString(m_node), pins ? tr("pins") : tr("erase areas"));
    if (QString problem = problemWith(pins ? *pins : this->pins(), erase ? *erase : eraseAreas()); !problem.isEmpty())
        return problem;
    QUndoStack *stack = m_document->undoStack();
    m_document->endMerge();  // its own step, never merged into an earlier edit of the list
    stack->beginMacro(text);
    if (pins)
        stack->push(new SetParamCommand(m_document, m_node, pinsSpec()->name, Value(*pins)));
    if (erase)
        stack->push(new SetParamCommand(m_document, m_node, eraseSpec()->name, Value(*erase)));
    stack->endMacro();
    m_document->endMerge();
    return {};
}

QString HandEditor::addPin(QPointF at, const std::string &type)
{
    ValueList list = pins();
    list.push_back(pinRecord(at.x(), at.y(), type, std::nullopt, std::nullopt));
    return apply(tr("Pin a point at %1").arg(::grove::at(tidy(at.x()), tidy(at.y()))), list, std::nullopt);
}

QString HandEditor::deletePoint(const PickedPoint &point)
{
    if (point.pin) {
        ValueList list = pins();
        if (*point.pin >= list.size())
            return tr("That pin is gone");
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(*point.pin));
        return apply(tr("Delete the pin at %1").arg(at(point.x, point.y)), list, std::nullopt);
    }
    // A generated point comes back at the next evaluation unless its spot is kept empty.
    ValueList erase = eraseAreas();
    erase.push_back(circleArea(point.x, point.y, point.r));
    return apply(tr("Delete the point at %1").arg(at(tidy(point.x), tidy(point.y))), std::nullopt, erase);
}

QString HandEditor::movePoint(const PickedPoint &point, QPointF to)
{
    ValueList list = pins();
    const QString text = tr("Move the point at %1 to %2").arg(at(tidy(point.x), tidy(point.y)), at(tidy(to.x()), tidy(to.y())));
    if (point.pin) {
        if (*point.pin >= list.size())
            return tr("That pin is gone");
        ValueMap record = list[*point.pin].toMap();
        const RecordField *x = pinsSpec()->fieldWithRole(FieldRole::X), *y = pinsSpec()->fieldWithRole(FieldRole::Y);
        for (auto &[key, value] : record)
            if (key == x->name || key == y->name)
                value = Value(tidy(key == x->name ? to.x() : to.y()));
        list[*point.pin] = Value(record);
        return apply(text, list, std::nullopt);
    }
    // A pin where it goes (looking the same) and an erase where it was: both survive regeneration.
    list.push_back(pinRecord(to.x(), to.y(), point.type, point.rotation, point.scale));
    ValueList erase = eraseAreas();
    erase.push_back(circleArea(point.x, point.y, point.r));
    return apply(text, list, erase);
}

QString HandEditor::addEraseAreas(const ValueList &areas, const QString &what)
{
    if (areas.empty())
        return tr("Nothing to erase");
    ValueList erase = eraseAreas();
    erase.insert(erase.end(), areas.begin(), areas.end());
    return apply(what, std::nullopt, erase);
}

QString HandEditor::removeEraseArea(std::size_t index)
{
    ValueList erase = eraseAreas();
    if (index >= erase.size())
        return tr("That area is gone");
    erase.erase(erase.begin() + static_cast<std::ptrdiff_t>(index));
    return apply(tr("Remove an erase area"), std::nullopt, erase);
}

} // namespace grove
