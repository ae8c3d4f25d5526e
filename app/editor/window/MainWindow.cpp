// MainWindow: composition of the window's parts, menus, docks and the status bar (the File menu's
// work is in MainWindowFiles.cpp);
// EditActions does the editing, the tab set holds the open graphs.
#include "window/MainWindow.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "document/ValueCommands.h"
#include "window/EditActions.h"
#include "window/ExportDialog.h"
#include "window/GraphTab.h"
#include "window/GroupNavigator.h"
#include "window/KeyboardFocus.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "inspector/Inspector.h"
#include "preview/PreviewController.h"
#include "window/PresetBrowser.h"
#include "window/PreviewDock.h"
#include "window/PreviewWiring.h"
#include "window/RecentFiles.h"
#include "window/TabSet.h"

#include "core/graph/Overrides.h"
#include "core/render/PreviewPipeline.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace grove {

namespace {
// Bumped whenever the default arrangement of the docks changes: a state saved for an older
// arrangement is ignored, so everyone gets the new one once.
constexpr int kLayoutVersion = 2;
} // namespace

MainWindow::MainWindow(const NodeRegistry &registry, QWidget *parent)
    : QMainWindow(parent), m_tabs(new TabSet(registry, this))
{
    // One tab per open graph, its canvas in the centre.
    setCentralWidget(m_tabs->tabWidget());
    m_problemCount = new QLabel(this);
    statusBar()->addPermanentWidget(m_problemCount);

    createActions();
    // Above the canvas while the front tab was opened from a group node.
    m_groups = new GroupNavigator(m_tabs, this);
    addToolBar(Qt::TopToolBarArea, m_groups->toolBar());
    createDocks();
    // Beside the canvas (arrangeDocks), so the map stays in view while dragging the Inspector's sliders.
    m_previewDock = new QDockWidget(tr("Preview"), this);
    m_previewDock->setObjectName("PreviewDock");
    m_previewDock->setWidget(m_tabs->previewPages());
    m_viewMenu->addAction(m_previewDock->toggleViewAction());
    m_previewWiring = new PreviewWiring(m_tabs, statusBar(), m_viewMenu, this);
    arrangeDocks();
    createPresetsDock();
    m_recovery = new AutosaveRecovery(m_tabs, [this](const QString &path) { return openFile(path); }, this);

    connectCollaborators();
    m_tabs->activate(m_tabs->create());
    auto *keys = new KeyboardFocus(this, [this] { return m_tabs && m_tabs->current() ? view() : nullptr; });
    for (QDockWidget *dock : {m_inspectorDock, m_worldDock, m_problemsDock, m_previewDock, m_presetsDock})
        keys->watch(dock);

    readSettings();
    updateTitle();
    updateSelection();
    statusBar()->showMessage(tr("Tab or right-click on the canvas to add a node."), 8000);
}

MainWindow::~MainWindow()
{
    delete m_tabs;  // while the window the tabs report to is whole
    m_tabs = nullptr;
}

// What the parts say reaches the status bar; what the front tab does, the menus, title and docks.
void MainWindow::connectCollaborators()
{
    auto status = [this](const QString &message, int timeoutMs) { statusBar()->showMessage(message, timeoutMs); };
    connect(m_tabs, &TabSet::statusMessage, this, status);
    connect(m_groups, &GroupNavigator::statusMessage, this, status);
    connect(m_previewWiring, &PreviewWiring::statusMessage, this, status);
    connect(m_recovery, &AutosaveRecovery::statusMessage, this, status);
    // Autosaves come seconds after every edit: never over what an edit said a moment ago.
    connect(m_tabs, &TabSet::autosaved, this, [this] {
        if (statusBar()->currentMessage().isEmpty())
            statusBar()->showMessage(tr("Autosaved unsaved changes for crash recovery."), 2000);
    });
    connect(m_tabs, &TabSet::currentChanged, this, &MainWindow::tabCameForward);
    connect(m_tabs, &TabSet::selectionChanged, this, [this] { updateSelection(); });
    connect(m_tabs, &TabSet::problemCountChanged, this, &MainWindow::updateProblemCount);
    connect(m_tabs, &TabSet::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_tabs, &TabSet::filePathChanged, this, &MainWindow::updateTitle);
    // a group's file opened in a tab of its own; the last tab stays
    connect(m_tabs, &TabSet::countChanged, this, [this](int count) { m_closeTabAction->setEnabled(count > 1); });
    connect(m_tabs, &TabSet::closeRequested, this, [this](GraphTab *t) { closeTab(t); });
    connect(m_tabs, &TabSet::closeOthersRequested, this, [this](GraphTab *kept) {
        for (int i = m_tabs->count() - 1; i >= 0; --i)  // each modified one asks; Cancel stops there
            if (GraphTab *t = m_tabs->at(i); t != kept && !closeTab(t))
                break;
    });
    // edits to a group's file that a crash left unsaved
    connect(m_groups, &GroupNavigator::groupOpened, this, [this] { offerRecovery(Recovery::Ask); });
}

void MainWindow::tabCameForward()
{
    updateTabMenus();
    updateProblemCount();
    updateTitle();
    updateSelection(false);
    // the keys go to the canvas that came forward, as they went to the one before
    if (isActiveWindow())
        view()->setFocus();
}

// The Edit menu holds the front tab's canvas actions.
void MainWindow::updateTabMenus()
{
    const EditActions *edit = m_tabs->current()->editActions;
    m_editMenu->clear();
    m_editMenu->addAction(m_undoAction);
    m_editMenu->addAction(m_redoAction);
    m_editMenu->addSeparator();
    m_editMenu->addActions({edit->deleteAction(), edit->duplicateAction(), edit->copyAction(), edit->pasteAction()});
    m_editMenu->addSeparator();
    m_editMenu->addActions({edit->selectAllAction(), edit->collapseAction()});
    m_editMenu->addSeparator();
    m_editMenu->addActions({edit->groupAction(), edit->ungroupAction()});
}

void MainWindow::updateProblemCount()
{
    const GraphTab *t = m_tabs->current();
    const int errors = t ? t->errors : 0, warnings = t ? t->warnings : 0;
    m_problemCount->setText(errors + warnings == 0 ? tr("No problems")
                                                   : tr("%1 error(s), %2 warning(s)").arg(errors).arg(warnings));
}

Document *MainWindow::document() const { return m_tabs->current()->document; }
Autosave *MainWindow::autosave() const { return m_tabs->current()->autosave; }
GraphScene *MainWindow::scene() const { return m_tabs->current()->scene; }
GraphView *MainWindow::view() const { return m_tabs->current()->view; }
PreviewController *MainWindow::preview() const { return m_tabs->current()->preview; }
PreviewDock *MainWindow::previewDock() const { return m_tabs->current()->previewDock; }
InputWatcher *MainWindow::inputWatcher() const { return m_tabs->current()->inputWatcher; }

int MainWindow::tabCount() const { return m_tabs->count(); }
int MainWindow::currentTab() const { return m_tabs->currentIndex(); }
QString MainWindow::tabTitle(int index) const { return m_tabs->title(index); }
bool MainWindow::closeTab(int index) { return closeTab(m_tabs->at(index)); }

void MainWindow::setCurrentTab(int index)
{
    if (GraphTab *t = m_tabs->at(index))
        m_tabs->activate(t);
}

bool MainWindow::closeTab(GraphTab *tab)
{
    if (!tab || m_tabs->count() < 2)
        return false;
    if (!maybeSave(tab))
        return false;
    return m_tabs->remove(tab);
}

bool MainWindow::openGroup(const QString &nodeId) { return m_groups->openGroup(nodeId); }
bool MainWindow::backFromGroup() { return m_groups->backFromGroup(); }
QString MainWindow::breadcrumb() const { return m_groups->breadcrumb(); }
QString MainWindow::offerRecovery(Recovery mode) { return m_recovery->offer(mode); }

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] { newGraph(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] { openDialog(); });
    file->addAction(tr("Recover &Autosave…"), this, [this] {
        if (offerRecovery(Recovery::Ask).isEmpty())
            statusBar()->showMessage(tr("No autosaved changes to recover."), 4000);
    });
    m_recentFiles = new RecentFiles(file->addMenu(tr("Open &Recent")));
    connect(m_recentFiles, &RecentFiles::chosen, this, [this](const QString &path) { openChosen(path); });
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addAction(tr("Save as &Preset…"), this, [this] { saveAsPreset(); });
    file->addAction(tr("&Export…"), QKeySequence(tr("Ctrl+E")), this, [this] { exportDialog(); });
    m_revertAction = file->addAction(tr("Re&vert"), this, [this] { revert(); });
    // a group's file opened in a tab of its own; the last tab stays
    m_closeTabAction = file->addAction(tr("&Close Tab"), QKeySequence::Close, this, [this] { closeTab(m_tabs->current()); });
    m_closeTabAction->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, [this] { close(); });

    // Filled with the front tab's actions (updateTabMenus); undo and redo act on the front tab's history.
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = m_tabs->undoGroup()->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = m_tabs->undoGroup()->createRedoAction(this, tr("&Redo"));
    // Ctrl+Y too, where the platform's redo keys lack it (a key listed twice would be ambiguous).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y)))
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    m_redoAction->setShortcuts(redoKeys);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // on every tab's canvas (TabSet::create), so they act where the keys are pressed
    QAction *frame = m_viewMenu->addAction(tr("&Frame Selection"), QKeySequence(Qt::Key_F), this,
                                           [this] { view()->frameSelection(); });
    frame->setToolTip(tr("Frame the selected nodes, or every node when none is selected"));
    QAction *all = m_viewMenu->addAction(tr("Frame &All"), QKeySequence(Qt::Key_Home), this, [this] { view()->frameAll(); });
    for (QAction *a : {frame, all})
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_tabs->setViewActions({frame, all});
    m_viewMenu->addSeparator();
    auto cycle = [this](int step) {
        if (tabCount() > 1)
            setCurrentTab((currentTab() + step + tabCount()) % tabCount());
    };
    m_viewMenu->addAction(tr("&Next Tab"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), this, [cycle] { cycle(1); });
    m_viewMenu->addAction(tr("&Previous Tab"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), this, [cycle] { cycle(-1); });
    m_viewMenu->addSeparator();

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Grove"), this, [this] { about(); });
}

// Each dock holds a stack with one page per tab; the front tab's page shows.
void MainWindow::createDocks()
{
    m_inspectorDock = new QDockWidget(tr("Inspector"), this);
    m_inspectorDock->setObjectName("InspectorDock");
    m_inspectorDock->setWidget(m_tabs->inspectorPages());

    m_worldDock = new QDockWidget(tr("World"), this);
    m_worldDock->setObjectName("WorldDock");
    m_worldDock->setWidget(m_tabs->worldPages());

    m_problemsDock = new QDockWidget(tr("Problems"), this);
    m_problemsDock->setObjectName("ProblemsDock");
    m_problemsDock->setWidget(m_tabs->problemsPages());

    m_viewMenu->addAction(m_inspectorDock->toggleViewAction());
    m_viewMenu->addAction(m_worldDock->toggleViewAction());
    m_viewMenu->addAction(m_problemsDock->toggleViewAction());
}

// Canvas and preview side by side, as wide as the window allows; the Inspector and World tabs in a
// column of their own, the window's full height (place_layer has 17 settings); Problems under the canvas.
void MainWindow::arrangeDocks()
{
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::RightDockWidgetArea, m_previewDock);
    addDockWidget(Qt::RightDockWidgetArea, m_inspectorDock, Qt::Horizontal);
    addDockWidget(Qt::RightDockWidgetArea, m_worldDock);
    tabifyDockWidget(m_inspectorDock, m_worldDock);
    m_inspectorDock->raise();
    addDockWidget(Qt::BottomDockWidgetArea, m_problemsDock);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!std::exchange(m_firstShow, false))
        return;
    // At the first show, when the window has its size. A state from an older arrangement (another
    // version number) is refused: the default stays.
    if (restoreState(QSettings().value("window/state").toByteArray(), kLayoutVersion))
        return;
    // Once the window has the size the platform gives it (-qwindowgeometry, a small screen): about a
    // third of the width for the preview, a quarter for the Inspector, the rest for the canvas.
    QTimer::singleShot(0, this, [this] {
        const int inspector = std::clamp(width() * 23 / 100, 300, 420);
        resizeDocks({m_previewDock, m_inspectorDock}, {width() * 34 / 100, inspector}, Qt::Horizontal);
        resizeDocks({m_problemsDock}, {140}, Qt::Vertical);
    });
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray()))
        resize(1400, 860);
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState(kLayoutVersion));
}

// Every modified tab is asked about in turn, each brought to the front; Cancel on any keeps the
// window, and every tab's autosave with it (a Discard counts only once the window closes).
void MainWindow::closeEvent(QCloseEvent *event)
{
    std::vector<GraphTab *> discarded;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (!maybeSave(m_tabs->at(i), &discarded)) {
            event->ignore();
            return;
        }
    for (GraphTab *t : discarded)
        t->autosave->discard();  // the user chose to lose these changes; a crash must not bring them back
    writeSettings();
    event->accept();
}

void MainWindow::updateTitle()
{
    const QString path = document()->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    setWindowTitle(name + "[*] — Grove");
    setWindowModified(document()->isModified());
    if (m_revertAction)
        m_revertAction->setEnabled(!path.isEmpty());
}

void MainWindow::updateSelection(bool raiseInspector)
{
    GraphTab *t = m_tabs->current();
    const auto ids = t->scene->selectedNodeIds();
    t->inspector->showNode(ids.size() == 1 ? ids.front() : std::string(), static_cast<int>(ids.size()));
    // A node picked while the World tab is in front: show what was picked.
    if (raiseInspector && !ids.empty() && tabifiedDockWidgets(m_inspectorDock).contains(m_worldDock))
        m_inspectorDock->raise();
    t->previewDock->setSelectedNode(ids.size() == 1 ? ids.front() : std::string());
}

void MainWindow::selectNode(const QString &id)
{
    scene()->selectNodes({id.toStdString()});
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Grove"),
                       tr("<h3>Grove %1</h3><p>Poisson-disk placement for game worlds: wire noise, rules and "
                          "density into layers of points.</p>")
                           .arg(QApplication::applicationVersion()));
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
        auto *browser = new PresetBrowser(document()->registry(), m_presetsDock, PresetBrowser::Mode::Dock);
        m_presetsDock->setWidget(browser);
        connect(browser, &PresetBrowser::presetActivated, this, [this](const QString &path) {
            if (!maybeSave())
                return;
            Diagnostics diagnostics;
            if (path.isEmpty() || !document()->loadAsNew(path, &diagnostics))
                document()->clear();
        });
    };
    connect(m_presetsDock, &QDockWidget::visibilityChanged, this, fill);
    // shown from the View menu: in front of the dock it shares a tab with
    connect(m_presetsDock->toggleViewAction(), &QAction::toggled, this, [this, fill](bool on) {
        fill(on);
        if (on)  // once the dock has been shown in its tab group
            QTimer::singleShot(0, m_presetsDock, &QDockWidget::raise);
    });
    m_viewMenu->addAction(m_presetsDock->toggleViewAction());
}

void MainWindow::exportDialog()
{
    auto *dialog = new ExportDialog(document(), &preview()->pipeline().evaluator(), &m_tabs->current()->exports, this);
    m_tabs->current()->dialogs.removeAll(nullptr);  // closed ones (they delete themselves)
    m_tabs->current()->dialogs << dialog;           // closed with its tab
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::finished, this, [this](bool ok, const QString &message) {
        if (ok)
            statusBar()->showMessage(message, 6000);
    });
    dialog->show();
}

QString MainWindow::applyOverride(const QString &assignment)
{
    Graph edited = document()->graph();
    if (auto problem = grove::applyOverride(edited, document()->registry(), assignment.toStdString()))
        return QString::fromStdString(*problem);
    const QString target = assignment.section('=', 0, 0).trimmed();
    const std::string node = target.section('.', 0, 0).toStdString();
    const std::string param = target.section('.', 1).toStdString();
    const Node *n = edited.node(node);
    const Value *value = n ? n->param(param) : nullptr;
    if (!value)
        return tr("%1 names no param").arg(target);
    document()->undoStack()->push(new SetParamCommand(document(), node, param, *value));
    document()->endMerge();
    return {};
}

} // namespace grove
