// Graph YAML v1 reading with yaml-cpp: every problem located, a best-effort graph even on errors.
#include "core/graph/GraphReader.h"

#include "core/graph/GraphValidator.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/YamlValue.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <tuple>
#include <sys/stat.h>

namespace grove {

namespace {

LoadResult readGroupFile(const std::string &path, const std::string &shownAs, GroupResolver &groups)
{
    return loadGraphFile(path, groups, shownAs);
}

class Reader
{
public:
    Reader(std::string file, GroupResolver &groups, std::string baseDir, std::string self)
        : m_file(std::move(file)), m_groups(groups), m_registry(groups.registry()), m_self(std::move(self))
    {
        m_graph.baseDir = std::move(baseDir);
    }

    LoadResult load(const std::string &text);

private:
    void error(YamlLocation loc, std::string path, std::string message, std::string nodeId = {})
    {
        Diagnostic d;
        d.file = m_file;
        d.line = loc.line;
        d.column = loc.column;
        d.path = std::move(path);
        d.nodeId = std::move(nodeId);
        d.message = std::move(message);
        m_diags.push_back(std::move(d));
    }
    void warning(YamlLocation loc, std::string path, std::string message)
    {
        error(loc, std::move(path), std::move(message));
        m_diags.back().severity = Diagnostic::Severity::Warning;
    }

    YamlErrorSink sink()
    {
        return [this](YamlLocation loc, const std::string &path, const std::string &message) {
            error(loc, path, message);
        };
    }
    std::vector<std::pair<std::string, YAML::Node>>
    entries(const YAML::Node &map, const std::string &path,
            std::vector<std::pair<std::string, YamlLocation>> *keyLocs = nullptr)
    {
        return mapEntries(map, path, sink(), keyLocs);
    }
    bool valueFromYaml(const YAML::Node &n, const std::string &path, int depth, Value &out)
    {
        return convertYaml(n, path, depth, out, sink(), m_budget);
    }
    void readWorld(const YAML::Node &n);
    void readNodes(const YAML::Node &n);
    void readNode(const std::string &id, YamlLocation idLoc, const YAML::Node &n);
    void migrate(Node &node, ValueMap &params, YamlLocation versionLoc);
    void readLayout(const YAML::Node &n);
    void readExpect(Node &node, const YAML::Node &n, const std::string &path);
    std::optional<std::string> scalarText(const YAML::Node &n, const std::string &path, const char *what);
    bool numberOf(const YAML::Node &n, const std::string &path, double &out);
    void remember(const std::string &path, YamlLocation loc)
    {
        m_locs.emplace(path, std::make_pair(loc.line, loc.column));
    }
    // The items of a list param and their keys ("pins[3].x"), so a problem with one item is placed
    // at its own line; bounded, as a huge list's problems fall back to the param's line.
    void rememberItems(const YAML::Node &n, const std::string &path, int depth)
    {
        if (depth <= 0 || m_itemBudget == 0)
            return;
        if (n.IsSequence()) {
            std::size_t i = 0;
            for (const auto &item : n) {
                if (m_itemBudget == 0)
                    return;
                --m_itemBudget;
                const std::string at = path + "[" + std::to_string(i++) + "]";
                remember(at, locationOf(item));
                rememberItems(item, at, depth - 1);
            }
        } else if (n.IsMap()) {
            for (const auto &kv : n) {
                if (m_itemBudget == 0 || !kv.first.IsScalar())
                    return;
                --m_itemBudget;
                const std::string at = path + "." + kv.first.Scalar();
                remember(at, locationOf(kv.second));
                rememberItems(kv.second, at, depth - 1);
            }
        }
    }
    std::size_t m_itemBudget = 1u << 18;

    std::string m_file;
    GroupResolver &m_groups;
    const NodeRegistry &m_registry;
    std::string m_self;  // the file read (absolute), which a group inside must not include
    Graph m_graph;
    Diagnostics m_diags;
    std::map<std::string, std::pair<int, int>> m_locs;  // YAML path -> (line, column)
    std::size_t m_budget = limits::maxYamlValues;
};

std::optional<std::string> Reader::scalarText(const YAML::Node &n, const std::string &path, const char *what)
{
    if (n.IsScalar())
        return n.Scalar();
    error(locationOf(n), path, std::string(what) + " must be a single value, not "
                              + (n.IsMap() ? "a map" : n.IsSequence() ? "a list" : "empty"));
    return std::nullopt;
}

bool Reader::numberOf(const YAML::Node &n, const std::string &path, double &out)
{
    Value v;
    if (!valueFromYaml(n, path, 0, v))
        return false;
    if (!v.isNumber()) {
        error(locationOf(n), path, path + " must be a number");
        return false;
    }
    out = v.toNumber();
    return true;
}

void Reader::readWorld(const YAML::Node &n)
{
    remember("world", locationOf(n));
    if (!n.IsMap()) {
        error(locationOf(n), "world", "world must be a map with width, height and seed");
        return;
    }
    bool haveWidth = false, haveHeight = false;
    for (const auto &[key, v] : entries(n, "world")) {
        const std::string path = "world." + key;
        remember(path, locationOf(v));
        double d;
        if (key == "width" || key == "height") {
            (key == "width" ? haveWidth : haveHeight) = true;
            if (numberOf(v, path, d))
                (key == "width" ? m_graph.world.width : m_graph.world.height) = d;
        } else if (key == "seed") {
            if (numberOf(v, path, d)) {
                if (d != std::floor(d) || d < -2147483648.0 || d > 2147483647.0)
                    error(locationOf(v), path, "world seed must be a whole number from -2147483648 to 2147483647, got "
                                              + formatNumber(d));
                else
                    m_graph.world.seed = static_cast<std::int32_t>(d);
            }
        } else if (key == "chunk") {
            if (numberOf(v, path, d))
                m_graph.world.chunk = d;
        } else if (key == "depth") {
            if (numberOf(v, path, d))
                m_graph.world.depth = d;
        } else if (key == "wrap") {
            if (!v.IsScalar() || !m_graph.world.setWrap(v.Scalar()))
                error(locationOf(v), path, "world wrap must be true (both axes), false, x or y");
        } else {
            error(locationOf(v), path, "unknown key " + quote(key) + " in world" + didYouMean(key, {"width", "height", "depth", "seed", "chunk", "wrap"}));
        }
    }
    if (!haveWidth && !haveHeight && m_graph.world.chunk != 0) {  // endless: chunks on demand
        m_graph.world.endless = true;
        m_graph.world.width = m_graph.world.height = 0;
        return;
    }
    if (!haveWidth)
        error(locationOf(n), "world", m_graph.world.chunk != 0 ? "world needs a width (or neither width nor height: an endless world)" : "world needs a width");
    if (!haveHeight)
        error(locationOf(n), "world", m_graph.world.chunk != 0 ? "world needs a height (or neither width nor height: an endless world)" : "world needs a height");
}

// A node saved at an older version of its type reads as the current one; a newer one is refused,
// as this Grove cannot know what it means.
void Reader::migrate(Node &node, ValueMap &params, YamlLocation versionLoc)
{
    const NodeDescriptor *desc = m_registry.find(node.type);
    if (!desc || node.version == desc->version)
        return;
    const std::string path = "nodes." + node.id + ".version";
    if (node.version > desc->version) {
        error(versionLoc, path, "node " + quote(node.id) + " is " + node.type + " version " + std::to_string(node.version)
                                    + ", newer than this Grove knows (version " + std::to_string(desc->version)
                                    + "): it was saved by a newer Grove; update Grove to open it", node.id);
        return;
    }
    if (auto problem = migrateParams(*desc, node.version, params))
        error(versionLoc, path, "node " + quote(node.id) + ": " + *problem, node.id);
    node.version = desc->version;
}

void Reader::readNode(const std::string &id, YamlLocation idLoc, const YAML::Node &n)
{
    const std::string base = "nodes." + id;
    remember(base, idLoc);
    Node node;
    node.id = id;
    if (!n.IsMap()) {
        error(locationOf(n), base, "node " + quote(id) + " must be a map with type, inputs and params", id);
        return;
    }
    ValueMap params;
    node.version = 1;
    YamlLocation versionLoc = idLoc;
    for (const auto &[key, v] : entries(n, base)) {
        const std::string path = base + "." + key;
        remember(path, locationOf(v));
        if (key == "type") {
            if (auto t = scalarText(v, path, "type")) {
                node.type = *t;
            }
        } else if (key == "version") {
            versionLoc = locationOf(v);
            double d = 0;
            if (numberOf(v, path, d) && (d != std::floor(d) || d < 1 || d > 1e6))
                error(locationOf(v), path, "version must be the node type's version, a whole number from 1, got "
                                               + formatNumber(d), id);
            else if (d >= 1)
                node.version = static_cast<int>(d);
        } else if (key == "inputs") {
            if (v.IsNull())
                continue;
            if (!v.IsMap()) {
                error(locationOf(v), path, "inputs must be a map of input -> node or node.port", id);
                continue;
            }
            std::vector<std::pair<std::string, YamlLocation>> keyLocs;
            for (const auto &[port, src] : entries(v, path, &keyLocs)) {
                remember(path + "." + port, locationOf(src));
                if (auto text = scalarText(src, path + "." + port, "a link"))
                    node.inputs.emplace_back(port, Link::parse(*text));
            }
        } else if (key == "params") {
            if (v.IsNull())
                continue;
            if (!v.IsMap()) {
                error(locationOf(v), path, "params must be a map of name -> value", id);
                continue;
            }
            for (const auto &[name, pv] : entries(v, path)) {
                remember(path + "." + name, locationOf(pv));
                rememberItems(pv, path + "." + name, 3);
                Value value;
                if (valueFromYaml(pv, path + "." + name, 1, value))
                    params.emplace_back(name, std::move(value));
            }
        } else if (key == "expect") {
            readExpect(node, v, path);
        } else {
            error(locationOf(v), path, "unknown key " + quote(key) + " in node " + quote(id) + ""
                                      + didYouMean(key, {"type", "version", "inputs", "params", "expect"}), id);
        }
    }
    migrate(node, params, versionLoc);
    node.params = std::move(params);
    m_graph.nodes.push_back(std::move(node));
}

// expect: a list of "METRIC OP NUMBER" texts, each remembered at its own line for the checks'
// messages (nodes.trees.expect[1]); their meaning is the validator's.
void Reader::readExpect(Node &node, const YAML::Node &n, const std::string &path)
{
    if (n.IsNull())
        return;
    if (!n.IsSequence()) {
        error(locationOf(n), path, "expect must be a list such as [count >= 400, too_close == 0]", node.id);
        return;
    }
    std::size_t i = 0;
    for (const auto &item : n) {
        const std::string itemPath = path + "[" + std::to_string(i++) + "]";
        remember(itemPath, locationOf(item));
        if (m_budget == 0)
            return;  // reported once, when it ran out
        if (--m_budget == 0) {  // the value budget also bounds lists repeated through aliases
            error(locationOf(item), itemPath, "the file expands to more than " + std::to_string(limits::maxYamlValues)
                                                  + " values: YAML aliases repeat data");
            return;
        }
        if (auto text = scalarText(item, itemPath, "an expectation"))
            node.expect.push_back(*text);
    }
}

void Reader::readNodes(const YAML::Node &n)
{
    remember("nodes", locationOf(n));
    if (n.IsNull())
        return;
    if (!n.IsMap()) {
        error(locationOf(n), "nodes", "nodes must be a map of node id -> node");
        return;
    }
    std::vector<std::pair<std::string, YamlLocation>> keyLocs;
    auto list = entries(n, "nodes", &keyLocs);
    if (list.size() > limits::maxNodes) {
        error(locationOf(n), "nodes", "the graph has " + std::to_string(list.size()) + " nodes; the limit is "
                                     + std::to_string(limits::maxNodes));
        return;
    }
    for (size_t i = 0; i < list.size(); ++i)
        readNode(list[i].first, keyLocs[i].second, list[i].second);
}

void Reader::readLayout(const YAML::Node &n)
{
    if (n.IsNull())
        return;
    if (!n.IsMap()) {
        error(locationOf(n), "layout", "layout must be a map");
        return;
    }
    for (const auto &[key, v] : entries(n, "layout")) {
        if (key != "nodes") {
            warning(locationOf(v), "layout." + key, "unknown key " + quote(key) + " in layout is ignored");
            continue;
        }
        if (v.IsNull())
            continue;
        if (!v.IsMap()) {
            error(locationOf(v), "layout.nodes", "layout.nodes must be a map of node id -> {x, y}");
            continue;
        }
        for (const auto &[id, pos] : entries(v, "layout.nodes")) {
            const std::string path = "layout.nodes." + id;
            if (!pos.IsMap()) {
                error(locationOf(pos), path, "a node's layout must be {x, y}");
                continue;
            }
            NodeLayout nl;
            for (const auto &[k, pv] : entries(pos, path)) {
                double d;
                if (k == "x" || k == "y") {
                    if (numberOf(pv, path + "." + k, d)) {
                        if (!std::isfinite(d) || std::fabs(d) > 1e9)
                            error(locationOf(pv), path + "." + k, "layout position must be a finite number within 1e9");
                        else
                            (k == "x" ? nl.x : nl.y) = d;
                    }
                } else if (k == "collapsed") {
                    Value b;
                    if (valueFromYaml(pv, path + "." + k, 0, b) && b.isBool())
                        nl.collapsed = b.toBool();
                    else
                        error(locationOf(pv), path + "." + k, "collapsed must be true or false");
                } else {
                    warning(locationOf(pv), path + "." + k, "unknown key " + quote(k) + " in a node's layout is ignored");
                }
            }
            m_graph.layout[id] = nl;
        }
    }
}

// The deepest remembered path that is a prefix of `path`: where a problem about it belongs.
std::pair<int, int> findLocation(const std::map<std::string, std::pair<int, int>> &locations, std::string path)
{
    while (!path.empty()) {
        auto it = locations.find(path);
        if (it != locations.end())
            return it->second;
        auto cut = path.find_last_of(".[");
        path = cut == std::string::npos ? std::string() : path.substr(0, cut);
    }
    return {0, 0};
}

LoadResult Reader::load(const std::string &text)
{
    LoadResult result;
    if (text.size() > limits::maxYamlBytes) {
        error({1, 1}, "", "the file is " + std::to_string(text.size() >> 20) + " MiB; graphs are limited to "
                              + std::to_string(limits::maxYamlBytes >> 20) + " MiB");
        result.diagnostics = std::move(m_diags);
        return result;
    }
    if (text.size() >= 2 && ((text[0] == '\xff' && text[1] == '\xfe') || (text[0] == '\xfe' && text[1] == '\xff'))) {
        error({1, 1}, "", "not a grove graph: the file is UTF-16 text; save it as UTF-8");
        result.diagnostics = std::move(m_diags);
        return result;
    }
    if (text.find('\0') != std::string::npos) {
        size_t at = text.find('\0');
        int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        size_t lineStart = text.rfind('\n', at);
        int col = static_cast<int>(at - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
        error({line, col}, "", "not a grove graph: the file contains a NUL byte (is it binary?)");
        result.diagnostics = std::move(m_diags);
        return result;
    }
    if (auto problem = checkYamlSize(text)) {
        error(problem->where, "", problem->message);
        result.diagnostics = std::move(m_diags);
        return result;
    }
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception &e) {
        std::string msg = e.msg;
        if (msg == "bad file")  // yaml-cpp's depth guard
            msg = "nested too deeply to read";
        else if (msg == "illegal map value")
            msg += " (a tab in the indentation, a key over 1024 characters, or no space after ':'?)";
        error({e.mark.line + 1, e.mark.column + 1}, "", "not valid YAML: " + msg);
        result.diagnostics = std::move(m_diags);
        return result;
    }
    if (!root || root.IsNull()) {
        error({1, 1}, "", "not a grove graph: the file is empty (expected 'grove: 1' and the graph)");
    } else if (!root.IsMap()) {
        error(locationOf(root), "", "not a grove graph: expected a map starting with 'grove: 1'");
    } else {
        auto top = entries(root, "");
        auto grove = std::find_if(top.begin(), top.end(), [](const auto &e) { return e.first == "grove"; });
        if (grove == top.end()) {
            error(locationOf(root), "", "not a grove graph: 'grove: 1' is missing");
        } else {
            Value v;
            valueFromYaml(grove->second, "grove", 0, v);
            double ver = v.toNumber(-1);
            if (!v.isNumber() || ver != std::floor(ver)) {
                error(locationOf(grove->second), "grove", "grove must be the format version, a whole number such as "
                                                         + std::to_string(kGraphFormatVersion));
            } else if (ver < 1) {
                error(locationOf(grove->second), "grove", "grove: " + formatNumber(ver)
                                                         + " is no format version: graph formats start at 1 (this Grove reads up to "
                                                         + std::to_string(kGraphFormatVersion) + ")");
            } else if (ver > kGraphFormatVersion) {
                error(locationOf(grove->second), "grove", "this graph is format version " + formatNumber(ver)
                                                         + ", newer than this Grove reads ("
                                                         + std::to_string(kGraphFormatVersion)
                                                         + "); update Grove to open it");
                result.diagnostics = std::move(m_diags);
                return result;
            }
            if (grove != top.begin())
                warning(locationOf(grove->second), "grove", "'grove' should be the first key");
        }
        bool haveWorld = false;
        for (const auto &[key, v] : top) {
            if (key == "grove")
                continue;
            if (key == "name" || key == "notes") {
                if (v.IsNull())
                    continue;
                if (auto s = scalarText(v, key, key.c_str()))
                    (key == "name" ? m_graph.name : m_graph.notes) = *s;
            } else if (key == "world") {
                haveWorld = true;
                readWorld(v);
            } else if (key == "nodes") {
                readNodes(v);
            } else if (key == "layout") {
                readLayout(v);
            } else if (key == "inputs" || key == "outputs" || key == "expose") {  // a group file's interface
                readGroupDeclarations(key, v, m_graph, sink(), [this](const std::string &path, YamlLocation loc) { remember(path, loc); },
                                      m_budget);
            } else {
                error(locationOf(v), key, "unknown key " + quote(key) + ""
                                         + didYouMean(key, {"grove", "name", "notes", "world", "inputs", "outputs", "expose",
                                                            "nodes", "layout"}));
            }
        }
        if (!haveWorld)
            error(locationOf(root), "world", "the graph needs a world: {width, height, seed}");
    }

    // The group files it includes are read before it is checked against their descriptors.
    m_groups.resolve(m_graph, m_self, &readGroupFile);
    // Structural checks on what was read, placed at the lines they came from.
    for (Diagnostic d : validateGraph(m_graph, m_groups)) {
        if (!d.file.empty() && !d.nodeId.empty()) {
            // a problem inside a group's file keeps its own place; the message says where it is included
            const auto [line, column] = findLocation(m_locs, "nodes." + d.nodeId + ".params.graph");
            const std::string dir = std::filesystem::path(m_file).parent_path().string();
            if (!dir.empty() && d.file.front() != '/')
                d.file = (std::filesystem::path(dir) / d.file).lexically_normal().string();
            // the innermost two includes and the outermost one: a long chain stays one readable line
            const std::string via = " (in group " + quote(d.nodeId) + ", included from " + m_file + ":" + std::to_string(line)
                                    + ":" + std::to_string(column) + ")";
            size_t second = d.message.find(" (in group ");
            second = second == std::string::npos ? second : d.message.find(" (in group ", second + 1);
            if (second != std::string::npos) {
                const size_t third = d.message.find(" (in group ", second + 1);
                const size_t cut = d.message.find(" ...", second);
                if (third != std::string::npos || cut != std::string::npos)
                    d.message = d.message.substr(0, std::min(third, cut)) + " ...";
            }
            d.message += via;
            m_diags.push_back(std::move(d));
            continue;
        }
        std::tie(d.line, d.column) = findLocation(m_locs, d.path);
        d.file = m_file;
        m_diags.push_back(std::move(d));
    }
    std::stable_sort(m_diags.begin(), m_diags.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });

    // Best effort graph: known params completed with defaults; bad values replaced by defaults.
    for (auto &node : m_graph.nodes) {
        const NodeDescriptor *desc = m_groups.find(node, m_graph.baseDir);
        if (!desc)
            continue;
        ValueMap good;
        for (const auto &[k, v] : node.params) {
            const ParamSpec *spec = desc->param(k);
            // a group whose file cannot be read keeps its params for when it can
            if (spec ? !checkParamValue(*spec, v) : node.type == kGroupType)
                good.emplace_back(k, v);
        }
        node.params = completeParams(*desc, good);
        if (node.type == kGroupType)
            for (const auto &[k, v] : good)
                if (!desc->param(k))
                    node.params.emplace_back(k, v);
        // inputs in catalog order
        std::vector<std::pair<std::string, Link>> ordered;
        for (const auto &in : desc->inputs)
            if (const Link *l = node.input(in.name))
                ordered.emplace_back(in.name, *l);
        for (const auto &[k, l] : node.inputs)
            if (!desc->input(k))
                ordered.emplace_back(k, l);
        node.inputs = std::move(ordered);
    }
    // drop layout entries of nodes that do not exist
    for (auto it = m_graph.layout.begin(); it != m_graph.layout.end();)
        it = m_graph.indexOf(it->first) < 0 ? m_graph.layout.erase(it) : std::next(it);

    result.graph = std::move(m_graph);
    result.diagnostics = std::move(m_diags);
    result.locations = std::move(m_locs);
    return result;
}

} // namespace

LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, GroupResolver &groups,
                               const std::string &baseDir)
{
    // a group inside that includes this very file is a cycle
    std::error_code ec;
    const std::string self = fileName.empty() ? std::string()
                             : baseDir.empty() ? (std::filesystem::current_path(ec) / fileName).lexically_normal().string()
                                               : (std::filesystem::path(baseDir) / std::filesystem::path(fileName).filename()).lexically_normal().string();
    Reader reader(fileName, groups, baseDir, self);
    return reader.load(text);
}

LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, const NodeRegistry &registry,
                               const std::string &baseDir)
{
    GroupResolver groups(registry);
    return loadGraphFromString(text, fileName, groups, baseDir);
}

void resolveGroups(GroupResolver &groups, const Graph &graph, const std::string &file)
{
    groups.resolve(graph, file, &readGroupFile);
}

void locate(const LoadResult &loaded, Diagnostic &diagnostic)
{
    std::tie(diagnostic.line, diagnostic.column) = findLocation(loaded.locations, diagnostic.path);
}

} // namespace grove
