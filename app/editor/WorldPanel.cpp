// WorldPanel: fields mirror the graph; leaving a field (or stepping a number) pushes a command.
#include "WorldPanel.h"

#include "Document.h"
#include "GraphCommands.h"

#include "core/Limits.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include <limits>

namespace grove {

WorldPanel::WorldPanel(Document *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_name(new QLineEdit(this)), m_notes(new QPlainTextEdit(this)),
      m_width(new QDoubleSpinBox(this)), m_height(new QDoubleSpinBox(this)), m_seed(new QSpinBox(this))
{
    m_name->setObjectName("worldName");
    m_notes->setObjectName("worldNotes");
    m_width->setObjectName("worldWidth");
    m_height->setObjectName("worldHeight");
    m_seed->setObjectName("worldSeed");
    auto *form = new QFormLayout(this);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Seed"), m_seed);
    m_notes->setTabChangesFocus(true);
    m_notes->setMaximumHeight(120);
    m_notes->setToolTip(tr("Saved with the graph; applied when you leave the field."));
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        box->setDecimals(3);
        box->setRange(0.001, limits::maxWorldSize);
        box->setKeyboardTracking(false);
        box->setSuffix(tr(" units"));
    }
    m_seed->setRange(std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    m_seed->setKeyboardTracking(false);
    m_seed->setToolTip(tr("The world seed: every node's randomness derives from it."));

    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        const Graph &g = m_document->graph();
        commit(tr("Rename graph"), m_name->text().toStdString(), g.notes, g.world);
        m_document->endMerge();
    });
    m_notes->installEventFilter(this);
    connect(m_width, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        World w = m_document->graph().world;
        w.width = v;
        commit(tr("Change world width"), m_document->graph().name, m_document->graph().notes, w);
    });
    connect(m_height, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        World w = m_document->graph().world;
        w.height = v;
        commit(tr("Change world height"), m_document->graph().name, m_document->graph().notes, w);
    });
    connect(m_seed, &QSpinBox::valueChanged, this, [this](int v) {
        World w = m_document->graph().world;
        w.seed = v;
        commit(tr("Change world seed"), m_document->graph().name, m_document->graph().notes, w);
    });
    for (QAbstractSpinBox *box : std::initializer_list<QAbstractSpinBox *>{m_width, m_height, m_seed})
        connect(box, &QAbstractSpinBox::editingFinished, m_document, &Document::endMerge);

    connect(document, &Document::graphReset, this, &WorldPanel::refresh);
    connect(document, &Document::graphInfoChanged, this, &WorldPanel::refresh);
    refresh();
}

void WorldPanel::refresh()
{
    const Graph &g = m_document->graph();
    const QSignalBlocker b1(m_name), b2(m_width), b3(m_height), b4(m_seed);
    if (m_name->text().toStdString() != g.name)
        m_name->setText(QString::fromStdString(g.name));
    if (m_notes->toPlainText().toStdString() != g.notes)
        m_notes->setPlainText(QString::fromStdString(g.notes));
    m_width->setValue(g.world.width);
    m_height->setValue(g.world.height);
    m_seed->setValue(g.world.seed);
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
