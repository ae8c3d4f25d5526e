// grove-cli's commands as one table: each command's name, what --help says of it, and the
// function that runs it. The table is the dispatch, the usage text and the names "did you mean"
// chooses from; each command lives in commands/<Name>Command.cpp. main.cpp and the CLI fuzzer
// call runCli.
#include "CliApp.h"

#include "CliMessages.h"
#include "commands/BenchCommand.h"
#include "commands/CheckCommand.h"
#include "commands/DiffCommand.h"
#include "commands/EvalCommand.h"
#include "commands/FormatCommand.h"
#include "commands/InputsCommand.h"
#include "commands/MergeCommand.h"
#include "commands/NodesCommand.h"
#include "commands/ValidateCommand.h"

#include "core/base/Diagnostic.h"
#include "core/formats/PointsExport.h"

#include <algorithm>
#include <new>
#include <stdexcept>

using namespace grove;

namespace {

using RunCommand = int (*)(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

struct Command
{
    const char *name;       // what follows grove-cli; a name starting with '-' is the program's own flag
    const char *arguments;  // after the name on its usage line
    const char *summary;    // from the usage line's column 45; each further line of it starts there too
    const char *options;    // its option lines as --help prints them, each ending in a newline ("": none)
    RunCommand run;         // the arguments after the name; data on out, messages on err; the exit status
};

int printUsage(const std::vector<std::string> &, std::ostream &out, std::ostream &);
int printVersion(const std::vector<std::string> &, std::ostream &out, std::ostream &);

// Adding a command: write commands/<Name>Command.h and .cpp with
//     int run<Name>(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
// (usage problems through cli::usageError, exit statuses from CliMessages.h), add the .cpp to
// grove_cli in app/CMakeLists.txt, and add its row below: the row's place is its place in --help,
// and ties in "did you mean" go to the earlier row. `grove-cli NAME --help` prints the usage for
// every command; the manual's grove-cli reference is generated from --help. Its tests go in a
// suite of their own, tests/tst_cli_<name>.cpp.
const Command kCommands[] = {
    {"validate", "FILE...", "check graphs; print every problem; exit 1 if any", "", runValidate},
    {"eval", "FILE [options]", "evaluate a graph and export its layers",
     R"(      -o, --out PATH        file to write (default: stdout); with --split, a folder: one file per layer
      --format json|csv|tiled|gltf|godot|unreal|unreal-json
      --split               one file per layer
      --seed N              override world.seed
      --set NODE.PARAM=VALUE   override a param (repeatable), checked like the file
      --layers a,b          export only these layers
      --png FILE            also render the preview image (ground + sprites) to a PNG
      --png-size N          the PNG's longer side in pixels (default 2048; the world's size when smaller)
      --stats               per-layer statistics on stderr: count, tightest pair, pairs closer than
                            min(ri, rj) (always 0 for place_layer), widest clearing, time
      --max-points N        points one layer may hold (default 20000000)
      --threads N           threads for chunks, raster rows and the export's text, 1 to 256
                            (default: every core); the bytes are the same for any N
      --region x0,y0,x1,y1  chunked worlds: export only this rectangle (x0 <= x < x1, y0 <= y < y1);
                            required for an endless world, inside the world for a finite one
      --shard K/N           chunked worlds: shard K (0 to N-1) of N, a run of the region's chunks,
                            as a JSON part for grove-cli merge
      --quiet               no progress line (it shows only when stderr is a terminal)
)",
     runEval},
    {"check", "FILE... [options]", "evaluate graphs and hold their layers to their `expect`",
     R"(      --expect 'LAYER.METRIC OP NUMBER'   one more (repeatable); METRIC: count, density, tightest,
                            too_close, clearing, coverage, low_freq, anisotropy; OP: >= <= > < == !=
      --spectrum [LAYER=]FILE.png   paint the layer's periodogram and its radial average
      --region x0,y0,x1,y1  measure this rectangle (an endless world: default 4 x 4 chunks from 0,0)
      --threads N, --quiet  threads as for eval; print only failed expectations
)",
     runCheck},
    {"format", "FILE... [--check]", "rewrite graphs in canonical form (--check: only report)", "", runFormat},
    {"merge", "PART... [-o OUT]", "join the parts of eval --shard into the whole export", "", runMerge},
    {"inputs", "FILE", "the graph and every file it reads (groups, images, ...), one a line", "", runInputs},
    {"diff", "OLD NEW [options]",
     "what changed per layer: points kept, moved, added, removed;\n"
     "OLD and NEW: two graphs or two exports of one format (JSON\n"
     "or CSV), a file or REV:path (git show); exit 0 same,\n"
     "1 different, 2 trouble",
     R"(      --png FILE            paint the changes (kept grey, removed red, added green, moved arrows)
      --png-size N          the PNG's longer side in pixels (default 1024)
      --json                the report as JSON (per layer counts and the changed points)
      --tolerance D         moved: matched within D world units (default: the layer's largest radius)
      --region, --threads, --seed, --set, --quiet   as for eval, applied to both graphs
)",
     cli::runDiff},
    {"bench", "[FILE] [--runs N]", "time the standard workloads (or FILE's layers): medians", "", runBench},
    {"nodes", "[--json|--markdown]", "the node catalog, generated from the node descriptors", "", runNodes},
    {"--help", "", "", "", printUsage},
    {"--version", "", "", "", printVersion},
};

constexpr size_t kSummaryColumn = 45;

// The usage: a line per command (its options under it), the program's own flags on the last line.
std::string usageText()
{
    std::string text = "usage:\n", flags;
    for (const Command &c : kCommands) {
        if (c.name[0] == '-') {
            flags += (flags.empty() ? "" : " | ") + std::string(c.name);
            continue;
        }
        std::string line = "  grove-cli " + std::string(c.name) + (*c.arguments ? " " : "") + c.arguments;
        line.resize(std::max(line.size() + 1, kSummaryColumn), ' ');
        for (const char *s = c.summary; *s; ++s)
            line += *s == '\n' ? "\n" + std::string(kSummaryColumn, ' ') : std::string(1, *s);
        text += line + "\n" + c.options;
    }
    return text + "  grove-cli " + flags + "\n\n"
           + "exit status: 0 success, 1 invalid graph, failed evaluation or failed expectation, 2 bad usage, 130 interrupted\n"
             "(Ctrl+C: nothing written); diff: 0 same, 1 different, 2 trouble (bad usage, input or graph)\n";
}

int printUsage(const std::vector<std::string> &, std::ostream &out, std::ostream &)
{
    out << usageText();
    return cli::kExitOk;
}

int printVersion(const std::vector<std::string> &, std::ostream &out, std::ostream &)
{
    out << "grove-cli " << kGroveVersion << "\n";
    return cli::kExitOk;
}

bool asksForHelp(const std::string &arg) { return arg == "--help" || arg == "-h"; }

} // namespace

int runCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    if (args.empty()) {
        err << usageText();
        return cli::kExitUsage;
    }
    const std::string &command = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        // `grove-cli help`, and `grove-cli eval --help` and the like: the usage, not an error about the option
        if (command == "help" || asksForHelp(command) || std::any_of(rest.begin(), rest.end(), asksForHelp))
            return printUsage(rest, out, err);
        for (const Command &c : kCommands)
            if (command == c.name)
                return c.run(rest, out, err);
    } catch (const std::bad_alloc &) {
        err << "grove-cli: out of memory\n";
        return cli::kExitInvalid;
    } catch (const std::exception &e) {
        err << "grove-cli: internal error: " << e.what() << "\n";
        return cli::kExitInvalid;
    }
    std::vector<std::string> names;
    for (const Command &c : kCommands)
        names.push_back(c.name);
    return cli::usageError(err, "unknown command '" + command + "'" + didYouMean(command, names));
}
