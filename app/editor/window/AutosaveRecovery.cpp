// MainWindow's start-up edits: recovering an autosave (choose, ask, restore) and command-line --set.
#include "window/MainWindow.h"

#include "document/Autosave.h"
#include "document/Document.h"
#include "document/GraphCommands.h"
#include "window/GraphTab.h"
#include "document/ValueCommands.h"

#include "core/graph/GraphReader.h"
#include "core/graph/Overrides.h"

#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QUndoStack>

#include <optional>

namespace grove {

QString MainWindow::offerRecovery(Recovery mode)
{
    const QString open = m_document->filePath().isEmpty() ? QString()
                                                          : QFileInfo(m_document->filePath()).absoluteFilePath();
    std::optional<Autosave::Entry> chosen;
    for (const Autosave::Entry &e : Autosave::entries()) {
        if (e.isStale()) {
            // The document was saved after this autosave: what is on disk is newer.
            Autosave::remove(e);
            continue;
        }
        bool own = false;  // this session's own, of any tab
        for (const GraphTab *t : findChildren<GraphTab *>(QString(), Qt::FindDirectChildrenOnly))
            own = own || e.recoveryPath == t->autosave->currentRecoveryPath();
        if (own)
            continue;
        if (!open.isEmpty() ? e.documentPath == open : !m_document->isModified()) {
            chosen = e;
            break;
        }
    }
    if (!chosen)
        return {};
    const QString name = chosen->documentPath.isEmpty() ? tr("an untitled graph")
                                                        : QFileInfo(chosen->documentPath).fileName();
    const QString when = QLocale().toString(chosen->saved, QLocale::ShortFormat);
    if (mode == Recovery::Ask) {
        QMessageBox box(QMessageBox::Question, tr("Recover unsaved changes"),
                        tr("Grove closed without saving changes to %1. They were autosaved at %2.\n\n"
                           "Recover them? You can still undo back to the file as it is on disk.")
                            .arg(name, when),
                        QMessageBox::NoButton, this);
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
    LoadResult recovered = loadGraphFile(chosen->recoveryPath.toStdString(), m_document->registry());
    // the files it reads are beside the document it came from, not the autosave
    recovered.graph.baseDir = chosen->documentPath.isEmpty() ? std::string()
                                                             : QFileInfo(chosen->documentPath).absolutePath().toStdString();
    if (recovered.graph.nodes.empty() && !recovered.ok()) {
        QMessageBox::warning(this, tr("Cannot recover"),
                             tr("The autosave of %1 could not be read:\n%2")
                                 .arg(name, QString::fromStdString(recovered.diagnostics.front().format())));
        return {};
    }
    if (!chosen->documentPath.isEmpty() && QFileInfo::exists(chosen->documentPath)) {
        if (open != chosen->documentPath && !openFile(chosen->documentPath))
            return {};
    } else if (!open.isEmpty()) {
        m_document->clear();  // its file is gone: recover into an untitled graph
    }
    m_document->undoStack()->push(new ReplaceGraphCommand(m_document, recovered.graph, tr("Recover autosave")));
    m_autosave->adopt(*chosen);
    const QString message = tr("Recovered unsaved changes to %1 (autosaved %2).").arg(name, when);
    statusBar()->showMessage(message, 8000);
    return message;
}

QString MainWindow::applyOverride(const QString &assignment)
{
    Graph edited = m_document->graph();
    if (auto problem = grove::applyOverride(edited, m_document->registry(), assignment.toStdString()))
        return QString::fromStdString(*problem);
    const QString target = assignment.section('=', 0, 0).trimmed();
    const std::string node = target.section('.', 0, 0).toStdString();
    const std::string param = target.section('.', 1).toStdString();
    const Node *n = edited.node(node);
    const Value *value = n ? n->param(param) : nullptr;
    if (!value)
        return tr("%1 names no param").arg(target);
    m_document->undoStack()->push(new SetParamCommand(m_document, node, param, *value));
    m_document->endMerge();
    return {};
}

} // namespace grove
