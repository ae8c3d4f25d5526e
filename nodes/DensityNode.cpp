// density: seed 000 step 5's noise-to-radius mapping (exact).
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

class DensityField final : public Field
{
public:
    DensityField(FieldPtr source, double minRadius, double maxRadius, double gain, double bias)
        : m_source(std::move(source)), m_min(minRadius), m_max(maxRadius), m_gain(gain), m_bias(bias)
    {
    }
    double at(double x, double y) const override { return radiusFor(m_source->at(x, y)); }
    // In a volume: the source is asked at depth z (a 3D noise gives a 3D density).
    double at3(double x, double y, double z) const override { return radiusFor(m_source->at3(x, y, z)); }
    double radiusFor(double f) const
    {
        const double t = std::min(1.0, std::max(0.0, f * m_gain + m_bias));
        return m_min + t * (m_max - m_min);
    }
    // t is clamped to [0, 1], so the radius never passes the larger end (rounding included:
    // a + t * (b - a) with t <= 1 stays within max(a, b) plus one ulp; leave that ulp room)
    double upperBound() const override { return std::nextafter(std::max(m_min, m_max), HUGE_VAL); }

private:
    FieldPtr m_source;
    double m_min, m_max, m_gain, m_bias;
};

} // namespace

void registerDensity(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "density";
    d.displayName = "Density";
    d.category = "Density";
    d.description = "Turns a field into a radius: low values pack objects tightly, high values spread them out. "
                    "Wire it into place_layer's radius input.";
    d.matchesSeedJs = true;
    d.inputs = {port("field", DataType::Field).describe("the field that drives density (0 dense .. 1 sparse)")};
    d.outputs = {port("field", DataType::Field).describe("radius per spot, in [min_radius, max_radius]")};
    d.params = {
        number("min_radius").defaultValue(9).above(0).max(1e7).soft(1, 100)
            .describe("radius where the field is low (dense)"),
        number("max_radius").defaultValue(36).above(0).max(1e7).soft(1, 200)
            .describe("radius where the field is high (sparse)"),
        number("gain").defaultValue(1.5).min(-1e6).max(1e6).soft(0, 4)
            .describe("t = clamp(field * gain + bias, 0, 1)"),
        number("bias").defaultValue(0.5).min(-1e6).max(1e6).soft(-1, 1)
            .describe("t = clamp(field * gain + bias, 0, 1)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        double lo = 0, hi = 0;
        for (const auto &[k, v] : params) {
            if (k == "min_radius")
                lo = v.toNumber();
            if (k == "max_radius")
                hi = v.toNumber();
        }
        if (hi < lo)
            issues.emplace_back("max_radius", "max_radius " + formatNumber(hi) + " is below min_radius " + formatNumber(lo));
    };
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", std::make_shared<DensityField>(ctx.field("field"), ctx.number("min_radius"),
                                                              ctx.number("max_radius"), ctx.number("gain"),
                                                              ctx.number("bias")));
    };
    registry.add(std::move(d));
}

} // namespace grove
