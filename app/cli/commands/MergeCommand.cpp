// grove-cli merge: read the options and the parts, and leave the joining to mergeShards.
#include "MergeCommand.h"

#include "ChunkedRun.h"
#include "CliMessages.h"
#include "CliOptions.h"

#include "core/formats/ShardMerge.h"

using namespace grove;

int runMerge(const std::vector<std::string> &args, std::ostream &, std::ostream &err)
{
    std::string out;
    std::vector<std::string> parts;
    const std::vector<cli::Option> options = {
        {{"-o", "--out"}, "a PATH", [&](const std::string &v) -> cli::Problem { out = v; return {}; }},
    };
    if (cli::Problem p = cli::parseOptions(args, "merge", options, [&](const std::string &a) -> cli::Problem {
            parts.push_back(a);
            return {};
        }))
        return cli::usageError(err, *p);
    if (parts.empty())
        return cli::usageError(err, "merge needs the PART files of grove-cli eval --shard");
    if (auto problem = mergeShards(parts, out == "-" ? std::string() : out, &cli::interruptFlag())) {
        if (cli::interruptFlag())
            return cli::interrupted(err);
        err << *problem;
        return cli::kExitInvalid;
    }
    return cli::kExitOk;
}
