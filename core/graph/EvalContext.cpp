// EvalContext: typed access to params and inputs for node evaluate functions; a name the
// descriptor does not declare is a fault in the node's code, reported by name.
#include "core/graph/EvalContext.h"

#include "core/base/Diagnostic.h"
#include "core/base/FileInput.h"
#include "core/math/SeededRandom.h"

namespace grove {

namespace {
const PortValue kUnwired;
} // namespace

bool nodeCodeChecked()
{
#ifdef GROVE_CHECKED
    return true;
#else
    return false;
#endif
}

void EvalContext::fault(const std::string &what) const
{
    throw NodeCodeFault("node type " + quote(m_descriptor.typeId) + " " + what
                        + " (a fault in the node type's code, not in the graph)");
}

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
    fault("asks for param " + quote(name) + ", which it does not declare");
}

void EvalContext::checkChoiceTable(const std::string &name, const std::vector<std::string> &tableNames) const
{
    const ParamSpec *spec = m_descriptor.param(name);
    if (!spec)
        fault("asks for choice param " + quote(name) + ", which it does not declare");
    if (spec->kind != ParamKind::Enum || spec->enumValues != tableNames)
        fault("reads param " + quote(name) + " through a choice table that is not the one it was declared with");
}

void EvalContext::failAt(const std::string &param, std::string message)
{
    const std::string name = param.substr(0, param.find_first_of(".["));
    if (!m_descriptor.param(name))
        fault("reports a problem at param " + quote(name) + ", which it does not declare");
    m_errorParam = param;
    m_error = std::move(message);
}

std::string EvalContext::filePath(const std::string &param) const
{
    return resolveInputPath(m_baseDir, text(param));
}

std::int32_t EvalContext::seed() const
{
    const ParamSpec *spec = m_descriptor.paramWithRole(ParamRole::Seed);
    if (!spec)
        fault("asks for its seed, but declares no seed param");
    return effectiveSeed(m_world.seed, integer(spec->name));
}

const PortValue &EvalContext::input(const std::string &name, DataType type) const
{
    const int i = m_descriptor.inputIndex(name);
    if (i < 0)
        fault("asks for input " + quote(name) + ", which it does not declare");
    if (m_descriptor.inputs[static_cast<size_t>(i)].type != type)
        fault("asks for input " + quote(name) + " as " + dataTypeName(type) + ", but declares it "
              + dataTypeName(m_descriptor.inputs[static_cast<size_t>(i)].type));
    if (static_cast<size_t>(i) >= m_inputs.size())
        return kUnwired;
    return m_inputs[static_cast<size_t>(i)];
}

FieldPtr EvalContext::field(const std::string &name) const
{
    const auto *p = std::get_if<FieldPtr>(&input(name, DataType::Field));
    return p ? *p : nullptr;
}

LabelsPtr EvalContext::labels(const std::string &name) const
{
    const auto *p = std::get_if<LabelsPtr>(&input(name, DataType::Labels));
    return p ? *p : nullptr;
}

MaskPtr EvalContext::mask(const std::string &name) const
{
    const auto *p = std::get_if<MaskPtr>(&input(name, DataType::Mask));
    return p ? *p : nullptr;
}

PointSetPtr EvalContext::points(const std::string &name) const
{
    const auto *p = std::get_if<PointSetPtr>(&input(name, DataType::Points));
    return p ? *p : nullptr;
}

void EvalContext::setOutput(const std::string &port, PortValue value)
{
    const int i = m_descriptor.outputIndex(port);
    if (i < 0)
        fault("sets output " + quote(port) + ", which it does not declare");
    m_outputs[static_cast<size_t>(i)] = std::move(value);
}

} // namespace grove
