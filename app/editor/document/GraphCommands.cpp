// Undo commands on the graph's info and on the whole graph.
#include "document/GraphCommands.h"

#include "document/Document.h"
#include "document/NodeCommands.h"

namespace grove {

SetGraphInfoCommand::SetGraphInfoCommand(Document *document, std::string name, std::string notes, World world,
                                         const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent), m_document(document), m_oldName(document->graph().name),
      m_oldNotes(document->graph().notes), m_newName(std::move(name)), m_newNotes(std::move(notes)),
      m_oldWorld(document->graph().world), m_newWorld(world), m_generation(document->mergeGeneration())
{
}

void SetGraphInfoCommand::redo()
{
    m_document->setGraphInfo(m_newName, m_newNotes, m_newWorld);
}

void SetGraphInfoCommand::undo()
{
    m_document->setGraphInfo(m_oldName, m_oldNotes, m_oldWorld);
}

int SetGraphInfoCommand::id() const
{
    return SetGraphInfoId;
}

bool SetGraphInfoCommand::mergeWith(const QUndoCommand *other)
{
    auto *set = static_cast<const SetGraphInfoCommand *>(other);
    // Only edits of the same field merge: the text names it.
    if (set->m_generation != m_generation || set->text() != text())
        return false;
    m_newName = set->m_newName;
    m_newNotes = set->m_newNotes;
    m_newWorld = set->m_newWorld;
    setObsolete(m_newName == m_oldName && m_newNotes == m_oldNotes && m_newWorld == m_oldWorld);
    return true;
}

ReplaceGraphCommand::ReplaceGraphCommand(Document *document, Graph graph, const QString &text, QUndoCommand *parent)
    : QUndoCommand(text, parent), m_document(document), m_old(document->graph()), m_new(std::move(graph))
{
}

void ReplaceGraphCommand::redo()
{
    m_document->replaceGraph(m_new);
}

void ReplaceGraphCommand::undo()
{
    m_document->replaceGraph(m_old);
}

} // namespace grove
