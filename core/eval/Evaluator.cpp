// The evaluator: validate, order, reuse cached results whose key is unchanged, compute the rest.
#include "core/eval/Evaluator.h"

#include "core/graph/LayerRefinement.h"

#include "core/sampling/ChunkedLayer.h"

#include "core/graph/GraphValidator.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/FileInput.h"
#include "core/base/Sha256.h"

#include <algorithm>
#include <chrono>

namespace grove {

namespace {

// A node that takes points but not chunks gets a lazy layer (a finite chunked world evaluated
// by region) placed whole, as the whole-world run would hand it. False when cancelled.
bool placeChunkedInputs(const World &world, std::vector<PortValue> &inputs, const EvalRequest &request)
{
    for (PortValue &value : inputs) {
        auto *set = std::get_if<PointSetPtr>(&value);
        if (!set || !*set || world.endless)
            continue;
        PointSetPtr placed = withLazyLayersPlaced(*set, Region{0, 0, world.width, world.height}, request.limits.threads,
                                                  request.cancel);
        if (!placed)
            return false;
        value = placed;
    }
    return true;
}

} // namespace

PortValue EvalResult::output(const std::string &node, const std::string &port) const
{
    auto it = nodes.find(node);
    if (it == nodes.end() || it->second->outputs.empty())
        return {};
    if (port.empty())
        return it->second->outputs.front();
    int i = it->second->descriptor ? it->second->descriptor->outputIndex(port) : -1;
    return i < 0 ? PortValue{} : it->second->outputs[static_cast<size_t>(i)];
}

Evaluator::Evaluator(const NodeRegistry &registry) : m_registry(registry) {}

namespace {

// Marks the nodes the errors belong to; false when an error is the whole graph's (no node, or
// an id two nodes share), so nothing can be evaluated apart from it.
bool markBroken(const Graph &graph, const Diagnostics &diagnostics, std::vector<char> &skip)
{
    std::map<std::string, std::vector<size_t>> byId;
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        byId[graph.nodes[i].id].push_back(i);
    for (const Diagnostic &d : diagnostics) {
        if (d.severity != Diagnostic::Severity::Error)
            continue;
        auto it = byId.find(d.nodeId);
        if (d.nodeId.empty() || it == byId.end() || it->second.size() != 1)
            return false;
        skip[it->second.front()] = 1;
    }
    return true;
}

} // namespace

std::size_t Evaluator::cacheSize() const
{
    std::lock_guard lock(m_mutex);
    return m_cache.size();
}

EvalResult Evaluator::evaluate(const Graph &given, const EvalRequest &request)
{
    // Group nodes stand for their files' nodes: evaluation sees them expanded (results by the
    // expanded ids); a group that cannot be expanded stays, and the validator says why.
    std::optional<Graph> expanded;
    if (hasGroupNodes(given))
        expanded = expandGroups(given, m_registry, nullptr);
    const Graph &graph = expanded ? *expanded : given;
    std::lock_guard lock(m_mutex);
    EvalResult result;
    result.diagnostics = validateGraph(graph, m_registry);
    const size_t n = graph.nodes.size();
    std::vector<char> skip(n, 0);  // partial runs: left out, with everything downstream
    if (hasErrors(result.diagnostics) && (!request.partial || !markBroken(graph, result.diagnostics, skip))) {
        result.status = EvalResult::Status::Invalid;
        return result;
    }
    if (request.evict)
        ++m_generation;

    GraphIndex index(graph);
    std::vector<char> placed;
    const std::vector<int> order = topologicalOrder(graph, &placed);
    // A node is skipped when it has problems, sits on a cycle or takes a skipped node's output.
    auto skipIfUpstreamIs = [&](int i) {
        for (const auto &[port, link] : graph.nodes[static_cast<size_t>(i)].inputs) {
            const int src = index.indexOf(link.node);
            if (src < 0 || skip[static_cast<size_t>(src)])
                skip[static_cast<size_t>(i)] = 1;
        }
        return skip[static_cast<size_t>(i)] != 0;
    };
    for (int i : order)
        if (!placed[static_cast<size_t>(i)] || skip[static_cast<size_t>(i)] || skipIfUpstreamIs(i))
            skip[static_cast<size_t>(i)] = 1;

    // What is needed: the targets and everything upstream of them.
    std::vector<char> needed(n, request.targets.empty() ? 1 : 0);
    if (!request.targets.empty()) {
        std::vector<int> stack;
        for (const auto &t : request.targets) {
            int i = index.indexOf(t);
            if (i < 0) {
                Diagnostic d;
                d.message = "no node " + quote(t) + " to evaluate";
                result.diagnostics.push_back(d);
                result.status = EvalResult::Status::Invalid;
                return result;
            }
            stack.push_back(i);
        }
        while (!stack.empty()) {
            int i = stack.back();
            stack.pop_back();
            if (needed[static_cast<size_t>(i)])
                continue;
            needed[static_cast<size_t>(i)] = 1;
            for (const auto &[port, link] : graph.nodes[static_cast<size_t>(i)].inputs)
                if (const int src = index.indexOf(link.node); src >= 0)
                    stack.push_back(src);
        }
    }

    // Keys first (cheap), so progress can count only the nodes that really compute.
    std::vector<std::string> keys(n);
    std::string worldText = formatNumber(graph.world.width) + "x" + formatNumber(graph.world.height) + "@"
                            + std::to_string(graph.world.seed);
    if (graph.world.depth != 0)
        worldText += "x" + formatNumber(graph.world.depth);
    if (graph.world.chunk != 0)  // chunked layers are placed whole or left lazy: not the same value
        worldText += "/chunk " + formatNumber(graph.world.chunk) + (graph.world.endless ? " endless" : "")
                     + (request.limits.placeWholeWorld ? " whole" : " lazy");
    if (graph.world.wraps())  // a torus places and samples noise differently
        worldText += std::string("/wrap ") + (graph.world.wrapX ? "x" : "") + (graph.world.wrapY ? "y" : "");
    for (int i : order) {
        if (!needed[static_cast<size_t>(i)] || skip[static_cast<size_t>(i)])
            continue;
        const Node &node = graph.nodes[static_cast<size_t>(i)];
        const NodeDescriptor &desc = *m_registry.find(node.type);
        Sha256 h;
        h.update(node.type);
        h.update(std::string(1, '\0'));
        // The id too: a layer's points carry their node's id (and its name defaults to it), so two
        // nodes alike in all else are still two results.
        h.update(node.id);
        h.update(std::string(1, '\0'));
        hashValue(h, Value(completeParams(desc, node.params)));
        h.update(worldText);
        // a file the node reads: what it holds now (an edited image re-evaluates its node)
        for (const ParamSpec &p : desc.params)
            if (p.role == ParamRole::FilePath) {
                const Value *v = node.param(p.name);
                const std::string path = resolveInputPath(graph.baseDir, v && v->isString() ? v->toString() : std::string());
                h.update(std::string(1, '\0') + path + "#" + fileFingerprint(path));
            }
        for (const auto &in : desc.inputs) {
            const Link *link = node.input(in.name);
            h.update(std::string(1, '\0') + in.name + "<-");
            if (link) {
                const int src = index.indexOf(link->node);
                h.update(keys[static_cast<size_t>(src)]);
                h.update("." + link->port);
            }
        }
        auto digest = h.finish();
        keys[static_cast<size_t>(i)].assign(reinterpret_cast<const char *>(digest.data()), 16);
    }
    size_t toCompute = 0;
    for (int i : order)
        if (needed[static_cast<size_t>(i)] && !skip[static_cast<size_t>(i)] && !m_cache.count(keys[static_cast<size_t>(i)]))
            ++toCompute;

    EvalProgress progress;
    progress.nodesTotal = toCompute;
    std::vector<std::shared_ptr<const NodeResult>> results(n);
    for (int i : order) {
        if (!needed[static_cast<size_t>(i)] || skip[static_cast<size_t>(i)] || skipIfUpstreamIs(i))
            continue;
        const Node &node = graph.nodes[static_cast<size_t>(i)];
        const std::string &key = keys[static_cast<size_t>(i)];
        auto cached = m_cache.find(key);
        if (cached != m_cache.end()) {
            cached->second.lastUsed = m_generation;
            results[static_cast<size_t>(i)] = cached->second.result;
            result.nodes[node.id] = cached->second.result;
            continue;
        }
        if (request.cancel && request.cancel->load()) {
            result.status = EvalResult::Status::Cancelled;
            break;
        }
        const NodeDescriptor &desc = *m_registry.find(node.type);
        std::vector<PortValue> inputs(desc.inputs.size());
        for (size_t p = 0; p < desc.inputs.size(); ++p) {
            const Link *link = node.input(desc.inputs[p].name);
            if (!link)
                continue;
            const auto &src = results[static_cast<size_t>(index.indexOf(link->node))];
            const int out = link->port.empty() ? 0 : src->descriptor->outputIndex(link->port);
            inputs[p] = src->outputs[static_cast<size_t>(out)];
        }
        if (!desc.chunked && !desc.takesLazyLayers && graph.world.chunk > 0 && !placeChunkedInputs(graph.world, inputs, request))
            break;  // cancelled
        progress.currentNode = node.id;
        auto nodeProgress = [&](double f) {
            if (!request.progress)
                return;
            EvalProgress p = progress;
            p.fraction = (static_cast<double>(progress.nodesDone) + std::clamp(f, 0.0, 1.0))
                         / static_cast<double>(std::max<size_t>(1, progress.nodesTotal));
            request.progress(p);
        };
        EvalContext ctx(desc, node, graph.world, inputs, request.limits, request.cancel, nodeProgress);
        ctx.setBaseDir(graph.baseDir);
        const auto start = std::chrono::steady_clock::now();
        try {
            desc.evaluate(ctx);
        } catch (const NodeCodeFault &fault) {
            if (nodeCodeChecked())
                throw;
            ctx.fail(fault.what());  // no result, so nothing downstream reads a wrong value
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (ctx.cancelled()) {
            result.status = EvalResult::Status::Cancelled;
            break;
        }
        if (!ctx.error().empty()) {
            Diagnostic d;
            d.path = !ctx.errorPath().empty() ? ctx.errorPath()
                     : "nodes." + node.id + (ctx.errorParam().empty() ? std::string() : ".params." + ctx.errorParam());
            d.nodeId = node.id;
            d.message = "node " + quote(node.id) + " (" + node.type + "): " + ctx.error();
            result.diagnostics.push_back(d);
            if (request.partial) {  // the rest goes on; this node's downstream is skipped
                result.failures.push_back(d);
                skip[static_cast<size_t>(i)] = 1;
                ++progress.nodesDone;
                continue;
            }
            result.status = EvalResult::Status::Failed;
            break;
        }
        auto nr = std::make_shared<NodeResult>();
        nr->key = key;
        nr->descriptor = &desc;
        nr->outputs = ctx.outputs();
        nr->inputs = inputs;
        nr->product = ctx.product();
        nr->seconds = seconds;
        std::shared_ptr<const NodeResult> shared = nr;
        results[static_cast<size_t>(i)] = shared;
        result.nodes[node.id] = shared;
        result.computed.push_back(node.id);
        m_cache[key] = Entry{shared, m_generation};
        ++progress.nodesDone;
        nodeProgress(0);
    }
    for (int i : order)
        if (needed[static_cast<size_t>(i)] && skip[static_cast<size_t>(i)])
            result.skipped.push_back(graph.nodes[static_cast<size_t>(i)].id);
    // Keep this run's results and the previous run's (undoing a tweak is then free).
    for (auto it = m_cache.begin(); request.evict && it != m_cache.end();)
        it = it->second.lastUsed + 1 < m_generation ? m_cache.erase(it) : std::next(it);
    return result;
}

PortValue EvalResult::outputWithRole(const std::string &node, PortRole role) const
{
    auto it = nodes.find(node);
    const PortSpec *port = it == nodes.end() || !it->second->descriptor ? nullptr
                                                                        : it->second->descriptor->outputWithRole(role);
    return port ? output(node, port->name) : PortValue{};
}

PortValue EvalResult::inputWithRole(const std::string &node, PortRole role) const
{
    auto it = nodes.find(node);
    if (it == nodes.end() || !it->second->descriptor)
        return {};
    const NodeDescriptor &desc = *it->second->descriptor;
    const PortSpec *port = desc.inputWithRole(role);
    const int i = port ? desc.inputIndex(port->name) : -1;
    return i < 0 || static_cast<size_t>(i) >= it->second->inputs.size() ? PortValue{}
                                                                         : it->second->inputs[static_cast<size_t>(i)];
}

namespace {

// A node's value for the param with `role`: given, or the default; nullptr without that role.
const Value *roleValue(const Node &node, const NodeDescriptor &descriptor, ParamRole role)
{
    const ParamSpec *spec = descriptor.paramWithRole(role);
    if (!spec)
        return nullptr;
    const Value *v = node.param(spec->name);
    return v ? v : &spec->defaultValue;
}

} // namespace

std::vector<std::string> exportedLayers(const Graph &graph, const NodeRegistry &registry)
{
    const LayerRefinements refinements(graph, registry);
    std::vector<std::string> ids;
    for (int i : topologicalOrder(graph)) {
        const Node &node = graph.nodes[static_cast<size_t>(i)];
        const NodeDescriptor *desc = registry.find(node.type);
        if (!desc || !desc->makesLayer() || desc->inputWithRole(PortRole::Refines))
            continue;  // a refiner's layer takes its source's place; unwired, it has none (a chain filter)
        const Value *exported = roleValue(node, *desc, ParamRole::ExportSwitch);
        if (!exported || exported->toBool())
            ids.push_back(refinements.exportedFrom(node.id));
    }
    return ids;
}

std::string layerName(const Graph &graph, const NodeRegistry &registry, const std::string &id)
{
    const Node *node = graph.node(LayerRefinements(graph, registry).sourceOf(id));
    const NodeDescriptor *desc = node ? registry.find(node->type) : nullptr;
    return desc ? layerName(*node, *desc) : id;
}

std::string layerNodeId(const Graph &graph, const NodeRegistry &registry, const std::string &id)
{
    return LayerRefinements(graph, registry).sourceOf(id);
}

std::string layerName(const Node &node, const NodeDescriptor &descriptor)
{
    const Value *name = roleValue(node, descriptor, ParamRole::LayerName);
    return name && name->isString() && !name->toString().empty() ? name->toString() : node.id;
}

} // namespace grove
