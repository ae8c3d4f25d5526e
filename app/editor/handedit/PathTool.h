// The preview's Path tool: draws, reshapes and trims the selected node's drawn paths (its
// ParamRole::DrawnPaths param) with the mouse and keys, and paints them over the map. Clicks add
// vertices to the path being drawn (the first starts one); double-click or Enter finishes it, a
// click on its first vertex closes it, Esc drops it (nothing of an unfinished path is saved).
// Dragging a vertex moves it; Delete or Backspace removes the hovered or selected one. Each
// finished action is one undo step (PathEditor). HandEditTools hands it the view's gestures.
#pragma once

#include "handedit/PathEditor.h"

#include <QObject>
#include <QPointF>

#include <optional>
#include <vector>

class QPainter;

namespace grove {

class Document;
class PreviewView;

class PathTool : public QObject
{
    Q_OBJECT

public:
    PathTool(Document *document, PreviewView *view, QObject *parent = nullptr);

    PathEditor &editor() { return m_editor; }
    void setNode(const std::string &id);
    // The path being drawn (world units), empty when none is.
    const std::vector<QPointF> &drawing() const { return m_drawing; }
    // A path being drawn, a vertex being dragged or selected: Esc drops that first.
    bool busy() const { return !m_drawing.empty() || m_drag || m_selected; }

    void pressed(QPointF world);
    void dragged(QPointF world);
    void released(QPointF world);
    void doubleClicked(QPointF world);
    void hovered(QPointF world, bool inside);
    // Whether `key` is the tool's now (Enter, Esc, Delete, Backspace), and acting on it.
    bool takesKey(int key) const;
    void key(int key);
    // Finishes the path being drawn as an open path (Enter, double-click).
    void finish();
    // Drops the path being drawn, a drag and the selection.
    void cancel();

    // The node's paths, their vertices, and the edit in progress; `active`: the tool is on.
    void paint(QPainter &p, bool active);

signals:
    void statusMessage(const QString &message);

private:
    double pickSlack() const;
    void report(const QString &problem, const QString &done);
    std::optional<PathVertex> target() const;  // what Delete would remove

    Document *m_document;
    PreviewView *m_view;
    PathEditor m_editor;
    std::vector<QPointF> m_drawing;
    std::optional<QPointF> m_cursor;
    std::optional<PathVertex> m_hovered, m_selected;
    // a press on a vertex: a drag moves it, a click selects it
    std::optional<PathVertex> m_drag;
    QPointF m_dragFrom;
    bool m_dragging = false;
    bool m_releaseEndsDoubleClick = false;
};

} // namespace grove
