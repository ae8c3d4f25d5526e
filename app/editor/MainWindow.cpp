// MainWindow: file handling, menus, docks and the status bar; EditActions does the editing.
#include "MainWindow.h"

#include "Autosave.h"
#include "Document.h"
#include "EditActions.h"
#include "GraphScene.h"
#include "GraphView.h"
#include "Inspector.h"
#include "PresetBrowser.h"
#include "PreviewDock.h"
#include "ProblemsPanel.h"
#include "WorldPanel.h"

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
    : QMainWindow(parent), m_document(new Document(registry, this)),
      m_autosave(new Autosave(m_document, this))
{
    m_scene = new GraphScene(m_document, this);
    m_view = new GraphView(m_scene, m_document->registry(), this);
    setCentralWidget(m_view);
    m_inspector = new Inspector(m_document, this);
    m_problems = new ProblemsPanel(m_document, this);
    m_problemCount = new QLabel(this);
    statusBar()->addPermanentWidget(m_problemCount);
    m_editActions = new EditActions(m_document, m_scene, m_view, this);

    createActions();
    createGroupBar();
    createDocks();
    createPreview();
    arrangeDocks();
    createPresetsDock();

    connect(m_scene, &GraphScene::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 6000); });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &MainWindow::updateSelection);
    connect(m_editActions, &EditActions::statusMessage, statusBar(), &QStatusBar::showMessage);
    // Autosaves come seconds after every edit: never over what an edit said a moment ago.
    connect(m_autosave, &Autosave::saved, this, [this] {
        if (statusBar()->currentMessage().isEmpty())
            statusBar()->showMessage(tr("Autosaved unsaved changes for crash recovery."), 2000);
    });
    connect(m_problems, &ProblemsPanel::nodeActivated, this, [this](const std::string &id) {
        m_scene->selectNodes({id});
        if (auto *item = m_scene->nodeItem(id))
            m_view->centerOn(item);
    });
    connect(m_problems, &ProblemsPanel::countChanged, this, [this](int errors, int warnings) {
        m_problemCount->setText(errors + warnings == 0 ? tr("No problems")
                                                       : tr("%1 error(s), %2 warning(s)").arg(errors).arg(warnings));
    });
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::filePathChanged, this, &MainWindow::updateTitle);
    // Framed once the window has its final size, not the size it had while loading.
    connect(m_document, &Document::graphReset, this, [this] { QTimer::singleShot(0, m_view, &GraphView::frameAll); });

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
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, [this] { close(); });
    updateRecentMenu();

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    // Ctrl+Y too, where the platform's redo keys lack it (a key listed twice would be ambiguous).
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(Qt::CTRL | Qt::Key_Y)))
        redoKeys << QKeySequence(Qt::CTRL | Qt::Key_Y);
    redo->setShortcuts(redoKeys);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addActions({m_editActions->deleteAction(), m_editActions->duplicateAction(), m_editActions->copyAction(),
                      m_editActions->pasteAction()});
    edit->addSeparator();
    edit->addActions({m_editActions->selectAllAction(), m_editActions->collapseAction()});
    edit->addSeparator();
    edit->addActions({m_editActions->groupAction(), m_editActions->ungroupAction()});

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *frame = view->addAction(tr("&Frame Selection"), QKeySequence(Qt::Key_F), this,
                                     [this] { m_view->frameSelection(); });
    frame->setToolTip(tr("Frame the selected nodes, or every node when none is selected"));
    frame->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(frame);
    view->addAction(tr("Frame &All"), QKeySequence(Qt::Key_Home), this, [this] { m_view->frameAll(); })
        ->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(view->actions().constLast());
    view->addSeparator();

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Grove"), this, [this] { about(); });
}

void MainWindow::createDocks()
{
    m_inspectorDock = new QDockWidget(tr("Inspector"), this);
    m_inspectorDock->setObjectName("InspectorDock");
    m_inspectorDock->setWidget(m_inspector);

    m_worldDock = new QDockWidget(tr("World"), this);
    m_worldDock->setObjectName("WorldDock");
    m_worldDock->setWidget(new WorldPanel(m_document, m_worldDock));

    m_problemsDock = new QDockWidget(tr("Problems"), this);
    m_problemsDock->setObjectName("ProblemsDock");
    m_problemsDock->setWidget(m_problems);

    QMenu *view = nullptr;
    for (QAction *a : menuBar()->actions())
        if (a->menu() && a->text() == tr("&View"))
            view = a->menu();
    if (view) {
        view->addAction(m_inspectorDock->toggleViewAction());
        view->addAction(m_worldDock->toggleViewAction());
        view->addAction(m_problemsDock->toggleViewAction());
    }
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const QString name = m_document->filePath().isEmpty() ? tr("Untitled") : QFileInfo(m_document->filePath()).fileName();
    auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                       tr("%1 has unsaved changes. Save them?").arg(name),
                                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer != QMessageBox::Discard)
        return false;
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
    if (!maybeSave())
        return;
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open graph"), settings.value("lastDir").toString(),
                                                      kFileFilter);
    if (!path.isEmpty() && openFile(path))
        offerRecovery(Recovery::Ask);
}

bool MainWindow::openFile(const QString &path)
{
    Diagnostics diagnostics;
    if (!m_document->load(path, &diagnostics)) {
        QStringList lines;
        for (const Diagnostic &d : diagnostics)
            lines << QString::fromStdString(d.format());
        QMessageBox::warning(this, tr("Cannot open"),
                             tr("%1 could not be opened:\n\n%2").arg(QFileInfo(path).fileName(), lines.join('\n')));
        return false;
    }
    addRecentFile(path);
    QSettings().setValue("lastDir", QFileInfo(path).absolutePath());
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
            if (maybeSave() && openFile(f))
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

void MainWindow::updateSelection()
{
    const auto ids = m_scene->selectedNodeIds();
    m_inspector->showNode(ids.size() == 1 ? ids.front() : std::string(), static_cast<int>(ids.size()));
    // A node picked while the World tab is in front: show what was picked.
    if (!ids.empty() && tabifiedDockWidgets(m_inspectorDock).contains(m_worldDock))
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
