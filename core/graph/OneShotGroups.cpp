// The one-shot forms, for callers that keep no resolver (a test, a tool with one graph, a graph
// without groups): each reads the graph's groups into a resolver of its own for the one call. An
// owner of loaded graphs (an editor tab, a CLI run, a C API handle) passes its resolver instead.
#include "core/graph/GraphReader.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"

namespace grove {

namespace {

GroupResolver resolvedFor(const Graph &graph, const NodeRegistry &registry)
{
    GroupResolver groups(registry);
    resolveGroups(groups, graph);
    return groups;
}

} // namespace

Diagnostics validateGraph(const Graph &graph, const NodeRegistry &registry)
{
    return validateGraph(graph, resolvedFor(graph, registry));
}

std::optional<std::string> connectionProblem(const Graph &graph, const NodeRegistry &registry, const Link &from,
                                             const std::string &toNode, const std::string &toInput)
{
    return connectionProblem(graph, resolvedFor(graph, registry), from, toNode, toInput);
}

std::string saveGraphToString(const Graph &graph, const NodeRegistry &registry, bool withLayout)
{
    return saveGraphToString(graph, resolvedFor(graph, registry), withLayout);
}

std::string graphHash(const Graph &graph, const NodeRegistry &registry)
{
    return graphHash(graph, resolvedFor(graph, registry));
}

Graph expandGroups(const Graph &graph, const NodeRegistry &registry, Diagnostics *problems)
{
    return expandGroups(graph, resolvedFor(graph, registry), problems);
}

void expandLoadedGroups(LoadResult &loaded, const std::string &file, const NodeRegistry &registry)
{
    expandLoadedGroups(loaded, file, resolvedFor(loaded.graph, registry));
}

} // namespace grove
