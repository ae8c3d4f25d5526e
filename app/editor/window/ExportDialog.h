// Exports the document's layers (JSON, CSV, Tiled) or its preview PNG, one file or one per layer,
// through core/export/ExportJob: the same bytes as `grove-cli eval` for the same graph.
#pragma once

#include "core/export/ExportJob.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QThreadPool;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSpinBox;

namespace grove {

class Document;
class Evaluator;

class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Kind { Json, Csv, Tiled, Png, Gltf, Godot, UnrealCsv, UnrealJson };

    // `evaluator` is shared with the preview, so an export of what is on screen is a cache hit.
    // The export runs on `pool` (null: the global one), which its owner waits for before the
    // evaluator goes: an export outlives the dialog (Cancel closes it), not the evaluator.
    ExportDialog(Document *document, Evaluator *evaluator, QThreadPool *pool, QWidget *parent = nullptr);

    void setKind(Kind kind);
    void setSplit(bool split);
    void setDestination(const QString &path);  // a file, or a folder with one file per layer
    void setPngSize(int pixels);
    // Starts the export on a worker thread; `finished` reports the outcome, and success closes the dialog.
    void start();

signals:
    void finished(bool ok, const QString &message);

private:
    void updateControls();
    void browse();
    ExportJob job() const;
    // The document's graph with its groups expanded: what grove-cli evaluates and exports.
    Graph exportGraph() const;

    Document *m_document;
    Evaluator *m_evaluator;
    QThreadPool *m_pool;
    QComboBox *m_kind;
    QCheckBox *m_split;
    QSpinBox *m_pngSize;
    QLineEdit *m_path;
    QProgressBar *m_progress;
    QLabel *m_message;
    QDialogButtonBox *m_buttons;
    bool m_running = false;
};

} // namespace grove
