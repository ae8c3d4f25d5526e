// A group file's declared interface (inputs, outputs, expose): validated, read and written.
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

Diagnostics validateGroupDeclarations(const Graph &graph, const GroupResolver &groups)
{
    Diagnostics out;
    auto nodeDesc = [&](const Node &n) { return groups.find(n, graph.baseDir); };
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

} // namespace grove
