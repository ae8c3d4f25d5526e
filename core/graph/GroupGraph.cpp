// Group nodes: resolving a group file (cached, cycle- and depth-safe) and its synthesised
// descriptor. Declarations: GroupDeclarations.cpp; expansion: GroupExpansion.cpp; grouping and
// ungrouping: GroupEditing.cpp.
#include "core/graph/GroupGraph.h"

#include "core/graph/GroupInternal.h"

#include "core/graph/EvalContext.h"
#include "core/base/FileInput.h"
#include "core/graph/GraphValidator.h"
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

// The chain being resolved on this thread (absolute paths), and what was resolved in it: a
// file met twice in one resolution is read once, whatever the chain made of it.
struct ResolveFrame
{
    std::map<std::string, std::string> deps;  // file -> stat signature, each file once
    bool contextual = false;
};
struct ResolveContext
{
    std::vector<std::string> stack;
    std::vector<ResolveFrame> frames;
    std::map<std::string, std::shared_ptr<const GroupInfo>> memo;
};
thread_local ResolveContext t_context;

std::mutex g_cacheMutex;
std::map<std::string, std::shared_ptr<const GroupInfo>> g_cache;
// Descriptors handed out stay valid after their file changes (callers hold raw pointers for a while).
std::deque<std::shared_ptr<const GroupInfo>> g_retired;

std::string statSignature(const std::string &path)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return {};
    return std::to_string(static_cast<long long>(st.st_size)) + ":" + std::to_string(static_cast<long long>(st.st_mtim.tv_sec))
           + "." + std::to_string(static_cast<long long>(st.st_mtim.tv_nsec)) + ":" + std::to_string(static_cast<long long>(st.st_ino))
           + ":" + std::to_string(static_cast<long long>(st.st_ctim.tv_nsec));
}

bool depsCurrent(const GroupInfo &info)
{
    for (const auto &[file, signature] : info.deps)
        if (statSignature(file) != signature)
            return false;
    return true;
}


std::string groupParamText(const Node &node)
{
    const Value *v = node.param(kGroupGraphParam);
    return v && v->isString() ? v->toString() : std::string();
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


// The descriptor a group file gives its group nodes, from its declarations.
NodeDescriptor synthesise(const GroupInfo &info, const NodeRegistry &registry)
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
            const NodeDescriptor *nd = n ? registry.find(*n, g.baseDir) : nullptr;
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
        const NodeDescriptor *nd = n ? registry.find(*n, g.baseDir) : nullptr;
        if (const PortSpec *p = nd ? outputOf(*nd, out.from.port) : nullptr)
            port.type = p->type;
        d.outputs.push_back(std::move(port));
    }
    for (const auto &[name, e] : g.exposed) {
        const Node *n = g.node(e.param.node);
        const NodeDescriptor *nd = n ? registry.find(*n, g.baseDir) : nullptr;
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

// A file that cannot be used: the problem belongs at the including node's graph param, which
// groupNodeProblems fills in (a cached info serves every node that includes the file).
std::shared_ptr<GroupInfo> failed(std::string file, std::string message, bool contextual)
{
    auto info = std::make_shared<GroupInfo>();
    info->file = std::move(file);
    info->descriptor = groupNodeDescriptor();
    info->contextual = contextual;
    info->problems.push_back(problemAt("", "", std::move(message)));
    return info;
}

void keep(std::shared_ptr<const GroupInfo> info)
{
    std::lock_guard lock(g_cacheMutex);  // the preview's worker resolves groups too
    g_retired.push_back(std::move(info));
    while (g_retired.size() > 4096)
        g_retired.pop_front();
}

} // namespace

GroupFileScope::GroupFileScope(const std::string &absolutePath)
{
    ResolveContext &ctx = t_context;
    if (absolutePath.empty() || (!ctx.stack.empty() && ctx.stack.back() == absolutePath))
        return;  // resolveGroup already holds it
    ctx.stack.push_back(absolutePath);
    m_pushed = true;
}

GroupFileScope::~GroupFileScope()
{
    ResolveContext &ctx = t_context;
    if (!m_pushed)
        return;
    ctx.stack.pop_back();
    if (ctx.stack.empty())
        ctx.memo.clear();
}

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

std::shared_ptr<const GroupInfo> resolveGroup(const Node &node, const std::string &baseDir, const NodeRegistry &registry)
{
    ResolveContext &ctx = t_context;
    auto report = [&](std::shared_ptr<const GroupInfo> info) {
        if (!ctx.frames.empty()) {  // the including file depends on this one and on what it read
            auto &frame = ctx.frames.back();
            frame.deps.insert(info->deps.begin(), info->deps.end());
            frame.contextual = frame.contextual || info->contextual;
        }
        return info;
    };
    const std::string param = groupParamText(node);
    if (param.empty()) {
        auto info = failed("", "needs a graph file (params.graph: FILE.grove.yaml)", false);
        keep(info);
        return report(info);
    }
    std::error_code ec;
    std::filesystem::path where = resolveInputPath(baseDir, param);
    if (where.is_relative())
        where = std::filesystem::current_path(ec) / where;
    const std::string absolute = where.lexically_normal().string();

    if (auto it = std::find(ctx.stack.begin(), ctx.stack.end(), absolute); it != ctx.stack.end()) {
        std::vector<std::string> chain;
        for (; it != ctx.stack.end(); ++it)
            chain.push_back(shown(*it, baseDir));
        chain.push_back(shown(absolute, baseDir));
        auto info = failed(param, "includes its own file: " + chainText(chain), true);
        keep(info);
        return report(info);
    }
    if (static_cast<int>(ctx.stack.size()) > kMaxGroupDepth) {  // the top graph and 64 group files
        auto info = failed(param, "group files include one another more than "
                                            + std::to_string(kMaxGroupDepth) + " deep (" + param + " would be group file "
                                            + std::to_string(ctx.stack.size()) + " below the top graph)", true);
        keep(info);
        return report(info);
    }
    if (!ctx.stack.empty())  // the memo lives for one resolution from the top
        if (auto it = ctx.memo.find(absolute); it != ctx.memo.end())
            return report(it->second);
    {
        std::lock_guard lock(g_cacheMutex);
        auto it = g_cache.find(absolute);
        if (it != g_cache.end() && depsCurrent(*it->second))
            return report(it->second);
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
        keep(odd);
        std::lock_guard lock(g_cacheMutex);
        g_cache[absolute] = odd;
        return report(odd);
    }
    if (signature.empty()) {
        auto missing = failed(param, "cannot open " + quote(param) + ": " + std::strerror(errno), false);
        missing->absolutePath = absolute;
        missing->deps.emplace_back(absolute, "");
        keep(missing);
        std::lock_guard lock(g_cacheMutex);
        g_cache[absolute] = missing;  // until the file appears
        return report(missing);
    }
    ctx.stack.push_back(absolute);
    ctx.frames.emplace_back();
    info->loaded = loadGraphFile(absolute, registry, param);
    ResolveFrame frame = std::move(ctx.frames.back());
    ctx.frames.pop_back();
    ctx.stack.pop_back();
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
        d.nodeId.clear();  // the including node's, filled in by groupNodeProblems
        info->problems.push_back(std::move(d));
    }
    info->usable = !hasErrors(info->problems);
    info->descriptor = info->usable ? synthesise(*info, registry) : groupNodeDescriptor();
    std::shared_ptr<const GroupInfo> done = info;
    keep(done);
    if (!ctx.stack.empty())
        ctx.memo[absolute] = done;
    else
        ctx.memo.clear();
    if (!done->contextual) {
        std::lock_guard lock(g_cacheMutex);
        g_cache[absolute] = done;
    }
    return report(done);
}

Diagnostics groupNodeProblems(const Node &node, const Graph &graph, const NodeRegistry &registry)
{
    auto info = resolveGroup(node, graph.baseDir, registry);
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

const NodeDescriptor *NodeRegistry::find(const Node &node, const std::string &baseDir) const
{
    if (node.type != kGroupType)
        return find(node.type);
    if (!find(node.type))
        return nullptr;
    return &resolveGroup(node, baseDir, *this)->descriptor;
}

} // namespace grove
