// MainWindow's tabs: one GraphTab per open graph (its canvas a page of the central tabs, its
// Inspector, World, Problems and preview pages of the docks' stacks), the front one's set swapped in
// when another tab comes forward, and closing a tab (asking about unsaved changes).
#include "window/MainWindow.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "window/EditActions.h"
#include "canvas/GraphScene.h"
#include "window/GraphTab.h"
#include "canvas/GraphView.h"
#include "document/InputWatcher.h"
#include "inspector/Inspector.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"
#include "window/ProblemsPanel.h"
#include "window/WorldPanel.h"

#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

namespace grove {

GraphTab::~GraphTab()
{
    for (const QPointer<QWidget> &dialog : dialogs)
        delete dialog;
    exports.waitForDone();  // an export still writing uses the preview's evaluator
    delete previewDock;
    delete world;
    delete problems;
    delete inspector;
    delete view;
    delete editActions;
    delete inputWatcher;
    delete preview;  // stops its evaluation first
    delete scene;
    delete autosave;
    delete document;
}

MainWindow::~MainWindow()
{
    // Removing the pages would bring others forward (currentChanged) and deleting a tab's scene
    // reports a selection change: none of it may reach a window half taken down.
    disconnect(m_tabs, nullptr, this, nullptr);
    m_current = nullptr;
    for (GraphTab *t : findChildren<GraphTab *>(QString(), Qt::FindDirectChildrenOnly))
        delete t;
}

GraphTab *MainWindow::createTab()
{
    auto *t = new GraphTab(this);
    t->document = new Document(m_registry, t);
    t->autosave = new Autosave(t->document, t);
    t->scene = new GraphScene(t->document, t);
    t->view = new GraphView(t->scene, m_registry, m_tabs);
    t->inspector = new Inspector(t->document, m_inspectorStack);
    t->problems = new ProblemsPanel(t->document, m_problemsStack);
    t->world = new WorldPanel(t->document, m_worldStack);
    t->editActions = new EditActions(t->document, t->scene, t->view, t);
    t->preview = new PreviewController(t->document, t);
    // a file the graph reads changed on disk (a mask repainted and saved, a group file saved in
    // another tab): evaluate again; the file's new fingerprint makes its node (and only what
    // depends on it) compute anew
    t->inputWatcher = new InputWatcher(t->document, t);
    t->previewDock = new PreviewDock(t->document, t->preview, m_previewStack);
    m_inspectorStack->addWidget(t->inspector);
    m_problemsStack->addWidget(t->problems);
    m_worldStack->addWidget(t->world);
    m_previewStack->addWidget(t->previewDock);
    m_undoGroup->addStack(t->document->undoStack());
    t->view->addActions(m_viewActions);

    auto front = [this, t] { return t == m_current; };
    connect(t->scene, &GraphScene::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 6000); });
    connect(t->scene, &QGraphicsScene::selectionChanged, this, [this, front] {
        if (front())
            updateSelection();
    });
    connect(t->editActions, &EditActions::statusMessage, statusBar(), &QStatusBar::showMessage);
    // Autosaves come seconds after every edit: never over what an edit said a moment ago.
    connect(t->autosave, &Autosave::saved, this, [this] {
        if (statusBar()->currentMessage().isEmpty())
            statusBar()->showMessage(tr("Autosaved unsaved changes for crash recovery."), 2000);
    });
    connect(t->problems, &ProblemsPanel::nodeActivated, this, [t](const std::string &id) {
        t->scene->selectNodes({id});
        if (auto *item = t->scene->nodeItem(id))
            t->view->centerOn(item);
    });
    connect(t->problems, &ProblemsPanel::countChanged, this, [this, t, front](int errors, int warnings) {
        t->errors = errors;
        t->warnings = warnings;
        if (front())
            updateProblemCount();
    });
    connect(t->document->undoStack(), &QUndoStack::cleanChanged, this, [this, t, front] {
        updateTabText(t);
        if (front())
            updateTitle();
    });
    connect(t->document, &Document::filePathChanged, this, [this, t, front] {
        // another file in this tab (or Save As) leaves the trail it was opened through; Save keeps it
        const QString path = QFileInfo(t->document->filePath()).absoluteFilePath();
        if (path != t->shownPath)
            t->trail.clear();
        t->shownPath = path;
        updateTabText(t);
        if (front()) {
            updateTitle();
            updateBreadcrumb();
        }
    });
    // Framed once the window has its final size, not the size it had while loading.
    connect(t->document, &Document::graphReset, this, [t] { QTimer::singleShot(0, t->view, &GraphView::frameAll); });
    connect(t->view, &GraphView::nodeDoubleClicked, this, [this](const QString &id) { openGroup(id); });
    connect(t->inputWatcher, &InputWatcher::inputChanged, this, [this, t, front](const QString &path) {
        if (front())
            statusBar()->showMessage(tr("%1 changed on disk: updating the preview").arg(QFileInfo(path).fileName()), 4000);
        t->preview->refresh();
        t->document->revalidate();  // a group file: its problems and its card's ports
    });
    connect(t->preview, &PreviewController::longRunChanged, this, [this, t, front](bool running) {
        t->longRun = running;
        if (front()) {
            m_evalProgress->setVisible(running);
            m_evalCancel->setVisible(running);
        }
    });
    connect(t->preview, &PreviewController::progress, this, [this, t, front](int percent, const QString &step) {
        t->percent = percent;
        t->step = step;
        if (front()) {
            m_evalProgress->setValue(percent);
            m_evalProgress->setFormat(step + " %p%");  // "evaluating trees 40%", "statistics of trees 40%"
            m_evalProgress->setToolTip(step);
        }
    });
    connect(t->preview, &PreviewController::snapshotReady, this, [this, t] { showThumbnails(t); });
    connect(t->previewDock, &PreviewDock::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 5000); });

    m_tabs->addTab(t->view, QString());
    updateTabText(t);
    m_closeTabAction->setEnabled(m_tabs->count() > 1);
    return t;
}

void MainWindow::activateTab(GraphTab *t)
{
    if (!t)
        return;
    const bool changed = t != m_current;
    m_current = t;
    m_document = t->document;
    m_autosave = t->autosave;
    m_scene = t->scene;
    m_view = t->view;
    m_inspector = t->inspector;
    m_problems = t->problems;
    m_editActions = t->editActions;
    m_preview = t->preview;
    m_inputWatcher = t->inputWatcher;
    m_previewDock = t->previewDock;
    if (m_tabs->currentWidget() != t->view)
        m_tabs->setCurrentWidget(t->view);
    m_inspectorStack->setCurrentWidget(t->inspector);
    m_problemsStack->setCurrentWidget(t->problems);
    m_worldStack->setCurrentWidget(t->world);
    m_previewStack->setCurrentWidget(t->previewDock);
    m_undoGroup->setActiveStack(t->document->undoStack());
    if (!changed)
        return;
    updateTabMenus();
    m_evalProgress->setVisible(t->longRun);
    m_evalCancel->setVisible(t->longRun);
    m_evalProgress->setValue(t->percent);
    m_evalProgress->setFormat(t->step + " %p%");
    updateProblemCount();
    updateTitle();
    updateBreadcrumb();
    updateSelection(false);
    // the keys go to the canvas that came forward, as they went to the one before
    if (isActiveWindow())
        t->view->setFocus();
}

// The Edit menu holds the front tab's canvas actions; View, its preview's.
void MainWindow::updateTabMenus()
{
    m_editMenu->clear();
    m_editMenu->addAction(m_undoAction);
    m_editMenu->addAction(m_redoAction);
    m_editMenu->addSeparator();
    m_editMenu->addActions({m_editActions->deleteAction(), m_editActions->duplicateAction(),
                            m_editActions->copyAction(), m_editActions->pasteAction()});
    m_editMenu->addSeparator();
    m_editMenu->addActions({m_editActions->selectAllAction(), m_editActions->collapseAction()});
    m_editMenu->addSeparator();
    m_editMenu->addActions({m_editActions->groupAction(), m_editActions->ungroupAction()});

    auto swap = [this](QAction *&slot, QAction *now) {
        if (slot == now)
            return;
        if (slot) {
            m_viewMenu->insertAction(slot, now);
            m_viewMenu->removeAction(slot);
        } else {
            m_viewMenu->addAction(now);
        }
        slot = now;
    };
    swap(m_chunkBordersSlot, m_previewDock->chunkBordersAction());
    swap(m_compareSlot, m_previewDock->compareAction());
}

void MainWindow::updateProblemCount()
{
    const int errors = m_current ? m_current->errors : 0, warnings = m_current ? m_current->warnings : 0;
    m_problemCount->setText(errors + warnings == 0 ? tr("No problems")
                                                   : tr("%1 error(s), %2 warning(s)").arg(errors).arg(warnings));
}

void MainWindow::updateTabText(GraphTab *t)
{
    const int index = m_tabs->indexOf(t->view);
    if (index < 0)
        return;
    const QString path = t->document->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    m_tabs->setTabText(index, t->document->isModified() ? name + "*" : name);
    m_tabs->setTabToolTip(index, path.isEmpty() ? tr("Not saved yet") : QFileInfo(path).absoluteFilePath());
}

GraphTab *MainWindow::tabAt(int index) const
{
    QWidget *page = m_tabs->widget(index);
    if (!page)
        return nullptr;
    for (GraphTab *t : findChildren<GraphTab *>(QString(), Qt::FindDirectChildrenOnly))
        if (t->view == page)
            return t;
    return nullptr;
}

GraphTab *MainWindow::tabOf(const QString &path) const
{
    if (path.isEmpty())
        return nullptr;
    const QString wanted = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < m_tabs->count(); ++i)
        if (GraphTab *t = tabAt(i); t && !t->document->filePath().isEmpty()
                                    && QFileInfo(t->document->filePath()).absoluteFilePath() == wanted)
            return t;
    return nullptr;
}

bool MainWindow::closeTab(GraphTab *t, bool ask)
{
    if (!t || m_tabs->count() < 2)
        return false;
    if (ask && !maybeSave(t))
        return false;
    const int index = m_tabs->indexOf(t->view);
    if (t == m_current) {
        // the neighbour comes forward first, so nothing points at what goes
        const int next = index + 1 < m_tabs->count() ? index + 1 : index - 1;
        activateTab(tabAt(next));
    }
    m_undoGroup->removeStack(t->document->undoStack());
    m_tabs->removeTab(m_tabs->indexOf(t->view));
    // a modified tab closed without saving has had its autosave discarded by maybeSave;
    // an unmodified one has none
    delete t;
    m_closeTabAction->setEnabled(m_tabs->count() > 1);
    return true;
}

int MainWindow::tabCount() const { return m_tabs->count(); }

int MainWindow::currentTab() const { return m_tabs->currentIndex(); }

void MainWindow::setCurrentTab(int index)
{
    if (GraphTab *t = tabAt(index))
        activateTab(t);
}

QString MainWindow::tabTitle(int index) const { return m_tabs->tabText(index); }

bool MainWindow::closeTab(int index) { return closeTab(tabAt(index)); }

} // namespace grove
