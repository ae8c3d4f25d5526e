// GraphInputs: group files from their resolution, file params from the graph with its groups expanded
// (where an inner file param is already relative to the including graph's folder).
#include "core/graph/GraphInputs.h"

#include "core/base/FileInput.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"

#include <filesystem>
#include <set>

namespace grove {

namespace {

std::string absoluteNormal(const std::string &path)
{
    std::error_code ec;
    std::filesystem::path p = std::filesystem::absolute(path, ec);
    return (ec ? std::filesystem::path(path) : p).lexically_normal().string();
}

} // namespace

std::vector<std::string> graphInputFiles(const Graph &graph, const GroupResolver &groups)
{
    std::set<std::string> files;
    for (const Node &node : graph.nodes)
        if (node.type == kGroupType)
            for (const auto &[file, signature] : groups.group(node, graph.baseDir)->deps)
                files.insert(absoluteNormal(file));
    const Graph expanded = hasGroupNodes(graph) ? expandGroups(graph, groups, nullptr) : graph;
    for (const Node &node : expanded.nodes) {
        const NodeDescriptor *d = groups.find(node, expanded.baseDir);
        if (!d)
            continue;
        for (const ParamSpec &spec : d->params) {
            if (spec.role != ParamRole::FilePath)
                continue;
            const Value *v = node.param(spec.name);
            if (v && v->isString() && !v->toString().empty())
                files.insert(absoluteNormal(resolveInputPath(expanded.baseDir, v->toString())));
        }
    }
    return {files.begin(), files.end()};
}

} // namespace grove
