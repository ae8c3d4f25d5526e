// Catalog writers: everything comes from NodeDescriptor, nothing is listed by hand.
#include "core/formats/CatalogExport.h"

#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/base/TextEscape.h"
#include "core/base/YamlValue.h"

#include <cmath>

namespace grove {

namespace {

// Param values as JSON (infinities become strings, since JSON has none).
std::string jsonValue(const Value &v)
{
    switch (v.kind()) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return v.toBool() ? "true" : "false";
    case Value::Kind::Number:
        return std::isfinite(v.toNumber()) ? formatNumber(v.toNumber()) : jsonQuote(formatNumber(v.toNumber()));
    case Value::Kind::String: return jsonQuote(v.toString());
    case Value::Kind::List: {
        std::string out = "[";
        for (size_t i = 0; i < v.toList().size(); ++i)
            out += (i ? ", " : "") + jsonValue(v.toList()[i]);
        return out + "]";
    }
    case Value::Kind::Map: {
        std::string out = "{";
        bool first = true;
        for (const auto &[k, item] : v.toMap()) {
            out += (first ? "" : ", ") + jsonQuote(k) + ": " + jsonValue(item);
            first = false;
        }
        return out + "}";
    }
    }
    return "null";
}

std::string ports(const std::vector<PortSpec> &list)
{
    std::string out = "[";
    for (size_t i = 0; i < list.size(); ++i)
        out += (i ? ", " : "") + std::string("{\"name\": ") + jsonQuote(list[i].name) + ", \"type\": "
               + jsonQuote(dataTypeName(list[i].type)) + ", \"optional\": " + (list[i].optional ? "true" : "false")
               + (list[i].role == PortRole::None ? "" : ", \"role\": " + jsonQuote(portRoleName(list[i].role)))
               + ", \"description\": " + jsonQuote(list[i].description) + "}";
    return out + "]";
}

bool isNumeric(ParamKind kind)
{
    return kind == ParamKind::Number || kind == ParamKind::Integer || kind == ParamKind::Range
           || kind == ParamKind::NumberList;
}

// A record's fields as JSON: name, kind, required, default and, for numbers, the range.
std::string recordFields(const ParamSpec &p)
{
    std::string out = "[";
    for (size_t i = 0; i < p.fields.size(); ++i) {
        const RecordField &f = p.fields[i];
        out += (i ? ", " : "") + std::string("{\"name\": ") + jsonQuote(f.name) + ", \"kind\": "
               + jsonQuote(paramKindName(f.kind)) + ", \"required\": " + (f.required ? "true" : "false")
               + ", \"optional\": " + (f.optional ? "true" : "false")
               + ", \"default\": " + jsonValue(f.defaultValue);
        if (isNumeric(f.kind))
            out += ", \"min\": " + jsonValue(f.min) + ", \"max\": " + jsonValue(f.max);
        out += "}";
    }
    return out + "]";
}

// "{name, weight >= 0}": a record's shape for the markdown table.
std::string recordText(const ParamSpec &p)
{
    std::string out;
    for (const RecordField &f : p.fields) {
        out += (out.empty() ? "" : ", ") + f.name;
        if (isNumeric(f.kind) && std::isfinite(f.min))
            out += std::isfinite(f.max) ? " in [" + formatNumber(f.min) + ", " + formatNumber(f.max) + "]"
                                        : " >= " + formatNumber(f.min);
    }
    return "{" + out + "}" + (p.kind == ParamKind::RecordList && !p.uniqueField.empty()
                                  ? ", " + p.uniqueField + " unique" : "");
}

std::string rangeText(const ParamSpec &p)
{
    if (p.kind == ParamKind::Record || p.kind == ParamKind::RecordList)
        return recordText(p);
    if (p.kind == ParamKind::AreaList)
        return "each {circle: [x, y, radius]} or {polygon: [[x, y], ...]}";
    if (p.kind == ParamKind::PathList)
        return "each {points: [[x, y], [x, y], ...], closed: false}";
    if (!isNumeric(p.kind))
        return p.kind == ParamKind::Enum ? [&] {
            std::string s;
            for (const auto &e : p.enumValues)
                s += (s.empty() ? "" : " / ") + e;
            return s;
        }()
                                         : std::string();
    if (std::isinf(p.min) && std::isinf(p.max))
        return "any";
    return (p.minExclusive ? "(" : "[") + formatNumber(p.min) + ", " + formatNumber(p.max) + "]";
}

} // namespace

std::string catalogJson(const NodeRegistry &registry)
{
    std::string out = "{\n  \"format\": \"grove.catalog\",\n  \"formatVersion\": 1,\n  \"nodes\": [";
    bool firstNode = true;
    for (const auto &d : registry.all()) {
        out += firstNode ? "\n" : ",\n";
        firstNode = false;
        out += "    {\n      \"type\": " + jsonQuote(d->typeId) + ",\n      \"displayName\": "
               + jsonQuote(d->displayName) + ",\n      \"category\": " + jsonQuote(d->category)
               + ",\n      \"description\": " + jsonQuote(d->description)
               + ",\n      \"exact\": " + (d->matchesSeedJs ? "true" : "false") + ",\n      \"inputs\": " + ports(d->inputs)
               + ",\n      \"outputs\": " + ports(d->outputs) + ",\n      \"params\": [";
        for (size_t i = 0; i < d->params.size(); ++i) {
            const ParamSpec &p = d->params[i];
            out += (i ? ",\n" : "\n");
            out += "        {\"name\": " + jsonQuote(p.name) + ", \"kind\": " + jsonQuote(paramKindName(p.kind))
                   + ", \"default\": " + jsonValue(p.defaultValue);
            if (isNumeric(p.kind))
                out += ", \"min\": " + jsonValue(p.min) + ", \"max\": " + jsonValue(p.max)
                       + ", \"minExclusive\": " + (p.minExclusive ? "true" : "false");
            if (p.kind == ParamKind::Enum) {
                ValueList values;
                for (const auto &e : p.enumValues)
                    values.emplace_back(e);
                out += ", \"values\": " + jsonValue(values);
            }
            if (p.kind == ParamKind::Record || p.kind == ParamKind::RecordList)
                out += ", \"fields\": " + recordFields(p);
            if (!p.namesFrom.empty())
                out += ", \"namesFrom\": " + jsonQuote(p.namesFrom);
            if (p.role != ParamRole::None)
                out += ", \"role\": " + jsonQuote(paramRoleName(p.role));
            out += ", \"description\": " + jsonQuote(p.description) + "}";
        }
        out += d->params.empty() ? "]\n    }" : "\n      ]\n    }";
    }
    out += "\n  ],\n  \"limits\": [";
    bool firstLimit = true;
    for (const limits::Budget &b : limits::budgets) {
        out += std::string(firstLimit ? "\n" : ",\n") + "    {\"name\": " + jsonQuote(b.name)
               + ", \"value\": " + formatNumber(b.value) + ", \"description\": " + jsonQuote(b.what) + "}";
        firstLimit = false;
    }
    out += "\n  ]\n}\n";
    return out;
}

std::string catalogMarkdown(const NodeRegistry &registry)
{
    std::string out = "# Grove node catalog\n\nGenerated by `grove-cli nodes --markdown` from the node descriptors.\n";
    std::string category;
    for (const auto &d : registry.all()) {
        if (d->category != category) {
            category = d->category;
            out += "\n## " + category + "\n";
        }
        out += "\n### `" + d->typeId + "` — " + d->displayName + (d->matchesSeedJs ? " (exact)" : "") + "\n\n";
        out += d->description + "\n\n";
        auto portTable = [&](const char *title, const std::vector<PortSpec> &list) {
            if (list.empty())
                return;
            out += std::string("| ") + title + " | type | |\n| --- | --- | --- |\n";
            for (const auto &p : list)
                out += "| `" + p.name + "` | " + dataTypeName(p.type) + (p.optional ? " (optional)" : "") + " | "
                       + p.description + (p.role == PortRole::None ? "" : std::string(" (role: ") + portRoleName(p.role) + ")")
                       + " |\n";
            out += "\n";
        };
        portTable("input", d->inputs);
        portTable("output", d->outputs);
        if (!d->params.empty()) {
            out += "| param | kind | default | range | |\n| --- | --- | --- | --- | --- |\n";
            for (const auto &p : d->params)
                out += "| `" + p.name + "` | " + paramKindName(p.kind) + " | `" + toFlowYaml(p.defaultValue) + "` | "
                       + rangeText(p) + " | " + p.description
                       + (p.role == ParamRole::None ? "" : std::string(" (role: ") + paramRoleName(p.role) + ")") + " |\n";
        }
    }
    return out;
}

std::string catalogText(const NodeRegistry &registry)
{
    std::string out;
    for (const auto &d : registry.all()) {
        out += d->typeId + std::string(d->typeId.size() < 16 ? 16 - d->typeId.size() : 1, ' ') + d->category + ": "
               + d->displayName + "\n";
    }
    return out;
}

} // namespace grove
