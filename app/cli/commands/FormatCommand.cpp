// grove-cli format: load, write the canonical text, and replace the file (atomically) only when
// the text differs; --check compares and reports.
#include "FormatCommand.h"

#include "CliMessages.h"

#include "core/base/SafeFile.h"
#include "core/graph/GraphReader.h"
#include "core/graph/GroupResolver.h"
#include "core/graph/GraphWriter.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

#include <fstream>
#include <sstream>

using namespace grove;

int runFormat(const std::vector<std::string> &args, std::ostream &, std::ostream &err)
{
    bool check = false;
    std::vector<std::string> files;
    for (const auto &a : args) {
        if (a == "--check")
            check = true;
        else if (!a.empty() && a[0] == '-')
            return cli::usageError(err, "unknown option for format: " + a);
        else
            files.push_back(a);
    }
    if (files.empty())
        return cli::usageError(err, "format needs at least one FILE");
    const NodeRegistry &registry = builtinRegistry();
    int status = cli::kExitOk;
    for (const auto &file : files) {
        GroupResolver groups(registry);
        LoadResult loaded = loadGraphFile(file, groups);
        cli::printDiagnostics(err, loaded.diagnostics);
        if (!loaded.ok()) {
            status = cli::kExitInvalid;  // never rewrite a graph that did not load cleanly
            continue;
        }
        const std::string canonical = saveGraphToString(loaded.graph, groups);
        std::ifstream in(file, std::ios::binary);
        std::ostringstream current;
        current << in.rdbuf();
        if (current.str() == canonical)
            continue;
        if (check) {
            err << file << ": not in canonical form\n";
            status = cli::kExitInvalid;
        } else if (auto problem = writeFileAtomically(file, canonical)) {
            err << "grove-cli: " << *problem << "\n";
            status = cli::kExitInvalid;
        } else {
            err << file << ": formatted\n";
        }
    }
    return status;
}
