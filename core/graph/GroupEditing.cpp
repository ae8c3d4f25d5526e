// Grouping a selection into a new group file, and ungrouping a group node back into its nodes.
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

// The params of a node that name files (relative to its graph's folder).
std::vector<std::string> fileParams(const Node &node, const std::string &baseDir, const GroupResolver &groups)
{
    std::vector<std::string> names;
    if (const NodeDescriptor *d = groups.find(node, baseDir))
        for (const ParamSpec &spec : d->params)
            if (spec.role == ParamRole::FilePath)
                names.push_back(spec.name);
    return names;
}

// The node's seed param (the Seed role), or nullptr.
const ParamSpec *seedParam(const Node &node, const NodeRegistry &registry)
{
    if (node.type == kGroupType)
        return nullptr;
    const NodeDescriptor *d = registry.find(node.type);
    return d ? d->paramWithRole(ParamRole::Seed) : nullptr;
}

Value *paramSlot(Node &node, const std::string &name)
{
    for (auto &[k, v] : node.params)
        if (k == name)
            return &v;
    return nullptr;
}

// A declared port's name from a link's text: rocks.all -> rocks_all.
std::string portName(const Link &link)
{
    std::string name = link.port.empty() ? link.node : link.node + "_" + link.port;
    for (char &c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            c = '_';
    if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z'))
        name = "p_" + name;
    return name.substr(0, 100);
}

} // namespace

Grouping groupNodes(const Graph &graph, const std::vector<std::string> &ids, const std::string &groupId,
                    const std::string &groupFile, const GroupResolver &groups)
{
    Grouping r;
    const std::set<std::string> selected(ids.begin(), ids.end());
    if (selected.empty())
        return r.problem = "select the nodes to group", r;
    for (const std::string &id : selected)
        if (!graph.node(id))
            return r.problem = "no node " + quote(id), r;
    if (!isValidNodeId(groupId))
        return r.problem = "the group id " + quote(groupId) + " is not valid: use a-z, 0-9 and _, starting with a letter", r;
    if (graph.node(groupId) && !selected.count(groupId))
        return r.problem = "another node is called " + quote(groupId), r;
    if (groupFile.empty())
        return r.problem = "the group needs a file name", r;
    const std::filesystem::path fileDir = std::filesystem::path(groupFile).parent_path();
    auto rebase = [&](const std::string &path) -> std::string {
        if (path.empty() || path.front() == '/' || fileDir.empty())
            return path;
        std::filesystem::path rel = std::filesystem::path(path).lexically_relative(fileDir);
        if (rel.empty() || fileDir.string().find("..") != std::string::npos)  // cannot say it relative: say it whole
            return resolveInputPath(graph.baseDir.empty() ? std::filesystem::current_path().string() : graph.baseDir, path);
        return rel.string();
    };
    const std::int32_t offset = groupSeedOffset(groupId);
    const std::int32_t undo = static_cast<std::int32_t>(0u - static_cast<std::uint32_t>(offset));

    Graph &inner = r.inner;
    inner.name = groupId;
    inner.world = graph.world;
    inner.baseDir = groupFile.front() == '/' ? fileDir.string() : (std::filesystem::path(graph.baseDir) / fileDir).lexically_normal().string();
    std::map<std::string, std::string> inputBySource;  // outer link text -> declared input
    Graph &outer = r.outer;
    outer.name = graph.name;
    outer.notes = graph.notes;
    outer.world = graph.world;
    outer.baseDir = graph.baseDir;
    outer.groupInputs = graph.groupInputs;
    outer.groupOutputs = graph.groupOutputs;
    outer.exposed = graph.exposed;
    Node group;
    group.id = groupId;
    group.type = kGroupType;
    group.params = {{kGroupGraphParam, Value(groupFile)}};
    bool placed = false;
    // the group takes the place of its leftmost node (the topmost of those): a spot the grouped
    // nodes leave free, where their centroid may lie under a node that stays
    std::optional<NodeLayout> place;
    for (const Node &node : graph.nodes) {
        if (!selected.count(node.id)) {
            outer.nodes.push_back(node);
            continue;
        }
        if (!placed)
            outer.nodes.push_back(Node{}), placed = true;  // the group takes the first one's place
        Node inside = node;
        for (const std::string &name : fileParams(node, graph.baseDir, groups))
            if (Value *v = paramSlot(inside, name); v && v->isString())
                *v = Value(rebase(v->toString()));
        if (const ParamSpec *seed = seedParam(node, groups.registry()))
            if (Value *v = paramSlot(inside, seed->name); v && v->isNumber())
                *v = Value(static_cast<double>(offsetSeed(v->toNumber(), undo)));
        std::vector<std::pair<std::string, Link>> kept;
        for (const auto &[port, link] : node.inputs) {
            if (selected.count(link.node)) {
                kept.emplace_back(port, link);
                continue;
            }
            auto [it, fresh] = inputBySource.emplace(link.toString(), std::string());
            if (fresh) {
                std::string name = portName(link);
                for (int n = 2; inner.groupInputs.count(name); ++n)
                    name = portName(link) + "_" + std::to_string(n);
                it->second = name;
                group.inputs.emplace_back(name, link);
            }
            inner.groupInputs[it->second].to.push_back(Link{node.id, port});
        }
        inside.inputs = std::move(kept);
        inner.nodes.push_back(std::move(inside));
        if (auto l = graph.layout.find(node.id); l != graph.layout.end()) {
            inner.layout[node.id] = l->second;
            if (!place || l->second.x < place->x || (l->second.x == place->x && l->second.y < place->y))
                place = NodeLayout{l->second.x, l->second.y, false};
        }
    }
    // what the rest of the graph takes from the selection comes out of the group
    for (Node &node : outer.nodes)
        for (auto &[port, link] : node.inputs) {
            if (!selected.count(link.node))
                continue;
            const std::string name = portName(link);
            inner.groupOutputs[name].from = link;
            link = Link{groupId, name};
        }
    std::sort(group.inputs.begin(), group.inputs.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (Node &node : outer.nodes)
        if (node.id.empty())
            node = group;
    for (const auto &[id, l] : graph.layout)
        if (!selected.count(id))
            outer.layout[id] = l;
    if (place)
        outer.layout[groupId] = *place;
    if (!findCycles(outer).empty()) {
        r = Grouping{};
        r.problem = "the selection takes from a node that takes from the selection: grouping it would make a cycle; "
                    "select that node too";
    }
    return r;
}

Ungrouping ungroupNode(const Graph &graph, const std::string &groupId, const GroupResolver &groups)
{
    Ungrouping r;
    const Node *group = graph.node(groupId);
    if (!group || group->type != kGroupType)
        return r.problem = "no group " + quote(groupId), r;
    auto info = groups.group(*group, graph.baseDir);
    if (!info->usable)
        return r.problem = info->problems.empty() ? "its file cannot be used" : info->problems.front().message, r;
    const Graph &inner = info->loaded.graph;
    const std::string fileDir = std::filesystem::path(info->file).parent_path().string();
    const std::int32_t offset = groupSeedOffset(groupId);
    std::map<std::string, std::string> ids;
    std::set<std::string> taken;
    for (const Node &n : graph.nodes)
        if (n.id != groupId)
            taken.insert(n.id);
    for (const Node &n : inner.nodes) {
        std::string id = taken.count(n.id) ? groupId + "_" + n.id : n.id;
        if (taken.count(id) || !isValidNodeId(id))
            return r.problem = "its node " + quote(n.id) + " cannot take the id " + quote(id) + " here", r;
        taken.insert(id);
        ids[n.id] = id;
    }
    std::vector<Node> out;
    for (const Node &n : inner.nodes) {
        Node node = n;
        node.id = ids[n.id];
        for (auto &[port, link] : node.inputs)
            if (auto it = ids.find(link.node); it != ids.end())
                link.node = it->second;
        for (const std::string &name : fileParams(n, inner.baseDir, groups))
            if (Value *v = paramSlot(node, name); v && v->isString() && !v->toString().empty())
                *v = Value(joinPath(fileDir, v->toString()));
        if (const ParamSpec *seed = seedParam(n, groups.registry()))
            if (Value *v = paramSlot(node, seed->name); v && v->isNumber())
                *v = Value(static_cast<double>(offsetSeed(v->toNumber(), offset)));
        out.push_back(std::move(node));
    }
    auto find = [&](const std::string &innerId) -> Node * {
        auto it = ids.find(innerId);
        for (Node &n : out)
            if (it != ids.end() && n.id == it->second)
                return &n;
        return nullptr;
    };
    for (const auto &[name, p] : inner.exposed)
        if (const Value *v = group->param(name))
            if (Node *target = find(p.param.node))
                target->setParam(p.param.port, *v);
    for (const auto &[name, in] : inner.groupInputs)
        if (const Link *link = group->input(name))
            for (const Link &to : in.to)
                if (Node *target = find(to.node))
                    target->setInput(to.port, *link);
    std::map<std::string, Link> outputs;
    for (const auto &[name, o] : inner.groupOutputs) {
        Link from = o.from;
        if (auto it = ids.find(from.node); it != ids.end())
            from.node = it->second;
        outputs[name] = from;
        if (!outputs.count(""))
            outputs[""] = from;
    }
    Graph &g = r.graph;
    g.name = graph.name;
    g.notes = graph.notes;
    g.world = graph.world;
    g.baseDir = graph.baseDir;
    g.groupInputs = graph.groupInputs;
    g.groupOutputs = graph.groupOutputs;
    g.exposed = graph.exposed;
    for (const Node &n : graph.nodes) {
        if (n.id == groupId) {
            for (Node &inside : out) {
                r.ids.push_back(inside.id);
                g.nodes.push_back(std::move(inside));
            }
            continue;
        }
        Node node = n;
        for (auto &[port, link] : node.inputs)
            if (link.node == groupId)
                if (auto it = outputs.find(link.port); it != outputs.end())
                    link = it->second;
        g.nodes.push_back(std::move(node));
    }
    // the graph's own declarations that named the group's ports
    for (auto &[name, in] : g.groupInputs) {
        std::vector<Link> to;
        for (const Link &l : in.to) {
            auto d = inner.groupInputs.find(l.port);
            if (l.node != groupId || d == inner.groupInputs.end()) {
                to.push_back(l);
                continue;
            }
            for (const Link &t : d->second.to)
                to.push_back(Link{ids[t.node], t.port});
        }
        in.to = std::move(to);
    }
    for (auto &[name, o] : g.groupOutputs)
        if (o.from.node == groupId)
            if (auto it = outputs.find(o.from.port); it != outputs.end())
                o.from = it->second;
    for (auto &[name, e] : g.exposed)
        if (e.param.node == groupId)
            if (auto it = inner.exposed.find(e.param.port); it != inner.exposed.end())
                e.param = Link{ids[it->second.param.node], it->second.param.port};
    const auto at = graph.layout.find(groupId);
    for (const auto &[id, l] : graph.layout)
        if (id != groupId)
            g.layout[id] = l;
    for (const auto &[innerId, id] : ids) {
        if (auto l = inner.layout.find(innerId); l != inner.layout.end())
            g.layout[id] = l->second;
        else if (at != graph.layout.end())
            g.layout[id] = at->second;
    }
    return r;
}

} // namespace grove
