// Group nodes: resolving a group file (cached, cycle- and depth-safe), its synthesised
// descriptor, its declarations, and the expansion evaluation works on.
#include "GroupGraph.h"

#include "EvalContext.h"
#include "FileInput.h"
#include "GraphValidator.h"
#include "Limits.h"
#include "NodeRegistry.h"
#include "YamlValue.h"

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

Diagnostic problemAt(std::string path, std::string nodeId, std::string message)
{
    Diagnostic d;
    d.path = std::move(path);
    d.nodeId = std::move(nodeId);
    d.message = std::move(message);
    return d;
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

// The port a link names on a descriptor's outputs (empty port: the first one).
const PortSpec *outputOf(const NodeDescriptor &d, const std::string &port)
{
    if (port.empty())
        return d.outputs.empty() ? nullptr : &d.outputs.front();
    return d.output(port);
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

Diagnostics validateGroupDeclarations(const Graph &graph, const NodeRegistry &registry)
{
    Diagnostics out;
    auto nodeDesc = [&](const Node &n) { return registry.find(n, graph.baseDir); };
    for (const auto &[name, in] : graph.groupInputs) {
        const std::string path = "inputs." + name;
        if (!isValidNodeId(name))
            out.push_back(problemAt(path, "", "group input name " + quote(name) + " is not valid: use a-z, 0-9 and _, starting with a letter"));
        if (in.to.empty())
            out.push_back(problemAt(path + ".to", "", "group input " + quote(name) + " feeds nothing: give to: [node.input, ...]"));
        std::optional<DataType> type;
        for (size_t i = 0; i < in.to.size(); ++i) {
            const Link &to = in.to[i];
            const std::string at = path + ".to[" + std::to_string(i) + "]";
            const Node *n = graph.node(to.node);
            if (!n) {
                out.push_back(problemAt(at, "", "group input " + quote(name) + " feeds missing node " + quote(to.node)));
                continue;
            }
            const NodeDescriptor *d = nodeDesc(*n);
            if (!d)
                continue;  // reported on the node
            const PortSpec *p = d->input(to.port);
            if (!p) {
                out.push_back(problemAt(at, "", "group input " + quote(name) + ": node " + quote(to.node) + " (" + n->type
                                                    + ") has no input " + quote(to.port) + didYouMean(to.port, d->inputNames())));
                continue;
            }
            if (type && *type != p->type)
                out.push_back(problemAt(at, "", "group input " + quote(name) + " feeds inputs of two types: " + dataTypeName(*type)
                                                    + " and " + dataTypeName(p->type) + " (" + to.toString() + ")"));
            type = p->type;
        }
    }
    for (const auto &[name, o] : graph.groupOutputs) {
        const std::string path = "outputs." + name + ".from";
        if (!isValidNodeId(name))
            out.push_back(problemAt("outputs." + name, "", "group output name " + quote(name) + " is not valid: use a-z, 0-9 and _, starting with a letter"));
        const Node *n = graph.node(o.from.node);
        if (!n) {
            out.push_back(problemAt(path, "", "group output " + quote(name) + " comes from missing node " + quote(o.from.node)));
            continue;
        }
        const NodeDescriptor *d = nodeDesc(*n);
        if (d && !outputOf(*d, o.from.port))
            out.push_back(problemAt(path, "", "group output " + quote(name) + ": node " + quote(o.from.node) + " (" + n->type
                                                  + ") has no output " + quote(o.from.port) + didYouMean(o.from.port, d->outputNames())));
    }
    std::map<std::string, std::string> exposedAs;
    for (const auto &[name, e] : graph.exposed) {
        const std::string path = "expose." + name;
        if (!isValidNodeId(name) || name == kGroupGraphParam)
            out.push_back(problemAt(path, "", "exposed param name " + quote(name) + " is not valid: use a-z, 0-9 and _, starting with a "
                                                  "letter, and not 'graph' (the group's file)"));
        const Node *n = graph.node(e.param.node);
        if (!n) {
            out.push_back(problemAt(path + ".param", "", "exposed param " + quote(name) + " names missing node " + quote(e.param.node)
                                                             + " (param: node.param)"));
            continue;
        }
        const NodeDescriptor *d = nodeDesc(*n);
        if (!d)
            continue;
        const ParamSpec *spec = d->param(e.param.port);
        if (!spec) {
            out.push_back(problemAt(path + ".param", "", "exposed param " + quote(name) + " names no param of node " + quote(e.param.node)
                                                             + " (" + n->type + "): " + quote(e.param.port)
                                                             + didYouMean(e.param.port, d->paramNames())));
            continue;
        }
        if (spec->role == ParamRole::FilePath) {
            out.push_back(problemAt(path + ".param", "", "exposed param " + quote(name) + ": " + e.param.toString()
                                                             + " is a file path, which is relative to the group's own file; it cannot be exposed"));
            continue;
        }
        if (auto [it, fresh] = exposedAs.emplace(e.param.toString(), name); !fresh)
            out.push_back(problemAt(path + ".param", "", "exposed params " + quote(it->second) + " and " + quote(name) + " both set "
                                                             + e.param.toString()));
        const bool numeric = spec->kind == ParamKind::Number || spec->kind == ParamKind::Integer;
        for (const char *bound : {"min", "max"}) {
            const Value &v = std::string(bound) == "min" ? e.min : e.max;
            if (v.isNull())
                continue;
            if (!numeric || !v.isNumber() || !std::isfinite(v.toNumber()))
                out.push_back(problemAt(path + "." + bound, "", "exposed param " + quote(name) + ": " + bound + " must be a finite number"
                                                                    + (numeric ? "" : std::string(", and only a number param takes one (")
                                                                                          + paramKindName(spec->kind) + ")")));
            else if ((std::string(bound) == "min" && v.toNumber() > spec->max) || (std::string(bound) == "max" && v.toNumber() < spec->min))
                out.push_back(problemAt(path + "." + bound, "", "exposed param " + quote(name) + ": " + bound + " " + formatNumber(v.toNumber())
                                                                    + " is outside the range of " + e.param.toString() + " ("
                                                                    + formatNumber(spec->min) + " to " + formatNumber(spec->max) + ")"));
        }
        if (e.min.isNumber() && e.max.isNumber() && e.min.toNumber() > e.max.toNumber())
            out.push_back(problemAt(path + ".max", "", "exposed param " + quote(name) + ": max " + formatNumber(e.max.toNumber())
                                                           + " is below min " + formatNumber(e.min.toNumber())));
        ParamSpec narrowed = *spec;
        if (e.min.isNumber())
            narrowed.min = std::max(narrowed.min, e.min.toNumber());
        if (e.max.isNumber())
            narrowed.max = std::min(narrowed.max, e.max.toNumber());
        if (!e.defaultValue.isNull())
            if (auto err = checkParamValue(narrowed, e.defaultValue))
                out.push_back(problemAt(path + ".default", "", "exposed param " + quote(name) + ": default: " + *err));
    }
    return out;
}

void readGroupDeclarations(const std::string &key, const YAML::Node &n, Graph &graph, const YamlErrorSink &error,
                           const std::function<void(const std::string &, YamlLocation)> &remember, std::size_t &budget)
{
    remember(key, locationOf(n));
    if (n.IsNull())
        return;
    const char *shape = key == "inputs"    ? "inputs must be a map of name -> {to: [node.input, ...], description}"
                        : key == "outputs" ? "outputs must be a map of name -> {from: node.output, description}"
                                           : "expose must be a map of name -> {param: node.param, description, min, max, default}";
    if (!n.IsMap()) {
        error(locationOf(n), key, shape);
        return;
    }
    const std::vector<std::string> known = key == "inputs"    ? std::vector<std::string>{"to", "description"}
                                           : key == "outputs" ? std::vector<std::string>{"from", "description"}
                                                              : std::vector<std::string>{"param", "description", "min", "max", "default"};
    for (const auto &[name, item] : mapEntries(n, key, error, nullptr)) {
        const std::string base = key + "." + name;
        remember(base, locationOf(item));
        if (!item.IsMap()) {
            error(locationOf(item), base, shape);
            continue;
        }
        GroupInput in;
        GroupOutput out;
        GroupParam param;
        bool haveLink = false;
        for (const auto &[field, v] : mapEntries(item, base, error, nullptr)) {
            const std::string path = base + "." + field;
            remember(path, locationOf(v));
            if (std::find(known.begin(), known.end(), field) == known.end()) {
                error(locationOf(v), path, "unknown key " + quote(field) + " in " + key + " " + quote(name) + didYouMean(field, known));
                continue;
            }
            Value value;
            if (!convertYaml(v, path, field == "to" || field == "default" ? 1 : 0, value, error, budget))
                continue;
            if (field == "description") {
                if (!value.isString())
                    error(locationOf(v), path, "description must be text");
                else
                    (key == "inputs" ? in.description : key == "outputs" ? out.description : param.description) = value.toString();
            } else if (field == "to") {
                const ValueList items = value.isList() ? value.toList() : ValueList{value};
                size_t i = 0;
                for (const Value &target : items) {
                    const std::string at = path + "[" + std::to_string(i++) + "]";
                    if (v.IsSequence() && i - 1 < v.size())
                        remember(at, locationOf(v[i - 1]));
                    const Link link = target.isString() ? Link::parse(target.toString()) : Link{};
                    if (link.node.empty() || link.port.empty())
                        error(locationOf(v), at, "to takes node.input names, such as trees.allowed");
                    else
                        in.to.push_back(link);
                }
                haveLink = true;
            } else if (field == "from" || field == "param") {
                const Link link = value.isString() ? Link::parse(value.toString()) : Link{};
                if (link.node.empty() || (field == "param" && link.port.empty()))
                    error(locationOf(v), path, field == "from" ? "from takes a node or node.output, such as trees.points"
                                                               : "param takes node.param, such as trees.radius");
                else
                    (field == "from" ? out.from : param.param) = link;
                haveLink = haveLink || !link.node.empty();
            } else if (field == "min") {
                param.min = value;
            } else if (field == "max") {
                param.max = value;
            } else {
                param.defaultValue = value;
            }
        }
        if (!haveLink) {
            error(locationOf(item), base, key == "inputs" ? "group input " + quote(name) + " needs to: [node.input, ...]"
                                          : key == "outputs" ? "group output " + quote(name) + " needs from: node.output"
                                                             : "exposed param " + quote(name) + " needs param: node.param");
            continue;
        }
        if (key == "inputs")
            graph.groupInputs[name] = std::move(in);
        else if (key == "outputs")
            graph.groupOutputs[name] = std::move(out);
        else
            graph.exposed[name] = std::move(param);
    }
}

void writeGroupDeclarations(std::string &out, const Graph &graph)
{
    auto line = [&](const std::string &name, ValueMap fields) {
        out += "  " + yamlScalar(name) + ": " + toFlowYaml(Value(std::move(fields))) + "\n";
    };
    if (!graph.groupInputs.empty()) {
        out += "inputs:\n";
        for (const auto &[name, in] : graph.groupInputs) {
            ValueList to;
            for (const Link &l : in.to)
                to.emplace_back(l.toString());
            ValueMap fields{{"to", Value(std::move(to))}};
            if (!in.description.empty())
                fields.emplace_back("description", Value(in.description));
            line(name, std::move(fields));
        }
    }
    if (!graph.groupOutputs.empty()) {
        out += "outputs:\n";
        for (const auto &[name, o] : graph.groupOutputs) {
            ValueMap fields{{"from", Value(o.from.toString())}};
            if (!o.description.empty())
                fields.emplace_back("description", Value(o.description));
            line(name, std::move(fields));
        }
    }
    if (!graph.exposed.empty()) {
        out += "expose:\n";
        for (const auto &[name, e] : graph.exposed) {
            ValueMap fields{{"param", Value(e.param.toString())}};
            if (!e.description.empty())
                fields.emplace_back("description", Value(e.description));
            if (!e.min.isNull())
                fields.emplace_back("min", e.min);
            if (!e.max.isNull())
                fields.emplace_back("max", e.max);
            if (!e.defaultValue.isNull())
                fields.emplace_back("default", e.defaultValue);
            line(name, std::move(fields));
        }
    }
}

namespace {

// What a group node became: where its outputs come from, its inputs go and its params live.
struct Expanded
{
    std::map<std::string, Link> outputs;              // port ("" : the first) -> expanded node.port
    std::map<std::string, std::vector<Link>> inputs;  // port -> expanded node.input targets
    std::map<std::string, Link> params;               // exposed name -> expanded node.param
};

std::string joinPath(const std::string &dir, const std::string &file)
{
    if (dir.empty() || file.empty() || file.front() == '/')
        return file;
    return (std::filesystem::path(dir) / file).lexically_normal().string();
}

class Expander
{
public:
    Expander(const NodeRegistry &registry, Diagnostics *problems) : m_registry(registry), m_problems(problems) {}

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
        Expander nested(m_registry, nullptr);
        Graph expanded = nested.expand(g, depth + 1);
        if (nested.m_failed) {
            why = nested.m_reason;
            return nullptr;
        }
        return &m_inner.emplace(&info, std::move(expanded)).first->second;
    }

    const NodeRegistry &m_registry;
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
        auto info = resolveGroup(node, graph.baseDir, m_registry);
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
            if (const NodeDescriptor *d = m_registry.find(inside.type)) {
                for (const ParamSpec &spec : d->params) {
                    Value *v = nullptr;
                    for (auto &[k, pv] : inside.params)
                        if (k == spec.name)
                            v = &pv;
                    if (!v)
                        continue;
                    if (spec.name == "seed" && spec.kind == ParamKind::Integer && v->isNumber())
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


Graph expandGroups(const Graph &graph, const NodeRegistry &registry, Diagnostics *problems)
{
    Expander expander(registry, problems);
    return expander.expand(graph, 0);
}

void expandLoadedGroups(LoadResult &loaded, const std::string &file, const NodeRegistry &registry)
{
    if (!hasGroupNodes(loaded.graph))
        return;
    Diagnostics problems;
    Graph expanded = expandGroups(loaded.graph, registry, &problems);
    std::map<std::string, std::pair<int, int>> extra;
    for (const Node &n : expanded.nodes)
        if (!loaded.graph.node(n.id)) {
            // an expanded node's paths point at its group node (the longest group id that prefixes it)
            std::string group;
            for (const Node &g : loaded.graph.nodes)
                if (g.type == kGroupType && n.id.rfind(g.id + "_", 0) == 0 && g.id.size() > group.size())
                    group = g.id;
            auto at = loaded.locations.find("nodes." + group);
            if (at != loaded.locations.end())
                extra.emplace("nodes." + n.id, at->second);
        }
    loaded.locations.insert(extra.begin(), extra.end());
    if (problems.empty())
        for (Diagnostic d : validateGraph(expanded, registry))
            if (d.severity == Diagnostic::Severity::Error)
                problems.push_back(std::move(d));
    for (Diagnostic &d : problems) {
        d.file = file;
        locate(loaded, d);
        loaded.diagnostics.push_back(std::move(d));
    }
    loaded.graph = std::move(expanded);
}

} // namespace grove

namespace grove {

namespace {

// The params of a node that name files (relative to its graph's folder).
std::vector<std::string> fileParams(const Node &node, const std::string &baseDir, const NodeRegistry &registry)
{
    std::vector<std::string> names;
    if (const NodeDescriptor *d = registry.find(node, baseDir))
        for (const ParamSpec &spec : d->params)
            if (spec.role == ParamRole::FilePath)
                names.push_back(spec.name);
    return names;
}

bool seeded(const Node &node, const NodeRegistry &registry)
{
    if (node.type == kGroupType)
        return false;
    const NodeDescriptor *d = registry.find(node.type);
    const ParamSpec *seed = d ? d->param("seed") : nullptr;
    return seed && seed->kind == ParamKind::Integer;
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
                    const std::string &groupFile, const NodeRegistry &registry)
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
        for (const std::string &name : fileParams(node, graph.baseDir, registry))
            if (Value *v = paramSlot(inside, name); v && v->isString())
                *v = Value(rebase(v->toString()));
        if (seeded(node, registry))
            if (Value *v = paramSlot(inside, "seed"); v && v->isNumber())
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

Ungrouping ungroupNode(const Graph &graph, const std::string &groupId, const NodeRegistry &registry)
{
    Ungrouping r;
    const Node *group = graph.node(groupId);
    if (!group || group->type != kGroupType)
        return r.problem = "no group " + quote(groupId), r;
    auto info = resolveGroup(*group, graph.baseDir, registry);
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
        for (const std::string &name : fileParams(n, inner.baseDir, registry))
            if (Value *v = paramSlot(node, name); v && v->isString() && !v->toString().empty())
                *v = Value(joinPath(fileDir, v->toString()));
        if (seeded(n, registry))
            if (Value *v = paramSlot(node, "seed"); v && v->isNumber())
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
