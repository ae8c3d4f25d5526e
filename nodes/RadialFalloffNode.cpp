// radial_falloff: 1 at the world centre, falling to 0 at half the width: multiply a height into an island.
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/math/ExactPower.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>

namespace grove {

namespace {

class RadialFalloffField final : public Field
{
public:
    RadialFalloffField(FieldPtr source, double centreX, double centreY, double radius, double exponent)
        : m_source(std::move(source)), m_cx(centreX), m_cy(centreY), m_radius(radius), m_exponent(exponent)
    {
    }

    // the distance from the centre in radii
    double radii(double x, double y) const
    {
        const double dx = x - m_cx, dy = y - m_cy;
        return std::sqrt(dx * dx + dy * dy) / m_radius;
    }
    // the falloff at t radii from the centre, given t^exponent (asked only for t < 1): it only
    // falls as t grows, and is 0 from t = 1 on (t^e >= 1 there, and a zero radius has no inside)
    static double fadeOf(double t, double power) { return t < 1 ? 1 - power : 0; }
    double fade(double t) const { return fadeOf(t, t < 1 ? exactPower(t, m_exponent) : 0); }

    double at(double x, double y) const override
    {
        const double f = fade(radii(x, y));
        return m_source ? m_source->at(x, y) * f : f;
    }

    // at()'s values a piece of the row at a time: the powers of the pixels inside (t < 1, the
    // only ones at() asks for) packed together and taken four at a time (exactPowers)
    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        if (m_source)
            m_source->sampleRow(x0, dx, y, n, out);
        constexpr int kPiece = 256;
        double t[kPiece], inside[kPiece], power[kPiece];
        for (int from = 0; from < n; from += kPiece) {
            const int count = std::min(kPiece, n - from);
            int packed = 0;
            for (int i = 0; i < count; ++i) {
                t[i] = radii(x0 + (from + i) * dx, y);
                if (t[i] < 1)
                    inside[packed++] = t[i];
            }
            exactPowers(inside, m_exponent, power, packed);
            for (int i = 0, k = 0; i < count; ++i) {
                const double f = fadeOf(t[i], t[i] < 1 ? power[k++] : 0);
                out[from + i] = m_source ? out[from + i] * f : f;
            }
        }
    }

    FieldRange rangeIn(const Region &a) const override
    {
        if (!(a.x0 <= a.x1 && a.y0 <= a.y1))
            return {};
        // the falloff between the rectangle's farthest point from the centre and its nearest
        const double nx = std::clamp(m_cx, a.x0, a.x1) - m_cx, ny = std::clamp(m_cy, a.y0, a.y1) - m_cy;
        const double fx = std::max(std::fabs(a.x0 - m_cx), std::fabs(a.x1 - m_cx));
        const double fy = std::max(std::fabs(a.y0 - m_cy), std::fabs(a.y1 - m_cy));
        const FieldRange f{fade(std::sqrt(fx * fx + fy * fy) / m_radius),
                           fade(std::sqrt(nx * nx + ny * ny) / m_radius)};
        if (!m_source)
            return f.widened();
        const FieldRange s = m_source->rangeIn(a);
        if (!(std::isfinite(s.lo) && std::isfinite(s.hi)))
            return {};
        const double p[4] = {s.lo * f.lo, s.lo * f.hi, s.hi * f.lo, s.hi * f.hi};
        return FieldRange{*std::min_element(p, p + 4), *std::max_element(p, p + 4)}.widened();
    }

private:
    FieldPtr m_source;
    double m_cx, m_cy, m_radius, m_exponent;
};

} // namespace

void registerRadialFalloff(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "radial_falloff";
    d.displayName = "Radial Falloff";
    d.category = "Fields";
    d.needsWorldSize = true;  // a raster over, or a centre of, the whole world
    d.description = "Makes an island: multiplies the field by 1 - (d / dmax)^exponent, where d is the distance "
                    "from the world centre and dmax half the world width; 0 from there outwards. Without a field "
                    "it gives the falloff itself.";
    d.inputs = {port("field", DataType::Field).optional()
        .describe("the field to fade out towards the edges (unwired: 1)")};
    d.outputs = {port("field", DataType::Field).describe("field * max(0, 1 - (d / dmax)^exponent)")};
    d.params = {number("exponent").defaultValue(2).above(0).max(1e3).soft(0.5, 8)
        .describe("shape of the slope: 1 a cone, 2 a dome, higher a plateau with a steep shore "
                  "(the same bits on every machine, fractions too: Grove computes the power itself)")};
    d.evaluate = [](EvalContext &ctx) {
        const World &w = ctx.world();
        ctx.setOutput("field", std::make_shared<RadialFalloffField>(ctx.field("field"), w.width / 2, w.height / 2,
                                                                    w.width / 2, ctx.number("exponent")));
    };
    registry.add(std::move(d));
}

} // namespace grove
