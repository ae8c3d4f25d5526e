// Descriptor lookups and the param value checks shared by the loader, overrides and the editor.
#include "core/graph/NodeDescriptor.h"
#include "core/graph/AreaValue.h"
#include "core/graph/PathValue.h"

#include "core/base/Diagnostic.h"
#include "core/base/TextEscape.h"

#include <algorithm>
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
    case ParamKind::RecordList: return "record list";
    case ParamKind::Record: return "record";
    case ParamKind::AreaList: return "area list";
    case ParamKind::PathList: return "path list";
    }
    return "?";
}

const char *paramRoleName(ParamRole role)
{
    switch (role) {
    case ParamRole::None: return "";
    case ParamRole::LayerName: return "layer name";
    case ParamRole::ExportSwitch: return "export switch";
    case ParamRole::PositionX: return "position x";
    case ParamRole::PositionY: return "position y";
    case ParamRole::PositionMode: return "position mode";
    case ParamRole::FilePath: return "file path";
    case ParamRole::Pins: return "pins";
    case ParamRole::EraseAreas: return "erase areas";
    case ParamRole::DrawnPaths: return "drawn paths";
    case ParamRole::Seed: return "seed";
    }
    return "";
}

const char *portRoleName(PortRole role)
{
    switch (role) {
    case PortRole::None: return "";
    case PortRole::LayerPoints: return "layer points";
    case PortRole::LayerChain: return "layer chain";
    case PortRole::AllowedArea: return "allowed area";
    case PortRole::Refines: return "refines";
    }
    return "";
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

const ParamSpec *NodeDescriptor::paramWithRole(ParamRole role) const
{
    for (const auto &p : params)
        if (p.role == role)
            return &p;
    return nullptr;
}

const PortSpec *NodeDescriptor::outputWithRole(PortRole role) const
{
    for (const auto &p : outputs)
        if (p.role == role)
            return &p;
    return nullptr;
}

const PortSpec *NodeDescriptor::inputWithRole(PortRole role) const
{
    for (const auto &p : inputs)
        if (p.role == role)
            return &p;
    return nullptr;
}

namespace {

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

// "{name, weight}": a record's keys, for messages.
std::string recordShape(const ParamSpec &spec)
{
    std::string s;
    for (const auto &f : spec.fields)
        s += (s.empty() ? "" : ", ") + f.name;
    return "{" + s + "}";
}

// `where` gets ".key" when the problem is one key's value.
std::optional<std::string> checkRecord(const ParamSpec &spec, const Value &v, std::string &where)
{
    if (!v.isMap())
        return "expected " + recordShape(spec) + ", got " + describeKind(v);
    std::vector<std::string> keys;
    for (const auto &f : spec.fields)
        keys.push_back(f.name);
    for (const auto &[k, _] : v.toMap())
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
            where = "." + k;
            return "unknown key " + quote(k) + didYouMean(k, keys);
        }
    for (const auto &f : spec.fields) {
        const Value *item = v.find(f.name);
        if (f.kind == ParamKind::String) {
            if (item ? !item->isString() || (f.required && item->toString().empty()) : f.required) {
                if (item)
                    where = "." + f.name;
                return "needs a " + f.name;
            }
            continue;
        }
        if (!item) {
            if (f.required)
                return "needs a " + f.name;
            continue;
        }
        ParamSpec number;
        number.min = f.min;
        number.max = f.max;
        if (auto err = checkNumber(number, *item, f.kind == ParamKind::Integer)) {
            where = "." + f.name;
            return f.name + " " + *err;
        }
    }
    return std::nullopt;
}

// A record with every field, in field order: defaults fill what is absent.
Value completeRecord(const ParamSpec &spec, const Value &record)
{
    ValueMap out;
    for (const auto &f : spec.fields) {
        const Value *given = record.find(f.name);
        if (given || !f.optional)
            out.emplace_back(f.name, given ? *given : f.defaultValue);
    }
    return out;
}

} // namespace

std::optional<std::string> checkParamValue(const ParamSpec &spec, const Value &v, std::string *whereOut)
{
    std::string scratch;
    std::string &where = whereOut ? *whereOut : scratch;
    where.clear();
    if (auto err = notUtf8(v, where))  // every kind of param: exports write text as it is
        return err;
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
            return "expected one of " + commaList(spec.enumValues) + ", got " + describeKind(v);
        for (const auto &e : spec.enumValues)
            if (e == v.toString())
                return std::nullopt;
        return quote(v.toString()) + " is not one of " + commaList(spec.enumValues) + didYouMean(v.toString(), spec.enumValues);
    }
    case ParamKind::NumberList:
    case ParamKind::Range: {
        if (!v.isList())
            return "expected a list of numbers, got " + describeKind(v);
        if (spec.kind == ParamKind::Range && v.toList().size() != 2)
            return "expected [low, high], got " + std::to_string(v.toList().size()) + " values";
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i)
            if (auto err = checkNumber(spec, list[i], false)) {
                where = "[" + std::to_string(i) + "]";
                return "item " + std::to_string(i) + ": " + *err;
            }
        if (spec.kind == ParamKind::Range && list[0].toNumber() > list[1].toNumber())
            return "low " + formatNumber(list[0].toNumber()) + " is above high " + formatNumber(list[1].toNumber());
        return std::nullopt;
    }
    case ParamKind::StringList: {
        if (!v.isList())
            return "expected a list of names, got " + describeKind(v);
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i)
            if (!list[i].isString()) {
                where = "[" + std::to_string(i) + "]";
                return "item " + std::to_string(i) + ": expected a string, got " + describeKind(list[i]);
            }
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
            if (!isColor(list[i])) {
                where = "[" + std::to_string(i) + "]";
                return "item " + std::to_string(i) + ": expected a color like \"#34884a\"";
            }
        return std::nullopt;
    }
    case ParamKind::RecordList: {
        if (!v.isList())
            return "expected a list of " + recordShape(spec) + ", got " + describeKind(v);
        const auto &list = v.toList();
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string at = "item " + std::to_string(i) + ": ";
            std::string key;
            if (auto err = checkRecord(spec, list[i], key)) {
                where = "[" + std::to_string(i) + "]" + key;
                return at + *err;
            }
            if (spec.uniqueField.empty())
                continue;
            const Value *unique = list[i].find(spec.uniqueField);
            for (size_t j = 0; unique && j < i; ++j)
                if (const Value *other = list[j].find(spec.uniqueField); other && *other == *unique) {
                    where = "[" + std::to_string(i) + "]." + spec.uniqueField;
                    return at + spec.recordNoun + " " + quote(unique->toString()) + " is listed twice";
                }
        }
        return std::nullopt;
    }
    case ParamKind::Record: {
        if (v.isNull())
            return std::nullopt;
        if (!v.isMap())
            return "expected null or " + recordShape(spec) + ", got " + describeKind(v);
        return checkRecord(spec, v, where);
    }
    case ParamKind::AreaList: {
        if (!v.isList())
            return "expected a list of areas ({circle: [x, y, radius]} or {polygon: [[x, y], ...]}), got " + describeKind(v);
        const auto &list = v.toList();
        std::size_t vertices = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            std::string part, err;
            if (!readArea(list[i], &err, &part, &vertices)) {
                where = "[" + std::to_string(i) + "]" + part;
                return "item " + std::to_string(i) + ": " + err;
            }
        }
        return std::nullopt;
    }
    case ParamKind::PathList: return checkPathList(v, where);
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
        if (spec.kind == ParamKind::RecordList && value.isList()) {
            ValueList records;
            for (const auto &item : value.toList())
                records.push_back(completeRecord(spec, item));
            value = records;
        }
        if (spec.kind == ParamKind::Record && value.isMap())
            value = completeRecord(spec, value);
        out.emplace_back(spec.name, std::move(value));
    }
    return out;
}

} // namespace grove

namespace grove {

std::optional<std::string> checkRoles(const NodeDescriptor &d)
{
    auto wrongKind = [&](const ParamSpec &p, const char *role, const char *kind) {
        return d.typeId + "." + p.name + ": the " + role + " role needs a " + kind + " param";
    };
    std::vector<ParamRole> seen;
    for (const auto &p : d.params) {
        if (p.role == ParamRole::None)
            continue;
        if (std::find(seen.begin(), seen.end(), p.role) != seen.end())
            return d.typeId + "." + p.name + ": another param already has this role";
        seen.push_back(p.role);
        switch (p.role) {
        case ParamRole::None: break;
        case ParamRole::LayerName:
            if (p.kind != ParamKind::String)
                return wrongKind(p, "layer name", "string");
            break;
        case ParamRole::ExportSwitch:
            if (p.kind != ParamKind::Bool)
                return wrongKind(p, "export switch", "bool");
            break;
        case ParamRole::PositionX:
        case ParamRole::PositionY:
            if (p.kind != ParamKind::Number)
                return wrongKind(p, "position", "number");
            break;
        case ParamRole::PositionMode:
            if (p.kind != ParamKind::Enum
                || std::find(p.enumValues.begin(), p.enumValues.end(), p.roleValue) == p.enumValues.end())
                return d.typeId + "." + p.name + ": the position mode role needs an enum param with the value "
                       + quote(p.roleValue);
            break;
        case ParamRole::FilePath:
            if (p.kind != ParamKind::String)
                return wrongKind(p, "file path", "string");
            break;
        case ParamRole::Pins: {
            const auto has = [&](FieldRole r, ParamKind kind, bool required) {
                const RecordField *f = p.fieldWithRole(r);
                return f && f->kind == kind && f->required == required;
            };
            if (p.kind != ParamKind::RecordList || !has(FieldRole::X, ParamKind::Number, true)
                || !has(FieldRole::Y, ParamKind::Number, true))
                return d.typeId + "." + p.name
                       + ": the pins role needs a record list with required numbers in the x and y field roles";
            for (const auto &[r, kind] : {std::pair{FieldRole::Type, ParamKind::String},
                                          std::pair{FieldRole::Rotation, ParamKind::Number},
                                          std::pair{FieldRole::Scale, ParamKind::Number}})
                if (p.fieldWithRole(r) && !has(r, kind, false))
                    return d.typeId + "." + p.name
                           + ": the pins role's type field is an optional string, its rotation and scale optional numbers";
            break;
        }
        case ParamRole::EraseAreas:
            if (p.kind != ParamKind::AreaList)
                return wrongKind(p, "erase areas", "area list");
            break;
        case ParamRole::DrawnPaths:
            if (p.kind != ParamKind::PathList)
                return wrongKind(p, "drawn paths", "path list");
            break;
        case ParamRole::Seed:
            if (p.kind != ParamKind::Integer)
                return d.typeId + "." + p.name + ": the seed role needs an integer param";
            break;
        }
    }
    for (const auto &p : d.params) {
        if (p.namesFrom.empty())
            continue;
        const PortSpec *in = d.input(p.namesFrom);
        if (p.kind != ParamKind::StringList || !in || in->type != DataType::Labels)
            return d.typeId + "." + p.name + ": names come from a labels input, into a string list param";
    }
    const bool x = d.paramWithRole(ParamRole::PositionX), y = d.paramWithRole(ParamRole::PositionY);
    if (x != y || (d.paramWithRole(ParamRole::PositionMode) && !x))
        return d.typeId + ": a position needs both an x and a y param";
    std::vector<PortRole> ports;
    for (const auto &p : d.outputs) {
        if (p.role == PortRole::None)
            continue;
        if (p.role == PortRole::AllowedArea || p.role == PortRole::Refines)
            return d.typeId + "." + p.name + ": " + portRoleName(p.role) + " is an input's role, not an output's";
        if (p.type != DataType::Points)
            return d.typeId + "." + p.name + ": a layer role needs a points output";
        if (std::find(ports.begin(), ports.end(), p.role) != ports.end())
            return d.typeId + "." + p.name + ": another output already has this role";
        ports.push_back(p.role);
    }
    for (const auto &p : d.inputs) {
        if (p.role == PortRole::None)
            continue;
        if (p.role == PortRole::Refines ? p.type != DataType::Points
                                        : p.role != PortRole::AllowedArea || p.type != DataType::Mask)
            return d.typeId + "." + p.name + ": an input's role can only be an allowed area, on a mask, or refines, on points";
        if (d.inputWithRole(p.role) != &p)
            return d.typeId + "." + p.name + ": another input already has this role";
    }
    if (d.inputWithRole(PortRole::Refines) && !d.makesLayer())
        return d.typeId + ": a refining node gives the refined layer as its own points output";
    if (d.outputWithRole(PortRole::LayerChain) && !d.makesLayer())
        return d.typeId + ": a layer chain needs the layer's own points output";
    return std::nullopt;
}

} // namespace grove
