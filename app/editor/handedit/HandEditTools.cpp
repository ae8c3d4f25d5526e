// HandEditTools: the strip's actions and the gestures on the map (painting is in HandEditPainter.cpp).
#include "handedit/HandEditTools.h"

#include "document/Document.h"
#include "handedit/HandEditGeometry.h"
#include "handedit/PathTool.h"
#include "preview/PreviewView.h"

#include "core/analysis/LayerStats.h"
#include "core/math/ExactHypot.h"
#include "core/sampling/ChunkedLayer.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace grove {

namespace {
using handedit::distance;
using handedit::kDragPixels;
using handedit::kPickPixels;
constexpr double kMinBrush = 1, kMaxBrush = 2000;

// where a pin placed at `p` is stored (a tenth of a unit, as HandEditor keeps positions)
QPointF tidied(QPointF p) { return handedit::tidy(p); }
} // namespace

HandEditTools::HandEditTools(Document *document, PreviewView *view, QWidget *parent)
    : QWidget(parent), m_document(document), m_view(view), m_editor(document), m_group(new QActionGroup(this)),
      m_path(new PathTool(document, view, this)), m_type(new QComboBox(this)), m_brushLabel(new QLabel(this))
{
    connect(m_path, &PathTool::statusMessage, this, &HandEditTools::statusMessage);
    setObjectName("handEditTools");
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    struct Def
    {
        Tool tool;
        QString text, key, tip, name;
    };
    const Def defs[] = {
        {Select, tr("Select"), "Esc", tr("Pan and zoom; a click sets a layer's start point"), "toolSelect"},
        {Pin, tr("Pin"), "P", tr("Click: pin a point of the selected layer there, with the type chosen beside"), "toolPin"},
        {Brush, tr("Erase"), "E", tr("Drag: the layer keeps the brushed area empty. [ and ] or Ctrl+wheel: brush size"),
         "toolBrush"},
        {Area, tr("Area"), "R", tr("Drag: erase a rectangle. Clicks: a polygon's corners; double-click or Enter closes "
                                   "it, Esc cancels"), "toolArea"},
        {Move, tr("Move"), "M", tr("Drag a point: a pin moves; a generated point becomes a pin there and an erase "
                                   "where it was"), "toolMove"},
        {Delete, tr("Delete"), "D", tr("Click a point (or Del while hovering one with any tool): a pin is removed, a "
                                       "generated point is erased where it stands"), "toolDelete"},
        {Path, tr("Path"), "L", tr("Clicks: a path's vertices; double-click or Enter finishes it, a click on its first "
                                   "vertex closes it, Esc drops it. Drag a vertex to move it; Del removes the hovered one"),
         "toolPath"},
    };
    for (const Def &d : defs) {
        auto *action = new QAction(d.text, this);
        action->setObjectName(d.name);
        action->setCheckable(true);
        action->setToolTip(QString("%1 (%2): %3").arg(d.text, d.key, d.tip));
        action->setData(d.tool);
        m_group->addAction(action);
        m_actions[d.tool] = action;
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setFocusPolicy(Qt::NoFocus);
        button->setAutoRaise(true);
        button->setStyleSheet("QToolButton:checked { background: #3d7bd9; color: white; border: 1px solid #9cc2ff; }");
        row->addWidget(button);
        connect(action, &QAction::triggered, this, [this, tool = d.tool] { setTool(tool); });
        if (d.tool != Select)  // Select's Esc is the map's own: there it cancels a gesture first
            keyOnThePreview(action, d.key);
    }
    // the brush size keys, as the tool keys: wherever the preview's keyboard focus is
    auto *smaller = new QAction(tr("Smaller brush"), this);
    connect(smaller, &QAction::triggered, this, [this] { setBrushRadius(m_brushRadius / 1.25); });
    keyOnThePreview(smaller, "[");
    auto *larger = new QAction(tr("Larger brush"), this);
    connect(larger, &QAction::triggered, this, [this] { setBrushRadius(m_brushRadius * 1.25); });
    keyOnThePreview(larger, "]");
    m_actions[Select]->setChecked(true);
    m_type->setObjectName("pinType");
    m_type->setFocusPolicy(Qt::NoFocus);
    m_type->setToolTip(tr("The type a new pin gets; \"any\": none written, the layer's weights pick it"));
    m_type->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    row->addWidget(m_type);
    m_brushLabel->setObjectName("brushSize");
    m_brushLabel->setStyleSheet("color: #c8c8cc;");
    row->addWidget(m_brushLabel);
    row->addStretch();
    setBrushRadius(m_brushRadius);

    view->installEventFilter(this);
    view->addPainter([this](QPainter &p) { paint(p); });
    connect(view, &PreviewView::toolPressed, this, &HandEditTools::pressed);
    connect(view, &PreviewView::toolDragged, this, &HandEditTools::dragged);
    connect(view, &PreviewView::toolReleased, this, &HandEditTools::released);
    connect(view, &PreviewView::toolDoubleClicked, this, &HandEditTools::doubleClicked);
    connect(view, &PreviewView::hovered, this, &HandEditTools::hovered);
    connect(view, &PreviewView::toolWheel, this, [this](double steps) { setBrushRadius(m_brushRadius * std::pow(1.15, steps)); });
    // the node may stop (or start) taking pins when the graph changes under it
    connect(document, &Document::graphReset, this, &HandEditTools::updateAvailability);
    connect(document, &Document::nodeRemoved, this, &HandEditTools::updateAvailability);
    connect(document, &Document::nodeAdded, this, &HandEditTools::updateAvailability);
    connect(document, &Document::paramChanged, this, [this] { m_view->update(); });
    connect(document, &Document::nodeRenamed, this, [this](const QString &from, const QString &to) {
        if (m_editor.node() == from.toStdString())
            setNode(to.toStdString());
    });
    updateAvailability();
}

void HandEditTools::setNode(const std::string &id)
{
    m_editor.setNode(id);
    m_path->setNode(id);
    m_crowding.reset();
    cancelGesture();
    updateAvailability();
    updateTypes();
}

void HandEditTools::setSnapshot(const PreviewSnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    m_crowding.reset();
    if (m_hover)
        m_hoverPoint = pointAt(*m_hover);
    updateTypes();
}

bool HandEditTools::toolsEnabled() const
{
    return m_editor.unavailableReason().isEmpty();
}

void HandEditTools::updateAvailability()
{
    const QString why = m_editor.unavailableReason();
    for (Tool t : {Pin, Move})
        m_actions[t]->setEnabled(why.isEmpty() && m_editor.takesPins());
    for (Tool t : {Brush, Area})
        m_actions[t]->setEnabled(why.isEmpty() && m_editor.takesErase());
    m_actions[Delete]->setEnabled(why.isEmpty() && (m_editor.takesPins() || m_editor.takesErase()));
    m_actions[Path]->setEnabled(why.isEmpty() && m_editor.takesPaths());
    for (Tool t : {Pin, Brush, Area, Move, Delete, Path}) {
        QString tip = m_actions[t]->toolTip().section("\n", 0, 0);
        m_actions[t]->setToolTip(why.isEmpty() ? tip : tip + "\n" + why);
    }
    setToolTip(why);
    if (!m_actions[m_tool]->isEnabled())
        setTool(Select);
    m_view->update();
}

void HandEditTools::updateTypes()
{
    const QString current = m_type->currentData().toString();
    QStringList names;
    if (const PreviewLayer *l = layer(); l && l->points)
        for (const WeightedType &t : l->points->info.types)
            names << QString::fromStdString(t.name);
    QStringList shown;
    for (int i = 1; i < m_type->count(); ++i)
        shown << m_type->itemData(i).toString();
    if (shown == names && m_type->count() > 0)
        return;
    m_type->clear();
    m_type->addItem(tr("any type"), QString());
    for (const QString &n : names)
        m_type->addItem(n, n);
    m_type->setCurrentIndex(std::max(0, m_type->findData(current)));
    m_type->setEnabled(!names.isEmpty());
}

void HandEditTools::setPinType(const QString &type)
{
    m_type->setCurrentIndex(std::max(0, m_type->findData(type)));
}

void HandEditTools::setBrushRadius(double radius)
{
    m_brushRadius = std::clamp(std::round(radius * 10) / 10, kMinBrush, kMaxBrush);
    m_brushLabel->setText(tr("brush r %1").arg(m_brushRadius));
    m_brushLabel->setToolTip(tr("The erase brush's radius in world units: [ and ] or Ctrl+wheel change it"));
    m_brushLabel->setVisible(m_tool == Brush);
    m_view->update();
}

void HandEditTools::setTool(Tool tool)
{
    if (tool != Select && !m_actions[tool]->isEnabled()) {
        emit statusMessage(m_editor.unavailableReason().isEmpty() ? tr("%1 takes no such edit").arg(QString::fromStdString(m_editor.node()))
                                                                  : m_editor.unavailableReason());
        tool = Select;
    }
    cancelGesture();
    m_tool = tool;
    m_actions[tool]->setChecked(true);
    m_view->setToolActive(tool != Select);
    m_brushLabel->setVisible(tool == Brush);
    if (tool != Select)
        m_view->setFocus();
    m_view->update();
}

const PreviewLayer *HandEditTools::layer() const
{
    if (!m_snapshot)
        return nullptr;
    for (const PreviewLayer &l : m_snapshot->layers)
        if (l.nodeId == m_editor.node())
            return &l;
    return nullptr;
}

double HandEditTools::pickSlack() const
{
    return kPickPixels / std::max(1e-9, m_view->zoom());
}

std::optional<PickedPoint> HandEditTools::pointAt(QPointF world) const
{
    // pins first, from the graph itself: they are there even while the layer re-evaluates
    const ValueList pins = m_editor.pins();
    const PreviewLayer *l = layer();
    std::optional<PickedPoint> best;
    double bestD = 0;
    for (std::size_t i = 0; i < pins.size(); ++i) {
        const std::optional<QPointF> position = m_editor.pinPosition(pins[i]);
        if (!position)
            continue;
        const QPointF at = *position;
        double r = 0;
        if (l && l->points)  // the exported pin (exactly at x, y) gives its radius
            for (const PointXYR &p : l->points->points)
                if (p.x == at.x() && p.y == at.y())
                    r = p.r;
        const double d = distance(at, world);
        if (d <= std::max(r, pickSlack()) && (!best || d < bestD)) {
            best = PickedPoint{at.x(), at.y(), r, i, {}, {}, {}};
            best->type = m_editor.pinType(pins[i]);
            bestD = d;
        }
    }
    if (best || !l || !l->points)
        return best;
    const PointLayer &pl = *l->points;
    for (std::size_t i = 0; i < pl.points.size(); ++i) {
        const PointXYR &p = pl.points[i];
        const double d = exactHypot(p.x - world.x(), p.y - world.y());
        if (d <= std::max(p.r, pickSlack()) && (!best || d < bestD)) {
            const PointAttributes a = pl.attributes(pl.idOf(i));
            best = PickedPoint{p.x, p.y, p.r, std::nullopt, {}, {}, {}};
            if (a.type >= 0 && static_cast<std::size_t>(a.type) < pl.info.types.size())
                best->type = pl.info.types[static_cast<std::size_t>(a.type)].name;
            if (pl.info.rotationMin != pl.info.rotationMax)
                best->rotation = a.rotation;
            if (pl.info.scaleMin != pl.info.scaleMax)
                best->scale = a.scale;
            bestD = d;
        }
    }
    return best;
}

double HandEditTools::spacing() const
{
    const PreviewLayer *l = layer();
    if (!l || !l->points)
        return 0;
    if (l->points->tally.radius > 0 || !l->points->chunked)
        return l->points->tally.radius;
    // a region preview's points count nothing: the chunked layer's own radius
    return l->points->chunked->settings().placement.radius;
}

// In a region preview the layers a layer was placed among are lazy (no points of their own):
// their points in view, as the preview placed them for its own layer, or from their chunks.
PointLayerPtr HandEditTools::inView(const PointLayerPtr &obstacle, const Region &view) const
{
    if (!obstacle->lazy)
        return obstacle;
    for (const PreviewLayer &shown : m_snapshot->layers)
        if (shown.points && shown.points->chunked && shown.points->chunked == obstacle->chunked)
            return shown.points;
    return layerInRegion(*obstacle, view, 1, nullptr);
}

std::vector<HandEditTools::Crowder> HandEditTools::crowdersAt(QPointF at, double r) const
{
    const PreviewLayer *l = layer();
    if (r <= 0)
        r = spacing();
    if (!l || !l->points || !(r > 0))
        return {};
    if (!m_crowding) {
        // the layer itself first, then what it was placed among
        const QRectF b = m_snapshot->regional ? m_snapshot->covers
                                              : QRectF(0, 0, m_snapshot->graph.world.width, m_snapshot->graph.world.height);
        const Region bounds{b.left(), b.top(), b.right(), b.bottom()};
        std::vector<PointLayerPtr> layers{l->points};
        for (const PointLayerPtr &o : obstaclesOf(m_snapshot->result, l->nodeId, l->points))
            if (PointLayerPtr points = inView(o, bounds))
                layers.push_back(std::move(points));
        const World &world = m_snapshot->graph.world;
        m_crowding = std::make_shared<const CrowdingIndex>(std::move(layers), bounds, world.wrapX ? world.width : 0,
                                                           world.wrapY ? world.height : 0);
    }
    std::vector<QPointF> pins;
    for (const Value &pin : m_editor.pins())
        if (const std::optional<QPointF> position = m_editor.pinPosition(pin))
            pins.push_back(*position);
    std::vector<Crowder> found;
    for (const CrowdingIndex::Hit &hit : m_crowding->around(at.x(), at.y(), r)) {
        const QPointF other(hit.pair.other.x, hit.pair.other.y);
        Crowder c{Crowder::Obstacle, hit.pair, QPointF(hit.imageX, hit.imageY)};
        if (hit.layer == 0) {
            if (m_moving && other == QPointF(m_moving->x, m_moving->y))
                continue;  // the point being moved is not in its own way
            c.kind = std::find(pins.begin(), pins.end(), other) != pins.end() ? Crowder::LayerPin : Crowder::Own;
        }
        found.push_back(std::move(c));
    }
    return found;
}

QString HandEditTools::crowdingNote(QPointF at, double r, const char *what) const
{
    for (const Crowder &c : crowdersAt(at, r))
        if (c.staysTooClose())
            return QString::fromStdString(describeTooClose(c.pair, what));
    return {};
}

void HandEditTools::showCrowding(QPointF at, double r)
{
    // aiming the pin tool, over a pin just placed too: the note is about the pin a click would add
    const QString note = crowdingNote(at, r, m_tool == Pin ? "a new pin" : "it");
    if (note == m_crowdingShown)
        return;
    const bool shown = !m_crowdingShown.isEmpty();
    m_crowdingShown = note;
    if (!note.isEmpty())
        emit statusMessage(tr("Too close here: %1").arg(note));
    else if (shown)  // a clear spot takes away the note it would contradict (it stayed 5 s)
        emit statusMessage(QString());
}

void HandEditTools::report(const QString &problem, const QString &done)
{
    m_crowdingShown.clear();  // the line shows what was done now, not a note to take away
    emit statusMessage(problem.isEmpty() ? done : tr("Not done: %1").arg(problem));
    m_view->update();
}

void HandEditTools::pressed(QPointF world)
{
    m_down = true;
    switch (m_tool) {
    case Select: break;
    case Path: m_path->pressed(world); break;
    case Pin: {
        const QString done = tr("Pinned a point at %1, %2 (Ctrl+Z undoes)").arg(std::round(world.x() * 10) / 10).arg(std::round(world.y() * 10) / 10);
        const QString crowded = crowdingNote(tidied(world), 0);
        m_pinnedAt = world;
        report(m_editor.addPin(world, m_type->currentData().toString().toStdString()),
               crowded.isEmpty() ? done : tr("%1; too close: %2 (listed in Problems)").arg(done, crowded));
        break;
    }
    case Brush: m_stroke = {world}; break;
    case Area:
        if (m_polygon.empty())
            m_rectStart = world;
        m_rectDragging = false;
        break;
    case Move: m_moving = pointAt(world); break;
    case Delete:
        if (auto point = pointAt(world))
            report(m_editor.deletePoint(*point), point->pin ? tr("Deleted a pin") : tr("Deleted a point (an erase circle keeps it gone)"));
        else
            emit statusMessage(tr("No point of %1 here").arg(QString::fromStdString(m_editor.node())));
        break;
    }
    m_view->update();
}

void HandEditTools::dragged(QPointF world)
{
    m_hover = world;
    if (m_tool == Path) {
        m_path->dragged(world);
    } else if (m_tool == Brush && !m_stroke.empty()) {
        // centres half a radius apart: the union of the circles covers the swept band
        QPointF last = m_stroke.back();
        const double step = m_brushRadius / 2;
        double d = distance(last, world);
        while (d >= step) {
            last += (world - last) * (step / d);
            m_stroke.push_back(last);
            d = distance(last, world);
        }
    } else if (m_tool == Area && m_rectStart && m_polygon.empty()) {
        m_rectDragging = m_rectDragging || distance(*m_rectStart, world) * m_view->zoom() > kDragPixels;
    } else if (m_tool == Move && m_moving) {
        showCrowding(world, m_moving->r);
    }
    m_view->update();
}

void HandEditTools::released(QPointF world)
{
    if (!m_down)
        return;
    m_down = false;
    if (m_tool == Path) {
        m_path->released(world);
    } else if (m_tool == Brush && !m_stroke.empty()) {
        ValueList areas;
        for (const QPointF &c : m_stroke)
            areas.push_back(HandEditor::circleArea(c.x(), c.y(), m_brushRadius));
        m_stroke.clear();
        report(m_editor.addEraseAreas(areas, tr("Erase with the brush")), tr("Erased a brush stroke (Ctrl+Z undoes)"));
    } else if (m_tool == Area && m_rectStart && m_rectDragging) {
        const QRectF r = QRectF(*m_rectStart, world).normalized();
        m_rectStart.reset();
        m_rectDragging = false;
        ValueList areas;
        areas.push_back(HandEditor::polygonArea({r.topLeft(), r.topRight(), r.bottomRight(), r.bottomLeft()}));
        report(m_editor.addEraseAreas(areas, tr("Erase a rectangle")),
               tr("Erased a rectangle (Ctrl+Z undoes)"));
    } else if (m_tool == Area) {
        m_rectStart.reset();
        // a click on the first corner closes the polygon, as a double-click does
        if (m_polygon.size() >= 3 && distance(m_polygon.front(), world) <= pickSlack())
            closePolygon();
        else if (m_polygon.empty() || distance(m_polygon.back(), world) > pickSlack())
            m_polygon.push_back(world);
    } else if (m_tool == Move && m_moving) {
        const PickedPoint from = *m_moving;
        m_moving.reset();
        if (distance(QPointF(from.x, from.y), world) * m_view->zoom() > kDragPixels) {
            m_moving = from;  // still left out of its own way while the drop is checked
            const QString crowded = crowdingNote(tidied(world), from.r);
            m_moving.reset();
            const QString done = from.pin ? tr("Moved a pin") : tr("Moved a point: a pin there, an erase where it was");
            report(m_editor.movePoint(from, world),
                   crowded.isEmpty() ? done : tr("%1; too close: %2 (listed in Problems)").arg(done, crowded));
        }
        m_crowdingShown.clear();
    }
    m_view->update();
}

void HandEditTools::doubleClicked(QPointF world)
{
    if (m_tool == Path) {
        m_path->doubleClicked(world);
    } else if (m_tool == Area) {
        if (m_polygon.empty() || distance(m_polygon.back(), world) > pickSlack())
            m_polygon.push_back(world);
        closePolygon();
    } else {
        pressed(world);  // a fast second click of another tool is a click of its own
    }
}

void HandEditTools::closePolygon()
{
    std::vector<QPointF> vertices = m_polygon;
    m_polygon.clear();
    if (vertices.size() < 3) {
        emit statusMessage(tr("A polygon needs at least three corners"));
        return;
    }
    ValueList areas;
    areas.push_back(HandEditor::polygonArea(vertices));
    report(m_editor.addEraseAreas(areas, tr("Erase a polygon")),
           tr("Erased a polygon of %1 corners (Ctrl+Z undoes)").arg(vertices.size()));
}

void HandEditTools::cancelGesture()
{
    m_stroke.clear();
    m_polygon.clear();
    m_rectStart.reset();
    m_rectDragging = false;
    m_moving.reset();
    m_down = false;
    m_crowdingShown.clear();
    m_pinnedAt.reset();
    m_path->cancel();
}

void HandEditTools::hovered(QPointF world, bool inside)
{
    if (!inside && !m_down) {
        m_hover.reset();
        m_hoverPoint.reset();
        m_pinnedAt.reset();
    } else {
        m_hover = world;
        m_hoverPoint = (m_tool == Move || m_tool == Delete || m_tool == Pin) && !m_moving ? pointAt(world) : std::nullopt;
        // the pointer still where it pinned (the new picture shown under it) keeps the click's own
        // message ("Pinned a point ..."): a note that a new pin there would be too close to the
        // one just placed read as a warning about it
        if (m_pinnedAt && distance(*m_pinnedAt, world) * m_view->zoom() >= 0.5)
            m_pinnedAt.reset();
        if (m_tool == Pin && !m_pinnedAt)
            showCrowding(world, 0);
    }
    if (m_tool == Path)
        m_path->hovered(world, inside);
    if (m_tool != Select || m_hoverPoint)
        m_view->update();
}

// A tool's letter acts wherever the keyboard focus is inside the preview dock (the map, its layer
// table, its depth slider), not only on the map; a text field elsewhere keeps its letters.
void HandEditTools::keyOnThePreview(QAction *action, const QString &key)
{
    action->setShortcut(QKeySequence(key));
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    parentWidget()->addAction(action);
}

bool HandEditTools::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_view || (event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride))
        return QWidget::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;  // Ctrl+Z and friends stay the window's
    // only with a tool on (which highlights the point): with Select, Del stays the canvas's node delete
    const bool hoveringPoint = m_tool != Select && m_hoverPoint.has_value() && toolsEnabled();
    bool mine = true;
    std::function<void()> act;
    if (m_tool == Path && m_path->takesKey(key->key()))
        act = [this, k = key->key()] { m_path->key(k); };
    else switch (key->key()) {
    case Qt::Key_Escape:
        act = [this] {
            if (!m_polygon.empty() || m_rectStart || !m_stroke.empty() || m_moving) {
                cancelGesture();
                emit statusMessage(tr("Cancelled"));
                m_view->update();
            } else {
                setTool(Select);
            }
        };
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        mine = m_tool == Area && !m_polygon.empty();
        act = [this] { closePolygon(); };
        break;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
        mine = hoveringPoint;  // else Del deletes the selected nodes, as anywhere
        act = [this] {
            const PickedPoint point = *m_hoverPoint;
            m_hoverPoint.reset();
            report(m_editor.deletePoint(point), point.pin ? tr("Deleted a pin") : tr("Deleted a point"));
        };
        break;
    default: mine = false;
    }
    if (!mine)
        return false;
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept();  // the key comes to the map, not to a window shortcut
        return true;
    }
    act();
    return true;
}

} // namespace grove
