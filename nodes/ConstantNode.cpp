// constant: the same value everywhere.
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

namespace grove {

namespace {

class ConstantField final : public Field
{
public:
    explicit ConstantField(double v) : m_value(v) {}
    double at(double, double) const override { return m_value; }
    double upperBound() const override { return m_value; }
    FieldRange rangeIn(const Region &) const override { return {m_value, m_value}; }

private:
    double m_value;
};

} // namespace

void registerConstant(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "constant";
    d.displayName = "Constant";
    d.category = "Fields";
    d.description = "The same value everywhere.";
    d.outputs = {port("field", DataType::Field).describe("the value")};
    d.params = {number("value").defaultValue(0).min(-1e12).max(1e12).soft(0, 1).describe("the field's value")};
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", std::make_shared<ConstantField>(ctx.number("value")));
    };
    registry.add(std::move(d));
}

} // namespace grove
