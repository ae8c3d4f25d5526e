// GroupResolver: reading group files (cycle- and depth-safe, each file once) into descriptors it
// holds, and looking them up without touching the disk.
#include "core/graph/GroupResolver.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/GroupInternal.h"

#include "core/base/FileInput.h"
#include "core/base/YamlValue.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <sys/stat.h>

namespace grove {

using namespace group_detail;

namespace {

std::string statSignature(const std::string &path)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return {};
    return std::to_string(static_cast<long long>(st.st_size)) + ":" + std::to_string(static_cast<long long>(st.st_mtim.tv_sec))
           + "." + std::to_string(static_cast<long long>(st.st_mtim.tv_nsec)) + ":" + std::to_string(static_cast<long long>(st.st_ino))
           + ":" + std::to_string(static_cast<long long>(st.st_ctim.tv_nsec));
}

std::string groupParamText(const Node &node)
{
    const Value *v = node.param(kGroupGraphParam);
    return v && v->isString() ? v->toString() : std::string();
}

// Where a group node's file is: absolute and lexically normal (empty: it names none).
std::string groupPath(const Node &node, const std::string &baseDir)
{
    const std::string param = groupParamText(node);
    if (param.empty())
        return {};
    std::error_code ec;
    std::filesystem::path where = resolveInputPath(baseDir, param);
    if (where.is_relative())
        where = std::filesystem::current_path(ec) / where;
    return where.lexically_normal().string();
}

// A path for messages: relative to the including graph's folder when it is below it.
std::string shown(const std::string &absolute, const std::string &baseDir)
{
    std::error_code ec;
    const std::filesystem::path base = baseDir.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(baseDir);
    std::filesystem::path rel = std::filesystem::path(absolute).lexically_relative(base);
    return rel.empty() ? absolute : rel.string();
}

std::string chainText(const std::vector<std::string> &files)
{
    std::string text;
    for (size_t i = 0; i < files.size(); ++i) {
        if (files.size() > 12 && i == 6) {
            text += " -> ... (" + std::to_string(files.size() - 10) + " more)";
            i = files.size() - 4;
        }
        text += (text.empty() ? "" : " -> ") + files[i];
    }
    return text;
}

// A file that cannot be used: the problem belongs at the including node's graph param, which
// nodeProblems fills in (one info serves every node that includes the file).
std::shared_ptr<GroupInfo> failed(std::string file, std::string message, bool contextual)
{
    auto info = std::make_shared<GroupInfo>();
    info->file = std::move(file);
    info->descriptor = groupNodeDescriptor();
    info->contextual = contextual;
    info->problems.push_back(problemAt("", "", std::move(message)));
    return info;
}

} // namespace

GroupResolver::GroupResolver(const NodeRegistry &registry)
    : m_registry(&registry), m_noFile(failed("", "needs a graph file (params.graph: FILE.grove.yaml)", false))
{
}

void GroupResolver::clear()
{
    m_groups.clear();
}

void GroupResolver::resolve(const Graph &graph, const std::string &file, GroupFileReader read)
{
    // the graph's own file is in the chain: a group inside that includes it is a cycle
    const bool pushed = !file.empty() && (m_stack.empty() || m_stack.back() != file);
    if (pushed)
        m_stack.push_back(file);
    for (const Node &node : graph.nodes)
        if (node.type == kGroupType)
            resolveNode(node, graph.baseDir, read);
    if (pushed)
        m_stack.pop_back();
}

void GroupResolver::hold(const std::string &absolute, std::shared_ptr<const GroupInfo> info)
{
    if (!m_frames.empty()) {  // the including file depends on this one and on what it read
        Frame &frame = m_frames.back();
        frame.deps.insert(info->deps.begin(), info->deps.end());
        frame.contextual = frame.contextual || info->contextual;
    }
    m_groups[absolute] = std::move(info);
}

void GroupResolver::resolveNode(const Node &node, const std::string &baseDir, GroupFileReader read)
{
    const std::string absolute = groupPath(node, baseDir);
    if (absolute.empty())
        return;  // m_noFile, at lookup
    const std::string param = groupParamText(node);
    if (auto it = std::find(m_stack.begin(), m_stack.end(), absolute); it != m_stack.end()) {
        std::vector<std::string> chain;
        for (; it != m_stack.end(); ++it)
            chain.push_back(shown(*it, baseDir));
        chain.push_back(shown(absolute, baseDir));
        // held until the file on the chain is done, which replaces it
        hold(absolute, failed(param, "includes its own file: " + chainText(chain), true));
        return;
    }
    if (static_cast<int>(m_stack.size()) > kMaxGroupDepth) {  // the top graph and 64 group files
        hold(absolute, failed(param, "group files include one another more than " + std::to_string(kMaxGroupDepth)
                                         + " deep (" + param + " would be group file " + std::to_string(m_stack.size())
                                         + " below the top graph)", true));
        return;
    }
    if (auto it = m_groups.find(absolute); it != m_groups.end()) {
        hold(absolute, it->second);  // read once: what it depends on still counts for the includer
        return;
    }

    auto info = std::make_shared<GroupInfo>();
    info->file = param;
    info->absolutePath = absolute;
    const std::string signature = statSignature(absolute);
    if (const auto notFile = signature.empty() ? std::nullopt : notRegularFile(absolute)) {
        // a folder, a device, a pipe: never opened (a pipe waits for a writer, a device may never end)
        auto odd = failed(param, "cannot open " + quote(param) + ": " + *notFile, false);
        odd->absolutePath = absolute;
        odd->deps.emplace_back(absolute, signature);
        hold(absolute, odd);
        return;
    }
    if (signature.empty()) {
        auto missing = failed(param, "cannot open " + quote(param) + ": " + std::strerror(errno), false);
        missing->absolutePath = absolute;
        missing->deps.emplace_back(absolute, "");
        hold(absolute, missing);
        return;
    }
    m_stack.push_back(absolute);
    m_frames.emplace_back();
    info->loaded = read(absolute, param, *this);
    Frame frame = std::move(m_frames.back());
    m_frames.pop_back();
    m_stack.pop_back();
    frame.deps.emplace(absolute, signature);
    info->deps.assign(frame.deps.begin(), frame.deps.end());
    info->contextual = frame.contextual;

    // Inner problems keep the inner file's place; a declared input's target may wait for the group.
    std::set<std::string> waiting;
    for (const auto &[name, in] : info->loaded.graph.groupInputs)
        for (const Link &to : in.to)
            waiting.insert("nodes." + to.node + ".inputs|" + to.port);
    for (Diagnostic d : info->loaded.diagnostics) {
        if (d.severity != Diagnostic::Severity::Error)
            continue;
        const std::string prefix = "required input '";
        if (d.message.rfind(prefix, 0) == 0) {
            const std::string port = d.message.substr(prefix.size(), d.message.find('\'', prefix.size()) - prefix.size());
            if (waiting.count(d.path + "|" + port))
                continue;
        }
        d.nodeId.clear();  // the including node's, filled in by nodeProblems
        info->problems.push_back(std::move(d));
    }
    info->usable = !hasErrors(info->problems);
    info->descriptor = info->usable ? synthesise(*info) : groupNodeDescriptor();
    hold(absolute, std::move(info));
}

// The descriptor a group file gives its group nodes, from its declarations.
NodeDescriptor GroupResolver::synthesise(const GroupInfo &info) const
{
    NodeDescriptor d = groupNodeDescriptor();
    const Graph &g = info.loaded.graph;
    const std::string stem = std::filesystem::path(info.file).filename().string();
    d.displayName = g.name.empty() ? stem.substr(0, stem.find('.')) : g.name;
    d.description = g.notes.empty() ? "the graph in " + info.file : g.notes;
    for (const auto &[name, in] : g.groupInputs) {
        PortSpec port;
        port.name = name;
        port.description = in.description;
        port.optional = true;
        bool typed = false;
        for (const Link &to : in.to) {
            const Node *n = g.node(to.node);
            const NodeDescriptor *nd = n ? find(*n, g.baseDir) : nullptr;
            const PortSpec *p = nd ? nd->input(to.port) : nullptr;
            if (!p)
                continue;
            if (!typed)
                port.type = p->type;
            typed = true;
            if (!p->optional && !n->input(to.port))
                port.optional = false;  // nothing inside feeds it: the group node must
        }
        d.inputs.push_back(std::move(port));
    }
    for (const auto &[name, out] : g.groupOutputs) {
        PortSpec port;
        port.name = name;
        port.description = out.description;
        const Node *n = g.node(out.from.node);
        const NodeDescriptor *nd = n ? find(*n, g.baseDir) : nullptr;
        if (const PortSpec *p = nd ? outputOf(*nd, out.from.port) : nullptr)
            port.type = p->type;
        d.outputs.push_back(std::move(port));
    }
    // A node inside that cannot wrap makes the group unable to wrap (a group inside says so of its own).
    for (const Node &inner : g.nodes) {
        const NodeDescriptor *nd = find(inner, g.baseDir);
        if (nd && !nd->wrapProblem.empty()) {
            d.wrapProblem = "its node " + quote(inner.id) + " (" + inner.type + ") cannot: " + nd->wrapProblem;
            break;
        }
    }
    for (const auto &[name, e] : g.exposed) {
        const Node *n = g.node(e.param.node);
        const NodeDescriptor *nd = n ? find(*n, g.baseDir) : nullptr;
        const ParamSpec *inner = nd ? nd->param(e.param.port) : nullptr;
        if (!inner)
            continue;
        ParamSpec spec = *inner;
        spec.name = name;
        spec.role = ParamRole::None;  // roles belong to the inner node (its layer, its file)
        spec.roleValue.clear();
        if (!e.description.empty())
            spec.description = e.description;
        if (e.min.isNumber())
            spec.min = std::max(spec.min, e.min.toNumber()), spec.minExclusive = spec.minExclusive && spec.min != e.min.toNumber();
        if (e.max.isNumber())
            spec.max = std::min(spec.max, e.max.toNumber());
        if (e.min.isNumber() || e.max.isNumber()) {
            spec.softMin = std::clamp(spec.softMin, spec.min, spec.max);
            spec.softMax = std::clamp(spec.softMax, spec.min, spec.max);
        }
        if (!e.defaultValue.isNull())
            spec.defaultValue = e.defaultValue;
        else if (const Value *v = n->param(e.param.port))
            spec.defaultValue = *v;
        d.params.push_back(std::move(spec));
    }
    return d;
}

std::shared_ptr<const GroupInfo> GroupResolver::group(const Node &node, const std::string &baseDir) const
{
    const std::string absolute = groupPath(node, baseDir);
    if (absolute.empty())
        return m_noFile;
    if (auto it = m_groups.find(absolute); it != m_groups.end())
        return it->second;
    auto unread = failed(groupParamText(node), "its file " + quote(groupParamText(node)) + " is not read yet", false);
    unread->absolutePath = absolute;
    return unread;
}

const NodeDescriptor *GroupResolver::find(const Node &node, const std::string &baseDir) const
{
    const NodeDescriptor *type = m_registry->find(node.type);
    if (node.type != kGroupType || !type)
        return type;
    const std::string absolute = groupPath(node, baseDir);
    auto it = absolute.empty() ? m_groups.end() : m_groups.find(absolute);
    return it == m_groups.end() ? (absolute.empty() ? &m_noFile->descriptor : type) : &it->second->descriptor;
}

std::shared_ptr<const NodeDescriptor> GroupResolver::descriptor(const Node &node, const std::string &baseDir) const
{
    if (node.type != kGroupType || !m_registry->find(node.type))  // the registry's, alive as long as it is
        return std::shared_ptr<const NodeDescriptor>(std::shared_ptr<const NodeDescriptor>(), m_registry->find(node.type));
    std::shared_ptr<const GroupInfo> info = group(node, baseDir);
    return std::shared_ptr<const NodeDescriptor>(info, &info->descriptor);
}

Diagnostics GroupResolver::nodeProblems(const Node &node, const Graph &graph) const
{
    auto info = group(node, graph.baseDir);
    Diagnostics out = info->problems;
    for (Diagnostic &d : out) {
        d.nodeId = node.id;
        if (d.file.empty()) {  // the file itself: at the graph param that names it
            d.path = "nodes." + node.id + ".params." + kGroupGraphParam;
            d.message = "group " + quote(node.id) + ": " + d.message;
        }
    }
    if (!info->usable)
        return out;
    // the ids its nodes take here (deeper groups' are checked when they are expanded)
    for (const Node &inside : info->loaded.graph.nodes) {
        const std::string id = node.id + "_" + inside.id;
        if (graph.node(id))
            out.push_back(problemAt("nodes." + node.id, node.id, "group " + quote(node.id) + ": its node " + quote(inside.id)
                                                                  + " would be " + quote(id) + ", which is the id of another node here; "
                                                                    "rename the group or that node"));
        else if (!isValidNodeId(id))
            out.push_back(problemAt("nodes." + node.id, node.id, "group " + quote(node.id) + ": its node " + quote(inside.id)
                                                                  + " would get an id over 128 characters; use a shorter group id"));
    }
    return out;
}

} // namespace grove
