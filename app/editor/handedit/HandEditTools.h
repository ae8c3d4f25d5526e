// The preview's tool strip for hand edits of the selected layer: Select, Pin, Erase brush,
// Erase area (rectangle or polygon), Move, Delete and Path; it turns the view's presses and drags
// into HandEditor edits (the Path tool's into PathTool's) and draws the layer's pins, erase areas,
// drawn paths and the edit in progress.
#pragma once

#include "handedit/HandEditor.h"
#include "preview/PreviewSnapshot.h"

#include "core/analysis/Crowding.h"

#include <QPointF>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QPainter;

namespace grove {

class Document;
class PathTool;
class PreviewView;

class HandEditTools : public QWidget
{
    Q_OBJECT

public:
    enum Tool { Select, Pin, Brush, Area, Move, Delete, Path };

    HandEditTools(Document *document, PreviewView *view, QWidget *parent = nullptr);

    void setNode(const std::string &id);
    void setSnapshot(const PreviewSnapshotPtr &snapshot);
    Tool tool() const { return m_tool; }
    void setTool(Tool tool);
    QAction *toolAction(Tool tool) const { return m_actions[tool]; }
    bool toolsEnabled() const;
    double brushRadius() const { return m_brushRadius; }
    void setBrushRadius(double radius);
    // The type a new pin gets ("": none, the hash picks); the combo's choices are the layer's types.
    void setPinType(const QString &type);
    HandEditor &editor() { return m_editor; }
    PathTool &pathTool() { return *m_path; }
    // The layer's point (a pin first) within a few pixels of `world`, as the tools pick it.
    std::optional<PickedPoint> pointAt(QPointF world) const;

    // What stands too close to a point of the layer at `at` (radius r; 0: the layer's spacing),
    // nearest first, the point being moved left out: the earlier layers' points on its occupancy
    // and its pins stay too close (the layer table counts them); its own generated points make way
    // when it is placed again around the new pin.
    struct Crowder
    {
        enum Kind { Obstacle, LayerPin, Own } kind = Obstacle;  // LayerPin: one of the layer's pins
        TooClosePair pair;
        QPointF image;  // where it is ringed: pair.other, or on a wrapped world its copy across the seam by the cursor
        bool staysTooClose() const { return kind != Own; }
    };
    std::vector<Crowder> crowdersAt(QPointF at, double r = 0) const;

signals:
    void statusMessage(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void keyOnThePreview(QAction *action, const QString &key);
    void updateAvailability();
    void updateTypes();
    void pressed(QPointF world);
    void dragged(QPointF world);
    void released(QPointF world);
    void doubleClicked(QPointF world);
    void hovered(QPointF world, bool inside);
    void closePolygon();
    void cancelGesture();
    void report(const QString &problem, const QString &done);
    // What a point placed there stays too close to, or empty; `what` names the point in the note.
    QString crowdingNote(QPointF at, double r, const char *what = "it") const;
    double spacing() const;                             // the layer's radius, 0 when it keeps none
    PointLayerPtr inView(const PointLayerPtr &obstacle, const Region &view) const;  // an obstacle's points in view
    void showCrowding(QPointF at, double r);            // the status line while a point is dragged or aimed
    const PreviewLayer *layer() const;
    double pickSlack() const;  // world units: a few pixels at the view's zoom
    void paint(QPainter &p);
    void paintGesture(QPainter &p);
    void paintCrowding(QPainter &p, QPointF at, double r);

    Document *m_document;
    PreviewView *m_view;
    HandEditor m_editor;
    PreviewSnapshotPtr m_snapshot;
    Tool m_tool = Select;
    QActionGroup *m_group;
    QAction *m_actions[7] = {};
    PathTool *m_path;
    QComboBox *m_type;
    QLabel *m_brushLabel;
    double m_brushRadius = 20;
    // the gesture in progress, in world units
    std::optional<QPointF> m_hover;
    std::optional<PickedPoint> m_hoverPoint;
    std::optional<PickedPoint> m_moving;
    std::vector<QPointF> m_stroke;    // brush centres along the drag
    std::vector<QPointF> m_polygon;   // vertices clicked so far
    std::optional<QPointF> m_rectStart;
    bool m_rectDragging = false;
    bool m_down = false;
    // the points crowdersAt asks, made on first need for the snapshot and node (reset with either)
    mutable std::shared_ptr<const CrowdingIndex> m_crowding;
    QString m_crowdingShown;
    std::optional<QPointF> m_pinnedAt;  // the pin tool's last click, until the pointer leaves it
};

} // namespace grove
