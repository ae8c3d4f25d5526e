// Reading a graph file from disk for the reader: its size bounded before and while it is read
// (a device or pipe says nothing of its size), folders refused, file params resolved against its
// folder; and a loaded graph's groups expanded for evaluation, their problems located in the file.
#include "core/graph/GraphReader.h"

#include "core/base/Limits.h"
#include "core/graph/GraphValidator.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/GroupResolver.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>

namespace grove {

LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry)
{
    GroupResolver groups(registry);
    return loadGraphFile(path, groups, path);
}

LoadResult loadGraphFile(const std::string &path, GroupResolver &groups)
{
    return loadGraphFile(path, groups, path);
}

LoadResult loadGraphFile(const std::string &path, GroupResolver &groups, const std::string &shownAs)
{
    auto unreadable = [&](std::string message) {
        LoadResult r;
        Diagnostic d;
        d.file = shownAs;
        d.message = std::move(message);
        r.diagnostics.push_back(std::move(d));
        return r;
    };
    const std::string tooLarge = "the file is larger than the " + std::to_string(limits::maxYamlBytes >> 20)
                                 + " MiB graph limit";
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return unreadable(std::string("cannot open: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        return unreadable("cannot open: it is a folder");
    if (static_cast<std::uint64_t>(st.st_size) > limits::maxYamlBytes)
        return unreadable(tooLarge);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return unreadable(std::string("cannot open: ") + std::strerror(errno));
    // st_size is 0 for pipes and devices (/dev/zero, /dev/stdin): the limit holds while reading.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > limits::maxYamlBytes)
            return unreadable(tooLarge);
    }
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return loadGraphFromString(text, shownAs, groups, ec ? std::string() : absolute.parent_path().string());
}

void expandLoadedGroups(LoadResult &loaded, const std::string &file, const GroupResolver &groups)
{
    if (!hasGroupNodes(loaded.graph))
        return;
    Diagnostics problems;
    Graph expanded = expandGroups(loaded.graph, groups, &problems);
    std::map<std::string, std::pair<int, int>> extra;
    for (const Node &n : expanded.nodes)
        if (!loaded.graph.node(n.id)) {
            // an expanded node's paths point at its group node (the longest group id that prefixes it)
            std::string group;
            for (const Node &g : loaded.graph.nodes)
                if (g.type == kGroupType && n.id.rfind(g.id + "_", 0) == 0 && g.id.size() > group.size())
                    group = g.id;
            auto at = loaded.locations.find("nodes." + group);
            if (at != loaded.locations.end())
                extra.emplace("nodes." + n.id, at->second);
        }
    loaded.locations.insert(extra.begin(), extra.end());
    if (problems.empty())
        for (Diagnostic d : validateGraph(expanded, groups))
            if (d.severity == Diagnostic::Severity::Error)
                problems.push_back(std::move(d));
    for (Diagnostic &d : problems) {
        d.file = file;
        locate(loaded, d);
        loaded.diagnostics.push_back(std::move(d));
    }
    loaded.graph = std::move(expanded);
}

} // namespace grove
