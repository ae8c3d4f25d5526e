// The editor window: canvas in the centre, Inspector and Problems docks, menus and status bar.
#pragma once

#include <QMainWindow>

#include <string>

class QAction;
class QDockWidget;
class QProgressBar;
class QPushButton;
class QLabel;
class QMenu;

namespace grove {

struct Graph;
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

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    // The registry is the catalog of node types the window's graphs use (main.cpp picks the built-in one).
    explicit MainWindow(const NodeRegistry &registry, QWidget *parent = nullptr);

    bool openFile(const QString &path);
    Document *document() const { return m_document; }
    Autosave *autosave() const { return m_autosave; }
    GraphScene *scene() const { return m_scene; }
    GraphView *view() const { return m_view; }
    PreviewController *preview() const { return m_preview; }
    PreviewDock *previewDock() const { return m_previewDock; }
    InputWatcher *inputWatcher() const { return m_inputWatcher; }
    void selectNode(const QString &id);
    // Groups (MainWindowGroups.cpp): opens a group node's file in the window, remembering where it
    // came from (the breadcrumb bar above the canvas); back returns to the including graph.
    bool openGroup(const QString &nodeId);
    bool backFromGroup();
    QString breadcrumb() const;

    enum class Recovery { Ask, Accept };
    // Looks for autosaved changes newer than their document (the open one, or any when the window
    // is empty) and asks whether to restore them, or restores them directly with Accept.
    // Returns what was recovered, for the status bar and the terminal; empty when nothing was.
    QString offerRecovery(Recovery mode);
    // A `NODE.PARAM=VALUE` edit as an undoable command (the command line's --set); the problem, or "".
    QString applyOverride(const QString &assignment);
    // Writes the graph as a preset named `name` into the user's presets folder (atomically);
    // the path written, or the reason it was not.
    static QString writeUserPreset(const Graph &graph, const NodeRegistry &registry, const QString &name,
                                   const QString &description, bool *ok);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void createGroupBar();
    // View > Presets: the presets browser's list as a non-modal dock, to drag groups onto the canvas.
    void createPresetsDock();
    QDockWidget *m_presetsDock = nullptr;
    void updateBreadcrumb();
    struct GroupStep
    {
        QString file;     // the including graph
        QString groupId;  // the group opened from it
    };
    std::vector<GroupStep> m_groupTrail;
    bool m_enteringGroup = false;
    class QToolBar *m_groupBar = nullptr;
    QLabel *m_breadcrumbLabel = nullptr;
    QAction *m_backFromGroup = nullptr;

    void createActions();
    void createDocks();
    void createPreview();  // MainWindowPreview.cpp: the live preview, export and presets
    void arrangeDocks();
    void showThumbnails();
    void exportDialog();
    void saveAsPreset();
    void readSettings();
    void writeSettings();

    void newGraph();
    void openDialog();
    bool save();
    bool saveAs();
    bool saveTo(const QString &path);
    void revert();
    bool maybeSave();

    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateTitle();
    void updateSelection();

    void about();

    Document *m_document;
    Autosave *m_autosave;
    GraphScene *m_scene;
    GraphView *m_view;
    Inspector *m_inspector;
    ProblemsPanel *m_problems;
    QMenu *m_recentMenu = nullptr;
    QLabel *m_problemCount;
    EditActions *m_editActions;
    QAction *m_revertAction = nullptr;
    PreviewController *m_preview = nullptr;
    InputWatcher *m_inputWatcher = nullptr;
    PreviewDock *m_previewDock = nullptr;
    QDockWidget *m_inspectorDock = nullptr;
    QDockWidget *m_worldDock = nullptr;
    QDockWidget *m_problemsDock = nullptr;
    QDockWidget *m_previewDockWidget = nullptr;
    bool m_firstShow = true;  // the remembered layout, or the default one's sizes, are set then
    QProgressBar *m_evalProgress = nullptr;
    QPushButton *m_evalCancel = nullptr;
};

} // namespace grove
