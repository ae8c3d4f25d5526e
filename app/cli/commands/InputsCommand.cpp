// grove-cli inputs: load the graph as eval does (groups expanded for their problems), then list
// graphInputFiles; a missing file or a path a line cannot hold is an error naming the graph.
#include "InputsCommand.h"

#include "core/graph/GraphInputs.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

#include <filesystem>

using namespace grove;

int runInputs(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.size() != 1 || (args[0].size() > 1 && args[0][0] == '-')) {
        err << "grove-cli: inputs takes one graph FILE" << (args.empty() ? "" : ", got '" + args[0] + "'")
            << " (grove-cli --help)\n";
        return 2;
    }
    const std::string &file = args[0];
    const NodeRegistry &registry = builtinRegistry();
    GroupResolver groups(registry);
    LoadResult loaded = loadGraphFile(file, groups);
    const Graph graph = loaded.graph;  // with its group nodes, which name their files
    if (loaded.ok())
        expandLoadedGroups(loaded, file, groups);
    if (!loaded.ok()) {
        for (const auto &d : loaded.diagnostics)
            if (d.severity == Diagnostic::Severity::Error)
                err << d.format() << "\n";
        return 1;
    }
    std::vector<std::string> files = graphInputFiles(graph, groups);
    bool bad = false;
    for (const std::string &f : files) {
        std::error_code ec;
        if (f.find_first_of("\r\n") != std::string::npos) {
            err << file << ": error: it reads a file whose path holds a line break, which one line cannot list: " << quote(f) << "\n";
            bad = true;
        } else if (!std::filesystem::is_regular_file(f, ec)) {
            err << file << ": error: it reads " << f << ", which is not a file that exists\n";
            bad = true;
        }
    }
    if (bad)
        return 1;
    std::error_code ec;
    out << std::filesystem::absolute(file, ec).lexically_normal().string() << "\n";
    for (const std::string &f : files)
        out << f << "\n";
    return 0;
}
