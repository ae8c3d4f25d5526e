// What keeps saved graphs stable across Grove versions. A save leaves out every param at its
// default, so adding a param with a default changes no saved graph, hash or export. A node type's
// version goes up whenever one of its defaults or what it computes changes; its descriptor then
// carries one migration per older version, applied when a graph is read.
#pragma once

#include "core/base/Value.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grove {

struct NodeDescriptor;

// From version fromVersion of a node type to fromVersion + 1, on the params a file gave.
struct NodeMigration
{
    int fromVersion = 1;
    // A param whose default moved: the old default, set when the file left the param out (such a
    // file meant the old default). Named as at fromVersion; applied before the renames.
    ValueMap previousDefaults;
    // old name -> new name; a file that gives both keeps the new one and is told so
    std::vector<std::pair<std::string, std::string>> renamed;
    // Anything else (a unit changed, a param split in two); may be empty.
    std::function<void(ValueMap &params)> rewrite;
};

// Brings params saved at `fromVersion` of the descriptor's type to its current version, one
// migration at a time. Returns a problem (a param given under both its old and new name), or nothing.
std::optional<std::string> migrateParams(const NodeDescriptor &descriptor, int fromVersion, ValueMap &params);

// Why a descriptor's version and migrations do not fit (a version below 1, an older version
// without its migration, two migrations from one version), or nothing. The registry refuses such a descriptor.
std::optional<std::string> checkMigrations(const NodeDescriptor &descriptor);

// What a save writes of complete params: those whose value differs from the default (as saved
// text), and in records the fields that differ from theirs (required fields always). Params the
// descriptor does not know are kept. completeParams gives the params back.
ValueMap paramsToSave(const NodeDescriptor &descriptor, const ValueMap &params);

} // namespace grove
