// MainWindow: opening a group node's file from its card, and the breadcrumb back to the graph
// that includes it.
#include "MainWindow.h"

#include "Document.h"
#include "GraphView.h"
#include "PresetBrowser.h"

#include "core/FileInput.h"
#include "core/GroupGraph.h"

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

void MainWindow::createGroupBar()
{
    m_groupBar = new QToolBar(tr("Group path"), this);
    m_groupBar->setObjectName("groupPath");
    m_groupBar->setMovable(false);
    m_backFromGroup = m_groupBar->addAction(tr("◀ Back"), this, [this] { backFromGroup(); });
    m_backFromGroup->setToolTip(tr("Back to the graph that includes this group"));
    m_breadcrumbLabel = new QLabel(m_groupBar);
    m_breadcrumbLabel->setContentsMargins(8, 0, 8, 0);
    m_groupBar->addWidget(m_breadcrumbLabel);
    addToolBar(Qt::TopToolBarArea, m_groupBar);
    m_groupBar->setVisible(false);
    connect(m_view, &GraphView::nodeDoubleClicked, this, [this](const QString &id) { openGroup(id); });
    // opening any other file leaves the trail
    connect(m_document, &Document::filePathChanged, this, [this] {
        if (!m_enteringGroup)
            m_groupTrail.clear();
        updateBreadcrumb();
    });
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
    if (!maybeSave())
        return false;
    const QString from = m_document->filePath();
    m_enteringGroup = true;
    const bool opened = openFile(path);
    m_enteringGroup = false;
    if (!opened)
        return false;
    m_groupTrail.push_back({from, nodeId});
    updateBreadcrumb();
    return true;
}

bool MainWindow::backFromGroup()
{
    if (m_groupTrail.empty() || !maybeSave())
        return false;
    const GroupStep step = m_groupTrail.back();
    m_enteringGroup = true;
    const bool opened = !step.file.isEmpty() && openFile(step.file);
    m_enteringGroup = false;
    if (!opened)
        return false;
    m_groupTrail.pop_back();
    updateBreadcrumb();
    selectNode(step.groupId);
    return true;
}

QString MainWindow::breadcrumb() const
{
    QStringList parts;
    for (const GroupStep &step : m_groupTrail)
        parts << QFileInfo(step.file).fileName() << step.groupId;
    if (!m_groupTrail.empty())
        parts.back() += " (" + QFileInfo(m_document->filePath()).fileName() + ")";
    return parts.join(" › ");
}

void MainWindow::updateBreadcrumb()
{
    if (!m_groupBar)
        return;
    m_groupBar->setVisible(!m_groupTrail.empty());
    m_breadcrumbLabel->setText(breadcrumb());
}

} // namespace grove
