// Undo commands on links and params.
#include "document/ValueCommands.h"

#include "document/Document.h"

namespace grove {

SetInputCommand::SetInputCommand(Document *document, std::string node, std::string port, std::optional<Link> link,
                                 QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_node(std::move(node)), m_port(std::move(port)),
      m_new(std::move(link))
{
    if (const Node *n = document->graph().node(m_node))
        if (const Link *l = n->input(m_port))
            m_old = *l;
    const QString target = QString::fromStdString(m_node + "." + m_port);
    setText(m_new ? QObject::tr("Connect %1 to %2").arg(QString::fromStdString(m_new->toString()), target)
                  : QObject::tr("Disconnect %1").arg(target));
}

void SetInputCommand::redo()
{
    m_document->setInput(m_node, m_port, m_new);
}

void SetInputCommand::undo()
{
    m_document->setInput(m_node, m_port, m_old);
}

SetParamCommand::SetParamCommand(Document *document, std::string node, std::string param, Value value,
                                 QUndoCommand *parent)
    : QUndoCommand(parent), m_document(document), m_node(std::move(node)), m_param(std::move(param)),
      m_new(std::move(value)), m_generation(document->mergeGeneration()), m_folder(document->graph().baseDir)
{
    if (const Node *n = document->graph().node(m_node))
        if (const Value *v = n->param(m_param))
            m_old = *v;
    setText(QObject::tr("Change %1.%2").arg(QString::fromStdString(m_node), QString::fromStdString(m_param)));
}

void SetParamCommand::redo()
{
    m_document->setParam(m_node, m_param, m_new, m_folder);
}

void SetParamCommand::undo()
{
    m_document->setParam(m_node, m_param, m_old, m_folder);
}

bool SetParamCommand::mergeWith(const QUndoCommand *other)
{
    auto *set = static_cast<const SetParamCommand *>(other);
    if (set->m_generation != m_generation || set->m_node != m_node || set->m_param != m_param || set->m_folder != m_folder)
        return false;
    m_new = set->m_new;
    setObsolete(m_new == m_old);
    return true;
}

} // namespace grove
