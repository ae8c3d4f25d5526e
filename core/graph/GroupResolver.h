// The group files a graph includes, read once and held: whoever loads graphs (an editor tab, a
// CLI run, a C API handle) owns one and passes it in. Resolving reads files; looking up never does.
#pragma once

#include "core/base/Diagnostic.h"
#include "core/graph/Graph.h"
#include "core/graph/LoadResult.h"
#include "core/graph/NodeDescriptor.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace grove {

class NodeRegistry;

// A resolved group file: its graph and the descriptor a group node that includes it shows.
struct GroupInfo
{
    std::string file;          // the file as the including graph names it (for messages)
    std::string absolutePath;  // where it was read from
    LoadResult loaded;         // the inner graph as its file says (baseDir: the inner file's folder)
    NodeDescriptor descriptor; // the group's ports and params, synthesised from the declarations
    Diagnostics problems;      // why a group node cannot use it, each located: the including node's
                               // graph param (missing file, cycle, chain too deep), or the inner
                               // file's own FILE:LINE:COL for problems inside it
    bool usable = false;       // the descriptor reflects the file (it could be read)
    bool contextual = false;   // the problems depend on the chain that led here (a cycle, too deep)
    std::vector<std::pair<std::string, std::string>> deps;  // (file, stat signature) it was built from
};

class GroupResolver;
// Reads one group file into groups, resolving the groups inside it (the reader: GraphReader.cpp).
using GroupFileReader = LoadResult (*)(const std::string &path, const std::string &shownAs, GroupResolver &groups);

class GroupResolver
{
public:
    explicit GroupResolver(const NodeRegistry &registry);

    const NodeRegistry &registry() const { return *m_registry; }

    // Resolving: reads every group file graph's group nodes name that is not held yet, and the
    // files those include, with `read`; each is then held for the resolver's life. `file`: the
    // graph's own file (absolute; empty: none), which a group must not include. The reader calls
    // this for every graph it reads; owners call resolveGroups (GraphReader.h).
    void resolve(const Graph &graph, const std::string &file, GroupFileReader read);
    // Forgets every group held: the next resolve reads the files again (the owner's reload).
    // Descriptors and infos handed out as shared pointers stay valid.
    void clear();

    // Looking up: never touches the disk. A group not resolved yet shows the plain group type
    // (only its graph param) and the problem that its file is not read.
    std::shared_ptr<const GroupInfo> group(const Node &node, const std::string &baseDir) const;
    // A node's descriptor: its type's, or for a group node the one its file declares (null: an
    // unknown type). Valid while the resolver holds that group; hold descriptor() to keep it longer.
    const NodeDescriptor *find(const Node &node, const std::string &baseDir) const;
    std::shared_ptr<const NodeDescriptor> descriptor(const Node &node, const std::string &baseDir) const;
    // The problems of one group node for the validator: its file's (missing, cycle, inside) and
    // ids its nodes would take that another node of graph has.
    Diagnostics nodeProblems(const Node &node, const Graph &graph) const;
    // How many group files are held.
    std::size_t size() const { return m_groups.size(); }

private:
    struct Frame
    {
        std::map<std::string, std::string> deps;  // file -> stat signature, each file once
        bool contextual = false;
    };
    void resolveNode(const Node &node, const std::string &baseDir, GroupFileReader read);
    void hold(const std::string &absolute, std::shared_ptr<const GroupInfo> info);
    NodeDescriptor synthesise(const GroupInfo &info) const;

    const NodeRegistry *m_registry;
    std::map<std::string, std::shared_ptr<const GroupInfo>> m_groups;  // by absolute path
    std::shared_ptr<const GroupInfo> m_noFile;                         // a group node without a file
    // While resolving: the chain of files being read (absolute) and what each read.
    std::vector<std::string> m_stack;
    std::vector<Frame> m_frames;
};

} // namespace grove
