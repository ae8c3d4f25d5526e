// Group nodes expanded into the nodes of their files, as evaluation works on them.
#include "core/graph/GroupGraph.h"

#include "core/graph/GroupInternal.h"
#include "core/graph/GroupResolver.h"

#include "core/graph/EvalContext.h"
#include "core/base/FileInput.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/YamlValue.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sys/stat.h>

namespace grove {

using namespace group_detail;

namespace {

// What a group node became: where its outputs come from, its inputs go and its params live.
struct Expanded
{
    std::map<std::string, Link> outputs;              // port ("" : the first) -> expanded node.port
    std::map<std::string, std::vector<Link>> inputs;  // port -> expanded node.input targets
    std::map<std::string, Link> params;               // exposed name -> expanded node.param
};


class Expander
{
public:
    Expander(const GroupResolver &groups, Diagnostics *problems) : m_groups(groups), m_problems(problems) {}

    Graph expand(const Graph &graph, int depth);

private:
    // `cause`: what went wrong at the bottom, for the group that holds this graph to say.
    void problem(const std::string &groupId, std::string message, const std::string &cause = {})
    {
        if (m_reason.empty())
            m_reason = cause;
        if (m_problems)
            m_problems->push_back(problemAt("nodes." + groupId, groupId, std::move(message)));
    }
    // The group's file expanded (its own groups in it), or null with why in `why`.
    const Graph *innerOf(const GroupInfo &info, int depth, std::string &why)
    {
        auto it = m_inner.find(&info);
        if (it != m_inner.end())
            return &it->second;
        Graph g = info.loaded.graph;
        Expander nested(m_groups, nullptr);
        Graph expanded = nested.expand(g, depth + 1);
        if (nested.m_failed) {
            why = nested.m_reason;
            return nullptr;
        }
        return &m_inner.emplace(&info, std::move(expanded)).first->second;
    }

    const GroupResolver &m_groups;
    Diagnostics *m_problems;
    bool m_failed = false;
    std::string m_reason;  // the first problem's cause, for the group that holds this graph
    std::map<const GroupInfo *, Graph> m_inner;
};

Graph Expander::expand(const Graph &graph, int depth)
{
    Graph out;
    out.name = graph.name;
    out.notes = graph.notes;
    out.world = graph.world;
    out.baseDir = graph.baseDir;
    std::map<std::string, Expanded> groups;
    std::vector<std::shared_ptr<const GroupInfo>> holding;  // the infos the inner graphs' keys point to
    std::map<std::string, std::string> origin;             // expanded id -> its group's id
    for (const Node &node : graph.nodes) {
        if (node.type != kGroupType) {
            out.nodes.push_back(node);
            continue;
        }
        auto info = m_groups.group(node, graph.baseDir);
        holding.push_back(info);
        std::string why;
        const Graph *inner = info->usable && depth <= kMaxGroupDepth ? innerOf(*info, depth, why) : nullptr;
        if (!inner || out.nodes.size() + inner->nodes.size() > limits::maxNodes) {
            if (inner) {
                const std::string nodes = std::to_string(out.nodes.size() + inner->nodes.size()) + " nodes (expanded so far), more "
                                          "than the limit of " + std::to_string(limits::maxNodes);
                problem(node.id, "group " + quote(node.id) + " makes the graph " + nodes, "a group in it makes the graph " + nodes);
            } else {
                problem(node.id, "group " + quote(node.id) + " (" + info->file + ") cannot be expanded: "
                                     + (why.empty() ? std::string("its file has problems") : why), why);
            }
            m_failed = true;
            out.nodes.push_back(node);  // left as it is: the validator reports its problems
            continue;
        }
        const std::string prefix = node.id + "_";
        const std::int32_t offset = groupSeedOffset(node.id);
        const std::string innerDir = std::filesystem::path(info->file).parent_path().string();
        Expanded &e = groups[node.id];
        const size_t first = out.nodes.size();
        for (Node inside : inner->nodes) {
            inside.id = prefix + inside.id;
            origin[inside.id] = node.id;
            for (auto &[port, link] : inside.inputs)
                link.node = prefix + link.node;
            if (const NodeDescriptor *d = m_groups.registry().find(inside.type)) {
                for (const ParamSpec &spec : d->params) {
                    Value *v = nullptr;
                    for (auto &[k, pv] : inside.params)
                        if (k == spec.name)
                            v = &pv;
                    if (!v)
                        continue;
                    if (spec.role == ParamRole::Seed && v->isNumber())
                        *v = Value(static_cast<double>(offsetSeed(v->toNumber(), offset)));
                    else if (spec.role == ParamRole::FilePath && v->isString() && !v->toString().empty())
                        *v = Value(joinPath(innerDir, v->toString()));
                }
            }
            out.nodes.push_back(std::move(inside));
        }
        auto expandedNode = [&](const std::string &innerId) -> Node * {
            for (size_t i = first; i < out.nodes.size(); ++i)
                if (out.nodes[i].id == prefix + innerId)
                    return &out.nodes[i];
            return nullptr;
        };
        for (const auto &[name, p] : inner->exposed) {
            e.params[name] = Link{prefix + p.param.node, p.param.port};
            const Value *given = node.param(name);
            Node *target = expandedNode(p.param.node);
            if (!target)
                continue;
            if (given)
                target->setParam(p.param.port, *given);
            else if (!p.defaultValue.isNull())
                target->setParam(p.param.port, p.defaultValue);
        }
        for (const auto &[name, in] : inner->groupInputs) {
            auto &targets = e.inputs[name];
            for (const Link &to : in.to)
                targets.push_back(Link{prefix + to.node, to.port});
            if (const Link *link = node.input(name))
                for (const Link &to : in.to)
                    if (Node *target = expandedNode(to.node))
                        target->setInput(to.port, *link);
        }
        for (const auto &[name, o] : inner->groupOutputs) {
            const Link from{prefix + o.from.node, o.from.port};
            e.outputs[name] = from;
            if (!e.outputs.count(""))
                e.outputs[""] = from;
        }
    }
    // Links to a group now come from the node inside it that gives that output.
    for (Node &node : out.nodes)
        for (auto &[port, link] : node.inputs) {
            auto g = groups.find(link.node);
            if (g == groups.end())
                continue;
            auto o = g->second.outputs.find(link.port);
            if (o != g->second.outputs.end())
                link = o->second;
        }
    // The graph's own declarations follow its groups inside.
    for (const auto &[name, in] : graph.groupInputs) {
        GroupInput mapped{{}, in.description};
        for (const Link &to : in.to) {
            auto g = groups.find(to.node);
                const std::vector<Link> *targets = nullptr;
            if (g != groups.end())
                if (auto t = g->second.inputs.find(to.port); t != g->second.inputs.end())
                    targets = &t->second;
            if (targets)
                mapped.to.insert(mapped.to.end(), targets->begin(), targets->end());
            else
                mapped.to.push_back(to);
        }
        out.groupInputs[name] = std::move(mapped);
    }
    for (const auto &[name, o] : graph.groupOutputs) {
        GroupOutput mapped = o;
        if (auto g = groups.find(o.from.node); g != groups.end())
            if (auto f = g->second.outputs.find(o.from.port); f != g->second.outputs.end())
                mapped.from = f->second;
        out.groupOutputs[name] = std::move(mapped);
    }
    for (const auto &[name, p] : graph.exposed) {
        GroupParam mapped = p;
        if (auto g = groups.find(p.param.node); g != groups.end())
            if (auto f = g->second.params.find(p.param.port); f != g->second.params.end())
                mapped.param = f->second;
        out.exposed[name] = std::move(mapped);
    }
    for (const auto &[id, l] : graph.layout)
        if (!groups.count(id))
            out.layout[id] = l;
    // An expanded id must be a valid id of its own.
    std::map<std::string, int> seen;
    for (const Node &n : out.nodes)
        ++seen[n.id];
    for (const auto &[id, count] : seen) {
        auto o = origin.find(id);
        if (o == origin.end())
            continue;
        if (count > 1) {
            problem(o->second, "group " + quote(o->second) + ": its node " + quote(id) + " takes the id of another node; rename the group");
            m_failed = true;
        } else if (!isValidNodeId(id)) {
            problem(o->second, "group " + quote(o->second) + ": its node " + quote(id) + " has an id over 128 characters; use a shorter group id");
            m_failed = true;
        }
    }
    return out;
}

} // namespace


Graph expandGroups(const Graph &graph, const GroupResolver &groups, Diagnostics *problems)
{
    Expander expander(groups, problems);
    return expander.expand(graph, 0);
}

} // namespace grove
