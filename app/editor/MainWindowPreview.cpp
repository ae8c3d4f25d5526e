// MainWindow: the live preview dock and its status-bar progress, node thumbnails, export, presets.
#include "MainWindow.h"

#include "Document.h"
#include "ExportDialog.h"
#include "InputWatcher.h"
#include "GraphScene.h"
#include "NodeItem.h"
#include "PresetBrowser.h"
#include "PreviewController.h"
#include "PreviewDock.h"

#include "core/AtomicFile.h"
#include "core/ExportJob.h"
#include "core/GraphWriter.h"
#include "core/PreviewPipeline.h"

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
#include <QStatusBar>

namespace grove {

void MainWindow::createPreview()
{
    m_preview = new PreviewController(m_document, this);
    // a file the graph reads changed on disk (a mask repainted and saved): evaluate again; the
    // file's new fingerprint makes its node (and only what depends on it) compute anew
    m_inputWatcher = new InputWatcher(m_document, this);
    connect(m_inputWatcher, &InputWatcher::inputChanged, this, [this](const QString &path) {
        statusBar()->showMessage(tr("%1 changed on disk: updating the preview").arg(QFileInfo(path).fileName()), 4000);
        m_preview->refresh();
        m_document->revalidate();  // a group file: its problems and its card's ports
    });
    m_previewDock = new PreviewDock(m_document, m_preview, this);
    // Beside the canvas (arrangeDocks), so the map stays in view while dragging the Inspector's sliders.
    m_previewDockWidget = new QDockWidget(tr("Preview"), this);
    m_previewDockWidget->setObjectName("PreviewDock");
    m_previewDockWidget->setWidget(m_previewDock);
    for (QAction *a : menuBar()->actions())
        if (a->menu() && a->text() == tr("&View")) {
            a->menu()->addAction(m_previewDockWidget->toggleViewAction());
            a->menu()->addAction(m_previewDock->chunkBordersAction());
            a->menu()->addAction(m_previewDock->compareAction());
        }

    // Long runs show a progress bar with a Cancel button in the status bar.
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
    connect(m_evalCancel, &QPushButton::clicked, m_preview, &PreviewController::cancel);
    connect(m_preview, &PreviewController::longRunChanged, this, [this](bool running) {
        m_evalProgress->setVisible(running);
        m_evalCancel->setVisible(running);
    });
    connect(m_preview, &PreviewController::progress, this, [this](int percent, const QString &step) {
        m_evalProgress->setValue(percent);
        m_evalProgress->setFormat(step + " %p%");  // "evaluating trees 40%", "statistics of trees 40%"
        m_evalProgress->setToolTip(step);
    });
    connect(m_preview, &PreviewController::snapshotReady, this, &MainWindow::showThumbnails);
    connect(m_previewDock, &PreviewDock::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 5000); });
}

void MainWindow::showThumbnails()
{
    const PreviewSnapshotPtr snap = m_preview->snapshot();
    if (!snap)
        return;
    // A frame whose changed thumbnails follow keeps those cards' pictures until they come.
    for (const Node &node : m_document->graph().nodes)
        if (NodeItem *item = m_scene->nodeItem(node.id)) {
            auto it = snap->thumbnails.find(node.id);
            if (it != snap->thumbnails.end())
                item->setThumbnail(it->second);
            else if (!snap->thumbnailsPending)
                item->setThumbnail(QImage());
        }
}

void MainWindow::exportDialog()
{
    auto *dialog = new ExportDialog(m_document, &m_preview->pipeline().evaluator(), this);
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
