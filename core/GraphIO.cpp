// Graph YAML v1 reading (yaml-cpp, every problem located) and canonical writing (by hand, byte-stable).
#include "GraphIO.h"

#include "GraphValidator.h"
#include "Limits.h"
#include "NodeRegistry.h"
#include "Sha256.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>
#include <sys/stat.h>
#include <unistd.h>

namespace grove {

namespace {

// ---------------------------------------------------------------- reading

struct Loc
{
    int line = 0, column = 0;  // 1-based, 0 unknown
};

Loc locOf(const YAML::Node &n)
{
    const YAML::Mark m = n.Mark();
    if (m.line < 0)
        return {};
    return {m.line + 1, m.column + 1};
}

using ErrorSink = std::function<void(Loc, const std::string &, const std::string &)>;

// Map entries with duplicate keys reported (the first one wins) and non-scalar keys rejected.
std::vector<std::pair<std::string, YAML::Node>> mapEntries(const YAML::Node &map, const std::string &path,
                                                           const ErrorSink &error,
                                                           std::vector<std::pair<std::string, Loc>> *keyLocs);
// YAML -> Value: plain scalars typed like YAML 1.2's core schema, quoted scalars always strings.
// `budget` counts the values a file may expand to, so alias bombs ("billion laughs") stop early.
bool convertYaml(const YAML::Node &n, const std::string &path, int depth, Value &out, const ErrorSink &error,
                 std::size_t &budget);

class Reader
{
public:
    Reader(std::string file, const NodeRegistry &registry) : m_file(std::move(file)), m_registry(registry) {}

    LoadResult load(const std::string &text);

private:
    void error(Loc loc, std::string path, std::string message, std::string nodeId = {})
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
    void warning(Loc loc, std::string path, std::string message)
    {
        error(loc, std::move(path), std::move(message));
        m_diags.back().severity = Diagnostic::Severity::Warning;
    }

    ErrorSink sink()
    {
        return [this](Loc loc, const std::string &path, const std::string &message) { error(loc, path, message); };
    }
    std::vector<std::pair<std::string, YAML::Node>> entries(const YAML::Node &map, const std::string &path,
                                                            std::vector<std::pair<std::string, Loc>> *keyLocs = nullptr)
    {
        return mapEntries(map, path, sink(), keyLocs);
    }
    bool valueFromYaml(const YAML::Node &n, const std::string &path, int depth, Value &out)
    {
        return convertYaml(n, path, depth, out, sink(), m_budget);
    }
    void readWorld(const YAML::Node &n);
    void readNodes(const YAML::Node &n);
    void readNode(const std::string &id, Loc idLoc, const YAML::Node &n);
    void readLayout(const YAML::Node &n);
    std::optional<std::string> scalarText(const YAML::Node &n, const std::string &path, const char *what);
    bool numberOf(const YAML::Node &n, const std::string &path, double &out);
    void remember(const std::string &path, Loc loc) { m_locs.emplace(path, std::make_pair(loc.line, loc.column)); }

    std::string m_file;
    const NodeRegistry &m_registry;
    Graph m_graph;
    Diagnostics m_diags;
    std::map<std::string, std::pair<int, int>> m_locs;  // YAML path -> (line, column)
    std::size_t m_budget = limits::maxYamlValues;
};

// Plain scalars are typed like YAML 1.2's core schema; quoted scalars are always strings.
bool parsePlainNumber(const std::string &s, double &out)
{
    if (s.empty())
        return false;
    std::string t = s;
    bool negative = false;
    if (t[0] == '+' || t[0] == '-') {
        negative = t[0] == '-';
        t = t.substr(1);
    }
    if (t == ".inf" || t == ".Inf" || t == ".INF") {
        out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return true;
    }
    if ((t == ".nan" || t == ".NaN" || t == ".NAN") && s[0] != '+' && s[0] != '-') {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    // digits, optional fraction, optional exponent; nothing else
    size_t i = 0, digits = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
        ++i, ++digits;
    if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i, ++digits;
    }
    if (digits == 0)
        return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        size_t expDigits = 0;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i, ++expDigits;
        if (expDigits == 0)
            return false;
    }
    if (i != t.size())
        return false;
    if (t[0] == '.')
        t = "0" + t;  // from_chars wants a digit first
    double v = 0;
    auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec == std::errc::result_out_of_range) {
        // beyond double: overflow gives inf (then refused by the param's range), underflow 0
        const size_t ePos = t.find_first_of("eE");
        const std::string mantissa = t.substr(0, ePos);
        long long exponent = 0;
        if (ePos != std::string::npos) {
            const std::string e = t.substr(ePos + 1);
            exponent = e.size() > 12 ? (e[0] == '-' ? -1000000 : 1000000) : std::stoll(e);
        }
        const size_t point = mantissa.find('.');
        const std::string whole = mantissa.substr(0, point);
        const size_t firstNonZero = whole.find_first_not_of('0');
        long long magnitude = firstNonZero == std::string::npos ? 0 : static_cast<long long>(whole.size() - firstNonZero);
        if (magnitude == 0 && point != std::string::npos) {
            const std::string frac = mantissa.substr(point + 1);
            magnitude = -static_cast<long long>(frac.find_first_not_of('0'));
        }
        v = magnitude + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    } else if (res.ec != std::errc() || res.ptr != t.data() + t.size()) {
        return false;
    }
    out = negative ? -v : v;
    return true;
}

bool isPlainNull(const std::string &s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

int plainBool(const std::string &s)
{
    if (s == "true" || s == "True" || s == "TRUE")
        return 1;
    if (s == "false" || s == "False" || s == "FALSE")
        return 0;
    return -1;
}

std::vector<std::pair<std::string, YAML::Node>> mapEntries(const YAML::Node &map, const std::string &path,
                                                           const ErrorSink &error,
                                                           std::vector<std::pair<std::string, Loc>> *keyLocs)
{
    std::vector<std::pair<std::string, YAML::Node>> out;
    std::map<std::string, Loc> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const YAML::Node key = it->first;
        Loc kl = locOf(key);
        if (!key.IsScalar()) {
            error(kl, path, "keys must be plain names, not a list or a map");
            continue;
        }
        const std::string name = key.Scalar();
        auto [pos, fresh] = seen.emplace(name, kl);
        if (!fresh) {
            error(kl, path.empty() ? name : path + "." + name,
                  "duplicate key " + quote(name) + " (first at line " + std::to_string(pos->second.line) + ")");
            continue;
        }
        out.emplace_back(name, it->second);
        if (keyLocs)
            keyLocs->emplace_back(name, kl);
    }
    return out;
}

bool convertYaml(const YAML::Node &n, const std::string &path, int depth, Value &out, const ErrorSink &error,
                 std::size_t &budget)
{
    if (budget == 0)
        return false;  // reported once, when it ran out
    if (--budget == 0) {
        error(locOf(n), path, "the file expands to more than " + std::to_string(limits::maxYamlValues)
                                  + " values (YAML aliases repeating data?)");
        return false;
    }
    if (depth > limits::maxYamlDepth) {
        error(locOf(n), path, "nested too deeply (more than " + std::to_string(limits::maxYamlDepth) + " levels)");
        return false;
    }
    switch (n.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
        out = Value();
        return true;
    case YAML::NodeType::Scalar: {
        const std::string &s = n.Scalar();
        if (n.Tag() == "!") {  // quoted: always a string
            out = Value(s);
            return true;
        }
        double d;
        int b = plainBool(s);
        if (b >= 0)
            out = Value(b == 1);
        else if (isPlainNull(s))
            out = Value();
        else if (parsePlainNumber(s, d))
            out = Value(d);
        else
            out = Value(s);
        return true;
    }
    case YAML::NodeType::Sequence: {
        ValueList list;
        size_t i = 0;
        for (const auto &item : n) {
            Value v;
            if (!convertYaml(item, path + "[" + std::to_string(i++) + "]", depth + 1, v, error, budget))
                return false;
            list.push_back(std::move(v));
        }
        out = Value(std::move(list));
        return true;
    }
    case YAML::NodeType::Map: {
        ValueMap map;
        for (const auto &[k, v] : mapEntries(n, path, error, nullptr)) {
            Value item;
            if (!convertYaml(v, path + "." + k, depth + 1, item, error, budget))
                return false;
            map.emplace_back(k, std::move(item));
        }
        out = Value(std::move(map));
        return true;
    }
    }
    return false;
}

std::optional<std::string> Reader::scalarText(const YAML::Node &n, const std::string &path, const char *what)
{
    if (n.IsScalar())
        return n.Scalar();
    error(locOf(n), path, std::string(what) + " must be a single value, not "
                              + (n.IsMap() ? "a map" : n.IsSequence() ? "a list" : "empty"));
    return std::nullopt;
}

bool Reader::numberOf(const YAML::Node &n, const std::string &path, double &out)
{
    Value v;
    if (!valueFromYaml(n, path, 0, v))
        return false;
    if (!v.isNumber()) {
        error(locOf(n), path, path + " must be a number");
        return false;
    }
    out = v.toNumber();
    return true;
}

void Reader::readWorld(const YAML::Node &n)
{
    remember("world", locOf(n));
    if (!n.IsMap()) {
        error(locOf(n), "world", "world must be a map with width, height and seed");
        return;
    }
    bool haveWidth = false, haveHeight = false;
    for (const auto &[key, v] : entries(n, "world")) {
        const std::string path = "world." + key;
        remember(path, locOf(v));
        double d;
        if (key == "width" || key == "height") {
            (key == "width" ? haveWidth : haveHeight) = true;
            if (numberOf(v, path, d))
                (key == "width" ? m_graph.world.width : m_graph.world.height) = d;
        } else if (key == "seed") {
            if (numberOf(v, path, d)) {
                if (d != std::floor(d) || d < -2147483648.0 || d > 2147483647.0)
                    error(locOf(v), path, "world seed must be a whole number from -2147483648 to 2147483647, got "
                                              + formatNumber(d));
                else
                    m_graph.world.seed = static_cast<std::int32_t>(d);
            }
        } else {
            error(locOf(v), path, "unknown key " + quote(key) + " in world" + didYouMean(key, {"width", "height", "seed"}));
        }
    }
    if (!haveWidth)
        error(locOf(n), "world", "world needs a width");
    if (!haveHeight)
        error(locOf(n), "world", "world needs a height");
}

void Reader::readNode(const std::string &id, Loc idLoc, const YAML::Node &n)
{
    const std::string base = "nodes." + id;
    remember(base, idLoc);
    Node node;
    node.id = id;
    if (!n.IsMap()) {
        error(locOf(n), base, "node " + quote(id) + " must be a map with type, inputs and params", id);
        return;
    }
    ValueMap params;
    for (const auto &[key, v] : entries(n, base)) {
        const std::string path = base + "." + key;
        remember(path, locOf(v));
        if (key == "type") {
            if (auto t = scalarText(v, path, "type")) {
                node.type = *t;
            }
        } else if (key == "inputs") {
            if (v.IsNull())
                continue;
            if (!v.IsMap()) {
                error(locOf(v), path, "inputs must be a map of input -> node or node.port", id);
                continue;
            }
            std::vector<std::pair<std::string, Loc>> keyLocs;
            for (const auto &[port, src] : entries(v, path, &keyLocs)) {
                remember(path + "." + port, locOf(src));
                if (auto text = scalarText(src, path + "." + port, "a link"))
                    node.inputs.emplace_back(port, Link::parse(*text));
            }
        } else if (key == "params") {
            if (v.IsNull())
                continue;
            if (!v.IsMap()) {
                error(locOf(v), path, "params must be a map of name -> value", id);
                continue;
            }
            for (const auto &[name, pv] : entries(v, path)) {
                remember(path + "." + name, locOf(pv));
                Value value;
                if (valueFromYaml(pv, path + "." + name, 1, value))
                    params.emplace_back(name, std::move(value));
            }
        } else {
            error(locOf(v), path, "unknown key " + quote(key) + " in node " + quote(id) + ""
                                      + didYouMean(key, {"type", "inputs", "params"}), id);
        }
    }
    node.params = std::move(params);
    m_graph.nodes.push_back(std::move(node));
}

void Reader::readNodes(const YAML::Node &n)
{
    remember("nodes", locOf(n));
    if (n.IsNull())
        return;
    if (!n.IsMap()) {
        error(locOf(n), "nodes", "nodes must be a map of node id -> node");
        return;
    }
    std::vector<std::pair<std::string, Loc>> keyLocs;
    auto list = entries(n, "nodes", &keyLocs);
    if (list.size() > limits::maxNodes) {
        error(locOf(n), "nodes", "the graph has " + std::to_string(list.size()) + " nodes; the limit is "
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
        error(locOf(n), "layout", "layout must be a map");
        return;
    }
    for (const auto &[key, v] : entries(n, "layout")) {
        if (key != "nodes") {
            warning(locOf(v), "layout." + key, "unknown key " + quote(key) + " in layout is ignored");
            continue;
        }
        if (v.IsNull())
            continue;
        if (!v.IsMap()) {
            error(locOf(v), "layout.nodes", "layout.nodes must be a map of node id -> {x, y}");
            continue;
        }
        for (const auto &[id, pos] : entries(v, "layout.nodes")) {
            const std::string path = "layout.nodes." + id;
            if (!pos.IsMap()) {
                error(locOf(pos), path, "a node's layout must be {x, y}");
                continue;
            }
            NodeLayout nl;
            for (const auto &[k, pv] : entries(pos, path)) {
                double d;
                if (k == "x" || k == "y") {
                    if (numberOf(pv, path + "." + k, d)) {
                        if (!std::isfinite(d) || std::fabs(d) > 1e9)
                            error(locOf(pv), path + "." + k, "layout position must be a finite number within 1e9");
                        else
                            (k == "x" ? nl.x : nl.y) = d;
                    }
                } else if (k == "collapsed") {
                    Value b;
                    if (valueFromYaml(pv, path + "." + k, 0, b) && b.isBool())
                        nl.collapsed = b.toBool();
                    else
                        error(locOf(pv), path + "." + k, "collapsed must be true or false");
                } else {
                    warning(locOf(pv), path + "." + k, "unknown key " + quote(k) + " in a node's layout is ignored");
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
        error(locOf(root), "", "not a grove graph: expected a map starting with 'grove: 1'");
    } else {
        auto top = entries(root, "");
        auto grove = std::find_if(top.begin(), top.end(), [](const auto &e) { return e.first == "grove"; });
        if (grove == top.end()) {
            error(locOf(root), "", "not a grove graph: 'grove: 1' is missing");
        } else {
            Value v;
            valueFromYaml(grove->second, "grove", 0, v);
            double ver = v.toNumber(-1);
            if (!v.isNumber() || ver != std::floor(ver) || ver < 1) {
                error(locOf(grove->second), "grove", "grove must be the format version, a whole number such as 1");
            } else if (ver > kGraphFormatVersion) {
                error(locOf(grove->second), "grove", "this graph is format version " + formatNumber(ver)
                                                         + ", newer than this Grove reads ("
                                                         + std::to_string(kGraphFormatVersion)
                                                         + "); update Grove to open it");
                result.diagnostics = std::move(m_diags);
                return result;
            }
            if (grove != top.begin())
                warning(locOf(grove->second), "grove", "'grove' should be the first key");
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
            } else {
                error(locOf(v), key, "unknown key " + quote(key) + ""
                                         + didYouMean(key, {"grove", "name", "notes", "world", "nodes", "layout"}));
            }
        }
        if (!haveWorld)
            error(locOf(root), "world", "the graph needs a world: {width, height, seed}");
    }

    // Structural checks on what was read, placed at the lines they came from.
    for (Diagnostic d : validateGraph(m_graph, m_registry)) {
        std::tie(d.line, d.column) = findLocation(m_locs, d.path);
        d.file = m_file;
        m_diags.push_back(std::move(d));
    }
    std::stable_sort(m_diags.begin(), m_diags.end(), [](const Diagnostic &a, const Diagnostic &b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });

    // Best effort graph: known params completed with defaults; bad values replaced by defaults.
    for (auto &node : m_graph.nodes) {
        const NodeDescriptor *desc = m_registry.find(node.type);
        if (!desc)
            continue;
        ValueMap good;
        for (const auto &[k, v] : node.params) {
            const ParamSpec *spec = desc->param(k);
            if (spec && !checkParamValue(*spec, v))
                good.emplace_back(k, v);
        }
        node.params = completeParams(*desc, good);
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

// ---------------------------------------------------------------- writing

bool isReservedPlain(const std::string &s)
{
    static const char *words[] = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "inf", "nan"};
    std::string lower;
    for (char c : s)
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char *w : words)
        if (lower == w)
            return true;
    return false;
}

bool canBePlain(const std::string &s)
{
    if (s.empty() || s.size() > 200 || isReservedPlain(s))
        return false;
    unsigned char first = static_cast<unsigned char>(s[0]);
    if (!(std::isalpha(first) || first == '_'))
        return false;
    if (s.back() == ' ')
        return false;
    for (size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (!(std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == ' ' || c == '/' || c == '(' || c == ')'))
            return false;
    }
    return true;
}

std::string quoted(const std::string &s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                static const char *hex = "0123456789abcdef";
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string scalar(const std::string &s) { return canBePlain(s) ? s : quoted(s); }

std::string flowValue(const Value &v)
{
    switch (v.kind()) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return v.toBool() ? "true" : "false";
    case Value::Kind::Number: return formatNumber(v.toNumber());
    case Value::Kind::String: return scalar(v.toString());
    case Value::Kind::List: {
        std::string out = "[";
        bool first = true;
        for (const auto &item : v.toList()) {
            out += (first ? "" : ", ") + flowValue(item);
            first = false;
        }
        return out + "]";
    }
    case Value::Kind::Map: {
        std::string out = "{";
        bool first = true;
        for (const auto &[k, item] : v.toMap()) {
            out += (first ? "" : ", ") + scalar(k) + ": " + flowValue(item);
            first = false;
        }
        return out + "}";
    }
    }
    return "null";
}

// Lists of maps read better one per line; everything else fits on the key's line.
void writeValue(std::string &out, const std::string &indent, const std::string &key, const Value &v)
{
    bool listOfMaps = v.isList() && !v.toList().empty();
    for (const auto &item : v.toList())
        listOfMaps = listOfMaps && item.isMap();
    if (listOfMaps) {
        out += indent + scalar(key) + ":\n";
        for (const auto &item : v.toList())
            out += indent + "  - " + flowValue(item) + "\n";
        return;
    }
    out += indent + scalar(key) + ": " + flowValue(v) + "\n";
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
        out += key + ": " + scalar(text) + "\n";
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

} // namespace

std::string toFlowYaml(const Value &value)
{
    return flowValue(value);
}

LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, const NodeRegistry &registry)
{
    Reader reader(fileName, registry);
    return reader.load(text);
}

void locate(const LoadResult &loaded, Diagnostic &diagnostic)
{
    std::tie(diagnostic.line, diagnostic.column) = findLocation(loaded.locations, diagnostic.path);
}

LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        LoadResult r;
        Diagnostic d;
        d.file = path;
        d.message = std::string("cannot open: ") + std::strerror(errno);
        r.diagnostics.push_back(d);
        return r;
    }
    if (S_ISDIR(st.st_mode) || static_cast<std::uint64_t>(st.st_size) > limits::maxYamlBytes) {
        LoadResult r;
        Diagnostic d;
        d.file = path;
        d.message = S_ISDIR(st.st_mode) ? "cannot open: it is a folder"
                                        : "the file is larger than the " + std::to_string(limits::maxYamlBytes >> 20)
                                              + " MiB graph limit";
        r.diagnostics.push_back(d);
        return r;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        LoadResult r;
        Diagnostic d;
        d.file = path;
        d.message = std::string("cannot open: ") + std::strerror(errno);
        r.diagnostics.push_back(d);
        return r;
    }
    // st_size is 0 for pipes and devices (/dev/zero, /dev/stdin): the limit holds while reading.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > limits::maxYamlBytes) {
            LoadResult r;
            Diagnostic d;
            d.file = path;
            d.message = "the file is larger than the " + std::to_string(limits::maxYamlBytes >> 20) + " MiB graph limit";
            r.diagnostics.push_back(d);
            return r;
        }
    }
    return loadGraphFromString(text, path, registry);
}

std::string saveGraphToString(const Graph &graph, const NodeRegistry &registry, bool withLayout)
{
    std::string out;
    out += "grove: " + std::to_string(kGraphFormatVersion) + "\n";
    if (!graph.name.empty())
        out += "name: " + scalar(graph.name) + "\n";
    if (!graph.notes.empty())
        writeText(out, "notes", graph.notes);
    out += "world:\n";
    out += "  width: " + formatNumber(graph.world.width) + "\n";
    out += "  height: " + formatNumber(graph.world.height) + "\n";
    out += "  seed: " + std::to_string(graph.world.seed) + "\n";
    const std::vector<int> order = topologicalOrder(graph);
    if (order.empty()) {
        out += "nodes: {}\n";
    } else {
        out += "nodes:\n";
        for (int i : order) {
            const Node &node = graph.nodes[static_cast<size_t>(i)];
            out += "  " + scalar(node.id) + ":\n";
            out += "    type: " + scalar(node.type) + "\n";
            const NodeDescriptor *desc = registry.find(node.type);
            if (!node.inputs.empty()) {
                out += "    inputs:\n";
                std::vector<std::pair<std::string, Link>> inputs = node.inputs;
                if (desc)
                    std::stable_sort(inputs.begin(), inputs.end(), [&](const auto &a, const auto &b) {
                        int ia = desc->inputIndex(a.first), ib = desc->inputIndex(b.first);
                        return (ia < 0 ? 1 << 30 : ia) < (ib < 0 ? 1 << 30 : ib);
                    });
                for (const auto &[port, link] : inputs)
                    out += "      " + scalar(port) + ": " + scalar(link.toString()) + "\n";
            }
            ValueMap params = desc ? completeParams(*desc, node.params) : node.params;
            if (desc)  // keep unknown params of a known type too, so nothing typed is lost
                for (const auto &[k, v] : node.params)
                    if (!desc->param(k))
                        params.emplace_back(k, v);
            if (!params.empty()) {
                out += "    params:\n";
                for (const auto &[k, v] : params)
                    writeValue(out, "      ", k, v);
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
                out += "    " + scalar(id) + ": {x: " + formatNumber(it->second.x) + ", y: "
                       + formatNumber(it->second.y) + (it->second.collapsed ? ", collapsed: true" : "") + "}\n";
            }
        }
    }
    return out;
}

std::string graphHash(const Graph &graph, const NodeRegistry &registry)
{
    return "sha256:" + Sha256::hex(saveGraphToString(graph, registry, false));
}

std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &bytes)
{
    auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string tmpl = dir + "/." + base + ".saving-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0)
        return "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
    const std::string tmp(name.data());
    auto fail = [&](const std::string &what) {
        std::string reason = what + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(tmp.c_str());
        return reason;
    };
    // keep the permissions of the file being replaced (mkstemp makes 0600)
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0)
        ::fchmod(fd, st.st_mode & 07777);
    else
        ::fchmod(fd, 0644);
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail("cannot write " + path);
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0)
        return fail("cannot flush " + path);
    if (::close(fd) != 0) {
        std::string reason = "cannot write " + path + ": " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return reason;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string reason = "cannot replace " + path + ": " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return reason;
    }
    return std::nullopt;
}

std::optional<Value> parseValueText(const std::string &text, std::string *error)
{
    YAML::Node n;
    try {
        n = YAML::Load(text);
    } catch (const YAML::Exception &e) {
        if (error)
            *error = "not a valid value: " + e.msg;
        return std::nullopt;
    }
    std::string first;
    ErrorSink sink = [&](Loc, const std::string &, const std::string &message) {
        if (first.empty())
            first = message;
    };
    Value out;
    std::size_t budget = limits::maxYamlValues;
    if (!convertYaml(n, "", 1, out, sink, budget) || !first.empty()) {
        if (error)
            *error = first.empty() ? std::string("not a valid value") : first;
        return std::nullopt;
    }
    return out;
}

} // namespace grove
