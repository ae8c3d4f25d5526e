// Saves without defaults, and node migrations applied at read time: a node saved at version N
// reads as the current version.
#include "core/graph/NodeVersions.h"

#include "core/graph/NodeDescriptor.h"
#include "core/base/YamlValue.h"

#include <algorithm>

namespace grove {

namespace {

Value *findParam(ValueMap &params, const std::string &name)
{
    for (auto &[k, v] : params)
        if (k == name)
            return &v;
    return nullptr;
}

const NodeMigration *migrationFrom(const NodeDescriptor &descriptor, int version)
{
    for (const auto &m : descriptor.migrations)
        if (m.fromVersion == version)
            return &m;
    return nullptr;
}

} // namespace

std::optional<std::string> migrateParams(const NodeDescriptor &descriptor, int fromVersion, ValueMap &params)
{
    for (int version = fromVersion; version < descriptor.version; ++version) {
        const NodeMigration *m = migrationFrom(descriptor, version);
        if (!m)  // checkMigrations keeps this from a registered descriptor
            return descriptor.typeId + " has no migration from version " + std::to_string(version);
        for (const auto &[name, old] : m->previousDefaults)
            if (!findParam(params, name))
                params.emplace_back(name, old);
        for (const auto &rename : m->renamed) {
            const std::string &from = rename.first, &to = rename.second;  // not bindings: Clang 14 cannot capture them
            Value *value = findParam(params, from);
            if (!value)
                continue;
            if (findParam(params, to))
                return "param " + from + " (" + descriptor.typeId + " version " + std::to_string(version)
                       + ") is called " + to + " since version " + std::to_string(version + 1)
                       + ", and the node gives both: keep one";
            Value moved = std::move(*value);
            std::erase_if(params, [&](const auto &kv) { return kv.first == from; });
            params.emplace_back(to, std::move(moved));
        }
        if (m->rewrite)
            m->rewrite(params);
    }
    return std::nullopt;
}

std::optional<std::string> checkMigrations(const NodeDescriptor &descriptor)
{
    if (descriptor.version < 1)
        return "version " + std::to_string(descriptor.version) + " is below 1";
    for (const auto &m : descriptor.migrations) {
        if (m.fromVersion < 1 || m.fromVersion >= descriptor.version)
            return "a migration from version " + std::to_string(m.fromVersion) + " outside 1 to "
                   + std::to_string(descriptor.version - 1);
        if (std::count_if(descriptor.migrations.begin(), descriptor.migrations.end(),
                          [&](const NodeMigration &o) { return o.fromVersion == m.fromVersion; }) > 1)
            return "two migrations from version " + std::to_string(m.fromVersion);
    }
    for (int v = 1; v < descriptor.version; ++v)
        if (!migrationFrom(descriptor, v))
            return "version " + std::to_string(descriptor.version) + " without a migration from version "
                   + std::to_string(v) + " (graphs saved then could not be read)";
    return std::nullopt;
}

// The saved text decides: a value that writes as its default reads back as it (and -0 stays -0).
bool writesAs(const Value &value, const Value &defaultValue)
{
    return toFlowYaml(value) == toFlowYaml(defaultValue);
}

Value recordToSave(const ParamSpec &spec, const Value &record)
{
    if (!record.isMap())
        return record;
    ValueMap out;
    for (const auto &entry : record.toMap()) {
        const std::string &k = entry.first;  // not a binding: Clang 14 cannot capture one
        const Value &v = entry.second;
        auto field = std::find_if(spec.fields.begin(), spec.fields.end(), [&](const RecordField &f) { return f.name == k; });
        if (field == spec.fields.end() || field->required || field->optional || !writesAs(v, field->defaultValue))
            out.emplace_back(k, v);
    }
    return out;
}

ValueMap paramsToSave(const NodeDescriptor &descriptor, const ValueMap &params)
{
    ValueMap out;
    for (const auto &[name, value] : params) {
        const ParamSpec *spec = descriptor.param(name);
        if (!spec) {
            out.emplace_back(name, value);
            continue;
        }
        if (writesAs(value, spec->defaultValue))
            continue;
        if (spec->kind == ParamKind::Record) {
            out.emplace_back(name, recordToSave(*spec, value));
        } else if (spec->kind == ParamKind::RecordList && value.isList()) {
            ValueList records;
            for (const auto &item : value.toList())
                records.push_back(recordToSave(*spec, item));
            out.emplace_back(name, Value(std::move(records)));
        } else {
            out.emplace_back(name, value);
        }
    }
    return out;
}

} // namespace grove
