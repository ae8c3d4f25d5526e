// Autosave recovery at start-up or from the File menu: choose, ask, restore.
#include "window/AutosaveRecovery.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "document/GraphCommands.h"
#include "window/GraphTab.h"
#include "window/TabSet.h"

#include "core/graph/GraphReader.h"

#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QUndoStack>

#include <optional>
#include <utility>

namespace grove {

AutosaveRecovery::AutosaveRecovery(TabSet *tabs, OpenFile openFile, QWidget *window)
    : QObject(window), m_tabs(tabs), m_openFile(std::move(openFile)), m_window(window)
{
}

QString AutosaveRecovery::offer(Mode mode)
{
    Document *document = m_tabs->current()->document;
    const QString open = document->filePath().isEmpty() ? QString()
                                                        : QFileInfo(document->filePath()).absoluteFilePath();
    std::optional<Autosave::Entry> chosen;
    for (const Autosave::Entry &e : Autosave::entries()) {
        if (e.isStale()) {
            // The document was saved after this autosave: what is on disk is newer.
            Autosave::remove(e);
            continue;
        }
        bool own = false;  // this session's own, of any tab
        for (int i = 0; i < m_tabs->count(); ++i)
            own = own || e.recoveryPath == m_tabs->at(i)->autosave->currentRecoveryPath();
        if (own)
            continue;
        if (!open.isEmpty() ? e.documentPath == open : !document->isModified()) {
            chosen = e;
            break;
        }
    }
    if (!chosen)
        return {};
    const QString name = chosen->documentPath.isEmpty() ? tr("an untitled graph")
                                                        : QFileInfo(chosen->documentPath).fileName();
    const QString when = QLocale().toString(chosen->saved, QLocale::ShortFormat);
    if (mode == Mode::Ask) {
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                        tr("Grove closed without saving changes to %1. They were autosaved at %2.\n\n"
                           "Recover them? You can still undo back to the file as it is on disk.")
                            .arg(name, when),
                        QMessageBox::NoButton, m_window);
        box.setObjectName("recoveryQuestion");
        QPushButton *recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
        QPushButton *discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Not Now"), QMessageBox::RejectRole);
        box.setDefaultButton(recover);
        box.exec();
        if (box.clickedButton() == discard) {
            Autosave::remove(*chosen);
            return {};
        }
        if (box.clickedButton() != recover)
            return {};
    }
    LoadResult recovered = loadGraphFile(chosen->recoveryPath.toStdString(), document->registry());
    // the files it reads are beside the document it came from, not the autosave
    recovered.graph.baseDir = chosen->documentPath.isEmpty() ? std::string()
                                                             : QFileInfo(chosen->documentPath).absolutePath().toStdString();
    if (recovered.graph.nodes.empty() && !recovered.ok()) {
        QMessageBox::warning(m_window, tr("Cannot recover"),
                             tr("The autosave of %1 could not be read:\n%2")
                                 .arg(name, QString::fromStdString(recovered.diagnostics.front().format())));
        return {};
    }
    if (!chosen->documentPath.isEmpty() && QFileInfo::exists(chosen->documentPath)) {
        if (open != chosen->documentPath && !m_openFile(chosen->documentPath))
            return {};
    } else if (!open.isEmpty()) {
        document->clear();  // its file is gone: recover into an untitled graph
    }
    // the document recovered into: the front tab's, which opening its file may have changed
    document = m_tabs->current()->document;
    document->undoStack()->push(new ReplaceGraphCommand(document, recovered.graph, tr("Recover autosave")));
    m_tabs->current()->autosave->adopt(*chosen);
    const QString message = tr("Recovered unsaved changes to %1 (autosaved %2).").arg(name, when);
    emit statusMessage(message, 8000);
    return message;
}

} // namespace grove
