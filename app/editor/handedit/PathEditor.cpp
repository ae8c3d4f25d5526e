// PathEditor: builds the new path list, checks it as the loader would, pushes it as one step.
#include "handedit/PathEditor.h"

#include "document/Document.h"
#include "document/ValueCommands.h"
#include "handedit/HandEditGeometry.h"

#include "core/graph/NodeRegistry.h"
#include "core/math/ExactHypot.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <cmath>

namespace grove {

namespace {

QString pathText(const char *text) { return QCoreApplication::translate("PathEditor", text); }

using handedit::tidy;

} // namespace

QPointF PathEditor::tidied(QPointF p)
{
    return tidy(p);
}

const ParamSpec *PathEditor::spec() const
{
    const Node *node = m_document->graph().node(m_node);
    const NodeDescriptor *d = node ? m_document->registry().find(node->type) : nullptr;
    return d ? d->paramWithRole(ParamRole::DrawnPaths) : nullptr;
}

ValueList PathEditor::list() const
{
    const ParamSpec *s = spec();
    const Node *node = m_document->graph().node(m_node);
    const Value *v = s && node ? node->param(s->name) : nullptr;
    return v && v->isList() ? v->toList() : ValueList{};
}

std::vector<std::optional<DrawnPath>> PathEditor::paths() const
{
    return readPathList(Value(list()));
}

std::optional<PathVertex> PathEditor::vertexAt(QPointF world, double slack) const
{
    std::optional<PathVertex> best;
    double bestD = slack;
    const std::vector<std::optional<DrawnPath>> all = paths();
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t k = 0; all[i] && k < all[i]->points.size(); ++k) {
            const double d = exactHypot(all[i]->points[k].x - world.x(), all[i]->points[k].y - world.y());
            if (d <= bestD) {
                best = PathVertex{i, k};
                bestD = d;
            }
        }
    return best;
}

QString PathEditor::apply(const QString &text, const ValueList &paths)
{
    const ParamSpec *s = spec();
    if (!s)
        return pathText("%1 takes no drawn paths: select a Place Path node").arg(QString::fromStdString(m_node));
    std::string where;
    if (auto problem = checkParamValue(*s, Value(paths), &where))
        return QString::fromStdString(*problem);
    QUndoStack *stack = m_document->undoStack();
    m_document->endMerge();  // its own step, never merged into an earlier edit of the list
    stack->beginMacro(text);
    stack->push(new SetParamCommand(m_document, m_node, s->name, Value(paths)));
    stack->endMacro();
    m_document->endMerge();
    return {};
}

QString PathEditor::addPath(const std::vector<QPointF> &vertices, bool closed)
{
    DrawnPath path;
    path.closed = closed;
    for (const QPointF &v : vertices) {
        const QPointF t = tidied(v);
        if (path.points.empty() || path.points.back().x != t.x() || path.points.back().y != t.y())
            path.points.push_back({t.x(), t.y()});
    }
    if (path.points.size() < minimumVertices(closed))
        return closed ? pathText("A closed path needs three or more corners") : pathText("A path needs two or more vertices");
    ValueList paths = list();
    paths.push_back(pathValue(path));
    return apply(closed ? pathText("Draw a closed path of %1 vertices").arg(path.points.size())
                        : pathText("Draw a path of %1 vertices").arg(path.points.size()),
                 paths);
}

QString PathEditor::moveVertex(PathVertex at, QPointF to)
{
    ValueList paths = list();
    std::optional<DrawnPath> path = at.path < paths.size() ? readDrawnPath(paths[at.path]) : std::nullopt;
    if (!path || at.vertex >= path->points.size())
        return pathText("That vertex is gone");
    const QPointF t = tidied(to);
    path->points[at.vertex] = {t.x(), t.y()};
    paths[at.path] = pathValue(*path);
    return apply(pathText("Move vertex %1 of path %2").arg(at.vertex).arg(at.path), paths);
}

QString PathEditor::deleteVertex(PathVertex at)
{
    ValueList paths = list();
    std::optional<DrawnPath> path = at.path < paths.size() ? readDrawnPath(paths[at.path]) : std::nullopt;
    if (!path || at.vertex >= path->points.size())
        return pathText("That vertex is gone");
    path->points.erase(path->points.begin() + static_cast<std::ptrdiff_t>(at.vertex));
    // a path left too short to walk goes whole: half a path is nothing a designer drew
    if (path->points.size() < minimumVertices(path->closed)) {
        paths.erase(paths.begin() + static_cast<std::ptrdiff_t>(at.path));
        return apply(pathText("Delete path %1").arg(at.path), paths);
    }
    paths[at.path] = pathValue(*path);
    return apply(pathText("Delete vertex %1 of path %2").arg(at.vertex).arg(at.path), paths);
}

} // namespace grove
