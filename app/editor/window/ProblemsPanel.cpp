// ProblemsPanel: mirrors Document::problems().
#include "window/ProblemsPanel.h"

#include "document/Document.h"

#include <QApplication>
#include <QStyle>
#include <QUndoStack>

namespace grove {

ProblemsPanel::ProblemsPanel(Document *document, QWidget *parent)
    : QListWidget(parent), m_document(document)
{
    setAlternatingRowColors(true);
    setWordWrap(true);
    connect(document, &Document::problemsChanged, this, &ProblemsPanel::refresh);
    connect(document->undoStack(), &QUndoStack::cleanChanged, this, &ProblemsPanel::refresh);
    connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        const QString id = item->data(Qt::UserRole).toString();
        if (!id.isEmpty())
            emit nodeActivated(id.toStdString());
    });
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        const QString id = item->data(Qt::UserRole).toString();
        if (!id.isEmpty())
            emit nodeActivated(id.toStdString());
    });
    refresh();
}

void ProblemsPanel::refresh()
{
    clear();
    int errors = 0, warnings = 0;
    const QIcon errorIcon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warningIcon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const size_t fromGraph = m_document->problems().size();
    Diagnostics all = m_document->problems();
    all.insert(all.end(), m_document->runProblems().begin(), m_document->runProblems().end());
    for (size_t i = 0; i < all.size(); ++i) {
        const Diagnostic &d = all[i];
        const bool error = d.severity == Diagnostic::Severity::Error;
        (error ? errors : warnings)++;
        // Lines are the file's on disk; a problem an unsaved edit made has none yet, and one the
        // preview found (a layer that came out empty) is no line's.
        QString where = d.line > 0 ? QString("%1:%2").arg(d.line).arg(d.column)
                        : i >= fromGraph ? tr("preview")
                        : m_document->isModified() ? tr("unsaved") : QString("–");
        QString text = where + "  ";
        if (!d.nodeId.empty())
            text += QString::fromStdString(d.nodeId) + ": ";
        text += QString::fromStdString(d.message);
        auto *item = new QListWidgetItem(error ? errorIcon : warningIcon, text, this);
        item->setData(Qt::UserRole, QString::fromStdString(d.nodeId));
        item->setToolTip(d.line == 0 && i < fromGraph && m_document->isModified()
                             ? tr("Made by an edit not saved yet: saving gives it a line in the file")
                             : QString::fromStdString(d.format()));
    }
    if (count() == 0) {
        auto *item = new QListWidgetItem(tr("No problems."), this);
        item->setFlags(Qt::NoItemFlags);
    }
    emit countChanged(errors, warnings);
}

} // namespace grove
