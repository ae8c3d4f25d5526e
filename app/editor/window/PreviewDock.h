// The live preview dock: the painted world, the selected node's overlay, a hover readout and a
// table of exported layers (visibility, colour, count, spacing statistics, widest clearing).
#pragma once

#include "preview/PreviewSnapshot.h"

#include <QPointF>
#include <QWidget>

#include <set>
#include <string>

class QAction;
class QComboBox;
class QSlider;
class QPushButton;
class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace grove {

class Document;
class HandEditTools;
class PreviewController;
class SavedComparison;
class PreviewView;

class PreviewDock : public QWidget
{
    Q_OBJECT

public:
    PreviewDock(Document *document, PreviewController *controller, QWidget *parent = nullptr);

    // The node selected on the canvas: its output is overlaid, its value read out on hover, and a
    // click sets its start point when it has start / start_x / start_y params.
    void setSelectedNode(const std::string &id);
    PreviewView *view() const { return m_view; }
    // Checkable, Ctrl+B, remembered in the settings: draws a chunked world's chunk grid.
    QAction *chunkBordersAction() const { return m_chunkBorders; }
    QTreeWidget *layerTable() const { return m_layers; }
    // The hand-edit tool strip over the map (pin, erase, move, delete on the selected layer).
    HandEditTools *tools() const { return m_tools; }
    // Checkable, Ctrl+Shift+D: the diff against the file on disk drawn over the map.
    QAction *compareAction() const { return m_compare; }
    SavedComparison *comparison() const { return m_comparison; }
    QString hoverText() const;
    // The depth slice of a volume world (world.depth > 0): the slab of z the preview draws, as
    // "all", or a slab of 1/8, 1/4 or 1/2 of the depth whose start the slider moves. View state:
    // remembered in the settings, never an undo step. Hidden in a 2D world.
    QWidget *depthControls() const { return m_depthControls; }
    QComboBox *depthSlab() const { return m_depthSlab; }
    QSlider *depthSlider() const { return m_depthFrom; }
    // What a hover at a world point reads out (also for tests).
    QString readout(QPointF world) const;
    // Sets the selected node's start point as one undo step; false when it has no such params.
    bool setStartPoint(QPointF world);

signals:
    void statusMessage(const QString &message);
    // The user made a layer's row current (a click, the arrow keys): its node is to be selected.
    void layerChosen(const std::string &nodeId);

private:
    void showSnapshot(const PreviewSnapshotPtr &snapshot);
    void updateLayers();
    void updateCircle();
    void layerToggled(QTreeWidgetItem *item);
    void applyDepthSlice();
    void showChunkBordersFor(bool chunked);

    Document *m_document;
    PreviewController *m_controller;
    PreviewView *m_view;
    QPushButton *m_overlayBox;
    QAction *m_chunkBorders;
    QAction *m_compare;
    SavedComparison *m_comparison;  // before m_tools: the tools draw over the comparison
    HandEditTools *m_tools;
    QLabel *m_hover;
    QLabel *m_status;
    QTreeWidget *m_layers;
    QWidget *m_depthControls;
    QComboBox *m_depthSlab;
    QSlider *m_depthFrom;
    QLabel *m_depthText;
    double m_depth = 0;
    PreviewSnapshotPtr m_snapshot;
    std::string m_selected;
    std::set<std::string> m_hidden;
    bool m_updatingLayers = false;
    bool m_followingWorld = false;  // the Chunk borders action follows the world, not the user
};

} // namespace grove
