// Graph YAML v1 reading: best-effort graph plus every problem with file, line, column and YAML path.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"
#include "core/graph/LoadResult.h"

#include <map>
#include <string>
#include <utility>

namespace grove {

class GroupResolver;
class NodeRegistry;

// Reading a graph resolves its groups: every group file it includes (and those they include) that
// `groups` does not hold yet is read into it, and the graph is checked against the descriptors
// groups then holds. Files it holds already are not read again (a reload is the owner's call).
// Parses YAML text; `fileName` is only used in diagnostics.
// `baseDir`: the folder file params and group files are relative to (the graph's baseDir).
LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, GroupResolver &groups,
                               const std::string &baseDir = {});
// Reads a file; a missing or unreadable file is a diagnostic, not an exception.
LoadResult loadGraphFile(const std::string &path, GroupResolver &groups);
// The same, with the file named shownAs in diagnostics (a group file as its including graph names it).
LoadResult loadGraphFile(const std::string &path, GroupResolver &groups, const std::string &shownAs);

// One-shot forms for callers that keep no resolver (a test, a tool reading one graph): the groups
// are read into a resolver of the call's own, dropped with it.
LoadResult loadGraphFromString(const std::string &text, const std::string &fileName, const NodeRegistry &registry,
                               const std::string &baseDir = {});
LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry);

// Reads into groups the group files graph names that it does not hold yet (an edit added a group
// node or changed its file). file: the graph's own file (absolute), which a group must not include.
void resolveGroups(GroupResolver &groups, const Graph &graph, const std::string &file = {});

// A loaded graph made ready to evaluate: groups expanded, their problems added (located in the
// file), and the expanded nodes' YAML paths located at their group node's line. No-op without
// groups. groups: the resolver it was loaded with; the registry form is one-shot.
void expandLoadedGroups(LoadResult &loaded, const std::string &file, const GroupResolver &groups);
void expandLoadedGroups(LoadResult &loaded, const std::string &file, const NodeRegistry &registry);

// Puts a later problem (evaluation, override) at the line of the YAML path it names.
void locate(const LoadResult &loaded, Diagnostic &diagnostic);

} // namespace grove
