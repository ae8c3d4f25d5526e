// Evaluates a graph in topological order with a per-node cache keyed by params and inputs.
#pragma once

#include "core/base/DataTypes.h"
#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/Graph.h"
#include "core/base/Limits.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace grove {

class NodeRegistry;

struct EvalProgress
{
    std::size_t nodesDone = 0;
    std::size_t nodesTotal = 0;   // nodes that need computing this run (cache misses)
    std::string currentNode;
    double fraction = 0;          // of the whole run, in [0, 1]
};

struct EvalRequest
{
    std::vector<std::string> targets;  // node ids to produce (with their inputs); empty: every node
    const std::atomic<bool> *cancel = nullptr;
    std::function<void(const EvalProgress &)> progress;
    EvalLimits limits{limits::defaultMaxPointsPerLayer};
    // false: a first pass of a bigger run that follows at once (the preview gets its ground
    // early); the cache then neither ages nor drops entries, so the previous run's stay.
    bool evict = true;
    // The live preview's mode: a node with problems (or one that fails) is skipped with
    // everything downstream of it, and the rest is evaluated. Problems of the graph as a whole
    // (world size, duplicate ids) still make it Invalid. grove-cli and exports never set this.
    bool partial = false;
};

struct NodeResult
{
    std::string key;                 // hash of type, params, world and input keys
    const NodeDescriptor *descriptor = nullptr;
    std::vector<PortValue> outputs;  // by descriptor output index
    std::vector<PortValue> inputs;   // what was wired in, by descriptor input index (monostate: none)
    PortValue product;               // a sink node's result for the caller (paint: the ground)
    double seconds = 0;              // time this node took when it was computed
};

struct EvalResult
{
    enum class Status { Ok, Invalid, Failed, Cancelled };
    Status status = Status::Ok;
    Diagnostics diagnostics;
    std::map<std::string, std::shared_ptr<const NodeResult>> nodes;  // by node id
    std::vector<std::string> computed;  // nodes computed this run (not served from the cache), in order
    std::vector<std::string> skipped;   // partial runs: nodes left out for problems, theirs or upstream
    Diagnostics failures;               // partial runs: why nodes failed while evaluating (also in diagnostics)

    bool ok() const { return status == Status::Ok; }
    // The value on `node.port` (empty port: the first output), or monostate.
    PortValue output(const std::string &node, const std::string &port = {}) const;
    // The value on the node's output with `role` (its layer, its chain), or monostate.
    PortValue outputWithRole(const std::string &node, PortRole role) const;
    // The value wired into the node's input with `role` (a layer's allowed area), or monostate.
    PortValue inputWithRole(const std::string &node, PortRole role) const;
};

class Evaluator
{
public:
    explicit Evaluator(const NodeRegistry &registry);

    // Thread-safe: one evaluation at a time; the cache survives between calls.
    EvalResult evaluate(const Graph &graph, const EvalRequest &request = {});
    std::size_t cacheSize() const;

private:
    const NodeRegistry &m_registry;
    mutable std::mutex m_mutex;
    struct Entry
    {
        std::shared_ptr<const NodeResult> result;
        std::uint64_t lastUsed = 0;
    };
    std::map<std::string, Entry> m_cache;
    std::uint64_t m_generation = 0;
};

// For every node that makes a layer and exports it (its export-switch param, when it has one, is
// true), in graph order (topological, ties by id), the node whose output carries the exported
// points: the layer node itself, or the last node of its refinement chain (core/graph/LayerRefinement.h),
// listed at the layer's place. Read layers from these ids; name them by layerName(graph, ...).
std::vector<std::string> exportedLayers(const Graph &graph, const NodeRegistry &registry);
// A layer node's name in exports: its layer-name param, or its id when that is empty or absent.
std::string layerName(const Node &node, const NodeDescriptor &descriptor);
// The name of the layer an exportedLayers id carries (a refiner's: its source's).
std::string layerName(const Graph &graph, const NodeRegistry &registry, const std::string &id);
// The layer node an exportedLayers id carries the layer of (a refiner's source), which hand edits
// and the layer list address.
std::string layerNodeId(const Graph &graph, const NodeRegistry &registry, const std::string &id);

} // namespace grove
