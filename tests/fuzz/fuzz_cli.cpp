// libFuzzer target: grove-cli in-process (runCli), its arguments and `--set` overrides.
// Input: the graph file's bytes, then NUL-separated arguments. The graph is written to
// g.grove.yaml in a private sandbox folder that is the working directory during the run;
// arguments cannot leave it (a '/' in an argument becomes '_'). Named pipes wait there under the
// names a graph may give its inputs (kPipes): each must be refused unopened, never waited on.
#include "CliApp.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

// Budgets so the fuzzer explores arguments, not slow evaluations or huge pictures.
constexpr std::int64_t kMaxPoints = 20000;
constexpr std::int64_t kMaxPngSize = 256;
constexpr std::size_t kMaxArgs = 32;

// Inputs a graph's params may name (an image, a RAW heightmap, shapes, points, a group file,
// a shard part): named pipes with no writer. Arguments naming them are skipped: the graph file and
// the outputs may be pipes on purpose (`-o >(gzip)`), and a pipe nobody reads waits for ever.
constexpr const char *kPipes[] = {"pipe.png", "pipe.r16", "pipe.geojson", "pipe.csv", "pipe.grove.yaml", "pipe.json"};

char g_root[4096];  // plain storage: the exit handler runs after static objects are gone

fs::path sandboxRoot()
{
    if (!g_root[0]) {
        std::string tmpl = (fs::temp_directory_path() / "grove-fuzz-cli-XXXXXX").string();
        if (tmpl.size() >= sizeof g_root || !::mkdtemp(tmpl.data())) {
            std::perror("fuzz_cli: mkdtemp");
            std::abort();
        }
        fs::create_directory(fs::path(tmpl) / "w");
        tmpl.copy(g_root, tmpl.size());
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(g_root, ec);
        });
    }
    return fs::path(g_root);
}

// Empties the sandbox (the work folder and anything an argument of ".." put next to it).
void clearSandbox()
{
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(sandboxRoot(), ec))
        if (entry.path().filename() != "w")
            fs::remove_all(entry.path(), ec);
    for (const auto &entry : fs::directory_iterator(sandboxRoot() / "w", ec))
        fs::remove_all(entry.path(), ec);
}

// The value of `--name V` or `--name=V` past the budget: such runs are skipped.
bool overBudget(const std::vector<std::string> &args, const std::string &name, std::int64_t budget)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string v;
        if (args[i] == name && i + 1 < args.size())
            v = args[i + 1];
        else if (args[i].rfind(name + "=", 0) == 0)
            v = args[i].substr(name.size() + 1);
        else
            continue;
        std::int64_t n = 0;
        auto res = std::from_chars(v.data(), v.data() + v.size(), n);
        if (res.ec == std::errc() && res.ptr == v.data() + v.size() && n > budget)
            return true;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    const std::size_t nul = input.find('\0');
    const std::string graph = input.substr(0, nul);
    std::vector<std::string> args;
    for (std::size_t pos = nul; pos != std::string::npos && pos < input.size();) {
        const std::size_t next = input.find('\0', pos + 1);
        std::string arg = input.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
        std::replace(arg.begin(), arg.end(), '/', '_');
        args.push_back(std::move(arg));
        pos = next;
    }
    if (args.size() > kMaxArgs || overBudget(args, "--max-points", kMaxPoints)
        || overBudget(args, "--png-size", kMaxPngSize))
        return 0;
    // merge's parts may be pipes (refused unopened); its output and every other argument may not
    const bool merge = !args.empty() && args.front() == "merge";
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool output = (i > 0 && (args[i - 1] == "-o" || args[i - 1] == "--out")) || args[i].rfind("--out=", 0) == 0;
        if (args[i].find("pipe") != std::string::npos && (!merge || output))
            return 0;
    }
    if (!args.empty() && args.front() == "eval") {
        // defaults within the budget; a later argument may still lower them
        args.insert(args.begin() + 1, "--png-size=" + std::to_string(kMaxPngSize));
        args.insert(args.begin() + 1, "--max-points=" + std::to_string(kMaxPoints));
    }

    clearSandbox();
    const fs::path work = sandboxRoot() / "w";
    {
        std::ofstream file(work / "g.grove.yaml", std::ios::binary);
        file << graph;
    }
    for (const char *pipe : kPipes)
        ::mkfifo((work / pipe).c_str(), 0600);
    const fs::path before = fs::current_path();
    fs::current_path(work);
    std::ostringstream out, err;
    const int status = runCli(args, out, err);
    fs::current_path(before);
    if (status < 0 || status > 2) {
        std::fprintf(stderr, "fuzz_cli: exit status %d\n", status);
        std::abort();
    }
    // A failure leaves nothing on stdout (a usage error, an invalid graph, a failed evaluation).
    if (status != 0 && !out.str().empty() && !(args.size() >= 1 && args.front() == "validate")) {
        std::fprintf(stderr, "fuzz_cli: exit %d with output on stdout\n", status);
        std::abort();
    }
    if (status != 0 && err.str().empty()) {
        std::fprintf(stderr, "fuzz_cli: exit %d without a message\n", status);
        std::abort();
    }
    // Nothing is written on failure (no half results), and no temporary file is left behind.
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(sandboxRoot(), ec); !ec && it != fs::end(it); it.increment(ec)) {
        if (!it->is_regular_file() || it->path() == work / "g.grove.yaml")
            continue;
        const std::string name = it->path().filename().string();
        if (status != 0 || name.find(".saving-") != std::string::npos) {
            std::fprintf(stderr, "fuzz_cli: exit %d left %s\n", status, it->path().c_str());
            std::abort();
        }
    }
    return 0;
}
