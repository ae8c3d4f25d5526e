// The tab set: one GraphTab per open graph (its canvas a page of the central tabs, its Inspector,
// World, Problems and preview pages of the docks' stacks), the front one's set swapped in when
// another tab comes forward, and reading a file into a tab.
#include "window/TabSet.h"

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

#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMenu>
#include <QMessageBox>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QUrl>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>

namespace grove {

TabSet::TabSet(const NodeRegistry &registry, QWidget *window)
    : QObject(window), m_registry(registry), m_window(window), m_tabs(new QTabWidget(window)),
      m_inspectorPages(new QStackedWidget(window)), m_worldPages(new QStackedWidget(window)),
      m_problemsPages(new QStackedWidget(window)), m_previewPages(new QStackedWidget(window)),
      m_undoGroup(new QUndoGroup(this))
{
    // The bar shows once a second graph (a group's file) is open.
    m_tabs->setObjectName("graphTabs");
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setTabBarAutoHide(true);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) { activate(at(index)); });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (GraphTab *t = at(index))
            emit closeRequested(t);
    });
    m_tabs->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tabs->tabBar(), &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        if (GraphTab *t = this->at(m_tabs->tabBar()->tabAt(at))) {
            QMenu *menu = contextMenu(t, m_tabs);
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(m_tabs->tabBar()->mapToGlobal(at));
        }
    });
}

TabSet::~TabSet()
{
    // Removing the pages would bring others forward (currentChanged) and deleting a tab's scene
    // reports a selection change: none of it may reach a window half taken down.
    disconnect(m_tabs, nullptr, this, nullptr);
    m_current = nullptr;
    for (GraphTab *t : findChildren<GraphTab *>(QString(), Qt::FindDirectChildrenOnly))
        delete t;
}

GraphTab *TabSet::create()
{
    auto *t = new GraphTab(this);
    t->document = new Document(m_registry, t);
    t->autosave = new Autosave(t->document, t);
    t->scene = new GraphScene(t->document, t);
    t->view = new GraphView(t->scene, m_registry, m_tabs);
    t->inspector = new Inspector(t->document, m_inspectorPages);
    t->problems = new ProblemsPanel(t->document, m_problemsPages);
    t->world = new WorldPanel(t->document, m_worldPages);
    t->editActions = new EditActions(t->document, t->scene, t->view, t);
    t->preview = new PreviewController(t->document, t);
    // a file the graph reads changed on disk (a mask repainted and saved, a group file saved in
    // another tab): evaluate again; the file's new fingerprint makes its node (and only what
    // depends on it) compute anew
    t->inputWatcher = new InputWatcher(t->document, t);
    t->previewDock = new PreviewDock(t->document, t->preview, m_previewPages);
    m_inspectorPages->addWidget(t->inspector);
    m_problemsPages->addWidget(t->problems);
    m_worldPages->addWidget(t->world);
    m_previewPages->addWidget(t->previewDock);
    m_undoGroup->addStack(t->document->undoStack());
    t->view->addActions(m_viewActions);
    connectTab(t);
    emit created(t);

    m_tabs->addTab(t->view, QString());
    updateTabText(t);
    emit countChanged(m_tabs->count());
    return t;
}

void TabSet::connectTab(GraphTab *t)
{
    auto front = [this, t] { return t == m_current; };
    connect(t->scene, &GraphScene::statusMessage, this, [this](const QString &m) { emit statusMessage(m, 6000); });
    connect(t->scene, &QGraphicsScene::selectionChanged, this, [this, front] {
        if (front())
            emit selectionChanged();
    });
    connect(t->editActions, &EditActions::statusMessage, this, &TabSet::statusMessage);
    connect(t->autosave, &Autosave::saved, this, &TabSet::autosaved);
    // A problem's node, or a layer's row in the preview: its node is selected and shown on the canvas.
    auto pick = [t](const std::string &id) {
        t->scene->selectNodes({id});
        if (auto *item = t->scene->nodeItem(id))
            t->view->ensureVisible(item);
    };
    connect(t->problems, &ProblemsPanel::nodeActivated, this, pick);
    connect(t->previewDock, &PreviewDock::layerChosen, this, pick);
    connect(t->problems, &ProblemsPanel::countChanged, this, [this, t, front](int errors, int warnings) {
        t->errors = errors;
        t->warnings = warnings;
        if (front())
            emit problemCountChanged();
    });
    connect(t->document->undoStack(), &QUndoStack::cleanChanged, this, [this, t, front] {
        updateTabText(t);
        if (front())
            emit cleanChanged();
    });
    connect(t->document, &Document::filePathChanged, this, [this, t, front] {
        // another file in this tab (or Save As) leaves the trail it was opened through; Save keeps it
        const QString path = QFileInfo(t->document->filePath()).absoluteFilePath();
        if (path != t->shownPath)
            t->trail.clear();
        t->shownPath = path;
        updateTabText(t);
        if (front())
            emit filePathChanged();
    });
    // Framed once the window has its final size, not the size it had while loading.
    connect(t->document, &Document::graphReset, this, [t] { QTimer::singleShot(0, t->view, &GraphView::frameAll); });
    connect(t->view, &GraphView::nodeDoubleClicked, this, &TabSet::nodeDoubleClicked);
    connect(t->inputWatcher, &InputWatcher::inputChanged, this, [this, t, front](const QString &path) {
        if (front())
            emit statusMessage(tr("%1 changed on disk: updating the preview").arg(QFileInfo(path).fileName()), 4000);
        t->document->reloadGroups();  // a group file: its ports, its problems, what the preview expands
        t->preview->refresh();
    });
}

void TabSet::activate(GraphTab *t)
{
    if (!t)
        return;
    const bool changed = t != m_current;
    m_current = t;
    if (m_tabs->currentWidget() != t->view)
        m_tabs->setCurrentWidget(t->view);
    m_inspectorPages->setCurrentWidget(t->inspector);
    m_problemsPages->setCurrentWidget(t->problems);
    m_worldPages->setCurrentWidget(t->world);
    m_previewPages->setCurrentWidget(t->previewDock);
    m_undoGroup->setActiveStack(t->document->undoStack());
    if (changed)
        emit currentChanged(t);
}

bool TabSet::load(GraphTab *tab, const QString &path)
{
    Diagnostics diagnostics;
    if (!tab->document->load(path, &diagnostics)) {
        QStringList lines;
        for (const Diagnostic &d : diagnostics)
            lines << QString::fromStdString(d.format());
        QMessageBox::warning(m_window, tr("Cannot open"),
                             tr("%1 could not be opened:\n\n%2").arg(QFileInfo(path).fileName(), lines.join('\n')));
        return false;
    }
    const int problems = static_cast<int>(diagnostics.size());
    emit statusMessage(problems ? tr("Opened %1 with %n problem(s); see Problems.", nullptr, problems)
                                      .arg(QFileInfo(path).fileName())
                                : tr("Opened %1.").arg(QFileInfo(path).fileName()),
                       6000);
    return true;
}

void TabSet::updateTabText(GraphTab *t)
{
    const int index = m_tabs->indexOf(t->view);
    if (index < 0)
        return;
    const QString path = t->document->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
    m_tabs->setTabText(index, t->document->isModified() ? name + "*" : name);
    m_tabs->setTabToolTip(index, path.isEmpty() ? tr("Not saved yet") : QFileInfo(path).absoluteFilePath());
}

GraphTab *TabSet::at(int index) const
{
    QWidget *page = m_tabs->widget(index);
    if (!page)
        return nullptr;
    for (GraphTab *t : findChildren<GraphTab *>(QString(), Qt::FindDirectChildrenOnly))
        if (t->view == page)
            return t;
    return nullptr;
}

GraphTab *TabSet::holding(const QString &path) const
{
    if (path.isEmpty())
        return nullptr;
    const QString wanted = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < m_tabs->count(); ++i)
        if (GraphTab *t = at(i); t && !t->document->filePath().isEmpty()
                                 && QFileInfo(t->document->filePath()).absoluteFilePath() == wanted)
            return t;
    return nullptr;
}

bool TabSet::remove(GraphTab *t)
{
    if (!t || m_tabs->count() < 2)
        return false;
    const int index = m_tabs->indexOf(t->view);
    if (t == m_current) {
        // the neighbour comes forward first, so nothing points at what goes
        const int next = index + 1 < m_tabs->count() ? index + 1 : index - 1;
        activate(at(next));
    }
    m_undoGroup->removeStack(t->document->undoStack());
    m_tabs->removeTab(m_tabs->indexOf(t->view));
    // a modified tab closed without saving has had its autosave discarded by the question before;
    // an unmodified one has none
    delete t;
    emit countChanged(m_tabs->count());
    return true;
}

bool TabSet::untouched(const GraphTab *t) const
{
    return t && t->document->filePath().isEmpty() && !t->document->isModified() && t->document->undoStack()->count() == 0;
}

QMenu *TabSet::contextMenu(GraphTab *t, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    const bool others = m_tabs->count() > 1;
    const QString path = t->document->filePath().isEmpty() ? QString() : QFileInfo(t->document->filePath()).absoluteFilePath();
    QAction *close = menu->addAction(tr("&Close"), this, [this, t] { emit closeRequested(t); });
    close->setObjectName("tabClose");
    close->setEnabled(others);  // the last tab stays
    QAction *closeOthers = menu->addAction(tr("Close &Others"), this, [this, t] { emit closeOthersRequested(t); });
    closeOthers->setObjectName("tabCloseOthers");
    closeOthers->setEnabled(others);
    menu->addSeparator();
    QAction *copy = menu->addAction(tr("Copy &Path"), this, [this, path] {
        QGuiApplication::clipboard()->setText(QDir::toNativeSeparators(path));
        emit statusMessage(tr("Copied %1").arg(QDir::toNativeSeparators(path)), 4000);
    });
    copy->setObjectName("tabCopyPath");
    QAction *reveal = menu->addAction(tr("Show in &Folder"), this, [path] {
        QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(path).absolutePath()));
    });
    reveal->setObjectName("tabShowInFolder");
    for (QAction *a : {copy, reveal}) {
        a->setEnabled(!path.isEmpty());
        if (path.isEmpty())
            a->setToolTip(tr("Not saved yet"));
    }
    return menu;
}

int TabSet::count() const { return m_tabs->count(); }

int TabSet::currentIndex() const { return m_tabs->currentIndex(); }

QString TabSet::title(int index) const { return m_tabs->tabText(index); }

} // namespace grove
