// The editor window: canvas in the centre, Inspector and Problems docks, menus and status bar.
#pragma once

#include <QMainWindow>

#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QProgressBar;
class QPushButton;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QUndoGroup;

namespace grove {

struct Graph;
class GroupResolver;
class NodeRegistry;
class Autosave;
class Document;
class InputWatcher;
class EditActions;
class GraphScene;
class GraphView;
class Inspector;
class PreviewController;
class PreviewDock;
class ProblemsPanel;
class GraphTab;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // The registry is the catalog of node types the window's graphs use (main.cpp picks the built-in one).
    explicit MainWindow(const NodeRegistry &registry, QWidget *parent = nullptr);
    // The tabs go first, while the window they report to is whole.
    ~MainWindow() override;

    bool openFile(const QString &path);
    Document *document() const { return m_document; }
    Autosave *autosave() const { return m_autosave; }
    GraphScene *scene() const { return m_scene; }
    GraphView *view() const { return m_view; }
    PreviewController *preview() const { return m_preview; }
    PreviewDock *previewDock() const { return m_previewDock; }
    InputWatcher *inputWatcher() const { return m_inputWatcher; }
    void selectNode(const QString &id);
    // Groups (MainWindowGroups.cpp): opens a group node's file in a tab of its own (or brings the
    // tab that has it to the front), remembering where it came from (the breadcrumb bar above the
    // canvas); back brings the including graph's tab to the front with the group node selected.
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

    enum class Recovery { Ask, Accept };
    // Looks for autosaved changes newer than their document (the open one, or any when the window
    // is empty) and asks whether to restore them, or restores them directly with Accept.
    // Returns what was recovered, for the status bar and the terminal; empty when nothing was.
    QString offerRecovery(Recovery mode);
    // A `NODE.PARAM=VALUE` edit as an undoable command (the command line's --set); the problem, or "".
    QString applyOverride(const QString &assignment);
    // Writes the graph as a preset named `name` into the user's presets folder (atomically);
    // the path written, or the reason it was not.
    static QString writeUserPreset(const Graph &graph, const GroupResolver &groups, const QString &name,
                                   const QString &description, bool *ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    // Tabs (MainWindowTabs.cpp): one GraphTab per open graph; the m_ pointers below are the front one's.
    GraphTab *createTab();
    void activateTab(GraphTab *tab);
    // Asks to save a modified tab first (unless `ask` is false); false when the user cancels.
    bool closeTab(GraphTab *tab, bool ask = true);
    GraphTab *tabOf(const QString &path) const;  // the tab holding that file, or null
    bool bringForward(const QString &path);      // another tab holds that file: it comes forward
    GraphTab *tabAt(int index) const;
    void updateTabText(GraphTab *tab);
    void updateTabMenus();  // the Edit menu and the View menu's preview items: the front tab's
    void updateProblemCount();
    void goToCrumb(int level);  // the breadcrumb's `level`-th graph, its group node selected

    void createGroupBar();
    // View > Presets: the presets browser's list as a non-modal dock, to drag groups onto the canvas.
    void createPresetsDock();
    QDockWidget *m_presetsDock = nullptr;
    void updateBreadcrumb();
    QString breadcrumbText(bool links) const;
    class QToolBar *m_groupBar = nullptr;
    QLabel *m_breadcrumbLabel = nullptr;
    QAction *m_backFromGroup = nullptr;

    void createActions();
    void createDocks();
    void createPreview();  // MainWindowPreview.cpp: the live preview, export and presets
    void arrangeDocks();
    void showThumbnails(GraphTab *tab);
    void exportDialog();
    void saveAsPreset();
    void readSettings();
    void writeSettings();

    void newGraph();
    void openDialog();
    bool loadInto(GraphTab *tab, const QString &path);
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    void revert();
    // Save, Discard or Cancel for a modified tab; a Discard drops its autosave at once, or is
    // added to *discarded for the caller to drop once every question is answered.
    bool maybeSave(GraphTab *tab, std::vector<GraphTab *> *discarded = nullptr);
    bool maybeSave() { return maybeSave(m_current); }

    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateTitle();
    void updateSelection(bool raiseInspector = true);  // false: a tab came forward, nothing was picked

    void about();

    const NodeRegistry &m_registry;
    QTabWidget *m_tabs = nullptr;
    QUndoGroup *m_undoGroup = nullptr;
    QStackedWidget *m_inspectorStack = nullptr;
    QStackedWidget *m_worldStack = nullptr;
    QStackedWidget *m_problemsStack = nullptr;
    QStackedWidget *m_previewStack = nullptr;
    QMenu *m_editMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_closeTabAction = nullptr;
    QList<QAction *> m_viewActions;        // Frame Selection and Frame All, on every tab's canvas
    QAction *m_chunkBordersSlot = nullptr;  // the front tab's preview actions in the View menu
    QAction *m_compareSlot = nullptr;

    GraphTab *m_current = nullptr;
    Document *m_document = nullptr;
    Autosave *m_autosave = nullptr;
    GraphScene *m_scene = nullptr;
    GraphView *m_view = nullptr;
    Inspector *m_inspector = nullptr;
    ProblemsPanel *m_problems = nullptr;
    EditActions *m_editActions = nullptr;
    PreviewController *m_preview = nullptr;
    InputWatcher *m_inputWatcher = nullptr;
    PreviewDock *m_previewDock = nullptr;

    QMenu *m_recentMenu = nullptr;
    QLabel *m_problemCount = nullptr;
    QAction *m_revertAction = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QDockWidget *m_worldDock = nullptr;
    QDockWidget *m_problemsDock = nullptr;
    QDockWidget *m_previewDockWidget = nullptr;
    bool m_firstShow = true;  // the remembered layout, or the default one's sizes, are set then
    QProgressBar *m_evalProgress = nullptr;
    QPushButton *m_evalCancel = nullptr;
};

} // namespace grove
