// The editor's open graphs: one GraphTab each, its canvas a page of the central tab bar and its
// Inspector, World, Problems and preview pages of the docks' stacks; the front tab's pages show.
// The window places the widgets and reacts to the signals; what concerns only the front tab is
// said only for it.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QUndoGroup;
class QWidget;

namespace grove {

class GraphTab;
class NodeRegistry;

class TabSet : public QObject
{
    Q_OBJECT

public:
    // `window` parents the widgets and the questions about files that cannot be read.
    TabSet(const NodeRegistry &registry, QWidget *window);
    // The tabs go first, nothing brought forward or reported while they do.
    ~TabSet() override;

    QTabWidget *tabWidget() const { return m_tabs; }  // the canvases, one page per tab
    QStackedWidget *inspectorPages() const { return m_inspectorPages; }
    QStackedWidget *worldPages() const { return m_worldPages; }
    QStackedWidget *problemsPages() const { return m_problemsPages; }
    QStackedWidget *previewPages() const { return m_previewPages; }
    QUndoGroup *undoGroup() const { return m_undoGroup; }  // its active stack is the front tab's
    // Frame Selection and Frame All: put on every tab's canvas, so they act where the keys are pressed.
    void setViewActions(const QList<QAction *> &actions) { m_viewActions = actions; }

    GraphTab *current() const { return m_current; }
    int count() const;
    int currentIndex() const;
    GraphTab *at(int index) const;  // in the tab bar's order; null past the end
    QString title(int index) const;
    GraphTab *holding(const QString &path) const;  // the tab with that file open, or null
    // An untitled graph with no edits (the editor's first tab): a file opened may take its place.
    bool untouched(const GraphTab *tab) const;
    // The tab bar's right-click menu for `tab`: Close, Close Others, Copy Path, Show in Folder.
    QMenu *contextMenu(GraphTab *tab, QWidget *parent);

    // A new tab on an empty graph, at the end of the tab bar (it comes forward if it is the first).
    GraphTab *create();
    void activate(GraphTab *tab);
    // Reads `path` into `tab`; a file that cannot be read is explained in a message box, false.
    bool load(GraphTab *tab, const QString &path);
    // Closes `tab` without asking (its neighbour comes forward first); false for the last tab.
    bool remove(GraphTab *tab);

signals:
    void created(GraphTab *tab);         // built, before it joins the tab bar
    void currentChanged(GraphTab *tab);  // another tab came forward
    void countChanged(int count);
    void closeRequested(GraphTab *tab);  // its close button on the tab bar, or its menu's Close
    void closeOthersRequested(GraphTab *kept);
    void statusMessage(const QString &message, int timeoutMs);
    void autosaved();
    void nodeDoubleClicked(const QString &id);  // on the front canvas
    // The front tab's: its selection, its problem count, its modified mark, its file.
    void selectionChanged();
    void problemCountChanged();
    void cleanChanged();
    void filePathChanged();

private:
    void connectTab(GraphTab *tab);
    void updateTabText(GraphTab *tab);

    const NodeRegistry &m_registry;
    QWidget *m_window;
    QTabWidget *m_tabs;
    QStackedWidget *m_inspectorPages;
    QStackedWidget *m_worldPages;
    QStackedWidget *m_problemsPages;
    QStackedWidget *m_previewPages;
    QUndoGroup *m_undoGroup;
    QList<QAction *> m_viewActions;
    GraphTab *m_current = nullptr;
};

} // namespace grove
