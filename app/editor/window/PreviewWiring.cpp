// The preview wiring: the status bar's progress of the front tab's long runs, its View menu
// items, and node thumbnails from every tab's preview frames.
#include "window/PreviewWiring.h"

#include "document/Document.h"
#include "window/GraphTab.h"
#include "canvas/GraphScene.h"
#include "canvas/NodeItem.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"
#include "window/TabSet.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/render/PreviewPipeline.h"

#include <QAction>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace grove {

PreviewWiring::PreviewWiring(TabSet *tabs, QStatusBar *statusBar, QMenu *viewMenu, QObject *parent)
    : QObject(parent), m_tabs(tabs), m_viewMenu(viewMenu)
{
    // where the front tab's Chunk borders and Compare with Saved go (showFront)
    m_chunkBordersSlot = m_viewMenu->addAction(QString());
    m_compareSlot = m_viewMenu->addAction(QString());
    m_chunkBordersSlot->setVisible(false);
    m_compareSlot->setVisible(false);

    // Long runs show a progress bar with a Cancel button in the status bar: the front tab's.
    m_evalProgress = new QProgressBar(statusBar);
    m_evalProgress->setRange(0, 100);
    m_evalProgress->setMaximumWidth(320);
    m_evalProgress->setFormat(tr("evaluating %p%"));
    m_evalCancel = new QPushButton(tr("Cancel"), statusBar);
    m_evalCancel->setObjectName("cancelEvaluation");
    statusBar->addPermanentWidget(m_evalProgress);
    statusBar->addPermanentWidget(m_evalCancel);
    m_evalProgress->hide();
    m_evalCancel->hide();
    connect(m_evalCancel, &QPushButton::clicked, this, [this] { m_tabs->current()->preview->cancel(); });

    connect(m_tabs, &TabSet::created, this, &PreviewWiring::wire);
    connect(m_tabs, &TabSet::currentChanged, this, &PreviewWiring::showFront);
}

void PreviewWiring::wire(GraphTab *t)
{
    auto front = [this, t] { return t == m_tabs->current(); };
    connect(t->preview, &PreviewController::longRunChanged, this, [this, t, front](bool running) {
        t->longRun = running;
        if (front()) {
            m_evalProgress->setVisible(running);
            m_evalCancel->setVisible(running);
        }
    });
    connect(t->preview, &PreviewController::progress, this, [this, t, front](int percent, const QString &step) {
        t->percent = percent;
        t->step = step;
        if (front()) {
            m_evalProgress->setValue(percent);
            m_evalProgress->setFormat(step + " %p%");  // "evaluating trees 40%", "statistics of trees 40%"
            m_evalProgress->setToolTip(step);
        }
    });
    connect(t->preview, &PreviewController::snapshotReady, this, [this, t] { showThumbnails(t); });
    connect(t->previewDock, &PreviewDock::statusMessage, this, [this](const QString &m) { emit statusMessage(m, 5000); });
}

void PreviewWiring::showFront(GraphTab *t)
{
    // the View menu holds the front tab's preview actions
    auto swap = [this](QAction *&slot, QAction *now) {
        if (slot == now)
            return;
        if (slot) {
            m_viewMenu->insertAction(slot, now);
            m_viewMenu->removeAction(slot);
        } else {
            m_viewMenu->addAction(now);
        }
        slot = now;
    };
    swap(m_chunkBordersSlot, t->previewDock->chunkBordersAction());
    swap(m_compareSlot, t->previewDock->compareAction());
    m_evalProgress->setVisible(t->longRun);
    m_evalCancel->setVisible(t->longRun);
    m_evalProgress->setValue(t->percent);
    m_evalProgress->setFormat(t->step + " %p%");
}

namespace {

// The node a card's thumbnail is of: itself, or for a group the expanded node (GROUP_INNER) its
// first output comes from, through groups inside groups.
std::string thumbnailNode(const Node &node, const std::string &baseDir, const GroupResolver &groups, int depth = 0)
{
    if (node.type != kGroupType || depth >= kMaxGroupDepth)
        return node.id;
    const auto info = groups.group(node, baseDir);
    if (!info->usable)
        return node.id;
    const Graph &inner = info->loaded.graph;
    for (const auto &[name, output] : inner.groupOutputs)
        if (const Node *from = inner.node(output.from.node))
            return node.id + "_" + thumbnailNode(*from, inner.baseDir, groups, depth + 1);
    return node.id;
}

} // namespace

void PreviewWiring::showThumbnails(GraphTab *tab)
{
    const PreviewSnapshotPtr snap = tab->preview->snapshot();
    if (!snap)
        return;
    const Graph &graph = tab->document->graph();
    // A frame whose changed thumbnails follow keeps those cards' pictures until they come.
    for (const Node &node : graph.nodes)
        if (NodeItem *item = tab->scene->nodeItem(node.id)) {
            auto it = snap->thumbnails.find(thumbnailNode(node, graph.baseDir, tab->document->groups()));
            if (it != snap->thumbnails.end())
                item->setThumbnail(it->second);
            else if (!snap->thumbnailsPending)
                item->setThumbnail(QImage());
        }
}

} // namespace grove
