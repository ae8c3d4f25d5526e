// Undo commands on the graph as a whole: its name, notes and world, and swapping in a recovered graph.
#pragma once

#include "core/graph/Graph.h"

#include <QUndoCommand>

#include <string>

namespace grove {

class Document;

// Sets the graph's name, notes and world; consecutive edits of the same field merge until
// Document::endMerge().
class SetGraphInfoCommand : public QUndoCommand
{
public:
    SetGraphInfoCommand(Document *document, std::string name, std::string notes, World world,
                        const QString &text, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand *other) override;

private:
    Document *m_document;
    std::string m_oldName, m_oldNotes, m_newName, m_newNotes;
    World m_oldWorld, m_newWorld;
    int m_generation;
};

// Replaces the whole graph, e.g. with an autosaved one; undo gives back the graph that was open.
class ReplaceGraphCommand : public QUndoCommand
{
public:
    ReplaceGraphCommand(Document *document, Graph graph, const QString &text, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    Graph m_old, m_new;
};

} // namespace grove
