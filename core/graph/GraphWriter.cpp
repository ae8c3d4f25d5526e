// The canonical writer, by hand rather than through yaml-cpp's emitter, so every byte is decided here.
#include "core/graph/GraphWriter.h"

#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/Sha256.h"
#include "core/base/YamlValue.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace grove {

namespace {

// Lists of maps read better one per line; everything else fits on the key's line.
void writeValue(std::string &out, const std::string &indent, const std::string &key, const Value &v)
{
    bool listOfMaps = v.isList() && !v.toList().empty();
    for (const auto &item : v.toList())
        listOfMaps = listOfMaps && item.isMap();
    if (listOfMaps) {
        out += indent + yamlScalar(key) + ":\n";
        for (const auto &item : v.toList())
            out += indent + "  - " + toFlowYaml(item) + "\n";
        return;
    }
    out += indent + yamlScalar(key) + ": " + toFlowYaml(v) + "\n";
}

bool blockSafe(const std::string &s)
{
    if (s.empty() || s.find('\n') == std::string::npos || s[0] == ' ' || s[0] == '\n')
        return false;
    for (unsigned char c : s)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return false;
    // a line may not hold only spaces before content lines (indentation ambiguity)
    size_t pos = 0;
    while (pos < s.size()) {
        size_t end = s.find('\n', pos);
        if (end == std::string::npos)
            end = s.size();
        std::string line = s.substr(pos, end - pos);
        if (!line.empty() && line.find_first_not_of(' ') == std::string::npos)
            return false;
        pos = end + 1;
    }
    return true;
}

void writeText(std::string &out, const std::string &key, const std::string &text)
{
    if (!blockSafe(text)) {
        out += key + ": " + yamlScalar(text) + "\n";
        return;
    }
    size_t trailing = 0;
    while (trailing < text.size() && text[text.size() - 1 - trailing] == '\n')
        ++trailing;
    const char *chomp = trailing == 0 ? "|-" : trailing == 1 ? "|" : "|+";
    out += key + ": " + chomp + "\n";
    std::string body = text.substr(0, text.size() - trailing);
    size_t pos = 0;
    while (pos <= body.size()) {
        size_t end = body.find('\n', pos);
        if (end == std::string::npos)
            end = body.size();
        std::string line = body.substr(pos, end - pos);
        out += line.empty() ? "\n" : "  " + line + "\n";
        pos = end + 1;
    }
    for (size_t i = 1; i < trailing; ++i)
        out += "\n";
}

// An expectation reads best as written (count >= 400): plain where YAML reads it back as the
// same string, quoted otherwise. Comparison signs are plain in the middle of a flow scalar.
std::string expectScalar(const std::string &text)
{
    bool plain = !text.empty() && text.size() <= 200 && std::isalpha(static_cast<unsigned char>(text[0]))
                 && text.back() != ' ';
    for (unsigned char c : text)
        plain = plain && (std::isalnum(c) || std::string_view("_-+. <>=!").find(static_cast<char>(c)) != std::string_view::npos);
    // the leading word alone must not be a YAML word (true, null, ...)
    const std::string word = text.substr(0, text.find_first_of(" <>=!"));
    return plain && yamlScalar(word) == word ? text : yamlScalar(text);
}

std::string writeGraph(const Graph &graph, const GroupResolver &groups, bool withLayout, bool withExpect)
{
    std::string out;
    out += "grove: " + std::to_string(kGraphFormatVersion) + "\n";
    if (!graph.name.empty())
        out += "name: " + yamlScalar(graph.name) + "\n";
    if (!graph.notes.empty())
        writeText(out, "notes", graph.notes);
    out += "world:\n";
    if (!graph.world.endless) {
        out += "  width: " + formatNumber(graph.world.width) + "\n";
        out += "  height: " + formatNumber(graph.world.height) + "\n";
    }
    if (graph.world.depth != 0)
        out += "  depth: " + formatNumber(graph.world.depth) + "\n";
    out += "  seed: " + std::to_string(graph.world.seed) + "\n";
    if (graph.world.chunk != 0)
        out += "  chunk: " + formatNumber(graph.world.chunk) + "\n";
    if (graph.world.wraps())
        out += "  wrap: " + graph.world.wrapText() + "\n";
    writeGroupDeclarations(out, graph);
    const std::vector<int> order = topologicalOrder(graph);
    if (order.empty()) {
        out += "nodes: {}\n";
    } else {
        out += "nodes:\n";
        for (int i : order) {
            const Node &node = graph.nodes[static_cast<size_t>(i)];
            out += "  " + yamlScalar(node.id) + ":\n";
            out += "    type: " + yamlScalar(node.type) + "\n";
            const NodeDescriptor *desc = groups.find(node, graph.baseDir);
            // a changed default or meaning is a new version of the type: it changes the text and the hash
            if (const int version = desc ? desc->version : node.version; version > 1)
                out += "    version: " + std::to_string(version) + "\n";
            if (!node.inputs.empty()) {
                out += "    inputs:\n";
                std::vector<std::pair<std::string, Link>> inputs = node.inputs;
                if (desc)
                    std::stable_sort(inputs.begin(), inputs.end(), [&](const auto &a, const auto &b) {
                        int ia = desc->inputIndex(a.first), ib = desc->inputIndex(b.first);
                        return (ia < 0 ? 1 << 30 : ia) < (ib < 0 ? 1 << 30 : ib);
                    });
                for (const auto &[port, link] : inputs)
                    out += "      " + yamlScalar(port) + ": " + yamlScalar(link.toString()) + "\n";
            }
            // params at their default are left out: a param added later with a default changes no
            // saved text; a group node keeps every param (its defaults are its file's, which may change)
            ValueMap params = !desc ? node.params
                              : node.type == kGroupType ? completeParams(*desc, node.params)
                                                        : paramsToSave(*desc, completeParams(*desc, node.params));
            if (desc)  // keep unknown params of a known type too, so nothing typed is lost
                for (const auto &[k, v] : node.params)
                    if (!desc->param(k))
                        params.emplace_back(k, v);
            if (!params.empty()) {
                out += "    params:\n";
                for (const auto &[k, v] : params)
                    writeValue(out, "      ", k, v);
            }
            if (withExpect && !node.expect.empty()) {
                out += "    expect: [";
                for (size_t e = 0; e < node.expect.size(); ++e)
                    out += (e ? ", " : "") + expectScalar(node.expect[e]);
                out += "]\n";
            }
        }
    }
    if (withLayout) {
        bool any = false;
        for (int i : order)
            if (graph.layout.count(graph.nodes[static_cast<size_t>(i)].id))
                any = true;
        if (any) {
            out += "layout:\n  nodes:\n";
            for (int i : order) {
                const std::string &id = graph.nodes[static_cast<size_t>(i)].id;
                auto it = graph.layout.find(id);
                if (it == graph.layout.end())
                    continue;
                out += "    " + yamlScalar(id) + ": {x: " + formatNumber(it->second.x) + ", y: "
                       + formatNumber(it->second.y) + (it->second.collapsed ? ", collapsed: true" : "") + "}\n";
            }
        }
    }
    return out;
}

} // namespace

std::string saveGraphToString(const Graph &graph, const GroupResolver &groups, bool withLayout)
{
    return writeGraph(graph, groups, withLayout, true);
}

// Expectations check what a graph computes; they do not change it.
std::string graphHash(const Graph &graph, const GroupResolver &groups)
{
    return "sha256:" + Sha256::hex(writeGraph(graph, groups, false, false));
}

} // namespace grove
