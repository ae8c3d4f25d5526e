// ExportDialog: options as widgets; evaluation, bytes and atomic writes in a worker thread.
#include "window/ExportDialog.h"

#include "document/Document.h"

#include "core/graph/GroupGraph.h"
#include "core/eval/Evaluator.h"
#include "core/export/ExportWriter.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThreadPool>

namespace grove {

ExportDialog::ExportDialog(Document *document, Evaluator *evaluator, QThreadPool *pool, QWidget *parent)
    : QDialog(parent), m_document(document), m_evaluator(evaluator), m_pool(pool ? pool : QThreadPool::globalInstance()), m_kind(new QComboBox(this)),
      m_split(new QCheckBox(tr("One file per layer (into a folder)"), this)), m_pngSize(new QSpinBox(this)),
      m_path(new QLineEdit(this)), m_progress(new QProgressBar(this)), m_message(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Export"));
    auto *form = new QFormLayout(this);
    m_kind->addItems({tr("grove.points JSON"), tr("CSV"), tr("Tiled object layer"), tr("PNG picture"),
                      tr("glTF binary, GPU instancing (.glb)"), tr("Godot 4 scene, MultiMesh (.tscn)"),
                      tr("Unreal DataTable CSV"), tr("Unreal DataTable JSON")});
    form->addRow(tr("Format"), m_kind);
    form->addRow(QString(), m_split);
    m_pngSize->setRange(16, 16384);
    m_pngSize->setValue(2048);
    m_pngSize->setSuffix(tr(" px"));
    m_pngSize->setToolTip(tr("The picture's longer side (never more than the world's size)"));
    form->addRow(tr("Picture size"), m_pngSize);
    auto *row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    row->addWidget(browseButton);
    form->addRow(tr("Save to"), row);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    form->addRow(m_progress);
    m_message->setWordWrap(true);
    form->addRow(m_message);
    QPushButton *exportButton = m_buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    form->addRow(m_buttons);

    const QString base = m_document->filePath().isEmpty()
                             ? QDir::home().filePath("untitled")
                             : QFileInfo(m_document->filePath()).absolutePath() + "/"
                                   + QFileInfo(m_document->filePath()).fileName().section('.', 0, 0);
    m_path->setText(base + ".json");
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this, base] {
        const char *ext[] = {".json", ".csv", ".tiled.json", ".png", ".glb", ".tscn", ".unreal.csv", ".unreal.json"};
        if (!m_split->isChecked())
            m_path->setText(base + ext[m_kind->currentIndex()]);
        updateControls();
    });
    connect(m_split, &QCheckBox::toggled, this, [this, base](bool on) {
        if (on)
            m_path->setText(base + "_layers");
        updateControls();
    });
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(exportButton, &QPushButton::clicked, this, &ExportDialog::start);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Done: the dialog closes and the status bar says what was written. A failure stays open,
    // with the reason, so the designer can pick another place or format.
    connect(this, &ExportDialog::finished, this, [this](bool ok, const QString &message) {
        m_message->setText(message);
        m_message->setStyleSheet(ok ? "" : "color: #ff8070;");
        if (ok) {
            accept();
            return;
        }
        // a reason (a long path) may wrap to more lines than the dialog had: it grows to show all
        layout()->activate();
        const int need = layout()->totalHeightForWidth(width());
        if (need > height())
            resize(width(), need);
    });
    updateControls();
}

void ExportDialog::setKind(Kind kind) { m_kind->setCurrentIndex(static_cast<int>(kind)); }
void ExportDialog::setSplit(bool split) { m_split->setChecked(split); }
void ExportDialog::setDestination(const QString &path) { m_path->setText(path); }
void ExportDialog::setPngSize(int pixels) { m_pngSize->setValue(pixels); }

void ExportDialog::updateControls()
{
    const bool png = m_kind->currentIndex() == static_cast<int>(Kind::Png);
    m_split->setEnabled(!png && !m_running);
    m_pngSize->setEnabled(png && !m_running);
    m_kind->setEnabled(!m_running);
    m_path->setEnabled(!m_running);
}

void ExportDialog::browse()
{
    const QString path = m_split->isChecked() && m_split->isEnabled()
                             ? QFileDialog::getExistingDirectory(this, tr("Export into folder"), m_path->text())
                             : QFileDialog::getSaveFileName(this, tr("Export to"), m_path->text());
    if (!path.isEmpty())
        m_path->setText(path);
}

Graph ExportDialog::exportGraph() const
{
    const Graph &graph = m_document->graph();
    return hasGroupNodes(graph) ? expandGroups(graph, m_document->groups(), nullptr) : graph;
}

ExportJob ExportDialog::job() const
{
    ExportJob job;
    const int kind = m_kind->currentIndex();
    static constexpr ExportFormat kFormats[] = {ExportFormat::Json, ExportFormat::Csv, ExportFormat::Tiled, ExportFormat::Json,
                                                ExportFormat::Gltf, ExportFormat::Godot, ExportFormat::UnrealCsv,
                                                ExportFormat::UnrealJson};
    job.format = kFormats[std::clamp(kind, 0, 7)];
    job.split = m_split->isChecked() && kind != static_cast<int>(Kind::Png);
    job.layers = exportedLayers(exportGraph(), m_document->registry());
    // grove-cli writes the path it was given; the editor, the document's.
    job.graphPath = m_document->filePath().toStdString();
    job.pngSize = kind == static_cast<int>(Kind::Png) ? m_pngSize->value() : 0;
    return job;
}

void ExportDialog::start()
{
    if (m_running)
        return;
    const QString dest = m_path->text().trimmed();
    if (dest.isEmpty()) {
        emit finished(false, tr("Choose where to save."));
        return;
    }
    const bool png = m_kind->currentIndex() == static_cast<int>(Kind::Png);
    ExportJob job = this->job();
    if (png)
        job.layers.clear();  // the picture alone, as `grove-cli eval --png` draws it
    job.streamText = !png;   // as grove-cli -o FILE: the text goes into the file as it is written
    m_running = true;
    updateControls();
    m_progress->setValue(0);
    m_message->setText(tr("Exporting…"));
    const Graph graph = exportGraph();
    const NodeRegistry *registry = &m_document->registry();
    Evaluator *evaluator = m_evaluator;
    QPointer<ExportDialog> self(this);
    m_pool->start([=] {
        EvalRequest request;
        request.targets = exportTargets(graph, *registry, job);
        request.progress = [self](const EvalProgress &p) {
            const int percent = static_cast<int>(p.fraction * 90);
            QMetaObject::invokeMethod(self, [self, percent] {
                if (self)
                    self->m_progress->setValue(percent);
            }, Qt::QueuedConnection);
        };
        QString message;
        bool ok = false;
        const EvalResult result = request.targets.empty() ? EvalResult{} : evaluator->evaluate(graph, request);
        std::string error;
        if (!result.ok()) {
            message = result.diagnostics.empty() ? tr("The graph did not evaluate.")
                                                 : QString::fromStdString(result.diagnostics.front().format());
        } else if (auto out = buildExport(graph, *registry, result, job, &error)) {
            // As grove-cli: every destination checked before anything is written, every file
            // staged (its text written into its temporary file) before any is put in place; each
            // file is replaced atomically.
            const ExportDestination destination{png ? std::string() : dest.toStdString(),
                                                png ? dest.toStdString() : std::string()};
            const std::optional<std::string> failed = writeExport(*out, destination, job.split);
            ok = !failed;
            message = failed ? QString::fromStdString(*failed)
                             : png ? tr("Wrote %1.").arg(dest)
                                   : tr("Wrote %n file(s) to %1.", nullptr, static_cast<int>(out->files.size())).arg(dest);
            for (const std::string &warning : out->warnings)  // what the format could not carry
                if (ok)
                    message += " " + tr("Warning: %1.").arg(QString::fromStdString(warning));
        } else {
            message = QString::fromStdString(error);
        }
        QMetaObject::invokeMethod(self, [self, ok, message] {
            if (!self)
                return;
            self->m_running = false;
            self->m_progress->setValue(ok ? 100 : 0);
            self->updateControls();
            emit self->finished(ok, message);
        }, Qt::QueuedConnection);
    });
}

} // namespace grove
