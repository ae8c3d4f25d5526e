// domain_warp: samples a field at positions pushed around by two other fields (swirls, folds).
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <vector>

namespace grove {

namespace {

class DomainWarpField final : public Field
{
public:
    DomainWarpField(FieldPtr source, FieldPtr warpX, FieldPtr warpY, double strength)
        : m_source(std::move(source)), m_warpX(std::move(warpX)), m_warpY(std::move(warpY)), m_strength(strength)
    {
    }

    double at(double x, double y) const override
    {
        return m_source->at(x + m_strength * (2 * m_warpX->at(x, y) - 1), y + m_strength * (2 * m_warpY->at(x, y) - 1));
    }

    // The warp fields are sampled as rows (their fast path); the warped spots are scattered, so
    // the source is sampled one by one.
    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        if (n <= 0)
            return;
        std::vector<double> wx(static_cast<size_t>(n)), wy(static_cast<size_t>(n));
        m_warpX->sampleRow(x0, dx, y, n, wx.data());
        m_warpY->sampleRow(x0, dx, y, n, wy.data());
        for (int i = 0; i < n; ++i) {
            const double x = x0 + i * dx;
            out[i] = m_source->at(x + m_strength * (2 * wx[static_cast<size_t>(i)] - 1),
                                  y + m_strength * (2 * wy[static_cast<size_t>(i)] - 1));
        }
    }

private:
    FieldPtr m_source, m_warpX, m_warpY;
    double m_strength;
};

} // namespace

void registerDomainWarp(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "domain_warp";
    d.displayName = "Domain Warp";
    d.category = "Fields";
    d.description = "Bends a field: each spot reads the field up to `strength` world units away, in the direction "
                    "two warp fields point (0.5 means no shift). Straight contours become swirls, like erosion "
                    "and rivers.";
    d.inputs = {
        port("field", DataType::Field).describe("the field to bend"),
        port("warp_x", DataType::Field)
            .describe("shift in x: 0 is -strength, 0.5 none, 1 is +strength (a noise in [0, 1])"),
        port("warp_y", DataType::Field)
            .describe("shift in y: 0 is -strength, 0.5 none, 1 is +strength (a noise in [0, 1])"),
    };
    d.outputs = {port("field", DataType::Field)
        .describe("field(x + strength * (2 warp_x - 1), y + strength * (2 warp_y - 1))")};
    d.params = {number("strength").defaultValue(20).min(0).max(1e7).soft(0, 200)
        .describe("largest shift, in world units")};
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", std::make_shared<DomainWarpField>(ctx.field("field"), ctx.field("warp_x"),
                                                                 ctx.field("warp_y"), ctx.number("strength")));
    };
    registry.add(std::move(d));
}

} // namespace grove
