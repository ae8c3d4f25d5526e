// The selected node's drawn paths (its ParamRole::DrawnPaths param) as undo steps: add a path,
// move a vertex, delete a vertex (a path left below its minimum goes whole). Each edit is checked
// as the loader checks the file before it is applied, so a refused one changes nothing and says why.
#pragma once

#include "core/graph/PathValue.h"

#include <QPointF>
#include <QString>

#include <cstddef>
#include <string>
#include <vector>

namespace grove {

class Document;
struct ParamSpec;

// A vertex of a drawn path: its path's index in the list and its own in the path.
struct PathVertex
{
    std::size_t path = 0, vertex = 0;
    bool operator==(const PathVertex &) const = default;
};

class PathEditor
{
public:
    explicit PathEditor(Document *document) : m_document(document) {}

    void setNode(const std::string &id) { m_node = id; }
    const std::string &node() const { return m_node; }
    bool takesPaths() const { return spec() != nullptr; }

    // One entry per item of the list (nothing for an unreadable one, so indexes match the file).
    std::vector<std::optional<DrawnPath>> paths() const;
    // The vertex nearest `world` within `slack` world units, or nothing.
    std::optional<PathVertex> vertexAt(QPointF world, double slack) const;

    // The edits; each is one undo step, or refused: the returned text says why (empty: done).
    QString addPath(const std::vector<QPointF> &vertices, bool closed);
    QString moveVertex(PathVertex at, QPointF to);
    QString deleteVertex(PathVertex at);

    // Where a drawn vertex is kept: to a tenth of a unit, as pins and erase areas are.
    static QPointF tidied(QPointF p);

private:
    const ParamSpec *spec() const;
    ValueList list() const;
    QString apply(const QString &text, const ValueList &paths);

    Document *m_document;
    std::string m_node;
};

} // namespace grove
