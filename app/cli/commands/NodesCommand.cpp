// grove-cli nodes: the built-in registry's catalog in the form asked for.
#include "NodesCommand.h"

#include "CliMessages.h"

#include "core/formats/CatalogExport.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

using namespace grove;

int runNodes(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    std::string mode = "text";
    for (const auto &a : args) {
        if (a == "--json")
            mode = "json";
        else if (a == "--markdown")
            mode = "markdown";
        else
            return cli::usageError(err, "nodes takes --json or --markdown, got '" + a + "'");
    }
    const NodeRegistry &registry = builtinRegistry();
    if (mode == "json")
        out << catalogJson(registry);
    else if (mode == "markdown")
        out << catalogMarkdown(registry);
    else
        out << catalogText(registry);
    return cli::kExitOk;
}
