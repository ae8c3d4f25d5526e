// Param overrides from the command line.
#include "core/graph/Overrides.h"

#include "core/base/Diagnostic.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/YamlValue.h"

namespace grove {

std::optional<std::string> applyOverride(Graph &graph, const NodeRegistry &registry, const std::string &assignment)
{
    const auto eq = assignment.find('=');
    const std::string target = assignment.substr(0, eq);
    const auto dot = target.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == target.size())
        return std::string("expected NODE.PARAM=VALUE");
    const std::string nodeId = target.substr(0, dot);
    const std::string paramName = target.substr(dot + 1);
    Node *node = graph.node(nodeId);
    if (!node) {
        std::vector<std::string> ids;
        for (const auto &n : graph.nodes)
            ids.push_back(n.id);
        return "no node " + quote(nodeId) + "" + didYouMean(nodeId, ids);
    }
    const NodeDescriptor *desc = registry.find(node->type);
    if (!desc)
        return "node " + quote(nodeId) + " has unknown type " + quote(node->type) + "";
    const ParamSpec *spec = desc->param(paramName);
    if (!spec)
        return "unknown param " + quote(paramName) + " for " + node->type + didYouMean(paramName, desc->paramNames());
    std::string error;
    auto value = parseValueText(assignment.substr(eq + 1), &error);
    if (!value)
        return "param " + quote(paramName) + ": " + error;
    if (auto problem = checkParamValue(*spec, *value))
        return "param " + quote(paramName) + ": " + *problem;
    node->setParam(paramName, *value);
    node->params = completeParams(*desc, node->params);
    if (desc->checkParams) {
        ParamIssues issues;
        desc->checkParams(node->params, issues);
        if (!issues.empty())
            return "param " + quote(issues.front().first.substr(0, issues.front().first.find_first_of(".["))) + ": "
                   + issues.front().second;
    }
    return std::nullopt;
}

} // namespace grove
