// Group nodes: the `group` node type, the seed offset a group gives the nodes inside it. Resolving
// group files: GroupResolver.cpp; declarations: GroupDeclarations.cpp; expansion:
// GroupExpansion.cpp; grouping and ungrouping: GroupEditing.cpp.
#include "core/graph/GroupGraph.h"

#include "core/graph/EvalContext.h"

#include <algorithm>
#include <cmath>

namespace grove {

NodeDescriptor groupNodeDescriptor()
{
    NodeDescriptor d;
    d.typeId = kGroupType;
    d.displayName = "Group";
    d.category = "Groups";
    d.description = "The nodes of another graph file, used as one node: its declared inputs and outputs are the "
                    "group's ports, its exposed params the group's params. Seeds inside differ per group id.";
    ParamSpec graph;
    graph.name = kGroupGraphParam;
    graph.kind = ParamKind::String;
    graph.defaultValue = Value(std::string());
    graph.description = "the group's graph file (.grove.yaml), relative to this graph's file";
    graph.role = ParamRole::FilePath;
    d.params.push_back(std::move(graph));
    d.evaluate = [](EvalContext &ctx) {
        ctx.fail("a group node is expanded into its file's nodes before evaluation; this one could not be");
    };
    return d;
}

std::int32_t groupSeedOffset(const std::string &groupId)
{
    std::uint32_t h = 2166136261u;
    for (unsigned char c : groupId) {
        h ^= c;
        h *= 16777619u;
    }
    return static_cast<std::int32_t>(h);
}

std::int32_t offsetSeed(double seed, std::int32_t offset)
{
    const double clamped = std::isfinite(seed) ? std::clamp(seed, -2147483648.0, 2147483647.0) : 0.0;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(clamped))
                                     + static_cast<std::uint32_t>(offset));
}

bool hasGroupNodes(const Graph &graph)
{
    return std::any_of(graph.nodes.begin(), graph.nodes.end(), [](const Node &n) { return n.type == kGroupType; });
}

} // namespace grove
