// WorldPanel: fields mirror the graph; leaving a field pushes a command. Numbers follow the
// Inspector's rule: a refused value stays typed with its reason under it, and nothing changes.
#include "WorldPanel.h"

#include "Document.h"
#include "FieldGuard.h"
#include "GraphCommands.h"
#include "NumberField.h"

#include "core/Limits.h"
#include "core/NodeDescriptor.h"

#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>

#include <cstdint>
#include <limits>

namespace grove {

namespace {

// The world's numbers as param specs, so they are checked, and explained, as params are.
ParamSpec sizeSpec()
{
    ParamSpec spec;
    spec.min = 0;
    spec.minExclusive = true;
    spec.max = limits::maxWorldSize;
    return spec;
}

ParamSpec seedSpec()
{
    ParamSpec spec;
    spec.kind = ParamKind::Integer;
    spec.min = std::numeric_limits<std::int32_t>::min();
    spec.max = std::numeric_limits<std::int32_t>::max();
    return spec;
}

void showError(QLabel *label, const QString &message)
{
    label->setText(message);
    label->setVisible(!message.isEmpty());
}

} // namespace

WorldPanel::WorldPanel(Document *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_guard(new FieldGuard(document->undoStack(), this)),
      m_name(new QLineEdit(this)), m_notes(new QPlainTextEdit(this))
{
    m_name->setObjectName("worldName");
    m_notes->setObjectName("worldNotes");
    auto *form = new QFormLayout(this);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Notes"), m_notes);
    m_notes->setTabChangesFocus(true);
    m_notes->setMaximumHeight(120);
    m_notes->setToolTip(tr("Saved with the graph; applied when you leave the field."));

    m_width = addNumber(tr("Width"), "worldWidth", sizeSpec(), [](World &w, double v) { w.width = v; },
                        tr("Change world width"));
    m_height = addNumber(tr("Height"), "worldHeight", sizeSpec(), [](World &w, double v) { w.height = v; },
                         tr("Change world height"));
    m_seed = addNumber(tr("Seed"), "worldSeed", seedSpec(),
                       [](World &w, double v) { w.seed = static_cast<std::int32_t>(v); }, tr("Change world seed"));
    m_width.field->setToolTip(tr("World width in units"));
    m_height.field->setToolTip(tr("World height in units"));
    m_seed.field->setToolTip(tr("The world seed: every node's randomness derives from it."));

    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        const Graph &g = m_document->graph();
        commit(tr("Rename graph"), m_name->text().toStdString(), g.notes, g.world);
        m_document->endMerge();
    });
    m_notes->installEventFilter(this);
    m_guard->guard(this);
    m_guard->discardTyping = [this](QWidget *field) {
        auto *line = qobject_cast<QLineEdit *>(field);
        if (!line || !line->isModified())
            return false;
        refresh(true);
        return true;
    };

    connect(document, &Document::graphReset, this, [this] { refresh(true); });
    connect(document, &Document::graphInfoChanged, this, [this] { refresh(false); });
    refresh();
}

WorldPanel::NumberRow WorldPanel::addNumber(const QString &label, const char *name, const ParamSpec &spec,
                                            std::function<void(World &, double)> apply, const QString &what)
{
    auto *form = static_cast<QFormLayout *>(layout());
    NumberRow row{new NumberField(this), new QLabel(this)};
    row.field->setObjectName(name);
    row.error->setObjectName(QString("error:") + name);
    row.error->setStyleSheet("color:#e86a6a;");
    row.error->setWordWrap(true);
    row.error->hide();
    form->addRow(label, row.field);
    form->addRow(row.error);
    connect(row.field, &QLineEdit::editingFinished, this, [this, row, spec, apply, what] {
        QString error;
        auto v = row.field->number(&error);
        if (v)
            if (auto problem = checkParamValue(spec, Value(*v)))
                error = QString::fromStdString(*problem);
        showError(row.error, error);
        if (!error.isEmpty())
            return;
        row.field->setNumber(*v);  // as the file writes it; nothing is left "typed"
        World w = m_document->graph().world;
        apply(w, *v);
        commit(what, m_document->graph().name, m_document->graph().notes, w);
        m_document->endMerge();
    });
    return row;
}

void WorldPanel::refresh(bool all)
{
    const Graph &g = m_document->graph();
    if (m_name->text().toStdString() != g.name)
        m_name->setText(QString::fromStdString(g.name));
    if (m_notes->toPlainText().toStdString() != g.notes)
        m_notes->setPlainText(QString::fromStdString(g.notes));
    // Only the numbers that changed: a refused value typed in another box stays there.
    const std::pair<NumberRow, double> rows[] = {{m_width, g.world.width}, {m_height, g.world.height},
                                                 {m_seed, double(g.world.seed)}};
    const double shown[] = {m_shown.width, m_shown.height, double(m_shown.seed)};
    for (int i = 0; i < 3; ++i)
        if (all || rows[i].second != shown[i]) {
            rows[i].first.field->setNumber(rows[i].second);
            showError(rows[i].first.error, {});
        }
    m_shown = g.world;
}

void WorldPanel::commit(const QString &what, std::string name, std::string notes, World world)
{
    const Graph &g = m_document->graph();
    if (name == g.name && notes == g.notes && world == g.world)
        return;
    m_document->undoStack()->push(
        new SetGraphInfoCommand(m_document, std::move(name), std::move(notes), world, what));
}

bool WorldPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_notes && event->type() == QEvent::FocusOut) {
        const Graph &g = m_document->graph();
        commit(tr("Edit notes"), g.name, m_notes->toPlainText().toStdString(), g.world);
        m_document->endMerge();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace grove
