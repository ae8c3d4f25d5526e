// EditActions: the edit actions' QActions, their enabled state and the commands they push.
#include "window/EditActions.h"

#include "document/Document.h"
#include "canvas/GraphScene.h"
#include "canvas/GraphView.h"
#include "document/NodeClipboard.h"
#include "document/NodeCommands.h"
#include "canvas/NodeItem.h"
#include "document/ValueCommands.h"

#include "document/GraphCommands.h"
#include "window/PresetBrowser.h"

#include "core/base/SafeFile.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStringList>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

namespace grove {

namespace {
QPointF wholeUnits(QPointF p) { return QPointF(std::round(p.x()), std::round(p.y())); }

// A node id from a file's name: its first part, lower case, anything but a-z, 0-9 and _ as _.
std::string idStem(const QString &path)
{
    std::string stem = QFileInfo(path).fileName().section('.', 0, 0).toLower().toStdString();
    for (char &c : stem)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            c = '_';
    return stem;
}

// Whether `file` lies in one of Grove's own preset folders (what an upgrade replaces or a move of
// the world leaves behind), not in a folder of the user's project.
bool inGrovePresets(const QString &file)
{
    const QString canonical = QFileInfo(file).canonicalFilePath();
    QStringList dirs = PresetBrowser::shippedDirs();
    dirs << PresetBrowser::userDir();
    for (const QString &dir : dirs) {
        const QString root = QFileInfo(dir).canonicalFilePath();
        if (!root.isEmpty() && !canonical.isEmpty() && canonical.startsWith(root + '/'))
            return true;
    }
    return false;
}

// Nodes for the status line: by name, or "5 nodes" when more than three.
QStringList nodesNamed(const std::vector<std::string> &ids)
{
    if (ids.size() > 3)
        return {QObject::tr("%1 nodes").arg(ids.size())};
    QStringList names;
    for (const std::string &id : ids)
        names << QString::fromStdString(id);
    return names;
}

// "a", "a and b", "a, b and c"; "nothing" for none.
QString listed(QStringList parts)
{
    if (parts.isEmpty())
        return QObject::tr("nothing");
    const QString last = parts.takeLast();
    return parts.isEmpty() ? last : QObject::tr("%1 and %2").arg(parts.join(", "), last);
}

std::optional<QByteArray> readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return file.readAll();
}
} // namespace

EditActions::EditActions(Document *document, GraphScene *scene, GraphView *view, QObject *parent)
    : QObject(parent), m_document(document), m_scene(scene), m_view(view)
{
    auto make = [this](const QString &text, const QList<QKeySequence> &keys, void (EditActions::*slot)()) {
        auto *action = new QAction(text, this);
        action->setShortcuts(keys);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    m_delete = make(tr("&Delete"), {QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)}, &EditActions::deleteSelection);
    m_duplicate = make(tr("D&uplicate"), {QKeySequence(tr("Ctrl+D"))}, &EditActions::duplicateSelection);
    m_copy = make(tr("&Copy"), {QKeySequence(QKeySequence::Copy)}, &EditActions::copySelection);
    m_paste = make(tr("&Paste"), {QKeySequence(QKeySequence::Paste)}, &EditActions::paste);
    m_selectAll = make(tr("Select &All"), {QKeySequence(QKeySequence::SelectAll)}, &EditActions::selectAll);
    m_collapse = make(tr("Collapse/E&xpand"), {QKeySequence(Qt::Key_H)}, &EditActions::toggleCollapsed);
    m_group = new QAction(tr("&Group…"), this);
    m_group->setShortcut(QKeySequence(tr("Ctrl+G")));
    connect(m_group, &QAction::triggered, this, [this] { groupSelection(); });
    m_ungroup = new QAction(tr("U&ngroup"), this);
    m_ungroup->setShortcut(QKeySequence(tr("Ctrl+Shift+G")));
    connect(m_ungroup, &QAction::triggered, this, [this] { ungroupSelection(); });

    // Canvas shortcuts must not fire while typing in the inspector's fields.
    for (QAction *a : {m_delete, m_duplicate, m_copy, m_collapse, m_group, m_ungroup})
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addActions({m_delete, m_duplicate, m_copy, m_collapse, m_group, m_ungroup});
    m_view->setNodeActions({m_duplicate, m_copy, m_collapse, m_group, m_ungroup, m_delete});

    connect(m_scene, &QGraphicsScene::selectionChanged, this, &EditActions::updateEnabled);
    connect(m_view, &GraphView::addNodeRequested, this, &EditActions::addNode);
    connect(m_view, &GraphView::graphFileDropped, this, &EditActions::insertGroup);
    updateEnabled();
}

void EditActions::updateEnabled()
{
    // The scene's own list: this runs while items are being deleted, when GraphScene's lists still hold them.
    const QList<QGraphicsItem *> selected = m_scene->selectedItems();
    const bool nodes = std::any_of(selected.begin(), selected.end(),
                                   [](QGraphicsItem *item) { return dynamic_cast<NodeItem *>(item) != nullptr; });
    m_delete->setEnabled(!selected.isEmpty());
    m_duplicate->setEnabled(nodes);
    m_copy->setEnabled(nodes);
    m_collapse->setEnabled(nodes);
    m_group->setEnabled(nodes);
    const std::vector<std::string> ids = m_scene->selectedNodeIds();
    const Node *one = ids.size() == 1 ? m_document->graph().node(ids.front()) : nullptr;
    m_ungroup->setEnabled(one && one->type == kGroupType);
}

bool EditActions::groupSelection(const QString &file)
{
    const std::vector<std::string> ids = m_scene->selectedNodeIds();
    if (ids.empty())
        return false;
    if (m_document->filePath().isEmpty()) {
        emit statusMessage(tr("Save the graph first: a group file is named relative to it."), 6000);
        return false;
    }
    const QDir folder = QFileInfo(m_document->filePath()).absoluteDir();
    QString path = file;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(m_view, tr("Group file"), folder.filePath("group.grove.yaml"),
                                            tr("Grove graphs (*.grove.yaml)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".grove.yaml"))
        path += ".grove.yaml";
    const std::string stem = idStem(path);
    const std::string groupId = m_document->uniqueNodeId(stem.empty() ? "group" : stem);
    const std::string relative = folder.relativeFilePath(path).toStdString();
    if (QFileInfo(path).absoluteFilePath() == QFileInfo(m_document->filePath()).absoluteFilePath()) {
        emit statusMessage(tr("A group cannot be the graph's own file."), 6000);
        return false;
    }
    const Grouping grouping = groupNodes(m_document->graph(), ids, groupId, relative, m_document->groups());
    if (!grouping.problem.empty()) {
        emit statusMessage(tr("Cannot group: %1").arg(QString::fromStdString(grouping.problem)), 8000);
        return false;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (auto error = writeFileAtomically(path.toStdString(), saveGraphToString(grouping.inner, m_document->groups()))) {
        emit statusMessage(tr("Cannot write %1: %2").arg(path, QString::fromStdString(*error)), 8000);
        return false;
    }
    m_document->reloadGroups();  // a file of that name read before (grouped, undone) is read anew
    m_document->undoStack()->push(new ReplaceGraphCommand(m_document, grouping.outer, tr("Group %n node(s)", nullptr, int(ids.size()))));
    m_scene->clearSelection();
    if (NodeItem *item = m_scene->nodeItem(groupId))
        item->setSelected(true);
    emit statusMessage(tr("Grouped %n node(s) into %1 (%2).", nullptr, int(ids.size()))
                           .arg(QString::fromStdString(groupId), QString::fromStdString(relative)), 6000);
    // the file dialog took the focus: give it back to the canvas, whose shortcuts (Ctrl+Shift+G
    // to ungroup again, Del, Ctrl+D) only fire there
    m_view->setFocus();
    return true;
}

QString EditActions::groupFileToReference(const QString &absolute)
{
    if (m_document->filePath().isEmpty() || !inGrovePresets(absolute))
        return absolute;
    const QDir folder = QFileInfo(m_document->filePath()).absoluteDir();
    const QString name = QFileInfo(absolute).fileName();
    const QString copy = folder.filePath("groups/" + name);
    if (QFileInfo(copy).canonicalFilePath() == QFileInfo(absolute).canonicalFilePath())
        return absolute;  // the graph is itself among the presets: its groups/ is theirs
    const std::optional<QByteArray> preset = readAll(absolute);
    if (!preset) {
        emit statusMessage(tr("Cannot read %1.").arg(absolute), 8000);
        return {};
    }
    if (QFileInfo::exists(copy)) {
        if (readAll(copy) == preset)
            return copy;  // the same group, copied before
        QMessageBox ask(QMessageBox::Question, tr("Group file exists"),
                        tr("groups/%1 beside this graph differs from the preset's. Use the file that is "
                           "there, or replace it with the preset's (group nodes that use it change too)?")
                            .arg(name),
                        QMessageBox::NoButton, m_view->window());
        QPushButton *use = ask.addButton(tr("Use Existing"), QMessageBox::AcceptRole);
        QPushButton *replace = ask.addButton(tr("Replace"), QMessageBox::DestructiveRole);
        ask.addButton(QMessageBox::Cancel);
        ask.setDefaultButton(use);
        ask.exec();
        if (ask.clickedButton() == use)
            return copy;
        if (ask.clickedButton() != replace)
            return {};
    }
    QDir().mkpath(QFileInfo(copy).absolutePath());
    if (auto error = writeFileAtomically(copy.toStdString(), preset->toStdString())) {
        emit statusMessage(tr("Cannot copy the group to %1: %2").arg(copy, QString::fromStdString(*error)), 8000);
        return {};
    }
    m_document->reloadGroups();  // a replaced file is read anew
    emit statusMessage(tr("Copied the preset group into groups/%1 beside the graph.").arg(name), 6000);
    return copy;
}

bool EditActions::insertGroup(const QString &path, QPointF scenePos)
{
    const QString dropped = QFileInfo(path).absoluteFilePath();
    if (!m_document->filePath().isEmpty() && QFileInfo(m_document->filePath()).absoluteFilePath() == dropped) {
        emit statusMessage(tr("A graph cannot include itself as a group."), 6000);
        return false;
    }
    const QString absolute = groupFileToReference(dropped);
    if (absolute.isEmpty())
        return false;
    const QString param = m_document->filePath().isEmpty() ? absolute
                                                           : QFileInfo(m_document->filePath()).absoluteDir().relativeFilePath(absolute);
    const std::string stem = idStem(absolute);
    std::string id;
    QUndoCommand *command = NodeClipboard::newNode(m_document, kGroupType, wholeUnits(scenePos), &id);
    if (!command)
        return false;
    QUndoStack *stack = m_document->undoStack();
    stack->beginMacro(tr("Add group %1").arg(QFileInfo(absolute).fileName()));
    stack->push(command);
    if (!stem.empty() && stem != id && isValidNodeId(stem)) {
        const std::string wanted = m_document->uniqueNodeId(stem);
        stack->push(new RenameNodeCommand(m_document, id, wanted));
        id = wanted;
    }
    stack->push(new SetParamCommand(m_document, id, kGroupGraphParam, Value(param.toStdString())));
    stack->endMacro();
    m_scene->selectNodes({id});
    return true;
}

bool EditActions::ungroupSelection()
{
    const std::vector<std::string> ids = m_scene->selectedNodeIds();
    const Node *node = ids.size() == 1 ? m_document->graph().node(ids.front()) : nullptr;
    if (!node || node->type != kGroupType)
        return false;
    const std::string id = node->id;
    const Ungrouping ungrouping = ungroupNode(m_document->graph(), id, m_document->groups());
    if (!ungrouping.problem.empty()) {
        emit statusMessage(tr("Cannot ungroup %1: %2").arg(QString::fromStdString(id), QString::fromStdString(ungrouping.problem)), 8000);
        return false;
    }
    m_document->undoStack()->push(new ReplaceGraphCommand(m_document, ungrouping.graph, tr("Ungroup %1").arg(QString::fromStdString(id))));
    m_scene->clearSelection();
    for (const std::string &inner : ungrouping.ids)
        if (NodeItem *item = m_scene->nodeItem(inner))
            item->setSelected(true);
    m_view->setFocus();
    return true;
}

void EditActions::addNode(const QString &typeId, QPointF scenePos, const QString &wireFrom)
{
    std::string id;
    QUndoCommand *command = NodeClipboard::newNode(m_document, typeId.toStdString(), wholeUnits(scenePos), &id);
    if (!command)
        return;
    QUndoStack *stack = m_document->undoStack();
    if (wireFrom.isEmpty()) {
        stack->push(command);
    } else {
        // The node and its wire are one step; the validator picks the first input that takes it.
        const Link from = Link::parse(wireFrom.toStdString());
        stack->beginMacro(command->text());
        stack->push(command);
        const Node *node = m_document->graph().node(id);
        const NodeDescriptor *desc = node ? m_document->groups().find(*node, m_document->graph().baseDir) : nullptr;
        for (const PortSpec &in : desc ? desc->inputs : std::vector<PortSpec>{})
            if (!connectionProblem(m_document->graph(), m_document->groups(), from, id, in.name)) {
                stack->push(new SetInputCommand(m_document, id, in.name, from));
                emit statusMessage(tr("Added %1, wired from %2 into %3.")
                                       .arg(QString::fromStdString(id), wireFrom, QString::fromStdString(in.name)),
                                   4000);
                break;
            }
        stack->endMacro();
    }
    m_scene->selectNodes({id});
    m_view->setFocus();
}

void EditActions::toggleCollapsed()
{
    const auto ids = m_scene->selectedNodeIds();
    if (ids.empty())
        return;
    // Mixed selections collapse: one press tidies, the next opens them all.
    const bool collapse = std::any_of(ids.begin(), ids.end(), [this](const std::string &id) {
        return !m_document->isCollapsed(id);
    });
    m_document->undoStack()->push(new SetCollapsedCommand(m_document, ids, collapse));
}

void EditActions::deleteSelection()
{
    const auto ids = m_scene->selectedNodeIds();
    const auto wires = m_scene->selectedWires();
    if (ids.empty() && wires.empty())
        return;
    const QString message = deletionSummary(ids, wires);
    QUndoStack *stack = m_document->undoStack();
    stack->beginMacro(ids.empty() ? tr("Delete links") : tr("Delete"));
    for (const auto &[node, port] : wires)
        stack->push(new SetInputCommand(m_document, node, port, std::nullopt));
    if (!ids.empty())
        stack->push(new DeleteNodesCommand(m_document, ids));
    stack->endMacro();
    emit statusMessage(message, 6000);
}

// "Deleted trees and 3 wires.": the nodes by name (a count when many), and every wire that goes
// with them, the selected ones and those into or out of a deleted node.
QString EditActions::deletionSummary(const std::vector<std::string> &ids,
                                     const std::vector<std::pair<std::string, std::string>> &wires) const
{
    const std::set<std::string> deleted(ids.begin(), ids.end());
    std::set<std::pair<std::string, std::string>> dropped(wires.begin(), wires.end());
    for (const Node &n : m_document->graph().nodes)
        for (const auto &[port, link] : n.inputs)
            if (deleted.count(n.id) || deleted.count(link.node))
                dropped.emplace(n.id, port);
    QStringList parts = nodesNamed(ids);
    if (!dropped.empty())
        parts << (dropped.size() == 1 ? tr("1 wire") : tr("%1 wires").arg(dropped.size()));
    return tr("Deleted %1.").arg(listed(parts));
}

void EditActions::duplicateSelection()
{
    const auto ids = m_scene->selectedNodeIds();
    if (ids.empty())
        return;
    const std::string text = NodeClipboard::copy(*m_document, ids);
    // Just below the originals, so both stay readable.
    double left = std::numeric_limits<double>::max(), bottom = std::numeric_limits<double>::lowest();
    for (const auto &id : ids)
        if (NodeItem *item = m_scene->nodeItem(id)) {
            left = std::min(left, item->pos().x());
            bottom = std::max(bottom, item->sceneBoundingRect().bottom());
        }
    std::vector<std::string> newIds;
    if (QUndoCommand *c = NodeClipboard::paste(m_document, text, wholeUnits(QPointF(left, bottom + 24)), &newIds,
                                               tr("Duplicate"))) {
        m_document->undoStack()->push(c);
        m_scene->selectNodes(newIds);
        emit statusMessage(tr("Duplicated as %1 (Ctrl+Z undoes).").arg(listed(nodesNamed(newIds))), 4000);
    }
}

void EditActions::copySelection()
{
    const auto ids = m_scene->selectedNodeIds();
    if (ids.empty())
        return;
    const QByteArray text = QByteArray::fromStdString(NodeClipboard::copy(*m_document, ids));
    auto *mime = new QMimeData;
    mime->setData(NodeClipboard::mimeType, text);
    mime->setText(QString::fromUtf8(text));
    QApplication::clipboard()->setMimeData(mime);
    emit statusMessage(tr("Copied %n node(s).", nullptr, static_cast<int>(ids.size())), 3000);
}

void EditActions::paste()
{
    const QMimeData *mime = QApplication::clipboard()->mimeData();
    if (!mime)
        return;
    const QByteArray text = mime->hasFormat(NodeClipboard::mimeType) ? mime->data(NodeClipboard::mimeType)
                                                                      : mime->text().toUtf8();
    std::vector<std::string> newIds;
    QUndoCommand *c = NodeClipboard::paste(m_document, text.toStdString(), wholeUnits(m_view->cursorScenePos()), &newIds,
                                           tr("Paste"));
    if (!c) {
        emit statusMessage(tr("The clipboard holds no Grove nodes."), 3000);
        return;
    }
    m_document->undoStack()->push(c);
    m_scene->selectNodes(newIds);
    // the new ids said: a pasted node is renamed where its id is taken, and lands at the pointer
    emit statusMessage(tr("Pasted %1 (Ctrl+Z undoes).").arg(listed(nodesNamed(newIds))), 4000);
}

void EditActions::selectAll()
{
    std::vector<std::string> ids;
    for (const Node &n : m_document->graph().nodes)
        ids.push_back(n.id);
    m_scene->selectNodes(ids);
}

} // namespace grove
