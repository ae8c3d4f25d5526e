// tests/node_versions.txt: every built-in node type's version and its params' defaults (and its
// records' field defaults), checked against a registry. A default that changes while the version
// stays is what this catches: graphs that leave the param out would silently mean something else.
#pragma once

#include "core/graph/NodeRegistry.h"
#include "core/base/YamlValue.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace grove::test {

inline constexpr const char *kNodeVersionsHelp =
    "# Every built-in node type's version, and the defaults of its params and record fields at that\n"
    "# version (tst_graph_versions compares this with the registry). A param with a default may be\n"
    "# added without a new version: add its line. To change a default or what a node computes:\n"
    "# bump the node's version (NodeDescriptor::version), add a NodeMigration from the old version\n"
    "# (previousDefaults keeps the old default for graphs saved before), then update this table\n"
    "# (GROVE_WRITE_NODE_VERSIONS=tests/node_versions.txt build/tests/tst_graph_versions writes it).\n";

struct NodeVersionEntry
{
    int version = 0;
    std::map<std::string, std::string> defaults;  // "radius" or "types.weight" -> flow YAML
    std::vector<std::string> order;               // as listed
};

// The registry's entries: param defaults in catalog order, each record field after its param.
inline std::map<std::string, NodeVersionEntry> nodeVersionEntries(const NodeRegistry &nodes)
{
    std::map<std::string, NodeVersionEntry> out;
    for (const auto &d : nodes.all()) {
        NodeVersionEntry &e = out[d->typeId];
        e.version = d->version;
        auto add = [&](const std::string &name, const Value &v) {
            e.defaults[name] = toFlowYaml(v);
            e.order.push_back(name);
        };
        for (const auto &p : d->params) {
            add(p.name, p.defaultValue);
            for (const auto &f : p.fields)
                add(p.name + "." + f.name, f.defaultValue);
        }
    }
    return out;
}

inline std::string nodeVersionTable(const NodeRegistry &nodes)
{
    std::string out = kNodeVersionsHelp;
    const auto entries = nodeVersionEntries(nodes);
    for (const auto &d : nodes.all()) {
        const NodeVersionEntry &e = entries.at(d->typeId);
        out += d->typeId + " " + std::to_string(e.version) + "\n";
        for (const auto &name : e.order)
            out += "  " + name + " " + e.defaults.at(name) + "\n";
    }
    return out;
}

inline std::map<std::string, NodeVersionEntry> parseNodeVersionTable(const std::string &text)
{
    std::map<std::string, NodeVersionEntry> out;
    std::istringstream in(text);
    std::string line;
    NodeVersionEntry *current = nullptr;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        if (line.rfind("  ", 0) == 0 && current) {
            const size_t space = line.find(' ', 2);
            const std::string name = line.substr(2, space - 2);
            current->defaults[name] = space == std::string::npos ? std::string() : line.substr(space + 1);
            current->order.push_back(name);
        } else {
            const size_t space = line.find(' ');
            current = &out[line.substr(0, space)];
            current->version = space == std::string::npos ? 0 : std::atoi(line.c_str() + space + 1);
        }
    }
    return out;
}

// What a registry does that the table does not allow, each with what to do about it.
inline std::vector<std::string> nodeVersionProblems(const NodeRegistry &nodes, const std::string &tableText)
{
    std::vector<std::string> problems;
    const auto table = parseNodeVersionTable(tableText);
    const auto now = nodeVersionEntries(nodes);
    const std::string update = "update tests/node_versions.txt";
    for (const auto &[type, e] : now) {
        auto it = table.find(type);
        if (it == table.end()) {
            problems.push_back(type + " is not in the table: " + update);
            continue;
        }
        const NodeVersionEntry &was = it->second;
        if (e.version < was.version) {
            problems.push_back(type + " went back from version " + std::to_string(was.version) + " to "
                               + std::to_string(e.version) + ": versions only go up");
            continue;
        }
        if (e.version > was.version) {  // the registry checked that every older version has its migration
            problems.push_back(type + " is at version " + std::to_string(e.version) + " and the table at "
                               + std::to_string(was.version) + ": " + update + " with its defaults");
            continue;
        }
        const std::string bump = ": bump " + type + "'s version to " + std::to_string(e.version + 1)
                                 + ", add a migration from version " + std::to_string(e.version);
        for (const auto &[name, text] : was.defaults) {
            auto found = e.defaults.find(name);
            if (found == e.defaults.end())
                problems.push_back(type + "." + name + " is gone at the same version" + bump
                                   + " (renamed: NodeMigration::renamed), and " + update);
            else if (found->second != text)
                problems.push_back(type + "." + name + "'s default changed from " + text + " to " + found->second
                                   + " without a new version (graphs that leave it out would change)" + bump
                                   + " whose previousDefaults keep " + name + ": " + text + ", and " + update);
        }
        for (const auto &name : e.order)
            if (!was.defaults.count(name))
                problems.push_back(type + "." + name + " is new (default " + e.defaults.at(name)
                                   + "; a new param needs no new version): " + update);
    }
    for (const auto &[type, was] : table)
        if (!now.count(type))
            problems.push_back(type + " is in the table but not registered: graphs that use it no longer load");
    return problems;
}

} // namespace grove::test
