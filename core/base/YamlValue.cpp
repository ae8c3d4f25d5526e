// YAML 1.2 core-schema typing of plain scalars, the conversion to Value, and scalar quoting.
#include "core/base/YamlValue.h"

#include "core/base/Diagnostic.h"
#include "core/base/Limits.h"
#include "core/base/NumberText.h"
#include "core/base/TextEscape.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <charconv>
#include <limits>
#include <istream>
#include <map>
#include <streambuf>

namespace grove {

namespace {

// Plain scalars are typed like YAML 1.2's core schema; quoted scalars are always strings.
bool isPlainNull(const std::string &s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

int plainBool(const std::string &s)
{
    if (s == "true" || s == "True" || s == "TRUE")
        return 1;
    if (s == "false" || s == "False" || s == "FALSE")
        return 0;
    return -1;
}

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

// A YAML double-quoted scalar: YAML's own escapes, \xHH for other control bytes (JSON has no \x).
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
            if (c < 0x20 || c == 0x7f)
                appendHexEscape(out, c);
            else
                out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

} // namespace

YamlLocation locationOf(const YAML::Node &n)
{
    const YAML::Mark m = n.Mark();
    if (m.line < 0)
        return {};
    return {m.line + 1, m.column + 1};
}

std::vector<std::pair<std::string, YAML::Node>> mapEntries(const YAML::Node &map, const std::string &path,
                                                           const YamlErrorSink &error,
                                                           std::vector<std::pair<std::string, YamlLocation>> *keyLocs)
{
    std::vector<std::pair<std::string, YAML::Node>> out;
    std::map<std::string, YamlLocation> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
        const YAML::Node key = it->first;
        YamlLocation kl = locationOf(key);
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

bool convertYaml(const YAML::Node &n, const std::string &path, int depth, Value &out, const YamlErrorSink &error,
                 std::size_t &budget)
{
    if (budget == 0)
        return false;  // reported once, when it ran out
    if (--budget == 0) {
        error(locationOf(n), path, "the file expands to more than " + std::to_string(limits::maxYamlValues)
                                  + " values: YAML aliases repeat data");
        return false;
    }
    if (depth > limits::maxYamlDepth) {
        error(locationOf(n), path, "nested too deeply (more than " + std::to_string(limits::maxYamlDepth) + " levels)");
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
        else if (parseNumber(s, d))
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

namespace {

// Counts a document's YAML events as yaml-cpp's parser gives them, stopping (by throwing) once
// there are too many: no tree is built, so a long flow list costs its text, not its nodes.
class ValueCounter : public YAML::EventHandler
{
public:
    struct TooMany
    {
        YamlLocation where;
    };
    std::size_t count = 0;

    void OnDocumentStart(const YAML::Mark &) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &mark, YAML::anchor_t) override { one(mark); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override { one(mark); }
    void OnScalar(const YAML::Mark &mark, const std::string &, YAML::anchor_t, const std::string &) override { one(mark); }
    void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t, YAML::EmitterStyle::value) override
    {
        one(mark);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t, YAML::EmitterStyle::value) override
    {
        one(mark);
    }
    void OnMapEnd() override {}

private:
    void one(const YAML::Mark &mark)
    {
        if (++count >= limits::maxYamlValues)
            throw TooMany{{mark.line + 1, mark.column + 1}};
    }
};

// The text as a stream, without a copy.
class TextBuffer : public std::streambuf
{
public:
    explicit TextBuffer(const std::string &text)
    {
        char *begin = const_cast<char *>(text.data());  // only read: a streambuf's get area is non-const
        setg(begin, begin, begin + text.size());
    }
};

} // namespace

std::optional<YamlTextProblem> checkYamlSize(const std::string &text)
{
    TextBuffer buffer(text);
    std::istream in(&buffer);
    ValueCounter counter;
    try {
        YAML::Parser parser(in);
        parser.HandleNextDocument(counter);
    } catch (const ValueCounter::TooMany &tooMany) {
        return YamlTextProblem{tooMany.where, "the file holds too many values: " + std::to_string(limits::maxYamlValues)
                                                  + " or more (keys, scalars, lists and maps count one each)"};
    } catch (const YAML::Exception &) {
        // not valid YAML: YAML::Load says where, the same way, having read no further than this did
    }
    return std::nullopt;
}

std::string yamlScalar(const std::string &text)
{
    return canBePlain(text) ? text : quoted(text);
}

std::string toFlowYaml(const Value &v)
{
    switch (v.kind()) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return v.toBool() ? "true" : "false";
    case Value::Kind::Number: return formatNumber(v.toNumber());
    case Value::Kind::String: return yamlScalar(v.toString());
    case Value::Kind::List: {
        std::string out = "[";
        bool first = true;
        for (const auto &item : v.toList()) {
            out += (first ? "" : ", ") + toFlowYaml(item);
            first = false;
        }
        return out + "]";
    }
    case Value::Kind::Map: {
        std::string out = "{";
        bool first = true;
        for (const auto &[k, item] : v.toMap()) {
            out += (first ? "" : ", ") + yamlScalar(k) + ": " + toFlowYaml(item);
            first = false;
        }
        return out + "}";
    }
    }
    return "null";
}

std::optional<Value> parseValueText(const std::string &text, std::string *error)
{
    if (auto problem = checkYamlSize(text)) {
        if (error)
            *error = problem->message;
        return std::nullopt;
    }
    YAML::Node n;
    try {
        n = YAML::Load(text);
    } catch (const YAML::Exception &e) {
        if (error)
            *error = "not a valid value: " + e.msg;
        return std::nullopt;
    }
    std::string first;
    YamlErrorSink sink = [&](YamlLocation, const std::string &, const std::string &message) {
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
