// Descriptor lookups and the param value checks shared by the loader, overrides and the editor.
#include "NodeDescriptor.h"

#include "Diagnostic.h"

#include <cctype>
#include <cmath>

namespace grove {

const char *paramKindName(ParamKind kind)
{
    switch (kind) {
    case ParamKind::Number: return "number";
    case ParamKind::Integer: return "integer";
    case ParamKind::Bool: return "bool";
    case ParamKind::String: return "string";
    case ParamKind::Enum: return "enum";
    case ParamKind::NumberList: return "number list";
    case ParamKind::StringList: return "string list";
    case ParamKind::Color: return "color";
    case ParamKind::ColorList: return "color list";
    case ParamKind::Range: return "range";
    case ParamKind::TypeList: return "type list";
    case ParamKind::Special: return "special";
    }
    return "?";
}

const ParamSpec *NodeDescriptor::param(const std::string &name) const
{
    for (const auto &p : params)
        if (p.name == name)
            return &p;
    return nullptr;
}

const PortSpec *NodeDescriptor::input(const std::string &name) const
{
    int i = inputIndex(name);
    return i < 0 ? nullptr : &inputs[static_cast<size_t>(i)];
}

const PortSpec *NodeDescriptor::output(const std::string &name) const
{
    int i = outputIndex(name);
    return i < 0 ? nullptr : &outputs[static_cast<size_t>(i)];
}

int NodeDescriptor::inputIndex(const std::string &name) const
{
    for (size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int NodeDescriptor::outputIndex(const std::string &name) const
{
    for (size_t i = 0; i < outputs.size(); ++i)
        if (outputs[i].name == name)
            return static_cast<int>(i);
    return -1;
}

std::vector<std::string> NodeDescriptor::paramNames() const
{
    std::vector<std::string> names;
    for (const auto &p : params)
        names.push_back(p.name);
    return names;
}

std::vector<std::string> NodeDescriptor::inputNames() const
{
    std::vector<std::string> names;
    for (const auto &p : inputs)
        names.push_back(p.name);
    return names;
}

std::vector<std::string> NodeDescriptor::outputNames() const
{
    std::vector<std::string> names;
    for (const auto &p : outputs)
        names.push_back(p.name);
    return names;
}

namespace {

std::string describeKind(const Value &v)
{
    switch (v.kind()) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a bool";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::List: return "a list";
    case Value::Kind::Map: return "a map";
    }
    return "?";
}

std::string rangeText(const ParamSpec &spec)
{
    std::string lo = spec.minExclusive ? "> " : ">= ";
    if (std::isinf(spec.min) && std::isinf(spec.max))
        return "finite";
    if (std::isinf(spec.max))
        return lo + formatNumber(spec.min);
    if (std::isinf(spec.min))
        return "<= " + formatNumber(spec.max);
    return lo + formatNumber(spec.min) + " and <= " + formatNumber(spec.max);
}

std::optional<std::string> checkNumber(const ParamSpec &spec, const Value &v, bool integer)
{
    if (!v.isNumber())
        return std::string("expected ") + (integer ? "an integer" : "a number") + ", got " + describeKind(v);
    double d = v.toNumber();
    if (std::isnan(d))
        return std::string("must be a number, not NaN");
    if (std::isinf(d)) {
        if (!spec.allowInfinite)
            return std::string("must be finite, not ") + (d > 0 ? "inf" : "-inf");
        return std::nullopt;
    }
    if (integer && d != std::floor(d))
        return "expected an integer, got " + formatNumber(d);
    bool below = spec.minExclusive ? !(d > spec.min) : d < spec.min;
    if (below || d > spec.max)
        return formatNumber(d) + " is out of range: must be " + rangeText(spec);
    return std::nullopt;
}

bool isColor(const Value &v)
{
    const std::string &s = v.toString();
    if (!v.isString() || s.size() != 7 || s[0] != '#')
        return false;
    for (size_t i = 1; i < 7; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(s[i])))
            return false;
    return true;
}

} // namespace

std::optional<std::string> checkParamValue(const ParamSpec &spec, const Value &v)
{
    switch (spec.kind) {
    case ParamKind::Number: return checkNumber(spec, v, false);
    case ParamKind::Integer: return checkNumber(spec, v, true);
    case ParamKind::Bool:
        if (!v.isBool())
            return "expected true or false, got " + describeKind(v);
        return std::nullopt;
    case ParamKind::String:
        if (!v.isString())
            return "expected a string, got " + describeKind(v);
        return std::nullopt;
    case ParamKind::Enum: {
        if (!v.isString())
            return "expected one of " + [&] {
                std::string s;
                for (const auto &e : spec.enumValues)
                    s += (s.empty() ? "" : ", ") + e;
                return s;
            }() + ", got " + describeKind(v);
        for (const auto &e : spec.enumValues)
            if (e == v.toString())
                return std::nullopt;
        std::string s;
        for (const auto &e : spec.enumValues)
            s += (s.empty() ? "" : ", ") + e;
        return quote(v.toString()) + " is not one of " + s + didYouMean(v.toString(), spec.enumValues);
    }
    case ParamKind::NumberList:
    case ParamKind::Range: {
        if (!v.isList())
            return "expected a list of numbers, got " + describeKind(v);
        if (spec.kind == ParamKind::Range && v.toList().size() != 2)
            return "expected [low, high], got " + std::to_string(v.toList().size()) + " values";
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i)
            if (auto err = checkNumber(spec, list[i], false))
                return "item " + std::to_string(i) + ": " + *err;
        if (spec.kind == ParamKind::Range && list[0].toNumber() > list[1].toNumber())
            return "low " + formatNumber(list[0].toNumber()) + " is above high " + formatNumber(list[1].toNumber());
        return std::nullopt;
    }
    case ParamKind::StringList: {
        if (!v.isList())
            return "expected a list of names, got " + describeKind(v);
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i)
            if (!list[i].isString())
                return "item " + std::to_string(i) + ": expected a string, got " + describeKind(list[i]);
        return std::nullopt;
    }
    case ParamKind::Color:
        if (!isColor(v))
            return std::string("expected a color like \"#34884a\"");
        return std::nullopt;
    case ParamKind::ColorList: {
        if (!v.isList())
            return "expected a list of colors, got " + describeKind(v);
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i)
            if (!isColor(list[i]))
                return "item " + std::to_string(i) + ": expected a color like \"#34884a\"";
        return std::nullopt;
    }
    case ParamKind::TypeList: {
        if (!v.isList())
            return "expected a list of {name, weight}, got " + describeKind(v);
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i) {
            const Value &item = list[i];
            std::string at = "item " + std::to_string(i) + ": ";
            if (!item.isMap())
                return at + "expected {name, weight}, got " + describeKind(item);
            for (const auto &[k, _] : item.toMap())
                if (k != "name" && k != "weight")
                    return at + "unknown key " + quote(k) + "" + didYouMean(k, {"name", "weight"});
            const Value *name = item.find("name");
            if (!name || !name->isString() || name->toString().empty())
                return at + "needs a name";
            const Value *weight = item.find("weight");
            if (weight) {
                ParamSpec w;
                w.min = 0;
                if (auto err = checkNumber(w, *weight, false))
                    return at + "weight " + *err;
            }
            for (size_t j = 0; j < i; ++j)
                if (list[j].find("name") && list[j].find("name")->toString() == name->toString())
                    return at + "type " + quote(name->toString()) + " is listed twice";
        }
        return std::nullopt;
    }
    case ParamKind::Special: {
        if (v.isNull())
            return std::nullopt;
        if (!v.isMap())
            return "expected null or {type, count}, got " + describeKind(v);
        for (const auto &[k, _] : v.toMap())
            if (k != "type" && k != "count")
                return "unknown key " + quote(k) + "" + didYouMean(k, {"type", "count"});
        const Value *type = v.find("type");
        if (!type || !type->isString() || type->toString().empty())
            return std::string("needs a type");
        const Value *count = v.find("count");
        ParamSpec c;
        c.min = 0;
        c.max = 1e9;
        if (!count)
            return std::string("needs a count");
        if (auto err = checkNumber(c, *count, true))
            return "count " + *err;
        return std::nullopt;
    }
    }
    return std::nullopt;
}

ValueMap completeParams(const NodeDescriptor &descriptor, const ValueMap &given)
{
    ValueMap out;
    out.reserve(descriptor.params.size());
    for (const auto &spec : descriptor.params) {
        const Value *found = nullptr;
        for (const auto &[k, v] : given)
            if (k == spec.name)
                found = &v;
        Value value = found ? *found : spec.defaultValue;
        // A type list entry without a weight has weight 1: store it, so saves are explicit.
        if (spec.kind == ParamKind::TypeList && value.isList()) {
            ValueList items;
            for (const auto &item : value.toList()) {
                const Value *name = item.find("name");
                const Value *weight = item.find("weight");
                items.push_back(ValueMap{{"name", name ? *name : Value(std::string())},
                                         {"weight", weight ? *weight : Value(1.0)}});
            }
            value = items;
        }
        if (spec.kind == ParamKind::Special && value.isMap()) {
            const Value *type = value.find("type");
            const Value *count = value.find("count");
            value = ValueMap{{"type", type ? *type : Value(std::string())}, {"count", count ? *count : Value(0.0)}};
        }
        out.emplace_back(spec.name, std::move(value));
    }
    return out;
}

} // namespace grove
