// Inspector: builds one editor per ParamSpec and routes every change through a command.
#include "inspector/Inspector.h"

#include "document/Document.h"
#include "common/EditorStyle.h"
#include "inspector/FieldGuard.h"
#include "document/NodeCommands.h"
#include "inspector/ListEditors.h"
#include "inspector/ParamEditors.h"
#include "document/ValueCommands.h"

#include "core/eval/Evaluator.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace grove {

namespace {

QLabel *errorLabel(QWidget *parent, const std::string &name)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QString::fromStdString("error:" + name));
    label->setStyleSheet(QString("color:%1;").arg(style::problem.lighter(130).name()));
    label->setWordWrap(true);
    label->hide();
    return label;
}

void showError(QLabel *label, const QString &message)
{
    label->setText(message);
    label->setVisible(!message.isEmpty());
}

} // namespace

Inspector::Inspector(Document *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_guard(new FieldGuard(document->undoStack(), this)),
      m_labels(std::make_unique<Evaluator>(document->registry())), m_layout(new QVBoxLayout(this))
{
    m_guard->discardTyping = [this](QWidget *field) { return discardTyping(field); };
    m_layout->setContentsMargins(0, 0, 0, 0);
    setMinimumWidth(300);
    connect(document, &Document::graphReset, this, [this] { showNode({}, 0); });
    connect(document, &Document::nodeRemoved, this, [this](const QString &id) {
        if (id.toStdString() == m_nodeId)
            showNode({}, 0);
    });
    connect(document, &Document::nodeRenamed, this, [this](const QString &oldId, const QString &newId) {
        if (oldId.toStdString() != m_nodeId)
            return;
        m_nodeId = newId.toStdString();
        if (m_idEdit)
            m_idEdit->setText(newId);
        showError(m_idError, {});
    });
    connect(document, &Document::paramChanged, this, [this](const QString &id, const QString &param) {
        if (id.toStdString() != m_nodeId)
            return;
        auto it = m_editors.find(param.toStdString());
        const Node *node = m_document->graph().node(m_nodeId);
        if (it != m_editors.end() && node && node->param(it->first)) {
            it->second->setValue(*node->param(it->first));
            showError(m_errors[it->first], {});
        }
        showWhatMatters();
    });
    // A group node's page shows its file's exposed params and their defaults: read anew, drawn anew
    connect(document, &Document::groupsReloaded, this, [this] {
        const Node *node = m_document->graph().node(m_nodeId);
        if (node && node->type == kGroupType)
            rebuild();
    });
    rebuild();
}

Inspector::~Inspector() = default;

void Inspector::showNode(const std::string &id, int selectedCount)
{
    if (id == m_nodeId && selectedCount == m_selectedCount && m_content)
        return;
    m_nodeId = id;
    m_selectedCount = selectedCount;
    rebuild();
}

void Inspector::rebuild()
{
    // Later, not now: this may run from a signal of a widget inside the old page.
    if (m_content) {
        m_content->hide();
        m_layout->removeWidget(m_content);
        m_content->deleteLater();
    }
    m_editors.clear();
    m_errors.clear();
    m_idEdit = nullptr;
    m_idError = nullptr;
    m_form = nullptr;

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_content = scroll;
    m_layout->addWidget(scroll);
    auto *page = new QWidget(scroll);
    scroll->setWidget(page);
    auto *column = new QVBoxLayout(page);

    const Node *node = m_document->graph().node(m_nodeId);
    if (!node) {
        auto *hint = new QLabel(m_selectedCount > 1 ? tr("%1 nodes selected.").arg(m_selectedCount)
                                                    : tr("Select a node to edit its settings.\n\n"
                                                         "Tab or right-click on the canvas adds a node."),
                                page);
        hint->setWordWrap(true);
        hint->setAlignment(Qt::AlignCenter);
        hint->setStyleSheet("color: gray;");
        column->addWidget(hint);
        column->addStretch();
        return;
    }
    const NodeDescriptor *desc = m_document->groups().find(*node, m_document->graph().baseDir);

    auto *title = new QLabel(page);
    title->setText(QString("<b>%1</b> <span style='color:gray'>· %2</span>")
                       .arg(QString::fromStdString(desc ? desc->displayName : node->type).toHtmlEscaped(),
                            QString::fromStdString(desc ? desc->category : tr("unknown type").toStdString())
                                .toHtmlEscaped()));
    column->addWidget(title);
    if (desc && !desc->description.empty()) {
        // a group's description is its file's notes, wrapped by hand: the label wraps it anew
        auto *about = new QLabel(style::reflowed(desc->description), page);
        about->setWordWrap(true);
        about->setStyleSheet("color: gray;");
        column->addWidget(about);
    }

    auto *form = new QFormLayout();
    m_form = form;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    column->addLayout(form);

    m_idEdit = new QLineEdit(QString::fromStdString(m_nodeId), page);
    m_idEdit->setObjectName("nodeId");
    m_idEdit->setToolTip(tr("The node's id: links and exports name it. [a-z][a-z0-9_]*, unique."));
    connect(m_idEdit, &QLineEdit::editingFinished, this, &Inspector::commitRename);
    form->addRow(tr("id"), m_idEdit);
    m_idError = errorLabel(page, "id");
    form->addRow(m_idError);

    if (desc) {
        for (const ParamSpec &spec : desc->params) {
            ParamEditor *editor = makeEditor(*node, spec, page);
            const Value *value = node->param(spec.name);
            editor->setValue(value ? *value : spec.defaultValue);
            const std::string name = spec.name;
            editor->setObjectName(QString::fromStdString("param:" + name));
            connect(editor, &ParamEditor::edited, this, [this, name](const Value &v) { commitParam(name, v); });
            connect(editor, &ParamEditor::editFinished, m_document, &Document::endMerge);
            connect(editor, &ParamEditor::invalid, this,
                    [this, name](const QString &message) { showError(m_errors[name], message); });
            connect(editor, &ParamEditor::widgetsAdded, m_guard, &FieldGuard::guard);
            auto *label = new QLabel(QString::fromStdString(spec.name), page);
            const QString tip = QString::fromStdString(spec.description + " (" + paramKindName(spec.kind) + ")");
            label->setToolTip(tip);
            editor->setToolTip(tip);
            form->addRow(label, editor);
            QLabel *error = errorLabel(page, name);
            form->addRow(error);
            m_editors[name] = editor;
            m_errors[name] = error;
        }
    }
    column->addStretch();
    m_guard->guard(page);
    showWhatMatters();
}

void Inspector::showWhatMatters()
{
    const Node *node = m_document->graph().node(m_nodeId);
    const NodeDescriptor *desc = node && m_form ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
    for (const ParamSpec &spec : desc ? desc->params : std::vector<ParamSpec>{})
        if (auto it = m_editors.find(spec.name); spec.mattersWhen && it != m_editors.end())
            m_form->setRowVisible(it->second, spec.mattersWhen(node->params));
}

ParamEditor *Inspector::makeEditor(const Node &node, const ParamSpec &spec, QWidget *parent)
{
    if (!spec.namesFrom.empty()) {
        // Names picked from what the labels input offers (allowed_rule's include): tick boxes,
        // when every name listed is one of them.
        const std::vector<std::string> offered = offeredLabels(node, spec.namesFrom);
        const Value *value = node.param(spec.name);
        const ValueList &listed = value && value->isList() ? value->toList() : ValueList{};
        const bool picks = std::all_of(listed.begin(), listed.end(), [&](const Value &v) {
            return std::find(offered.begin(), offered.end(), v.toString()) != offered.end();
        });
        if (!offered.empty() && picks)
            return createChoiceList(spec, offered, parent);
    }
    return ParamEditor::create(spec, parent, QString::fromStdString(m_document->graph().baseDir));
}

std::vector<std::string> Inspector::offeredLabels(const Node &node, const std::string &input)
{
    const Link *link = node.input(input);
    if (!link)
        return {};
    // Labels are functions over the world, so evaluating them is cheap: no raster is made.
    EvalRequest request;
    request.targets = {link->node};
    const EvalResult result = m_labels->evaluate(m_document->graph(), request);
    const PortValue out = result.output(link->node, link->port);
    if (const auto *labels = std::get_if<LabelsPtr>(&out); labels && *labels)
        return (*labels)->names;
    return {};
}

void Inspector::commitParam(const std::string &name, const Value &value)
{
    const Node *node = m_document->graph().node(m_nodeId);
    const NodeDescriptor *desc = node ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
    const ParamSpec *spec = desc ? desc->param(name) : nullptr;
    if (!spec)
        return;
    // The descriptor decides what is valid; a refused value stays in the field with the reason.
    if (auto problem = checkParamValue(*spec, value)) {
        showError(m_errors[name], QString::fromStdString(*problem));
        return;
    }
    showError(m_errors[name], {});
    const Value *current = node->param(name);
    if (current && *current == value) {
        m_editors[name]->setValue(*current);  // as the file writes it; nothing is left "typed"
        return;
    }
    m_document->undoStack()->push(new SetParamCommand(m_document, m_nodeId, name, value));
}

bool Inspector::discardTyping(QWidget *field)
{
    auto *line = qobject_cast<QLineEdit *>(field);
    if (!line || !line->isModified())
        return false;
    if (line == m_idEdit) {
        m_idEdit->setText(QString::fromStdString(m_nodeId));
        showError(m_idError, {});
        return true;
    }
    const Node *node = m_document->graph().node(m_nodeId);
    const NodeDescriptor *desc = node ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
    for (const auto &[name, editor] : m_editors)
        if (editor->isAncestorOf(field)) {
            // the node's value, or the default it shows when the file leaves the param out
            const ParamSpec *spec = desc ? desc->param(name) : nullptr;
            if (const Value *value = node && node->param(name) ? node->param(name) : spec ? &spec->defaultValue : nullptr)
                editor->setValue(*value);
            showError(m_errors[name], {});
            return true;
        }
    return false;
}

void Inspector::commitRename()
{
    const std::string newId = m_idEdit->text().trimmed().toStdString();
    if (newId == m_nodeId) {
        showError(m_idError, {});
        return;
    }
    if (auto problem = m_document->renameProblem(m_nodeId, newId)) {
        showError(m_idError, QString::fromStdString(*problem));
        return;
    }
    m_document->undoStack()->push(new RenameNodeCommand(m_document, m_nodeId, newId));
}

} // namespace grove
