// grove-cli validate: load each graph as eval would (group nodes expanded, for their problems),
// report what is wrong, or that it is clean with its node count and hash.
#include "ValidateCommand.h"

#include "CliMessages.h"

#include "core/graph/GraphReader.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/GroupGraph.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

using namespace grove;

int runValidate(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty())
        return cli::usageError(err, "validate needs at least one FILE");
    const NodeRegistry &registry = builtinRegistry();
    bool anyErrors = false;
    for (const auto &file : args) {
        if (!file.empty() && file[0] == '-' && file != "-")
            return cli::usageError(err, "unknown option for validate: " + file);
        GroupResolver groups(registry);  // this file's groups, read as it loads
        LoadResult loaded = loadGraphFile(file, groups);
        if (loaded.ok()) {  // the groups too: what evaluation would see (problems only; the hash is the file's)
            LoadResult expanded = loaded;
            expandLoadedGroups(expanded, file, groups);
            loaded.diagnostics = std::move(expanded.diagnostics);
        }
        cli::printDiagnostics(err, loaded.diagnostics);
        if (!loaded.ok()) {
            anyErrors = true;
            size_t errors = 0;
            for (const auto &d : loaded.diagnostics)
                errors += d.severity == Diagnostic::Severity::Error;
            err << file << ": " << errors << (errors == 1 ? " problem" : " problems") << "\n";
        } else {
            out << file << ": ok (" << loaded.graph.nodes.size() << " nodes, " << graphHash(loaded.graph, groups) << ")\n";
        }
    }
    return anyErrors ? cli::kExitInvalid : cli::kExitOk;
}
