// MainWindow: opening a group node's file from its card, and the breadcrumb back to the graph
// that includes it.
#include "window/MainWindow.h"

#include "document/Document.h"
#include "canvas/GraphScene.h"
#include "window/GraphTab.h"
#include "canvas/GraphView.h"
#include "window/PresetBrowser.h"

#include "core/base/FileInput.h"
#include "core/graph/GroupGraph.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace grove {

// Above the canvas while the front tab was opened from a group node: Back, and the way here with
// every graph on it a link to its tab.
void MainWindow::createGroupBar()
{
    m_groupBar = new QToolBar(tr("Group path"), this);
    m_groupBar->setObjectName("groupPath");
    m_groupBar->setMovable(false);
    m_backFromGroup = m_groupBar->addAction(tr("◀ Back"), this, [this] { backFromGroup(); });
    m_backFromGroup->setToolTip(tr("Back to the graph that includes this group (Alt+Left)"));
    m_backFromGroup->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    m_breadcrumbLabel = new QLabel(m_groupBar);
    m_breadcrumbLabel->setObjectName("breadcrumb");
    m_breadcrumbLabel->setContentsMargins(8, 0, 8, 0);
    m_breadcrumbLabel->setTextFormat(Qt::RichText);
    m_breadcrumbLabel->setToolTip(tr("Click a graph to bring its tab to the front"));
    connect(m_breadcrumbLabel, &QLabel::linkActivated, this, [this](const QString &link) { goToCrumb(link.toInt()); });
    m_groupBar->addWidget(m_breadcrumbLabel);
    addToolBar(Qt::TopToolBarArea, m_groupBar);
    m_groupBar->setVisible(false);
}

// Hidden until asked for (View > Presets); its list, and the thumbnails it renders, are made the
// first time it shows, so a window that never shows it renders none.
void MainWindow::createPresetsDock()
{
    m_presetsDock = new QDockWidget(tr("Presets"), this);
    m_presetsDock->setObjectName("PresetsDock");
    addDockWidget(Qt::RightDockWidgetArea, m_presetsDock);
    tabifyDockWidget(m_inspectorDock, m_presetsDock);
    m_inspectorDock->raise();
    m_presetsDock->hide();
    auto fill = [this](bool visible) {
        if (!visible || m_presetsDock->widget())
            return;
        auto *browser = new PresetBrowser(m_document->registry(), m_presetsDock, PresetBrowser::Mode::Dock);
        m_presetsDock->setWidget(browser);
        connect(browser, &PresetBrowser::presetActivated, this, [this](const QString &path) {
            if (!maybeSave())
                return;
            Diagnostics diagnostics;
            if (path.isEmpty() || !m_document->loadAsNew(path, &diagnostics))
                m_document->clear();
        });
    };
    connect(m_presetsDock, &QDockWidget::visibilityChanged, this, fill);
    // shown from the View menu: in front of the dock it shares a tab with
    connect(m_presetsDock->toggleViewAction(), &QAction::toggled, this, [this, fill](bool on) {
        fill(on);
        if (on)  // once the dock has been shown in its tab group
            QTimer::singleShot(0, m_presetsDock, &QDockWidget::raise);
    });
    for (QAction *a : menuBar()->actions())
        if (a->menu() && a->text() == tr("&View"))
            a->menu()->addAction(m_presetsDock->toggleViewAction());
}

bool MainWindow::openGroup(const QString &nodeId)
{
    const Node *node = m_document->graph().node(nodeId.toStdString());
    if (!node || node->type != kGroupType)
        return false;
    const Value *file = node->param(kGroupGraphParam);
    if (!file || !file->isString() || file->toString().empty()) {
        statusBar()->showMessage(tr("Group %1 names no file.").arg(nodeId), 6000);
        return false;
    }
    const QString path = QFileInfo(QString::fromStdString(resolveInputPath(m_document->graph().baseDir, file->toString()))).absoluteFilePath();
    if (!QFileInfo::exists(path)) {
        statusBar()->showMessage(tr("Group %1: %2 does not exist.").arg(nodeId, path), 6000);
        return false;
    }
    GraphTab *from = m_current;
    if (tabOf(path) == from) {
        statusBar()->showMessage(tr("Group %1 includes this very graph.").arg(nodeId), 6000);
        return false;
    }
    std::vector<GraphTab::GroupStep> trail = from->trail;
    trail.push_back({m_document->filePath(), nodeId, from});
    // the outer graph stays as it is in its own tab, unsaved edits, undo and all
    GraphTab *tab = tabOf(path);
    const bool opened = !tab;
    if (opened) {
        tab = createTab();
        if (!loadInto(tab, path)) {
            closeTab(tab, false);
            return false;
        }
    }
    tab->trail = std::move(trail);
    activateTab(tab);
    updateBreadcrumb();
    if (opened)
        offerRecovery(Recovery::Ask);  // edits to the group's file that a crash left unsaved
    return true;
}

bool MainWindow::backFromGroup()
{
    if (m_current->trail.empty())
        return false;
    goToCrumb(static_cast<int>(m_current->trail.size()) - 1);
    return true;
}

void MainWindow::goToCrumb(int level)
{
    if (level < 0 || level >= static_cast<int>(m_current->trail.size()))
        return;
    const GraphTab::GroupStep step = m_current->trail[static_cast<std::size_t>(level)];
    GraphTab *tab = step.from;
    if (tab && !step.file.isEmpty() && tab->document->filePath() != step.file)
        tab = nullptr;  // that tab has another file now
    if (!tab)
        tab = tabOf(step.file);
    if (!tab) {
        if (step.file.isEmpty()) {  // an untitled graph whose tab was closed
            statusBar()->showMessage(tr("The graph that included this group was closed without being saved."), 6000);
            return;
        }
        // closed since: open again, with the trail that led to it
        tab = createTab();
        if (!loadInto(tab, step.file)) {
            closeTab(tab, false);
            return;
        }
        tab->trail.assign(m_current->trail.begin(), m_current->trail.begin() + level);
    }
    activateTab(tab);
    m_scene->selectNodes({step.groupId.toStdString()});
    if (auto *item = m_scene->nodeItem(step.groupId.toStdString()))
        m_view->centerOn(item);
}

// The way to the front tab: each including graph and the group opened from it, then the front
// tab's file; with `links`, rich text whose graphs are links to their level (goToCrumb).
QString MainWindow::breadcrumbText(bool links) const
{
    const auto &trail = m_current->trail;
    if (trail.empty())
        return {};
    const auto plain = [links](const QString &s) { return links ? s.toHtmlEscaped() : s; };
    QStringList parts;
    for (std::size_t i = 0; i < trail.size(); ++i) {
        const QString file = plain(trail[i].file.isEmpty() ? tr("Untitled") : QFileInfo(trail[i].file).fileName());
        parts << (links ? QString("<a href=\"%1\">%2</a>").arg(i).arg(file) : file) << plain(trail[i].groupId);
    }
    const QString here = plain(QFileInfo(m_document->filePath()).fileName());
    parts.back() += links ? " (<b>" + here + "</b>)" : " (" + here + ")";
    return parts.join(" › ");
}

QString MainWindow::breadcrumb() const { return breadcrumbText(false); }

void MainWindow::updateBreadcrumb()
{
    if (!m_groupBar || !m_current)
        return;
    m_groupBar->setVisible(!m_current->trail.empty());
    m_breadcrumbLabel->setText(breadcrumbText(true));
}

} // namespace grove
