// slope: how steep a height field is, in degrees (or which way it faces: aspect), from central
// differences; atan from + - * / and sqrt only, so the degrees are the same on every machine.
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/math/ExactAtan.h"
#include "core/graph/NodeRegistry.h"

#include <cmath>
#include <vector>

namespace grove {

namespace {

enum class SlopeOutput { Slope, Aspect };
constexpr ChoiceTable<SlopeOutput, 2> kOutputs{{{SlopeOutput::Slope, "slope"}, {SlopeOutput::Aspect, "aspect"}}};

class SlopeField final : public Field
{
public:
    SlopeField(FieldPtr height, double heightScale, double step, bool aspect)
        : m_height(std::move(height)), m_scale(heightScale), m_step(step), m_twoStep(2 * step), m_aspect(aspect)
    {
    }

    // From the heights a step east, west, south (+y) and north (-y) of the spot.
    double fromHeights(double east, double west, double south, double north) const
    {
        const double gx = (east - west) / m_twoStep;
        const double gy = (south - north) / m_twoStep;
        if (m_aspect) {
            if (gx == 0 && gy == 0)
                return 0;  // flat: no downhill direction
            // downhill is -gradient; clockwise on the map (y down) is the angle from +x towards +y
            double a = atan2Degrees(-gy, -gx);
            if (a < 0)
                a += 360;
            return a < 360 ? a : 0;
        }
        return atanDegrees(m_scale * std::sqrt(gx * gx + gy * gy));
    }

    double at(double x, double y) const override
    {
        return fromHeights(m_height->at(x + m_step, y), m_height->at(x - m_step, y), m_height->at(x, y + m_step),
                           m_height->at(x, y - m_step));
    }

    // Four rows of the height field: a step east and west (the row shifted by the step) and a
    // step south and north. A shifted row samples (x0 + step) + i*dx, which is not always the
    // same double as at()'s (x0 + i*dx) + step: where they differ, that height is sampled alone,
    // so every value equals at() bit for bit.
    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        if (n <= 0)
            return;
        const std::size_t count = static_cast<std::size_t>(n);
        std::vector<double> rows(4 * count);
        double *east = rows.data(), *west = east + count, *south = west + count, *north = south + count;
        const double xEast = x0 + m_step, xWest = x0 - m_step;
        m_height->sampleRow(xEast, dx, y, n, east);
        m_height->sampleRow(xWest, dx, y, n, west);
        m_height->sampleRow(x0, dx, y + m_step, n, south);
        m_height->sampleRow(x0, dx, y - m_step, n, north);
        for (int i = 0; i < n; ++i) {
            const double x = x0 + i * dx;
            const double e = x + m_step, w = x - m_step;
            if (e != xEast + i * dx)
                east[i] = m_height->at(e, y);
            if (w != xWest + i * dx)
                west[i] = m_height->at(w, y);
            out[i] = fromHeights(east[i], west[i], south[i], north[i]);
        }
    }

    double upperBound() const override { return m_aspect ? 360 : 90; }

private:
    FieldPtr m_height;
    double m_scale, m_step, m_twoStep;
    bool m_aspect;
};

} // namespace

void registerSlope(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "slope";
    d.displayName = "Slope";
    d.category = "Fields";
    d.description = "How steep a height field is, in degrees from 0 (flat) to 90 (a cliff), or which way it faces "
                    "(aspect). From central differences a step either side of each spot: slope = atan(height_scale * "
                    "|gradient|). Wire it into allowed_rule with max 35 for \"no trees above 35 degrees\". The same "
                    "degrees on every machine (atan from + - * / and sqrt only, relative error under 5e-16).";
    d.inputs = {port("field", DataType::Field).describe("the height (any field; scaled to world units by height_scale)")};
    d.outputs = {port("field", DataType::Field)
        .describe("slope: degrees in [0, 90]; aspect: degrees in [0, 360), 0 where the ground is flat")};
    d.params = {
        number("height_scale").defaultValue(100).above(0).max(1e12).soft(1, 1000)
            .describe("world units one unit of the height field rises: with 100, a height going from 0 to 1 over "
                      "100 world units is a 45 degree slope"),
        number("step").defaultValue(1).above(0).max(1e7).soft(0.25, 32)
            .describe("the differences' spacing in world units: heights at x +- step and y +- step (larger "
                      "smooths away small bumps; the height field is sampled beyond the world's edge too)"),
        choice("output", kOutputs, SlopeOutput::Slope)
            .describe("slope: steepness in degrees, 0 to 90; aspect: the downhill direction in degrees clockwise "
                      "from +x on the map (y down, Grove's rotation): 0 east, 90 south (+y), 180 west, 270 north; "
                      "0 where flat"),
    };
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", std::make_shared<SlopeField>(ctx.field("field"), ctx.number("height_scale"),
                                                            ctx.number("step"), ctx.choice("output", kOutputs) == SlopeOutput::Aspect));
    };
    registry.add(std::move(d));
}

} // namespace grove
