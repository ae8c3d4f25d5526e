// MainWindow: the live preview dock and its status-bar progress, node thumbnails, export, presets.
#include "window/MainWindow.h"

#include "document/Document.h"
#include "window/ExportDialog.h"
#include "window/GraphTab.h"
#include "canvas/GraphScene.h"
#include "canvas/NodeItem.h"
#include "window/PresetBrowser.h"
#include "preview/PreviewController.h"
#include "window/PreviewDock.h"

#include "core/base/SafeFile.h"
#include "core/export/ExportJob.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/render/PreviewPipeline.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFormLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>

namespace grove {

// The Preview dock (a page per tab: createTab) and the status bar's progress of long runs.
void MainWindow::createPreview()
{
    // Beside the canvas (arrangeDocks), so the map stays in view while dragging the Inspector's sliders.
    m_previewDockWidget = new QDockWidget(tr("Preview"), this);
    m_previewDockWidget->setObjectName("PreviewDock");
    m_previewStack = new QStackedWidget(m_previewDockWidget);
    m_previewDockWidget->setWidget(m_previewStack);
    m_viewMenu->addAction(m_previewDockWidget->toggleViewAction());
    // where the front tab's Chunk borders and Compare with Saved go (updateTabMenus)
    m_chunkBordersSlot = m_viewMenu->addAction(QString());
    m_compareSlot = m_viewMenu->addAction(QString());
    m_chunkBordersSlot->setVisible(false);
    m_compareSlot->setVisible(false);

    // Long runs show a progress bar with a Cancel button in the status bar: the front tab's.
    m_evalProgress = new QProgressBar(this);
    m_evalProgress->setRange(0, 100);
    m_evalProgress->setMaximumWidth(320);
    m_evalProgress->setFormat(tr("evaluating %p%"));
    m_evalCancel = new QPushButton(tr("Cancel"), this);
    m_evalCancel->setObjectName("cancelEvaluation");
    statusBar()->addPermanentWidget(m_evalProgress);
    statusBar()->addPermanentWidget(m_evalCancel);
    m_evalProgress->hide();
    m_evalCancel->hide();
    connect(m_evalCancel, &QPushButton::clicked, this, [this] { m_preview->cancel(); });
}

namespace {

// The node a card's thumbnail is of: itself, or for a group the expanded node (GROUP_INNER) its
// first output comes from, through groups inside groups.
std::string thumbnailNode(const Node &node, const std::string &baseDir, const NodeRegistry &registry, int depth = 0)
{
    if (node.type != kGroupType || depth >= kMaxGroupDepth)
        return node.id;
    const auto info = resolveGroup(node, baseDir, registry);
    if (!info->usable)
        return node.id;
    const Graph &inner = info->loaded.graph;
    for (const auto &[name, output] : inner.groupOutputs)
        if (const Node *from = inner.node(output.from.node))
            return node.id + "_" + thumbnailNode(*from, inner.baseDir, registry, depth + 1);
    return node.id;
}

} // namespace

void MainWindow::showThumbnails(GraphTab *tab)
{
    const PreviewSnapshotPtr snap = tab->preview->snapshot();
    if (!snap)
        return;
    const Graph &graph = tab->document->graph();
    // A frame whose changed thumbnails follow keeps those cards' pictures until they come.
    for (const Node &node : graph.nodes)
        if (NodeItem *item = tab->scene->nodeItem(node.id)) {
            auto it = snap->thumbnails.find(thumbnailNode(node, graph.baseDir, m_registry));
            if (it != snap->thumbnails.end())
                item->setThumbnail(it->second);
            else if (!snap->thumbnailsPending)
                item->setThumbnail(QImage());
        }
}

void MainWindow::exportDialog()
{
    auto *dialog = new ExportDialog(m_document, &m_preview->pipeline().evaluator(), &m_current->exports, this);
    m_current->dialogs.removeAll(nullptr);  // closed ones (they delete themselves)
    m_current->dialogs << dialog;           // closed with its tab
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExportDialog::finished, this, [this](bool ok, const QString &message) {
        if (ok)
            statusBar()->showMessage(message, 6000);
    });
    dialog->show();
}

QString MainWindow::writeUserPreset(const Graph &graph, const NodeRegistry &registry, const QString &name,
                                    const QString &description, bool *ok)
{
    *ok = false;
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return tr("A preset needs a name.");
    Graph preset = graph;
    preset.name = trimmed.toStdString();
    preset.notes = description.trimmed().toStdString();
    if (!preset.notes.empty())
        preset.notes += "\n";
    const QString dir = PresetBrowser::userDir();
    if (!QDir().mkpath(dir))
        return tr("Cannot create %1.").arg(dir);
    const QString path = QDir(dir).filePath(QString::fromStdString(safeFileName(trimmed.toLower().toStdString())) + ".grove.yaml");
    if (auto error = writeFileAtomically(path.toStdString(), saveGraphToString(preset, registry)))
        return QString::fromStdString(*error);
    *ok = true;
    return path;
}

void MainWindow::saveAsPreset()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Save as preset"));
    auto *form = new QFormLayout(&dialog);
    auto *name = new QLineEdit(QString::fromStdString(m_document->graph().name), &dialog);
    auto *notes = new QPlainTextEdit(QString::fromStdString(m_document->graph().notes), &dialog);
    form->addRow(tr("Name"), name);
    form->addRow(tr("Description"), notes);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    bool ok = false;
    const QString result = writeUserPreset(m_document->graph(), m_document->registry(), name->text(),
                                           notes->toPlainText(), &ok);
    if (ok)
        statusBar()->showMessage(tr("Saved preset %1; File › New lists it.").arg(result), 6000);
    else
        QMessageBox::warning(this, tr("Save as preset"), result);
}

} // namespace grove
