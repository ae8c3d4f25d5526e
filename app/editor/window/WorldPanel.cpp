// WorldPanel: fields mirror the graph; leaving a field pushes a command. Numbers follow the
// Inspector's rule: a refused value stays typed with its reason under it, and nothing changes.
#include "window/WorldPanel.h"

#include "document/Document.h"
#include "inspector/FieldGuard.h"
#include "document/GraphCommands.h"
#include "inspector/NumberField.h"

#include "core/graph/GraphValidator.h"
#include "core/base/Limits.h"
#include "core/graph/NodeDescriptor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include <algorithm>
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

// 0 is "no chunks"; the validator then judges the chunk against the world (world.* problems).
ParamSpec chunkSpec()
{
    ParamSpec spec;
    spec.min = 0;
    spec.max = limits::maxWorldSize;
    return spec;
}

// The new world's own problems as the core's validator words them (a chunk that cuts the world
// into too many chunks, an endless world without chunks); empty when there are none.
QString worldProblem(const World &world, const NodeRegistry &registry)
{
    Graph candidate;
    candidate.world = world;  // the nodes cannot make the world wrong, so they are left out
    for (const Diagnostic &d : validateGraph(candidate, registry))
        if (d.path.rfind("world", 0) == 0)
            return QString::fromStdString(d.message);
    return {};
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
    // The rows at the top, as in the Inspector: a tall dock must not spread them apart (an error
    // under a field would land far below it).
    auto *column = new QVBoxLayout(this);
    m_form = new QFormLayout;
    column->addLayout(m_form);
    column->addStretch(1);
    QFormLayout *form = m_form;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Notes"), m_notes);
    m_notes->setTabChangesFocus(true);
    m_notes->setMaximumHeight(120);
    m_notes->setToolTip(tr("Saved with the graph; applied when you leave the field."));

    m_width = addNumber(tr("Width"), "worldWidth", sizeSpec(), [](World &w, double v) { w.width = v; },
                        tr("Change world width"));
    m_height = addNumber(tr("Height"), "worldHeight", sizeSpec(), [](World &w, double v) { w.height = v; },
                         tr("Change world height"));
    m_depth = addNumber(tr("Depth"), "worldDepth", chunkSpec(), [](World &w, double v) { w.depth = v; },
                        tr("Change world depth"), 0.0);
    m_depth.field->setToolTip(tr("A volume's third side in world units, for place_volume (z in [0, depth)). "
                                 "Empty or 0: a 2D world."));
    m_depth.field->setPlaceholderText(tr("2D"));
    m_seed = addNumber(tr("Seed"), "worldSeed", seedSpec(),
                       [](World &w, double v) { w.seed = static_cast<std::int32_t>(v); }, tr("Change world seed"));
    m_chunk = addNumber(tr("Chunk"), "worldChunk", chunkSpec(), [](World &w, double v) { w.chunk = v; },
                        tr("Change world chunk"), 0.0);
    m_endless = new QCheckBox(tr("Endless"), this);
    m_endless->setObjectName("worldEndless");
    m_endless->setToolTip(tr("A world without edges: chunks are placed where you look. Needs a chunk size; "
                             "saved without width and height."));
    m_form->addRow(QString(), m_endless);
    connect(m_endless, &QCheckBox::clicked, this, &WorldPanel::setEndless);
    // world.wrap: the items' data is the saved text ("" for off)
    m_wrap = new QComboBox(this);
    m_wrap->setObjectName("worldWrap");
    m_wrap->addItem(tr("Off"), QString());
    m_wrap->addItem(tr("Both axes"), QStringLiteral("true"));
    m_wrap->addItem(tr("Along x"), QStringLiteral("x"));
    m_wrap->addItem(tr("Along y"), QStringLiteral("y"));
    m_wrap->setToolTip(tr("A tileable world: spacing is measured across the opposite edges and noise repeats "
                          "with the world, so the output tiles without seams. Not with chunks or an endless world."));
    m_form->addRow(tr("Wrap"), m_wrap);
    connect(m_wrap, &QComboBox::activated, this, [this](int index) {
        const Graph &g = m_document->graph();
        World w = g.world;
        const std::string text = m_wrap->itemData(index).toString().toStdString();
        w.setWrap(text.empty() ? "false" : text);
        commit(tr("Change world wrap"), g.name, g.notes, w);
        m_document->endMerge();
    });
    m_chunk.field->setToolTip(tr("The side of a chunk in world units: layers are placed chunk by chunk, and "
                                 "a big world's preview places only the chunks in view. Empty or 0: no chunks."));
    m_chunk.field->setPlaceholderText(tr("off"));
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
                                            std::function<void(World &, double)> apply, const QString &what,
                                            std::optional<double> emptyValue)
{
    QFormLayout *form = m_form;
    NumberRow row{new NumberField(this), new QLabel(this)};
    row.field->setObjectName(name);
    row.error->setObjectName(QString("error:") + name);
    row.error->setStyleSheet("color:#e86a6a;");
    row.error->setWordWrap(true);
    row.error->hide();
    form->addRow(label, row.field);
    form->addRow(row.error);
    connect(row.field, &QLineEdit::editingFinished, this, [this, row, spec, apply, what, emptyValue] {
        QString error;
        const bool empty = emptyValue && row.field->text().trimmed().isEmpty();
        auto v = empty ? emptyValue : row.field->number(&error);
        if (v)
            if (auto problem = checkParamValue(spec, Value(*v)))
                error = QString::fromStdString(*problem);
        World w = m_document->graph().world;
        if (v && error.isEmpty()) {
            apply(w, *v);
            error = worldProblem(w, m_document->registry());
        }
        showError(row.error, error);
        if (!error.isEmpty())
            return;
        if (empty && *v == 0)
            row.field->clear();  // "off", as the placeholder says
        else
            row.field->setNumber(*v);  // as the file writes it; nothing is left "typed"
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
                                                 {m_seed, double(g.world.seed)}, {m_chunk, g.world.chunk},
                                                 {m_depth, g.world.depth}};
    const double shown[] = {m_shown.width, m_shown.height, double(m_shown.seed), m_shown.chunk, m_shown.depth};
    for (int i = 0; i < 5; ++i)
        if (all || rows[i].second != shown[i]) {
            if ((rows[i].first.field == m_chunk.field || rows[i].first.field == m_depth.field) && rows[i].second == 0)
                rows[i].first.field->clear();  // no chunks: the box shows "off"
            else
                rows[i].first.field->setNumber(rows[i].second);
            showError(rows[i].first.error, {});
        }
    m_endless->setChecked(g.world.endless);
    m_wrap->setCurrentIndex(std::max(0, m_wrap->findData(QString::fromStdString(g.world.wrapText()))));
    QFormLayout *form = m_form;
    for (const NumberRow &row : {m_width, m_height}) {
        form->setRowVisible(row.field, !g.world.endless);
        // Its message row stays the form's, as every other message's (a row the form hides is
        // never placed again: its message, shown later, drew at the panel's corner).
        if (g.world.endless)
            showError(row.error, {});
    }
    if (!g.world.endless) {
        m_finiteWidth = g.world.width;
        m_finiteHeight = g.world.height;
    }
    m_shown = g.world;
}

// One undo step either way. An endless world needs chunks: ticking it on a world without them
// gives it 256. Unticking gives back the size the world had before (or 16 x 16 chunks).
void WorldPanel::setEndless(bool endless)
{
    const Graph &g = m_document->graph();
    World w = g.world;
    if (w.endless == endless)
        return;
    if (endless) {
        if (!w.endless) {
            m_finiteWidth = w.width;
            m_finiteHeight = w.height;
        }
        if (!(w.chunk > 0))
            w.chunk = 256;
        w.width = w.height = 0;  // as a file without them loads
    } else {
        w.width = m_finiteWidth > 0 ? m_finiteWidth : 16 * w.chunk;
        w.height = m_finiteHeight > 0 ? m_finiteHeight : 16 * w.chunk;
    }
    w.endless = endless;
    commit(endless ? tr("Make the world endless") : tr("Give the world edges"), g.name, g.notes, w);
    m_document->endMerge();
    refresh(true);
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
