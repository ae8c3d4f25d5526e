// The canvas's edit actions (delete, duplicate, copy, paste, select all, collapse) and adding a node:
// each turns the selection into commands on the Document, enabled only when it has something to act on.
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>

#include <string>
#include <utility>
#include <vector>

class QAction;

namespace grove {

class Document;
class GraphScene;
class GraphView;

class EditActions : public QObject
{
    Q_OBJECT

public:
    // Puts the canvas's shortcuts on `view` and offers them when a card is right-clicked.
    EditActions(Document *document, GraphScene *scene, GraphView *view, QObject *parent = nullptr);

    QAction *deleteAction() const { return m_delete; }
    QAction *duplicateAction() const { return m_duplicate; }
    QAction *copyAction() const { return m_copy; }
    QAction *pasteAction() const { return m_paste; }
    QAction *selectAllAction() const { return m_selectAll; }
    QAction *collapseAction() const { return m_collapse; }
    QAction *groupAction() const { return m_group; }
    QAction *ungroupAction() const { return m_ungroup; }

    // Group: the selected nodes go into a new group file (`file`, absolute; empty: ask where) and
    // one group node takes their place, wired as they were: one undo step (the file stays).
    // False, with the reason in the status bar, when it cannot be done.
    bool groupSelection(const QString &file = {});
    // Ungroup: the selected group node is replaced by its file's nodes (one undo step).
    bool ungroupSelection();
    // A group node for the graph file at `path` (absolute), at `scenePos`: one undo step; its id
    // from the file's name, its graph param relative to the document's folder once saved. A group
    // from Grove's own presets (shipped, or the user's preset folder) is first copied into the
    // saved graph's groups/ folder, so the world keeps working when it moves or Grove is upgraded;
    // a different file of that name there asks whether to use it or replace it.
    bool insertGroup(const QString &path, QPointF scenePos);

    // Adds a node of `typeId` at `scenePos` and selects it; with `wireFrom` (an output, as a link's
    // text) it arrives wired into its first input that takes the wire, in the same undo step.
    void addNode(const QString &typeId, QPointF scenePos, const QString &wireFrom);

signals:
    void statusMessage(const QString &message, int timeoutMs);

private:
    // The file a dropped group is referenced by: `absolute` itself, or its copy beside the graph
    // (see insertGroup); empty when the user cancelled or the copy could not be written.
    QString groupFileToReference(const QString &absolute);
    void updateEnabled();
    void deleteSelection();
    QString deletionSummary(const std::vector<std::string> &ids,
                            const std::vector<std::pair<std::string, std::string>> &wires) const;
    void duplicateSelection();
    void copySelection();
    void paste();
    void selectAll();
    void toggleCollapsed();

    Document *m_document;
    GraphScene *m_scene;
    GraphView *m_view;
    QAction *m_delete;
    QAction *m_duplicate;
    QAction *m_copy;
    QAction *m_paste;
    QAction *m_selectAll;
    QAction *m_collapse;
    QAction *m_group;
    QAction *m_ungroup;
};

} // namespace grove
