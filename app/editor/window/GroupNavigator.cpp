// The group navigator: opening a group node's file from its card, and the breadcrumb back to the
// graph that includes it.
#include "window/GroupNavigator.h"

#include "document/Document.h"
#include "canvas/GraphScene.h"
#include "window/GraphTab.h"
#include "canvas/GraphView.h"
#include "window/TabSet.h"

#include "core/base/FileInput.h"
#include "core/graph/GroupGraph.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QToolBar>

namespace grove {

// Above the canvas while the front tab was opened from a group node: Back, and the way here with
// every graph on it a link to its tab.
GroupNavigator::GroupNavigator(TabSet *tabs, QWidget *window) : QObject(window), m_tabs(tabs)
{
    m_groupBar = new QToolBar(tr("Group path"), window);
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
    m_groupBar->setVisible(false);

    connect(m_tabs, &TabSet::nodeDoubleClicked, this, [this](const QString &id) { openGroup(id); });
    connect(m_tabs, &TabSet::currentChanged, this, &GroupNavigator::updateBreadcrumb);
    connect(m_tabs, &TabSet::filePathChanged, this, &GroupNavigator::updateBreadcrumb);
}

bool GroupNavigator::openGroup(const QString &nodeId)
{
    Document *document = m_tabs->current()->document;
    const Node *node = document->graph().node(nodeId.toStdString());
    if (!node || node->type != kGroupType)
        return false;
    const Value *file = node->param(kGroupGraphParam);
    if (!file || !file->isString() || file->toString().empty()) {
        emit statusMessage(tr("Group %1 names no file.").arg(nodeId), 6000);
        return false;
    }
    const QString path = QFileInfo(QString::fromStdString(resolveInputPath(document->graph().baseDir, file->toString()))).absoluteFilePath();
    if (!QFileInfo::exists(path)) {
        emit statusMessage(tr("Group %1: %2 does not exist.").arg(nodeId, path), 6000);
        return false;
    }
    GraphTab *from = m_tabs->current();
    if (m_tabs->holding(path) == from) {
        emit statusMessage(tr("Group %1 includes this very graph.").arg(nodeId), 6000);
        return false;
    }
    std::vector<GraphTab::GroupStep> trail = from->trail;
    trail.push_back({document->filePath(), nodeId, from});
    // the outer graph stays as it is in its own tab, unsaved edits, undo and all
    GraphTab *tab = m_tabs->holding(path);
    const bool opened = !tab;
    if (opened) {
        tab = m_tabs->create();
        if (!m_tabs->load(tab, path)) {
            m_tabs->remove(tab);
            return false;
        }
    }
    tab->trail = std::move(trail);
    m_tabs->activate(tab);
    updateBreadcrumb();
    if (opened)
        emit groupOpened(tab);  // edits to the group's file that a crash left unsaved
    return true;
}

bool GroupNavigator::backFromGroup()
{
    if (m_tabs->current()->trail.empty())
        return false;
    goToCrumb(static_cast<int>(m_tabs->current()->trail.size()) - 1);
    return true;
}

void GroupNavigator::goToCrumb(int level)
{
    GraphTab *current = m_tabs->current();
    if (level < 0 || level >= static_cast<int>(current->trail.size()))
        return;
    const GraphTab::GroupStep step = current->trail[static_cast<std::size_t>(level)];
    GraphTab *tab = step.from;
    if (tab && !step.file.isEmpty() && tab->document->filePath() != step.file)
        tab = nullptr;  // that tab has another file now
    if (!tab)
        tab = m_tabs->holding(step.file);
    if (!tab) {
        if (step.file.isEmpty()) {  // an untitled graph whose tab was closed
            emit statusMessage(tr("The graph that included this group was closed without being saved."), 6000);
            return;
        }
        // closed since: open again, with the trail that led to it
        tab = m_tabs->create();
        if (!m_tabs->load(tab, step.file)) {
            m_tabs->remove(tab);
            return;
        }
        tab->trail.assign(current->trail.begin(), current->trail.begin() + level);
    }
    m_tabs->activate(tab);
    tab->scene->selectNodes({step.groupId.toStdString()});
    if (auto *item = tab->scene->nodeItem(step.groupId.toStdString()))
        tab->view->centerOn(item);
}

// The way to the front tab: each including graph and the group opened from it, then the front
// tab's file; with `links`, rich text whose graphs are links to their level (goToCrumb).
QString GroupNavigator::breadcrumbText(bool links) const
{
    const auto &trail = m_tabs->current()->trail;
    if (trail.empty())
        return {};
    const auto plain = [links](const QString &s) { return links ? s.toHtmlEscaped() : s; };
    QStringList parts;
    for (std::size_t i = 0; i < trail.size(); ++i) {
        const QString file = plain(trail[i].file.isEmpty() ? tr("Untitled") : QFileInfo(trail[i].file).fileName());
        parts << (links ? QString("<a href=\"%1\">%2</a>").arg(i).arg(file) : file) << plain(trail[i].groupId);
    }
    const QString here = plain(QFileInfo(m_tabs->current()->document->filePath()).fileName());
    parts.back() += links ? " (<b>" + here + "</b>)" : " (" + here + ")";
    return parts.join(" › ");
}

void GroupNavigator::updateBreadcrumb()
{
    if (!m_tabs->current())
        return;
    m_groupBar->setVisible(!m_tabs->current()->trail.empty());
    m_breadcrumbLabel->setText(breadcrumbText(true));
}

} // namespace grove
