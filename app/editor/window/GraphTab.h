// One open graph in the editor window: its Document and everything built on it (the canvas, the
// Inspector, Problems, World, the preview and its dock, autosave, the watcher of the files it reads),
// plus the group trail it was opened through. The TabSet shows one tab's set at a time and swaps
// them when another tab comes to the front; each keeps its own unsaved edits and undo history.
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QWidget>

#include <vector>

namespace grove {

class Autosave;
class Document;
class EditActions;
class GraphScene;
class GraphView;
class InputWatcher;
class Inspector;
class PreviewController;
class PreviewDock;
class ProblemsPanel;
class WorldPanel;

class GraphTab : public QObject
{
    Q_OBJECT

public:
    explicit GraphTab(QObject *parent) : QObject(parent) {}
    // The widgets first (they read the Document), then what they were built on, the Document last.
    ~GraphTab() override;

    // A step of the way here: the graph `file` (or untitled `from`) whose group node `groupId` was opened.
    struct GroupStep
    {
        QString file;
        QString groupId;
        QPointer<GraphTab> from;
    };

    Document *document = nullptr;
    Autosave *autosave = nullptr;
    GraphScene *scene = nullptr;
    EditActions *editActions = nullptr;
    PreviewController *preview = nullptr;
    InputWatcher *inputWatcher = nullptr;
    // Exports of this graph run here; the tab waits for them before the evaluator they share with
    // the preview goes. Its open dialogs (which hold the Document) close with it.
    QThreadPool exports;
    QList<QPointer<QWidget>> dialogs;
    // widgets: pages of the window's canvas tabs and of its docks' stacks
    QPointer<GraphView> view;
    QPointer<Inspector> inspector;
    QPointer<ProblemsPanel> problems;
    QPointer<WorldPanel> world;
    QPointer<PreviewDock> previewDock;

    std::vector<GroupStep> trail;  // empty unless opened from a group node
    QString shownPath;             // the file path last seen (absolute): Save keeps the trail, another file drops it
    int errors = 0, warnings = 0;  // what Problems counts, for the status bar
    bool longRun = false;          // the preview shows progress in the status bar
    int percent = 0;
    QString step;
};

} // namespace grove
