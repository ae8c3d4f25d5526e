// One node evaluated straight from its descriptor, as the evaluator would (without its cache), on
// inputs made by the caller: shared by the test suites (TestSupport.h) and the benchmarks. Qt-free.
#pragma once

#include "core/graph/EvalContext.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"

#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace grove::test {

struct NodeRun
{
    std::vector<PortValue> outputs;
    PortValue output;  // the first output
    std::string error;
};

// The node (id "n") of `type`: params not given take their defaults.
inline NodeRun evaluateNodeIn(const NodeRegistry &registry, const std::string &type, const ValueMap &params,
                              const std::vector<std::pair<std::string, PortValue>> &inputs, const World &world = {},
                              const std::atomic<bool> *cancel = nullptr, std::function<void(double)> progress = {})
{
    const NodeDescriptor *desc = registry.find(type);
    if (!desc)
        return {{}, {}, "no node type " + type};
    Node node;
    node.id = "n";
    node.type = type;
    node.params = completeParams(*desc, params);
    std::vector<PortValue> in(desc->inputs.size());
    for (const auto &[name, value] : inputs)
        in[static_cast<size_t>(desc->inputIndex(name))] = value;
    const EvalLimits limits{limits::defaultMaxPointsPerLayer};
    EvalContext ctx(*desc, node, world, in, limits, cancel, std::move(progress));
    desc->evaluate(ctx);
    NodeRun run;
    run.outputs = ctx.outputs();
    if (!run.outputs.empty())
        run.output = run.outputs.front();
    run.error = ctx.error();
    return run;
}

} // namespace grove::test
