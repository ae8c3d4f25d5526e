// Undo commands on values inside nodes: an input's link (connect/disconnect) and a param's value.
#pragma once

#include "document/NodeCommands.h"

#include "core/graph/Graph.h"

#include <QUndoCommand>

#include <optional>
#include <string>

namespace grove {

class Document;

// Sets or clears the link into one input; remembers what was there before.
class SetInputCommand : public QUndoCommand
{
public:
    SetInputCommand(Document *document, std::string node, std::string port, std::optional<Link> link,
                    QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *m_document;
    std::string m_node, m_port;
    std::optional<Link> m_old, m_new;
};

// Sets one param; consecutive edits of the same param of the same node merge (slider drags)
// until Document::endMerge() (slider released, field left).
class SetParamCommand : public QUndoCommand
{
public:
    SetParamCommand(Document *document, std::string node, std::string param, Value value,
                    QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override { return SetParamId; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    Document *m_document;
    std::string m_node, m_param;
    Value m_old, m_new;
    int m_generation;
    std::string m_folder;  // the graph's folder when the values were written (file paths are relative to it)
};

} // namespace grove
