// remap: maps a field's range [in_min, in_max] linearly onto [out_min, out_max].
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

class RemapField final : public Field
{
public:
    RemapField(FieldPtr source, double inMin, double inMax, double outMin, double outMax, bool clamp)
        : m_source(std::move(source)), m_inMin(inMin), m_inSpan(inMax - inMin), m_outMin(outMin),
          m_outSpan(outMax - outMin), m_low(std::min(outMin, outMax)), m_high(std::max(outMin, outMax)), m_clamp(clamp)
    {
    }

    double remap(double f) const
    {
        const double v = m_outMin + (f - m_inMin) / m_inSpan * m_outSpan;
        return m_clamp ? std::clamp(v, m_low, m_high) : v;
    }

    // Every step of remap (subtract, divide, multiply by constants, add, clamp) keeps or reverses
    // the order of its input, rounding included: the remapped ends bound the remapped range.
    FieldRange rangeIn(const Region &area) const override
    {
        const FieldRange r = m_source->rangeIn(area);
        const double a = remap(r.lo), b = remap(r.hi);
        if (!(std::isfinite(r.lo) && std::isfinite(r.hi) && std::isfinite(a) && std::isfinite(b)))
            return {};
        return FieldRange{std::min(a, b), std::max(a, b)}.widened();
    }

    double at(double x, double y) const override { return remap(m_source->at(x, y)); }
    double at3(double x, double y, double z) const override { return remap(m_source->at3(x, y, z)); }

    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        m_source->sampleRow(x0, dx, y, n, out);
        for (int i = 0; i < n; ++i)
            out[i] = remap(out[i]);
    }

private:
    FieldPtr m_source;
    double m_inMin, m_inSpan, m_outMin, m_outSpan, m_low, m_high;
    bool m_clamp;
};

} // namespace

void registerRemap(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "remap";
    d.displayName = "Remap";
    d.category = "Fields";
    d.description = "Stretches a field linearly: in_min becomes out_min and in_max becomes out_max (swap the outputs "
                    "to invert). With clamp, the result stays between out_min and out_max.";
    d.inputs = {port("field", DataType::Field).describe("the field to remap")};
    d.outputs = {port("field", DataType::Field)
        .describe("out_min + (field - in_min) / (in_max - in_min) * (out_max - out_min)")};
    d.params = {
        number("in_min").defaultValue(0).min(-1e12).max(1e12).soft(0, 1)
            .describe("the field value that maps to out_min"),
        number("in_max").defaultValue(1).min(-1e12).max(1e12).soft(0, 1)
            .describe("the field value that maps to out_max"),
        number("out_min").defaultValue(0).min(-1e12).max(1e12).soft(0, 1)
            .describe("the result where the field is in_min"),
        number("out_max").defaultValue(1).min(-1e12).max(1e12).soft(0, 1)
            .describe("the result where the field is in_max"),
        flag("clamp").defaultValue(true).describe("keep the result between out_min and out_max"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        const double inMin = paramNumber(params, "in_min"), inMax = paramNumber(params, "in_max");
        if (inMin == inMax)
            issues.emplace_back("in_max", "in_max equals in_min (" + formatNumber(inMin)
                                              + "): the input range must not be empty");
    };
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", std::make_shared<RemapField>(ctx.field("field"), ctx.number("in_min"),
                                                            ctx.number("in_max"), ctx.number("out_min"),
                                                            ctx.number("out_max"), ctx.flag("clamp")));
    };
    registry.add(std::move(d));
}

} // namespace grove
