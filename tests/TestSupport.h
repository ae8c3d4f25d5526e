// Helpers shared by the test suites: paths, file I/O, graph loading, and the one harness for
// evaluating a graph (evaluateText, evaluateGraph) or a single node on inputs made in the test
// (evaluateNode).
#pragma once

#include "core/eval/Evaluator.h"
#include "core/export/ExportJob.h"
#include "core/graph/GraphReader.h"
#include "core/graph/Overrides.h"
#include "core/graph/NodeRegistry.h"
#include "nodes/BuiltinNodes.h"

#include "NodeRun.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <dirent.h>
#include <functional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace grove::test {

inline std::string testsDir() { return GROVE_TESTS_DIR; }
inline std::string sourceDir() { return GROVE_SOURCE_DIR; }
inline const NodeRegistry &registry() { return builtinRegistry(); }

inline std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void writeFile(const std::string &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

inline LoadResult load(const std::string &text, const std::string &name = "test.grove.yaml")
{
    return loadGraphFromString(text, name, registry());
}

// Evaluates a loaded graph with the request's targets and limits (defaults: every node, one
// thread's defaults).
inline EvalResult evaluateGraph(const Graph &graph, const EvalRequest &request = {})
{
    return Evaluator(registry()).evaluate(graph, request);
}

// Loads a graph's text and evaluates it; a graph that does not load comes back Invalid with the
// loader's diagnostics.
inline EvalResult evaluateText(const std::string &text)
{
    LoadResult loaded = load(text);
    if (!loaded.ok()) {
        EvalResult r;
        r.status = EvalResult::Status::Invalid;
        r.diagnostics = loaded.diagnostics;
        return r;
    }
    return evaluateGraph(loaded.graph);
}

// One node evaluated straight from its descriptor (NodeRun.h) in Grove's registry.
inline NodeRun evaluateNode(const std::string &type, const ValueMap &params,
                            const std::vector<std::pair<std::string, PortValue>> &inputs, World world = {},
                            const std::atomic<bool> *cancel = nullptr, std::function<void(double)> progress = {})
{
    return evaluateNodeIn(registry(), type, params, inputs, world, cancel, std::move(progress));
}

// A node's output of type T (FieldPtr, MaskPtr, PointSetPtr, ...), or an empty T.
template <class T>
T outputOf(const EvalResult &r, const std::string &node, const std::string &port = {})
{
    const PortValue v = r.output(node, port);
    const auto *p = std::get_if<T>(&v);
    return p ? *p : T();
}

// A points wire holding the one layer (a node's input made in a test).
inline PointSetPtr setOf(PointLayerPtr layer)
{
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(std::move(layer));
    return set;
}

// The layer of a points value holding exactly one, or null.
inline PointLayerPtr single(const PortValue &value)
{
    const auto *set = std::get_if<PointSetPtr>(&value);
    return set && *set && (*set)->layers.size() == 1 ? (*set)->layers.front() : nullptr;
}

inline std::string applyOverrideText(Graph &graph, const std::string &assignment)
{
    return applyOverride(graph, registry(), assignment).value_or(std::string());
}

// The names in a folder, sorted (what a failed save must not leave behind).
inline std::vector<std::string> listDir(const std::string &dir)
{
    std::vector<std::string> names;
    if (DIR *d = ::opendir(dir.c_str())) {
        while (dirent *e = ::readdir(d))
            if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
                names.push_back(e->d_name);
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

inline std::string formatAll(const Diagnostics &diagnostics)
{
    std::string s;
    for (const auto &d : diagnostics)
        s += d.format() + "\n";
    return s;
}

// A graph from YAML text that must load (a test's own graph): its problems end the test run.
inline Graph graphOf(const std::string &text)
{
    LoadResult r = load(text);
    if (!r.ok())
        qFatal("%s", formatAll(r.diagnostics).c_str());
    return r.graph;
}

// The JSON export of every layer, as grove-cli eval writes it, named `name`; "failed: ..." when
// the graph does not evaluate.
inline std::string exportJson(const Graph &graph, const std::string &name, const NodeRegistry &nodes = registry())
{
    const EvalResult r = Evaluator(nodes).evaluate(graph);
    if (!r.ok())
        return "failed: " + formatAll(r.diagnostics);
    ExportJob job;
    job.layers = exportedLayers(graph, nodes);
    job.graphPath = name;
    std::string error;
    auto out = buildExport(graph, nodes, r, job, &error);
    return out ? out->files.at(0).bytes : "no export: " + error;
}

// How long a wait for work on other threads (a preview run, a child process) may last before the
// test calls it hung: `ms`, written as a generous bound on an idle machine, times 5 for a shared
// runner (tests/under-load.sh, with both cores busy and a build beside the suites, saw a preview's
// statistics take 140 s against a bound of 60), times GROVE_TEST_PATIENCE (an integer, default 1)
// where instrumented builds run several times slower. A bound on liveness, not a speed: each wait
// ends as soon as what it waits for is true, and nothing asserts how soon that is.
inline int patientMs(int ms)
{
    static const int factor = std::max(1, qEnvironmentVariableIntValue("GROVE_TEST_PATIENCE"));
    return ms * 5 * factor;
}

} // namespace grove::test
