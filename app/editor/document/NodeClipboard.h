// Builds the commands that create nodes: a new node of a type, and pasting/duplicating a subgraph.
#pragma once

#include <QPointF>
#include <QString>

#include <string>
#include <vector>

class QUndoCommand;

namespace grove {

class Document;

class NodeClipboard
{
public:
    static inline const char *mimeType = "application/x-grove-nodes";

    // The nodes as a graph file (links between them kept, links from outside dropped).
    static std::string copy(const Document &document, const std::vector<std::string> &ids);
    // A command adding the nodes of `text` with fresh unique ids, their top-left corner at `topLeft`;
    // nullptr when the text holds no nodes. `newIds` receives the ids given.
    static QUndoCommand *paste(Document *document, const std::string &text, QPointF topLeft,
                               std::vector<std::string> *newIds, const QString &commandText);
    // A command adding one node of `typeId` with default params at `pos`; nullptr for an unknown type.
    static QUndoCommand *newNode(Document *document, const std::string &typeId, QPointF pos, std::string *newId);
};

} // namespace grove
