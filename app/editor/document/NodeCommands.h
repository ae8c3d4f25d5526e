// Undo commands on whole nodes: add, delete (with their links), move, rename, collapse. They store ids.
#pragma once

#include "core/graph/Graph.h"

#include <QPointF>
#include <QUndoCommand>

#include <map>
#include <string>
#include <vector>

namespace grove {

class Document;

enum CommandId { MoveNodesId = 1, SetParamId = 2, SetGraphInfoId = 3 };

// Adds nodes (a new node, a paste, a duplicate) with their layout and links.
class AddNodesCommand : public QUndoCommand
{
public:
    AddNodesCommand(Document *document, std::vector<Node> nodes, std::vector<NodeLayout> layouts,
                    const QString &text, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::vector<Node> m_nodes;
    std::vector<NodeLayout> m_layouts;
    std::string m_folder;  // the graph's folder when the nodes were written (file paths are relative to it)
};

// Removes nodes and every link into them; undo puts all of it back where it was.
class DeleteNodesCommand : public QUndoCommand
{
public:
    DeleteNodesCommand(Document *document, const std::vector<std::string> &ids, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    struct Removed
    {
        int index;
        Node node;
        NodeLayout layout;
    };
    struct CutLink
    {
        std::string node, port;
        Link link;
    };
    Document *m_document;
    std::vector<Removed> m_removed;   // ascending index
    std::vector<CutLink> m_cutLinks;  // links from surviving nodes into removed ones
    std::string m_folder;             // the graph's folder when the nodes were removed
};

// Moves nodes to new positions; consecutive moves of the same nodes merge into one step.
class MoveNodesCommand : public QUndoCommand
{
public:
    MoveNodesCommand(Document *document, std::map<std::string, QPointF> from, std::map<std::string, QPointF> to,
                     QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override { return MoveNodesId; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    Document *m_document;
    std::map<std::string, QPointF> m_from, m_to;
    int m_generation;
};

// Gives a node a new id, updating every link and its layout entry.
class RenameNodeCommand : public QUndoCommand
{
public:
    RenameNodeCommand(Document *document, std::string oldId, std::string newId, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_oldId, m_newId;
};

// Collapses or expands node cards (a layout flag, saved with the file).
class SetCollapsedCommand : public QUndoCommand
{
public:
    SetCollapsedCommand(Document *document, const std::vector<std::string> &ids, bool collapsed,
                        QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::map<std::string, bool> m_old;
    bool m_new;
};

} // namespace grove
