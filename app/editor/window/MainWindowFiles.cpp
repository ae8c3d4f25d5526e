// MainWindow's File menu: New, Open (a tab per file), Save, Save As, Save as Preset, Revert, and
// the question about unsaved changes before any of them drops a graph.
#include "window/MainWindow.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "window/GraphTab.h"
#include "window/PresetBrowser.h"
#include "window/RecentFiles.h"
#include "window/TabSet.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStatusBar>

namespace grove {

namespace {
const char *kFileFilter = "Grove graphs (*.grove.yaml *.yaml);;All files (*)";
} // namespace

bool MainWindow::maybeSave(GraphTab *tab, std::vector<GraphTab *> *discarded)
{
    if (!tab || !tab->document->isModified())
        return true;
    m_tabs->activate(tab);  // the question is about the graph in front
    const QString path = tab->document->filePath();
    const QString name = path.isEmpty() ? tr("Untitled") : QFileInfo(path).fileName();
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
        tab->autosave->discard();  // the user chose to lose these changes; a crash must not bring them back
    return true;
}

bool MainWindow::maybeSave() { return maybeSave(m_tabs->current()); }

// File > New offers the presets; a preset opens as a new, untitled graph.
void MainWindow::newGraph()
{
    if (!maybeSave())
        return;
    PresetBrowser browser(document()->registry(), this);
    if (browser.exec() != QDialog::Accepted)
        return;
    Diagnostics diagnostics;
    if (browser.chosenPath().isEmpty() || !document()->loadAsNew(browser.chosenPath(), &diagnostics))
        document()->clear();
}

void MainWindow::openDialog()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open graph"), settings.value("lastDir").toString(),
                                                      kFileFilter);
    if (!path.isEmpty())
        openChosen(path);
}

// A file read anew may have unsaved changes in an autosave; one already open has none to offer.
void MainWindow::openChosen(const QString &path)
{
    bool cameForward = false;
    if (openInTab(path, &cameForward) && !cameForward)
        offerRecovery(Recovery::Ask);
}

bool MainWindow::openInTab(const QString &path, bool *cameForward)
{
    // Any tab holding the file, the front one included, is where it is: no second tab for it.
    if (GraphTab *open = m_tabs->holding(path)) {
        if (open != m_tabs->current())
            bringForward(path);
        if (cameForward)
            *cameForward = true;
        return true;
    }
    GraphTab *front = m_tabs->current();
    GraphTab *target = m_tabs->untouched(front) ? front : m_tabs->create();
    m_tabs->activate(target);
    if (openFile(path))
        return true;
    if (target != front) {
        m_tabs->remove(target);
        m_tabs->activate(front);
    }
    return false;
}

// A file another tab has comes to the front there (one tab per file); otherwise it is read into the
// front tab (again, when it is the front tab's own: Revert).
bool MainWindow::bringForward(const QString &path)
{
    GraphTab *open = m_tabs->holding(path);
    if (!open || open == m_tabs->current())
        return false;
    m_tabs->activate(open);
    statusBar()->showMessage(tr("%1 is open in this tab.").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool MainWindow::openFile(const QString &path)
{
    if (bringForward(path))
        return true;
    if (!m_tabs->load(m_tabs->current(), path))
        return false;
    m_recentFiles->add(path);
    QSettings().setValue("lastDir", QFileInfo(path).absolutePath());
    return true;
}

bool MainWindow::save()
{
    if (document()->filePath().isEmpty())
        return saveAs();
    return saveTo(document()->filePath());
}

bool MainWindow::saveAs()
{
    QString suggestion = document()->filePath();
    if (suggestion.isEmpty()) {
        // a new graph is offered its own name ("Caves": caves.grove.yaml), as Save as Preset does
        const QString name = QString::fromStdString(document()->graph().name).trimmed();
        // the folder of the last file opened or saved; before any, the home folder (not "/")
        const QString dir = QSettings().value("lastDir", QDir::homePath()).toString();
        suggestion = QDir(dir).filePath(name.isEmpty() ? QStringLiteral("untitled.grove.yaml") : PresetBrowser::fileNameFor(name));
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Save graph as"), suggestion, kFileFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".yaml"))
        path += ".grove.yaml";
    return saveTo(path);
}

bool MainWindow::saveTo(const QString &path)
{
    if (GraphTab *open = m_tabs->holding(path); open && open != m_tabs->current()) {
        // two tabs on one file would each overwrite the other's edits
        QMessageBox::warning(this, tr("Save failed"),
                             tr("%1 is open in another tab. Close that tab first, or save under another name.\n\n"
                                "The file on disk is unchanged.").arg(QFileInfo(path).fileName()));
        return false;
    }
    if (auto error = document()->save(path)) {
        QMessageBox::critical(this, tr("Save failed"),
                              tr("Could not save %1:\n%2\n\nThe file on disk is unchanged.")
                                  .arg(path, QString::fromStdString(*error)));
        return false;
    }
    m_recentFiles->add(path);
    statusBar()->showMessage(tr("Saved %1.").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

void MainWindow::revert()
{
    const QString path = document()->filePath();
    if (path.isEmpty() || !document()->isModified())
        return;
    if (QMessageBox::question(this, tr("Revert"), tr("Discard every change since the last save?"))
        != QMessageBox::Yes)
        return;
    openFile(path);
}

void MainWindow::saveAsPreset()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Save as preset"));
    auto *form = new QFormLayout(&dialog);
    auto *name = new QLineEdit(QString::fromStdString(document()->graph().name), &dialog);
    auto *notes = new QPlainTextEdit(QString::fromStdString(document()->graph().notes), &dialog);
    form->addRow(tr("Name"), name);
    form->addRow(tr("Description"), notes);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    bool ok = false;
    const QString result = PresetBrowser::writeUserPreset(document()->graph(), document()->groups(), name->text(),
                                                          notes->toPlainText(), &ok);
    if (ok)
        statusBar()->showMessage(tr("Saved preset %1; File › New lists it.").arg(result), 6000);
    else
        QMessageBox::warning(this, tr("Save as preset"), result);
}

} // namespace grove
