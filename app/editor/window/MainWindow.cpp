// MainWindow: file handling, menus, docks and the status bar; EditActions does the editing.
#include "window/MainWindow.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "window/EditActions.h"
#include "window/GraphTab.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "inspector/Inspector.h"
#include "window/PresetBrowser.h"
#include "window/PreviewDock.h"
#include "window/ProblemsPanel.h"
#include "window/WorldPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QTabWidget>
#include <QUndoGroup>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <utility>

namespace grove {

namespace {
constexpr int kMaxRecentFiles = 8;
// Bumped whenever the default arrangement of the docks changes: a state saved for an older
// arrangement is ignored, so everyone gets the new one once.
constexpr int kLayoutVersion = 2;
const char *kFileFilter = "Grove graphs (*.grove.yaml *.yaml);;All files (*)";
} // namespace

MainWindow::MainWindow(const NodeRegistry &registry, QWidget *parent)
    : QMainWindow(parent), m_registry(registry), m_undoGroup(new QUndoGroup(this))
{
    // One tab per open graph; the bar shows once a second graph (a group's file) is open.
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName("graphTabs");
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setTabBarAutoHide(true);
    setCentralWidget(m_tabs);
    m_problemCount = new QLabel(this);
    statusBar()->addPermanentWidget(m_problemCount);

    createActions();
    createGroupBar();
    createDocks();
    createPreview();
    arrangeDocks();
    createPresetsDock();

    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) { activateTab(tabAt(index)); });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) { closeTab(tabAt(index)); });
    activateTab(createTab());

    readSettings();
    updateTitle();
    updateSelection();
    statusBar()->showMessage(tr("Tab or right-click on the canvas to add a node."), 8000);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] { newGraph(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] { openDialog(); });
    file->addAction(tr("Recover &Autosave…"), this, [this] {
        if (offerRecovery(Recovery::Ask).isEmpty())
            statusBar()->showMessage(tr("No autosaved changes to recover."), 4000);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addAction(tr("Save as &Preset…"), this, [this] { saveAsPreset(); });
    file->addAction(tr("&Export…"), QKeySequence(tr("Ctrl+E")), this, [this] { exportDialog(); });
    m_revertAction = file->addAction(tr("Re&vert"), this, [this] { revert(); });
    // a group's file opened in a tab of its own; the last tab stays
    m_closeTabAction = file->addAction(tr("&Close Tab"), QKeySequence::Close, this, [this] { closeTab(m_current); });
    m_closeTabAction->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, [this] { close(); });
    updateRecentMenu();

    // Filled with the front tab's actions (updateTabMenus); undo and redo act on the front tab's history.
    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = m_undoGroup->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = m_undoGroup->createRedoAction(this, tr("&Redo"));
    // Ctrl+Y too, where the platform's redo keys lack it (a key listed twice would be ambiguous).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y)))
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    m_redoAction->setShortcuts(redoKeys);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    // on every tab's canvas (createTab), so they act where the keys are pressed
    QAction *frame = m_viewMenu->addAction(tr("&Frame Selection"), QKeySequence(Qt::Key_F), this,
                                           [this] { m_view->frameSelection(); });
    frame->setToolTip(tr("Frame the selected nodes, or every node when none is selected"));
    QAction *all = m_viewMenu->addAction(tr("Frame &All"), QKeySequence(Qt::Key_Home), this, [this] { m_view->frameAll(); });
    m_viewActions = {frame, all};
    for (QAction *a : m_viewActions)
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_viewMenu->addSeparator();
    auto cycle = [this](int step) {
        if (m_tabs->count() > 1)
            setCurrentTab((m_tabs->currentIndex() + step + m_tabs->count()) % m_tabs->count());
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
    m_inspectorStack = new QStackedWidget(m_inspectorDock);
    m_inspectorDock->setWidget(m_inspectorStack);

    m_worldDock = new QDockWidget(tr("World"), this);
    m_worldDock->setObjectName("WorldDock");
    m_worldStack = new QStackedWidget(m_worldDock);
    m_worldDock->setWidget(m_worldStack);

    m_problemsDock = new QDockWidget(tr("Problems"), this);
    m_problemsDock->setObjectName("ProblemsDock");
    m_problemsStack = new QStackedWidget(m_problemsDock);
    m_problemsDock->setWidget(m_problemsStack);

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
    addDockWidget(Qt::RightDockWidgetArea, m_previewDockWidget);
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
        resizeDocks({m_previewDockWidget, m_inspectorDock}, {width() * 34 / 100, inspector}, Qt::Horizontal);
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
        if (!maybeSave(tabAt(i), &discarded)) {
            event->ignore();
            return;
        }
    for (GraphTab *t : discarded)
        t->autosave->discard();  // the user chose to lose these changes; a crash must not bring them back
    writeSettings();
    event->accept();
}

bool MainWindow::maybeSave(GraphTab *tab, std::vector<GraphTab *> *discarded)
{
    if (!tab || !tab->document->isModified())
        return true;
    activateTab(tab);  // the question is about the graph in front
    const QString name = m_document->filePath().isEmpty() ? tr("Untitled") : QFileInfo(m_document->filePath()).fileName();
    auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                       tr("%1 has unsaved changes. Save them?").arg(name),
                                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer != QMessageBox::Discard)
        return false;
    if (discarded)
        discarded->push_back(tab);
    else
        m_autosave->discard();  // the user chose to lose these changes; a crash must not bring them back
    return true;
}

// File > New offers the presets; a preset opens as a new, untitled graph.
void MainWindow::newGraph()
{
    if (!maybeSave())
        return;
    PresetBrowser browser(m_document->registry(), this);
    if (browser.exec() != QDialog::Accepted)
        return;
    Diagnostics diagnostics;
    if (browser.chosenPath().isEmpty() || !m_document->loadAsNew(browser.chosenPath(), &diagnostics))
        m_document->clear();
}

void MainWindow::openDialog()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open graph"), settings.value("lastDir").toString(),
                                                      kFileFilter);
    if (!path.isEmpty() && !bringForward(path) && maybeSave() && openFile(path))
        offerRecovery(Recovery::Ask);
}

// A file another tab has comes to the front there (one tab per file); otherwise it is read into the
// front tab (again, when it is the front tab's own: Revert).
bool MainWindow::bringForward(const QString &path)
{
    GraphTab *open = tabOf(path);
    if (!open || open == m_current)
        return false;
    activateTab(open);
    statusBar()->showMessage(tr("%1 is open in this tab.").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool MainWindow::openFile(const QString &path)
{
    if (bringForward(path))
        return true;
    if (!loadInto(m_current, path))
        return false;
    addRecentFile(path);
    QSettings().setValue("lastDir", QFileInfo(path).absolutePath());
    return true;
}

bool MainWindow::loadInto(GraphTab *tab, const QString &path)
{
    Diagnostics diagnostics;
    if (!tab->document->load(path, &diagnostics)) {
        QStringList lines;
        for (const Diagnostic &d : diagnostics)
            lines << QString::fromStdString(d.format());
        QMessageBox::warning(this, tr("Cannot open"),
                             tr("%1 could not be opened:\n\n%2").arg(QFileInfo(path).fileName(), lines.join('\n')));
        return false;
    }
    const int problems = static_cast<int>(diagnostics.size());
    statusBar()->showMessage(problems ? tr("Opened %1 with %n problem(s); see Problems.", nullptr, problems)
                                            .arg(QFileInfo(path).fileName())
                                      : tr("Opened %1.").arg(QFileInfo(path).fileName()),
                             6000);
    return true;
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    return saveTo(m_document->filePath());
}

bool MainWindow::saveAs()
{
    QString suggestion = m_document->filePath();
    if (suggestion.isEmpty())
        suggestion = QSettings().value("lastDir").toString() + "/untitled.grove.yaml";
    QString path = QFileDialog::getSaveFileName(this, tr("Save graph as"), suggestion, kFileFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".yaml"))
        path += ".grove.yaml";
    return saveTo(path);
}

bool MainWindow::saveTo(const QString &path)
{
    if (GraphTab *open = tabOf(path); open && open != m_current) {
        // two tabs on one file would each overwrite the other's edits
        QMessageBox::warning(this, tr("Save failed"),
                             tr("%1 is open in another tab. Close that tab first, or save under another name.\n\n"
                                "The file on disk is unchanged.").arg(QFileInfo(path).fileName()));
        return false;
    }
    if (auto error = m_document->save(path)) {
        QMessageBox::critical(this, tr("Save failed"),
                              tr("Could not save %1:\n%2\n\nThe file on disk is unchanged.")
                                  .arg(path, QString::fromStdString(*error)));
        return false;
    }
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1.").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

void MainWindow::revert()
{
    const QString path = m_document->filePath();
    if (path.isEmpty() || !m_document->isModified())
        return;
    if (QMessageBox::question(this, tr("Revert"), tr("Discard every change since the last save?"))
        != QMessageBox::Yes)
        return;
    openFile(path);
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value("recentFiles").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue("recentFiles", files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value("recentFiles").toStringList();
    for (const QString &f : files)
        m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] {
            if (!bringForward(f) && maybeSave() && openFile(f))
                offerRecovery(Recovery::Ask);
        })->setToolTip(f);
    m_recentMenu->setEnabled(!files.isEmpty());
    m_recentMenu->setToolTipsVisible(true);
}

void MainWindow::updateTitle()
{
    const QString path = m_document->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    setWindowTitle(name + "[*] — Grove");
    setWindowModified(m_document->isModified());
    if (m_revertAction)
        m_revertAction->setEnabled(!path.isEmpty());
}

void MainWindow::updateSelection(bool raiseInspector)
{
    const auto ids = m_scene->selectedNodeIds();
    m_inspector->showNode(ids.size() == 1 ? ids.front() : std::string(), static_cast<int>(ids.size()));
    // A node picked while the World tab is in front: show what was picked.
    if (raiseInspector && !ids.empty() && tabifiedDockWidgets(m_inspectorDock).contains(m_worldDock))
        m_inspectorDock->raise();
    if (m_previewDock)
        m_previewDock->setSelectedNode(ids.size() == 1 ? ids.front() : std::string());
}

void MainWindow::selectNode(const QString &id)
{
    m_scene->selectNodes({id.toStdString()});
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About Grove"),
                       tr("<h3>Grove %1</h3><p>Poisson-disk placement for game worlds: wire noise, rules and "
                          "density into layers of points.</p>")
                           .arg(QApplication::applicationVersion()));
}

} // namespace grove
