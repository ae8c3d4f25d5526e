// Graph validation shared by the loader, grove-cli and the editor's problems dock.
#include "core/graph/GraphValidator.h"

#include "core/graph/Expectation.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/LayerRefinement.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/TextEscape.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace grove {

namespace {

Diagnostic problem(std::string path, std::string nodeId, std::string message)
{
    Diagnostic d;
    d.path = std::move(path);
    d.nodeId = std::move(nodeId);
    d.message = std::move(message);
    return d;
}

// Resolves a link's output port: the named one, or the source's first output.
const PortSpec *sourcePort(const NodeDescriptor &source, const Link &link)
{
    if (link.port.empty())
        return source.outputs.empty() ? nullptr : &source.outputs.front();
    return source.output(link.port);
}

// Whether the points `link` gives may hold lazy layers, which have no end in an endless world: a
// chunked node's (place_layer), or, from a node that takes them, its chain output or the layer it
// refines. `depth` stops at a cycle, which is a problem of its own.
bool givesLazyLayers(const Graph &graph, const GroupResolver &groups, const GraphIndex &index, const Link &link,
                     std::size_t depth = 0)
{
    const int src = index.indexOf(link.node);
    if (src < 0 || depth > graph.nodes.size())
        return false;
    const Node &source = graph.nodes[static_cast<size_t>(src)];
    const NodeDescriptor *desc = groups.find(source, graph.baseDir);
    const PortSpec *out = desc ? sourcePort(*desc, link) : nullptr;
    if (!out || out->type != DataType::Points)
        return false;
    if (desc->chunked)
        return true;
    const bool refines = desc->inputWithRole(PortRole::Refines) != nullptr;
    if (!desc->takesLazyLayers || !(out->role == PortRole::LayerChain || (refines && out->role == PortRole::LayerPoints)))
        return false;
    return std::any_of(source.inputs.begin(), source.inputs.end(), [&](const auto &in) {
        return givesLazyLayers(graph, groups, index, in.second, depth + 1);
    });
}

// The node types that take lazy layers, in catalog order.
std::string lazyTakers(const NodeRegistry &registry)
{
    std::vector<std::string> types;
    for (const auto &d : registry.all())
        if (d->chunked || d->takesLazyLayers)
            types.push_back(d->typeId);
    return commaList(types);
}

} // namespace

Diagnostics validateGraph(const Graph &graph, const GroupResolver &groups)
{
    Diagnostics out;
    const World &w = graph.world;
    auto checkSize = [&](double v, const char *key) {
        if (!std::isfinite(v) || v <= 0)
            out.push_back(problem(std::string("world.") + key, "",
                                  std::string("world ") + key + " must be a finite number > 0, got " + formatNumber(v)));
        else if (v > limits::maxWorldSize)
            out.push_back(problem(std::string("world.") + key, "",
                                  std::string("world ") + key + " " + formatNumber(v) + " is beyond the limit of "
                                      + formatNumber(limits::maxWorldSize) + " units"));
    };
    if (!w.endless) {
        checkSize(w.width, "width");
        checkSize(w.height, "height");
    }
    if (w.depth != 0)  // 0: a 2D world
        checkSize(w.depth, "depth");
    if (w.chunk != 0 || w.endless) {
        if (!std::isfinite(w.chunk) || w.chunk <= 0)
            out.push_back(problem("world.chunk", "", "world chunk must be a finite number > 0 (the side of a chunk), got " + formatNumber(w.chunk)));
        else if (w.chunk > limits::maxWorldSize)
            out.push_back(problem("world.chunk", "", "world chunk " + formatNumber(w.chunk) + " is beyond the limit of "
                                                         + formatNumber(limits::maxWorldSize) + " units"));
        else if (w.wraps() && !w.endless)
            out.push_back(problem("world.wrap", "", "a chunked world cannot wrap: its chunks would not see their neighbours "
                                                    "across the edges; remove world.chunk to wrap the world (or world.wrap to keep chunks)"));
        else if (!w.endless && std::isfinite(w.width) && std::isfinite(w.height)
                 && std::max(w.width, w.height) / w.chunk > 32768)
            out.push_back(problem("world.chunk", "", "world chunk " + formatNumber(w.chunk) + " cuts the world into more than 32768 chunks a side; "
                                                         "use a chunk of at least " + formatNumber(std::ceil(std::max(w.width, w.height) / 32768))));
    }
    if (w.wraps() && w.endless)
        out.push_back(problem("world.wrap", "", "an endless world cannot wrap: it has no edges to join; "
                                                "give the world a width and height, or remove world.wrap"));
    for (const auto &[field, text] : {std::pair{"name", &graph.name}, std::pair{"notes", &graph.notes}})
        if (std::string where; auto err = notUtf8(Value(*text), where))  // the exports carry them
            out.push_back(problem(field, "", std::string(field) + ": " + *err));
    if (graph.nodes.size() > limits::maxNodes)
        out.push_back(problem("nodes", "", "the graph has " + std::to_string(graph.nodes.size())
                                               + " nodes; the limit is " + std::to_string(limits::maxNodes)));

    GraphIndex index(graph);
    std::vector<std::string> ids;
    ids.reserve(graph.nodes.size());
    for (const auto &node : graph.nodes)
        ids.push_back(node.id);

    std::set<std::string> seen;
    for (size_t ni = 0; ni < graph.nodes.size(); ++ni) {
        const Node &node = graph.nodes[ni];
        const std::string base = "nodes." + node.id;
        if (!isValidNodeId(node.id))
            out.push_back(problem(base, node.id, "node id " + quote(node.id)
                                                     + " is not valid: use a-z, 0-9 and _, starting with a letter, at most 128 characters"));
        if (!seen.insert(node.id).second)
            out.push_back(problem(base, node.id, "duplicate node id " + quote(node.id)));
        const NodeDescriptor *desc = groups.find(node, graph.baseDir);
        if (node.type.empty()) {
            out.push_back(problem(base + ".type", node.id, "node " + quote(node.id) + " needs a type"));
            continue;
        }
        if (!desc) {
            out.push_back(problem(base + ".type", node.id,
                                  "unknown node type " + quote(node.type) + "" + didYouMean(node.type, groups.registry().typeIds())));
            continue;
        }
        if (node.type == kGroupType) {  // its file's problems, at its graph param or in the file
            for (Diagnostic &d : groups.nodeProblems(node, graph))
                out.push_back(std::move(d));
            if (!groups.group(node, graph.baseDir)->usable)
                continue;
        }
        if (w.endless && desc->needsWorldSize)
            out.push_back(problem(base, node.id, "node " + quote(node.id) + " (" + node.type
                                                     + ") needs the world's width and height, and this world is endless "
                                                       "(world.chunk without width and height): give the world a size"));
        if (desc->needsWorldDepth && w.depth == 0)  // a bad depth is world.depth's own problem
            out.push_back(problem(base, node.id, "node " + quote(node.id) + " (" + node.type
                                                     + ") places in a volume and needs world.depth > 0 (the world's third side); "
                                                       "this world is 2D"));
        // params
        for (const auto &[name, value] : node.params) {
            const ParamSpec *spec = desc->param(name);
            if (!spec) {
                out.push_back(problem(base + ".params." + name, node.id,
                                      "unknown param " + quote(name) + " for " + node.type + didYouMean(name, desc->paramNames())));
                continue;
            }
            std::string where;
            if (auto err = checkParamValue(*spec, value, &where))
                out.push_back(problem(base + ".params." + name + where, node.id, "param " + quote(name) + ": " + *err));
        }
        if (desc->checkParams) {
            ParamIssues issues;
            desc->checkParams(completeParams(*desc, node.params), issues);
            // a name may carry the item it is about ("pins[3].type"): the message names the param
            for (const auto &[name, msg] : issues)
                out.push_back(problem(base + ".params." + name, node.id,
                                      "param " + quote(name.substr(0, name.find_first_of(".["))) + ": " + msg));
        }
        if (w.wraps() && !desc->wrapProblem.empty())
            out.push_back(problem(base, node.id, "node " + quote(node.id) + " (" + node.type + ") cannot be used in a wrapped world (world.wrap): "
                                                     + desc->wrapProblem));
        else if (w.wraps() && !w.endless && desc->checkWrap) {
            ParamIssues issues;
            desc->checkWrap(completeParams(*desc, node.params), w.wrapX ? w.width : 0, w.wrapY ? w.height : 0, issues);
            for (const auto &[name, msg] : issues)
                out.push_back(problem(base + ".params." + name, node.id, "param " + quote(name) + ": " + msg));
        }
        // inputs
        for (const auto &[port, link] : node.inputs) {
            const std::string path = base + ".inputs." + port;
            const PortSpec *in = desc->input(port);
            if (!in) {
                out.push_back(problem(path, node.id, "unknown input " + quote(port) + " for " + node.type
                                                         + didYouMean(port, desc->inputNames())));
                continue;
            }
            int src = index.indexOf(link.node);
            if (src < 0) {
                out.push_back(problem(path, node.id, "input " + quote(port) + " links to missing node " + quote(link.node) + ""
                                                         + didYouMean(link.node, ids)));
                continue;
            }
            if (link.node == node.id) {
                out.push_back(problem(path, node.id, "input " + quote(port) + " links node " + quote(node.id) + " to itself"));
                continue;
            }
            const Node &source = graph.nodes[static_cast<size_t>(src)];
            const NodeDescriptor *srcDesc = groups.find(source, graph.baseDir);
            if (!srcDesc || (source.type == kGroupType && !groups.group(source, graph.baseDir)->usable))
                continue;  // reported on the source node
            const PortSpec *outPort = sourcePort(*srcDesc, link);
            if (!outPort) {
                out.push_back(problem(path, node.id, "node " + quote(link.node) + " (" + source.type + ") has no output '"
                                                         + link.port + "'" + didYouMean(link.port, srcDesc->outputNames())));
                continue;
            }
            if (outPort->type != in->type)
                out.push_back(problem(path, node.id, "type mismatch: input " + quote(port) + " takes "
                                                         + dataTypeName(in->type) + ", but " + link.toString()
                                                         + " gives " + dataTypeName(outPort->type)));
            else if (w.endless && in->type == DataType::Points && !desc->chunked && !desc->takesLazyLayers
                     && givesLazyLayers(graph, groups, index, link))
                out.push_back(problem(path, node.id, "input " + quote(port) + " takes the points of " + link.toString()
                                                         + ", which hold a layer with no end in an endless world (world.chunk "
                                                           "without width and height); only these nodes can take them: "
                                                         + lazyTakers(groups.registry())));
        }
        for (const auto &in : desc->inputs)
            if (!in.optional && !node.input(in.name))
                out.push_back(problem(base + ".inputs", node.id, "required input " + quote(in.name) + " ("
                                                                     + dataTypeName(in.type) + ") is not connected"));
        // expect: checks grove-cli check runs on the node's layer
        if (!node.expect.empty() && !desc->makesLayer())
            out.push_back(problem(base + ".expect", node.id, "node " + quote(node.id) + " (" + node.type
                                                                 + ") makes no layer: only layer nodes take expect"));
        else
            for (size_t i = 0; i < node.expect.size(); ++i)
                if (std::string why; !parseExpectation(node.expect[i], &why))
                    out.push_back(problem(base + ".expect[" + std::to_string(i) + "]", node.id, why));
    }
    for (const auto &cycle : findCycles(graph)) {
        if (cycle.size() == 1)
            continue;  // a self-link, reported above
        std::string names;
        for (size_t i = 0; i < cycle.size(); ++i) {
            if (cycle.size() > 12 && i == 6) {
                names += " -> ... (" + std::to_string(cycle.size() - 10) + " more)";
                i = cycle.size() - 4;
            }
            names += (names.empty() ? "" : " -> ") + cycle[i];
        }
        names += " -> " + cycle.front();
        out.push_back(problem("nodes." + cycle.front(), cycle.front(), "cycle: " + names));
    }
    const LayerRefinements refinements(graph, [&](const Node &n) { return groups.find(n, graph.baseDir); });
    for (const Diagnostic &d : refinements.problems())
        out.push_back(d);
    for (Diagnostic &d : validateGroupDeclarations(graph, groups))
        out.push_back(std::move(d));
    return out;
}

std::optional<std::string> connectionProblem(const Graph &graph, const GroupResolver &groups, const Link &from,
                                             const std::string &toNode, const std::string &toInput)
{
    const Node *source = graph.node(from.node);
    const Node *target = graph.node(toNode);
    if (!source || !target)
        return std::string("no such node");
    const NodeDescriptor *srcDesc = groups.find(*source, graph.baseDir);
    const NodeDescriptor *dstDesc = groups.find(*target, graph.baseDir);
    if (!srcDesc || !dstDesc)
        return std::string("unknown node type");
    const PortSpec *outPort = sourcePort(*srcDesc, from);
    const PortSpec *inPort = dstDesc->input(toInput);
    if (!outPort || !inPort)
        return std::string("no such port");
    if (outPort->type != inPort->type)
        return std::string("type mismatch: ") + toInput + " takes " + dataTypeName(inPort->type) + ", "
               + from.toString() + " gives " + dataTypeName(outPort->type);
    if (from.node == toNode)
        return std::string("a node cannot feed itself");
    // Would the new link close a loop? Only if toNode is upstream of from.node already.
    GraphIndex index(graph);
    std::vector<int> stack{index.indexOf(from.node)};
    std::vector<char> visited(graph.nodes.size(), 0);
    while (!stack.empty()) {
        int i = stack.back();
        stack.pop_back();
        if (i < 0 || visited[static_cast<size_t>(i)])
            continue;
        visited[static_cast<size_t>(i)] = 1;
        const Node &n = graph.nodes[static_cast<size_t>(i)];
        if (n.id == toNode)
            return "cycle: " + toNode + " already feeds " + from.node;
        for (const auto &[port, link] : n.inputs)
            stack.push_back(index.indexOf(link.node));
    }
    return std::nullopt;
}

} // namespace grove
