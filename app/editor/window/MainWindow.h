// The editor window: canvas in the centre, Inspector and Problems docks, menus and status bar.
// It composes what it owns: the tab set (one tab per open graph), the group navigator, the preview
// wiring and autosave recovery; it keeps the menus, the actions and file handling.
#pragma once

#include "window/AutosaveRecovery.h"

#include <QMainWindow>

#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;

namespace grove {

class NodeRegistry;
class Autosave;
class Document;
class InputWatcher;
class GraphScene;
class GraphTab;
class GraphView;
class GroupNavigator;
class PreviewController;
class PreviewDock;
class PreviewWiring;
class RecentFiles;
class TabSet;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // The registry is the catalog of node types the window's graphs use (main.cpp picks the built-in one).
    explicit MainWindow(const NodeRegistry &registry, QWidget *parent = nullptr);
    // The tabs go first, while the window they report to is whole.
    ~MainWindow() override;

    // Reads a file into the front tab (the command line's file, Revert).
    bool openFile(const QString &path);
    // File > Open and Open Recent: the tab that has the file comes forward; otherwise the file
    // opens in a tab of its own, or in the front tab while that holds an untitled graph nobody has
    // touched yet. A file that cannot be read is explained and takes no tab. *cameForward says
    // the file was open already (in the front tab or another), and nothing was read.
    bool openInTab(const QString &path, bool *cameForward = nullptr);
    // The front tab's.
    Document *document() const;
    Autosave *autosave() const;
    GraphScene *scene() const;
    GraphView *view() const;
    PreviewController *preview() const;
    PreviewDock *previewDock() const;
    InputWatcher *inputWatcher() const;
    void selectNode(const QString &id);
    // Groups: opens a group node's file in a tab of its own (or brings the tab that has it to the
    // front), remembering where it came from (the breadcrumb bar above the canvas); back brings the
    // including graph's tab to the front with the group node selected.
    bool openGroup(const QString &nodeId);
    bool backFromGroup();
    QString breadcrumb() const;

    // Tabs: each open graph keeps its own unsaved edits and undo history; the accessors above are
    // the front tab's. Opening a file that a tab has brings that tab to the front.
    int tabCount() const;
    int currentTab() const;
    void setCurrentTab(int index);
    QString tabTitle(int index) const;
    // False when the user cancels the question about unsaved changes, or it is the only tab.
    bool closeTab(int index);

    using Recovery = AutosaveRecovery::Mode;
    // Looks for autosaved changes newer than their document (the open one, or any when the window
    // is empty) and asks whether to restore them, or restores them directly with Accept.
    // Returns what was recovered, for the status bar and the terminal; empty when nothing was.
    QString offerRecovery(Recovery mode);
    // A `NODE.PARAM=VALUE` edit as an undoable command (the command line's --set); the problem, or "".
    QString applyOverride(const QString &assignment);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void createActions();
    void createDocks();
    // View > Presets: the presets browser's list as a non-modal dock, to drag groups onto the canvas.
    void createPresetsDock();
    void arrangeDocks();
    void connectCollaborators();
    void tabCameForward();  // the menus, title, status bar and Inspector follow the front tab
    void updateTabMenus();  // the Edit menu: the front tab's
    void updateProblemCount();
    void exportDialog();
    void saveAsPreset();
    void readSettings();
    void writeSettings();

    void newGraph();
    void openDialog();
    void openChosen(const QString &path);  // Open and Open Recent: openInTab, then any autosave
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    void revert();
    // Asks to save a modified tab first; false when the user cancels, or it is the only tab.
    bool closeTab(GraphTab *tab);
    bool bringForward(const QString &path);  // another tab holds that file: it comes forward
    // Save, Discard or Cancel for a modified tab; a Discard drops its autosave at once, or is
    // added to *discarded for the caller to drop once every question is answered.
    bool maybeSave(GraphTab *tab, std::vector<GraphTab *> *discarded = nullptr);
    bool maybeSave();  // the front tab's

    void updateTitle();
    void updateSelection(bool raiseInspector = true);  // false: a tab came forward, nothing was picked

    void about();

    TabSet *m_tabs = nullptr;
    GroupNavigator *m_groups = nullptr;
    PreviewWiring *m_previewWiring = nullptr;
    AutosaveRecovery *m_recovery = nullptr;
    RecentFiles *m_recentFiles = nullptr;

    QMenu *m_editMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_closeTabAction = nullptr;
    QAction *m_revertAction = nullptr;
    QLabel *m_problemCount = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QDockWidget *m_worldDock = nullptr;
    QDockWidget *m_problemsDock = nullptr;
    QDockWidget *m_previewDock = nullptr;
    QDockWidget *m_presetsDock = nullptr;
    bool m_firstShow = true;  // the remembered layout, or the default one's sizes, are set then
};

} // namespace grove
