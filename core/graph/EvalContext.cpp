// EvalContext: typed access to params and inputs for node evaluate functions.
#include "core/graph/EvalContext.h"

#include "core/base/FileInput.h"
#include "core/math/SeededRandom.h"

namespace grove {

namespace {
const Value kNull;
const PortValue kUnwired;
} // namespace

EvalContext::EvalContext(const NodeDescriptor &descriptor, const Node &node, const World &world,
                         const std::vector<PortValue> &inputs, const EvalLimits &limits,
                         const std::atomic<bool> *cancel, std::function<void(double)> progress)
    : m_descriptor(descriptor), m_node(node), m_world(world), m_inputs(inputs), m_limits(limits), m_cancel(cancel),
      m_progress(std::move(progress)), m_outputs(descriptor.outputs.size())
{
}

const Value &EvalContext::param(const std::string &name) const
{
    if (const Value *v = m_node.param(name))
        return *v;
    if (const ParamSpec *spec = m_descriptor.param(name))
        return spec->defaultValue;
    return kNull;
}

std::string EvalContext::filePath(const std::string &param) const
{
    return resolveInputPath(m_baseDir, text(param));
}

std::int32_t EvalContext::seed() const
{
    return effectiveSeed(m_world.seed, integer("seed"));
}

const PortValue &EvalContext::input(const std::string &name) const
{
    int i = m_descriptor.inputIndex(name);
    if (i < 0 || static_cast<size_t>(i) >= m_inputs.size())
        return kUnwired;
    return m_inputs[static_cast<size_t>(i)];
}

FieldPtr EvalContext::field(const std::string &name) const
{
    const auto *p = std::get_if<FieldPtr>(&input(name));
    return p ? *p : nullptr;
}

LabelsPtr EvalContext::labels(const std::string &name) const
{
    const auto *p = std::get_if<LabelsPtr>(&input(name));
    return p ? *p : nullptr;
}

MaskPtr EvalContext::mask(const std::string &name) const
{
    const auto *p = std::get_if<MaskPtr>(&input(name));
    return p ? *p : nullptr;
}

PointSetPtr EvalContext::points(const std::string &name) const
{
    const auto *p = std::get_if<PointSetPtr>(&input(name));
    return p ? *p : nullptr;
}

void EvalContext::setOutput(const std::string &port, PortValue value)
{
    int i = m_descriptor.outputIndex(port);
    if (i >= 0)
        m_outputs[static_cast<size_t>(i)] = std::move(value);
}

} // namespace grove
