// Groups in the window: a group node's file opened in a tab of its own (or the tab that has it
// brought to the front), remembering where it came from; the bar above the canvas with Back and
// the breadcrumb, each graph on it a link back to its tab with the group node selected.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QToolBar;
class QWidget;

namespace grove {

class GraphTab;
class TabSet;

class GroupNavigator : public QObject
{
    Q_OBJECT

public:
    // Follows `tabs`' front tab; the bar is made for `window` to place (toolBar()).
    GroupNavigator(TabSet *tabs, QWidget *window);

    QToolBar *toolBar() const { return m_groupBar; }
    bool openGroup(const QString &nodeId);
    bool backFromGroup();
    // The way to the front tab: each including graph and the group opened from it, then its file.
    QString breadcrumb() const { return breadcrumbText(false); }

signals:
    void statusMessage(const QString &message, int timeoutMs);
    // A group's file was read into a new tab, now in front (its autosave may be worth offering).
    void groupOpened(GraphTab *tab);

private:
    void goToCrumb(int level);  // the breadcrumb's `level`-th graph, its group node selected
    void updateBreadcrumb();
    QString breadcrumbText(bool links) const;

    TabSet *m_tabs;
    QToolBar *m_groupBar = nullptr;
    QLabel *m_breadcrumbLabel = nullptr;
    QAction *m_backFromGroup = nullptr;
};

} // namespace grove
