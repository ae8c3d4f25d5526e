// PreviewDock: shows the controller's snapshots; reads values under the cursor from the result.
#include "window/PreviewDock.h"

#include "document/Document.h"
#include "handedit/HandEditTools.h"
#include "preview/SavedComparison.h"
#include "preview/PreviewController.h"
#include "preview/PreviewView.h"
#include "document/ValueCommands.h"

#include "core/sampling/ChunkedLayer.h"
#include "core/graph/NodeRegistry.h"

#include <QAction>
#include <QComboBox>
#include <QSlider>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace grove {

namespace {

enum Column { NameColumn, CountColumn, TightestColumn, TooCloseColumn, ClearingColumn, NoteColumn };

QString number(double v, int decimals = 2) { return QString::number(v, 'f', decimals); }

QIcon swatch(const QColor &color)
{
    QPixmap pm(14, 14);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(0, 0, 0, 160), 1));
    p.setBrush(color);
    p.drawEllipse(QRectF(1, 1, 12, 12));
    return QIcon(pm);
}

// The params a click on the map sets: a world position, and the mode that makes the node use it.
struct ClickedPosition
{
    const ParamSpec *x = nullptr, *y = nullptr, *mode = nullptr;
};

ClickedPosition clickedPosition(const NodeDescriptor *desc)
{
    if (!desc)
        return {};
    return {desc->paramWithRole(ParamRole::PositionX), desc->paramWithRole(ParamRole::PositionY),
            desc->paramWithRole(ParamRole::PositionMode)};
}

} // namespace

PreviewDock::PreviewDock(Document *document, PreviewController *controller, QWidget *parent)
    : QWidget(parent), m_document(document), m_controller(controller), m_view(new PreviewView(this)),
      m_overlayBox(new QPushButton(tr("Show selected output"), this)),
      m_chunkBorders(new QAction(tr("Chunk borders"), this)), m_compare(new QAction(tr("Compare with Saved"), this)),
      m_comparison(new SavedComparison(document, m_view, this)), m_tools(new HandEditTools(document, m_view, this)), m_hover(new QLabel(this)),
      m_status(new QLabel(this)), m_layers(new QTreeWidget(this)), m_depthControls(new QWidget(this)),
      m_depthSlab(new QComboBox(m_depthControls)), m_depthFrom(new QSlider(Qt::Horizontal, m_depthControls)),
      m_depthText(new QLabel(m_depthControls))
{
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    auto *bar = new QHBoxLayout;
    // A toggle button that looks pressed while on: the overlay covers the map, so it is never a surprise.
    m_overlayBox->setObjectName("overlayToggle");
    m_overlayBox->setCheckable(true);
    m_overlayBox->setChecked(controller->overlayEnabled());
    m_overlayBox->setStyleSheet("QPushButton:checked { background: #3d7bd9; color: white; border: 1px solid #9cc2ff; }");
    m_overlayBox->setMinimumWidth(m_overlayBox->fontMetrics().horizontalAdvance(m_overlayBox->text()) + 24);
    m_overlayBox->setToolTip(tr("Draw the selected node's output over the map: fields as a colour ramp, labels and "
                                "masks in colour, points as dots"));
    bar->addWidget(m_overlayBox);
    // The chunk grid: off until asked for, then remembered across sessions.
    m_chunkBorders->setObjectName("chunkBorders");
    m_chunkBorders->setCheckable(true);
    m_chunkBorders->setShortcut(QKeySequence(tr("Ctrl+B")));
    m_chunkBorders->setChecked(QSettings().value("preview/chunkBorders", false).toBool());
    m_chunkBorders->setToolTip(tr("Draw the chunk grid of a chunked world (world chunk), with each chunk's i, j when "
                                  "zoomed in (Ctrl+B)"));
    m_view->setChunkBordersVisible(m_chunkBorders->isChecked());
    auto *borders = new QToolButton(this);
    borders->setDefaultAction(m_chunkBorders);
    borders->setToolButtonStyle(Qt::ToolButtonTextOnly);
    borders->setStyleSheet("QToolButton:checked { background: #3d7bd9; color: white; border: 1px solid #9cc2ff; }");
    bar->addWidget(borders);
    // The depth slice: only in a volume world (shown by showSnapshot)
    m_depthControls->setObjectName("depthSlice");
    auto *depthRow = new QHBoxLayout(m_depthControls);
    depthRow->setContentsMargins(0, 0, 0, 0);
    depthRow->addWidget(new QLabel(tr("Depth"), m_depthControls));
    m_depthSlab->addItems({tr("all"), tr("1/8 slab"), tr("1/4 slab"), tr("1/2 slab")});
    m_depthSlab->setToolTip(tr("Volume layers: draw every point (all) or only those in a slab of the world's depth"));
    m_depthFrom->setRange(0, 1000);
    m_depthFrom->setMinimumWidth(120);
    m_depthFrom->setToolTip(tr("Where the slab lies, from the nearest (left) to the deepest (right)"));
    m_depthText->setMinimumWidth(m_depthText->fontMetrics().horizontalAdvance("z 0000 to 0000") + 4);
    depthRow->addWidget(m_depthSlab);
    depthRow->addWidget(m_depthFrom);
    depthRow->addWidget(m_depthText);
    m_depthSlab->setCurrentIndex(std::clamp(QSettings().value("preview/depthSlab", 0).toInt(), 0, 3));
    m_depthFrom->setValue(std::clamp(QSettings().value("preview/depthFrom", 0).toInt(), 0, 1000));
    depthRow->addStretch();
    m_depthControls->hide();
    connect(m_depthSlab, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue("preview/depthSlab", m_depthSlab->currentIndex());
        applyDepthSlice();
    });
    connect(m_depthFrom, &QSlider::valueChanged, this, [this] {
        QSettings().setValue("preview/depthFrom", m_depthFrom->value());
        applyDepthSlice();
    });
    bar->addStretch();
    auto *fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show the whole world (or double-click the map). Wheel zooms, drag pans."));
    bar->addWidget(fit);
    column->addLayout(bar);
    column->addWidget(m_tools);
    // a row of its own (shown only in a world with depth), so the bar above keeps the width it
    // needs in 2D and the canvas beside the preview keeps its room
    column->addWidget(m_depthControls);
    column->addWidget(m_view, 3);
    m_compare->setObjectName("compareWithSaved");
    m_compare->setCheckable(true);
    m_compare->setShortcut(QKeySequence(tr("Ctrl+Shift+D")));
    m_compare->setToolTip(tr("Draw what the unsaved edits did to the points, against the file on disk: removed red, "
                             "added green, moved as arrows, kept grey (Ctrl+Shift+D)"));
    auto *compare = new QToolButton(this);
    compare->setDefaultAction(m_compare);
    compare->setToolButtonStyle(Qt::ToolButtonTextOnly);
    compare->setStyleSheet("QToolButton:checked { background: #3d7bd9; color: white; border: 1px solid #9cc2ff; }");
    bar->insertWidget(2, compare);
    connect(m_compare, &QAction::toggled, m_comparison, &SavedComparison::setEnabled);
    connect(m_tools, &HandEditTools::statusMessage, this, &PreviewDock::statusMessage);
    m_hover->setObjectName("hoverReadout");
    m_hover->setTextFormat(Qt::PlainText);
    m_hover->setWordWrap(true);
    // a fixed height: a readout that wraps to another line as the cursor moves must not shift the
    // map under it (a press aimed at a pin or a path's vertex would land beside it)
    m_hover->setFixedHeight(m_hover->fontMetrics().height() * 3 + 4);
    m_hover->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_hover->setStyleSheet("color: #c8c8cc;");
    column->addWidget(m_hover);
    m_status->setObjectName("previewStatus");
    m_status->setWordWrap(true);
    m_status->setStyleSheet("color: #e0a050;");
    m_status->hide();
    column->addWidget(m_status);

    m_layers->setObjectName("layerTable");
    m_layers->setRootIsDecorated(false);
    m_layers->setHeaderLabels({tr("Layer"), tr("Count"), tr("Tightest"), tr("Too close"), tr("Widest clearing (diameter)"), tr("Note")});
    m_layers->headerItem()->setToolTip(TightestColumn, tr("The smallest distance between two of the layer's points"));
    m_layers->headerItem()->setToolTip(TooCloseColumn,
                                       tr("Pairs closer than min(ri, rj), within the layer and against its obstacles"));
    m_layers->headerItem()->setToolTip(ClearingColumn,
                                       tr("The diameter of the widest empty circle centred in the layer's allowed area "
                                          "(check's `clearing`); select the row to draw it on the map"));
    m_layers->headerItem()->setToolTip(NoteColumn, tr("Why a layer holds far fewer points than its allowed area could"));
    m_layers->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_layers->setMaximumHeight(150);
    column->addWidget(m_layers, 1);

    connect(fit, &QPushButton::clicked, m_view, &PreviewView::fitToView);
    connect(m_chunkBorders, &QAction::toggled, this, [this](bool on) {
        m_view->setChunkBordersVisible(on);
        if (!m_followingWorld)  // the user's choice, not the world's lack of chunks
            QSettings().setValue("preview/chunkBorders", on);
    });
    connect(m_view, &PreviewView::viewportChanged, controller, &PreviewController::setViewport);
    connect(m_overlayBox, &QPushButton::toggled, this, [this](bool on) {
        m_controller->setOverlayEnabled(on);
        if (!on)
            m_view->setOverlay({});
    });
    // Ids are the dock's keys (selection, hidden layers): a rename carries them over.
    connect(document, &Document::nodeRenamed, this, [this](const QString &oldId, const QString &newId) {
        const std::string from = oldId.toStdString(), to = newId.toStdString();
        if (m_hidden.erase(from)) {
            m_hidden.insert(to);
            m_controller->setHiddenLayers(m_hidden);
        }
        if (m_selected == from)
            setSelectedNode(to);
    });
    connect(controller, &PreviewController::snapshotReady, this, &PreviewDock::showSnapshot);
    connect(m_view, &PreviewView::displaySideChanged, controller, &PreviewController::setDisplaySide);
    connect(controller, &PreviewController::statusChanged, this, [this](const QString &message) {
        m_status->setText(message);
        m_status->setVisible(!message.isEmpty());
    });
    connect(m_view, &PreviewView::hovered, this, [this](QPointF world, bool inside) {
        m_hover->setText(inside ? readout(world) : QString());
    });
    connect(m_view, &PreviewView::clicked, this, [this](QPointF world) { setStartPoint(world); });
    connect(m_layers, &QTreeWidget::itemChanged, this, &PreviewDock::layerToggled);
    connect(m_layers, &QTreeWidget::currentItemChanged, this, &PreviewDock::updateCircle);
    connect(m_layers, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (m_updatingLayers || !item)  // a row made current by the selection or a new snapshot
            return;
        const std::string id = item->data(NameColumn, Qt::UserRole).toString().toStdString();
        if (id != m_selected)
            emit layerChosen(id);
    });
}

void PreviewDock::setSelectedNode(const std::string &id)
{
    m_selected = id;
    m_tools->setNode(id);
    m_controller->setOverlayNode(id);
    if (m_snapshot && m_snapshot->overlayNode != id)
        m_view->setOverlay({});
    // Selecting a layer's node selects its row, so its clearing shows; any other node hides it.
    QTreeWidgetItem *current = nullptr;
    for (int i = 0; i < m_layers->topLevelItemCount(); ++i)
        if (m_layers->topLevelItem(i)->data(NameColumn, Qt::UserRole).toString().toStdString() == id)
            current = m_layers->topLevelItem(i);
    m_updatingLayers = true;
    m_layers->setCurrentItem(current);
    if (!current)
        m_layers->clearSelection();
    m_updatingLayers = false;
    updateCircle();
}

QString PreviewDock::hoverText() const
{
    return m_hover->text();
}

void PreviewDock::applyDepthSlice()
{
    static constexpr double kSlab[] = {0, 1.0 / 8, 1.0 / 4, 1.0 / 2};
    const int slab = m_depthSlab->currentIndex();
    const bool sliced = m_depth > 0 && slab > 0 && slab < 4;
    m_depthFrom->setEnabled(sliced);
    if (!sliced) {
        m_depthText->setText(m_depth > 0 ? tr("z 0 to %1").arg(m_depth) : QString());
        m_controller->setDepthSlice(-HUGE_VAL, HUGE_VAL);
        return;
    }
    const double thickness = m_depth * kSlab[slab];
    const double from = (m_depth - thickness) * m_depthFrom->value() / 1000.0;
    m_depthText->setText(tr("z %1 to %2").arg(std::round(from)).arg(std::round(from + thickness)));
    m_controller->setDepthSlice(from, from + thickness);
}

void PreviewDock::showSnapshot(const PreviewSnapshotPtr &snapshot)
{
    m_snapshot = snapshot;
    const World &world = snapshot->graph.world;
    if (world.depth != m_depth) {  // a volume world shows the slice; a 2D world hides it
        m_depth = std::isfinite(world.depth) && world.depth > 0 ? world.depth : 0;
        m_depthControls->setVisible(m_depth > 0);
        applyDepthSlice();
    }
    m_view->setChunkSize(world.chunk);
    showChunkBordersFor(world.chunk > 0);
    if (snapshot->regional)
        m_view->setRegionPicture(snapshot->image, snapshot->covers, snapshot->home, world.endless, snapshot->generation);
    else
        m_view->setPicture(snapshot->image, QSizeF(world.width, world.height), snapshot->generation);
    m_view->setMessage(snapshot->overBudgetMessage);
    const bool overlay = m_overlayBox->isChecked() && snapshot->overlayNode == m_selected && !m_selected.empty();
    m_view->setOverlay(overlay ? snapshot->overlay : QImage());
    m_tools->setSnapshot(snapshot);
    m_comparison->setCurrent(snapshot);
    updateLayers();
    m_view->reportHover();  // the nearest points are the new picture's
}

// A world without chunks has no borders to draw: the button shows off there, and the user's choice
// (kept in the settings) comes back with a chunked world.
void PreviewDock::showChunkBordersFor(bool chunked)
{
    m_followingWorld = true;
    m_chunkBorders->setEnabled(chunked);
    m_chunkBorders->setChecked(chunked && QSettings().value("preview/chunkBorders", false).toBool());
    m_followingWorld = false;
}

void PreviewDock::updateLayers()
{
    m_updatingLayers = true;
    const QString current = m_layers->currentItem() ? m_layers->currentItem()->data(NameColumn, Qt::UserRole).toString()
                                                    : QString();
    m_layers->clear();
    for (const PreviewLayer &layer : m_snapshot->layers) {
        auto *item = new QTreeWidgetItem(m_layers);
        const QString id = QString::fromStdString(layer.nodeId);
        item->setData(NameColumn, Qt::UserRole, id);
        item->setText(NameColumn, layer.name);
        item->setIcon(NameColumn, swatch(layer.color));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(NameColumn, m_hidden.count(layer.nodeId) ? Qt::Unchecked : Qt::Checked);
        item->setToolTip(NameColumn, tr("Untick to hide the layer on the map (the export keeps it)"));
        if (layer.skipped) {  // no numbers rather than stale ones
            QFont italic = item->font(NameColumn);
            italic.setItalic(true);
            for (int c = NameColumn; c <= NoteColumn; ++c) {
                item->setFont(c, italic);
                item->setForeground(c, QColor(150, 150, 150));
                item->setText(c, c == NameColumn ? layer.name : c == NoteColumn ? QString() : QStringLiteral("–"));
            }
            item->setText(NoteColumn, tr("not evaluated: fix the problems (its own or upstream)"));
            if (layer.nodeId == m_selected)
                m_layers->setCurrentItem(item);
            continue;
        }
        const LayerStats &s = layer.stats;
        item->setText(CountColumn, QString::number(s.count));
        if (layer.inView) {  // a big chunked world: what is in view, no whole-layer statistics
            item->setText(CountColumn, layer.notPlaced ? tr("zoom in") : tr("%1 in view").arg(s.count));
            item->setTextAlignment(CountColumn, Qt::AlignRight | Qt::AlignVCenter);
            for (int c = TightestColumn; c <= ClearingColumn; ++c)
                item->setText(c, QStringLiteral("–"));
            const QString why = layer.notPlaced ? tr("Too many chunks in view to place: zoom in to see this layer.")
                                                : tr("A big chunked world is placed chunk by chunk where you look: the "
                                                     "count is of the points in view; statistics need the whole layer "
                                                     "(grove-cli eval --stats on a finite world).");
            for (int c = CountColumn; c <= NoteColumn; ++c)
                item->setToolTip(c, why);
            if (layer.nodeId == m_selected || (id == current && m_selected.empty()))
                m_layers->setCurrentItem(item);
            continue;
        }
        if (layer.statsPending) {  // the count is current; the rest follows the picture
            for (int c = TightestColumn; c <= ClearingColumn; ++c) {
                item->setText(c, QStringLiteral("…"));
                item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
                item->setToolTip(c, tr("Computed once the picture is shown and no newer edit is waiting"));
            }
            item->setTextAlignment(CountColumn, Qt::AlignRight | Qt::AlignVCenter);
            if (layer.nodeId == m_selected || (id == current && m_selected.empty()))
                m_layers->setCurrentItem(item);
            continue;
        }
        item->setText(TightestColumn, s.count >= 2 ? number(s.tightest) : "–");
        item->setText(TooCloseColumn, QString::number(s.tooClose));
        item->setText(ClearingColumn, s.volume ? tr("3D: N r³/V %1").arg(number(s.density, 3))
                                      : s.count ? tr("%1 at %2, %3")
                                                      .arg(number(s.clearingDiameter, 1), number(s.clearingX, 0),
                                                           number(s.clearingY, 0))
                                                : "–");
        if (s.volume)
            item->setToolTip(ClearingColumn, tr("A volume: tightest and too close are measured in 3D; density N r³/V "
                                                "(3D Bridson at k = 30 gives about 0.575 away from the walls)"));
        for (int c = CountColumn; c <= ClearingColumn; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        if (s.tooClose > 0) {
            item->setForeground(TooCloseColumn, QColor(255, 110, 90));
            item->setToolTip(TooCloseColumn, layer.name + ": " + QString::fromStdString(tooCloseSummary(s.tooClose, s.tightestTooClose)));
        }
        if (!s.why.empty()) {
            const QString why = QString::fromStdString(s.why);
            item->setText(NoteColumn, why);
            for (int c = CountColumn; c <= NoteColumn; ++c)  // the column is often scrolled out of sight
                item->setToolTip(c, layer.name + ": " + why);
            item->setForeground(NoteColumn, QColor(240, 170, 80));
            item->setForeground(CountColumn, QColor(240, 170, 80));
        }
        if (layer.nodeId == m_selected || (id == current && m_selected.empty()))
            m_layers->setCurrentItem(item);
    }
    m_updatingLayers = false;
    updateCircle();
}

void PreviewDock::updateCircle()
{
    const QTreeWidgetItem *item = m_layers->currentItem();
    if (!item || !m_snapshot) {
        m_view->setCircle(std::nullopt);
        return;
    }
    const std::string id = item->data(NameColumn, Qt::UserRole).toString().toStdString();
    for (const PreviewLayer &layer : m_snapshot->layers)
        if (layer.nodeId == id && layer.stats.count && !layer.statsPending && !layer.inView) {
            m_view->setCircle(QPointF(layer.stats.clearingX, layer.stats.clearingY), layer.stats.clearingDiameter);
            return;
        }
    m_view->setCircle(std::nullopt);
}

void PreviewDock::layerToggled(QTreeWidgetItem *item)
{
    if (m_updatingLayers)
        return;
    const std::string id = item->data(NameColumn, Qt::UserRole).toString().toStdString();
    if (item->checkState(NameColumn) == Qt::Checked)
        m_hidden.erase(id);
    else
        m_hidden.insert(id);
    m_controller->setHiddenLayers(m_hidden);
    m_comparison->setHiddenLayers(m_hidden);
}

QString PreviewDock::readout(QPointF world) const
{
    QString text = tr("x %1, y %2").arg(number(world.x(), 1), number(world.y(), 1));
    if (!m_snapshot)
        return text;
    const double x = world.x(), y = world.y();
    if (auto it = m_snapshot->result.nodes.find(m_selected); it != m_snapshot->result.nodes.end()
                                                            && !it->second->outputs.empty()) {
        const PortValue &v = it->second->outputs.front();
        QString value;
        if (const auto *f = std::get_if<FieldPtr>(&v); f && *f)
            value = number((*f)->at(x, y), 3);
        else if (const auto *l = std::get_if<LabelsPtr>(&v); l && *l) {
            const int i = (*l)->at(x, y);
            value = i >= 0 && static_cast<size_t>(i) < (*l)->names.size() ? QString::fromStdString((*l)->names[static_cast<size_t>(i)])
                                                                           : tr("no label");
        } else if (const auto *m = std::get_if<MaskPtr>(&v); m && *m)
            value = (*m)->at(x, y) ? tr("yes") : tr("no");
        if (!value.isEmpty())
            text += QString("  ·  %1: %2").arg(QString::fromStdString(m_selected), value);
    }
    // a point's attributes after it: " (moisture 0.42, height 0.7)"
    const auto attributes = [](const PointLayer &layer, size_t i) {
        QStringList values;
        for (const AttributeColumn &c : layer.columns)
            values << QString::fromStdString(c.name) + " " + number(c.values[i], 3);
        return values.isEmpty() ? QString() : " (" + values.join(", ") + ")";
    };
    QStringList nearest;
    // on a wrapped world the nearest copy counts: a point by the other edge is that near
    const World &w = m_snapshot->graph.world;
    const auto across = [](double d, bool wraps, double period) { return wraps ? std::remainder(d, period) : d; };
    for (const PreviewLayer &layer : m_snapshot->layers) {
        double best = std::numeric_limits<double>::infinity();
        size_t bestId = 0;
        const auto &pts = layer.points->points;
        for (size_t i = 0; i < pts.size(); ++i) {
            const double dx = across(pts[i].x - x, w.wrapX, w.width), dy = across(pts[i].y - y, w.wrapY, w.height);
            const double d = dx * dx + dy * dy;
            if (d < best) {
                best = d;
                bestId = i;
            }
        }
        if (!pts.empty() && layer.points->chunked && !layer.points->ids.empty()) {  // "#k in chunk i, j"
            const std::uint64_t id = layer.points->idOf(bestId);
            const ChunkCoord c = chunkOfId(id);
            nearest << tr("%1 #%2 in chunk %3, %4 at %5")
                           .arg(layer.name)
                           .arg(id & (kChunkPointLimit - 1))
                           .arg(c.i)
                           .arg(c.j)
                           .arg(number(std::sqrt(best), 1))
                       + attributes(*layer.points, bestId);
        } else if (!pts.empty())
            nearest << tr("%1 #%2 at %3").arg(layer.name).arg(layer.points->idOf(bestId)).arg(number(std::sqrt(best), 1))
                           + attributes(*layer.points, bestId);
    }
    // as many layers as the readout's three lines hold, then how many more (valley's seven, with
    // the paths' long ids, took a fourth line, cut in half over the layer table)
    const QRect box = m_hover->contentsRect();
    for (qsizetype shown = nearest.size(); shown > 0; --shown) {
        QString lines = text + "\n" + tr("nearest: ") + nearest.mid(0, shown).join(", ");
        if (shown < nearest.size())
            lines += tr(", %1 more").arg(nearest.size() - shown);
        if (shown == 1 || m_hover->fontMetrics().boundingRect(box, Qt::TextWordWrap, lines).height() <= box.height())
            return lines;
    }
    return text;
}

bool PreviewDock::setStartPoint(QPointF world)
{
    const Node *node = m_document->graph().node(m_selected);
    const ClickedPosition position = clickedPosition(node ? m_document->registry().find(node->type) : nullptr);
    if (!position.x || !position.y)
        return false;
    const double x = std::round(world.x()), y = std::round(world.y());
    QUndoStack *stack = m_document->undoStack();
    m_document->endMerge();  // its own step, never merged into an earlier edit of the position
    stack->beginMacro(tr("Set %1's start point").arg(QString::fromStdString(m_selected)));
    if (position.mode)
        stack->push(new SetParamCommand(m_document, m_selected, position.mode->name, Value(position.mode->roleValue)));
    stack->push(new SetParamCommand(m_document, m_selected, position.x->name, Value(x)));
    stack->push(new SetParamCommand(m_document, m_selected, position.y->name, Value(y)));
    stack->endMacro();
    m_document->endMerge();
    const QString mode = position.mode ? QString(" (%1: %2)").arg(QString::fromStdString(position.mode->name),
                                                                  QString::fromStdString(position.mode->roleValue))
                                       : QString();
    emit statusMessage(tr("%1 now grows from %2, %3%4.").arg(QString::fromStdString(m_selected)).arg(x).arg(y).arg(mode));
    return true;
}

} // namespace grove
