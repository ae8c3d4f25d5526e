// What gradient_noise, simplex_noise and worley_noise share: one octave's row sampler summed as
// fbm, ridged or billow, and the params that shape the sum.
#pragma once

#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/fields/Fractal.h"
#include "core/base/Limits.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace grove {

// The `fractal` param's choices.
inline constexpr ChoiceTable<FractalKind, 3> kFractalKinds{{{FractalKind::Fbm, "fbm"},
                                                            {FractalKind::Ridged, "ridged"},
                                                            {FractalKind::Billow, "billow"}}};

// MakeRow(y, seed) gives a row sampler of one octave; the fractal sum and the raster path share it.
template <class MakeRow>
class FractalNoiseField final : public Field
{
public:
    // octave3: one octave of the noise in 3D, for a volume (null: the 2D field extruded along z)
    using Octave3 = double (*)(double, double, double, std::int32_t);
    FractalNoiseField(FractalSettings settings, std::int32_t seed, MakeRow makeRow, Octave3 octave3 = nullptr)
        : m_settings(settings), m_seed(seed), m_makeRow(std::move(makeRow)), m_octave3(octave3)
    {
    }

    double at(double x, double y) const override { return fractalAt(x, y, m_seed, m_settings, m_makeRow); }
    double at3(double x, double y, double z) const override
    {
        return m_octave3 ? fractalAt3(x, y, z, m_seed, m_settings, m_octave3) : at(x, y);
    }

    // Octave by octave along the row, so each lattice cell is hashed once per row, not per pixel.
    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        fractalRow(x0, dx, y, n, m_seed, m_settings, m_makeRow, out);
    }

private:
    FractalSettings m_settings;
    std::int32_t m_seed;
    MakeRow m_makeRow;
    Octave3 m_octave3;
};

template <class MakeRow>
FieldPtr makeNoiseField(const EvalContext &ctx, MakeRow makeRow, double (*octave3)(double, double, double, std::int32_t) = nullptr)
{
    FractalSettings s;
    s.frequency = ctx.number("frequency");
    s.octaves = static_cast<int>(ctx.integer("octaves"));
    s.lacunarity = ctx.number("lacunarity");
    s.persistence = ctx.number("persistence");
    s.kind = ctx.choice("fractal", kFractalKinds);
    const World &w = ctx.world();
    s.wrapWidth = w.wrapX ? w.width : 0;
    s.wrapHeight = w.wrapY ? w.height : 0;
    return std::make_shared<FractalNoiseField<MakeRow>>(s, ctx.seed(), std::move(makeRow), octave3);
}

// A noise in a wrapped world repeats with it: every octave's lattice must fit a whole number of
// cells into each wrapped side (periodX, periodY; 0: that axis does not wrap). The problem, if
// any, names the param to change and the nearest value that would repeat.
void checkNoiseRepeats(const ValueMap &params, double periodX, double periodY, ParamIssues &issues);

// frequency, octaves, lacunarity, persistence and seed: every octave noise's params (value_noise's too).
inline std::vector<ParamSpec> octaveParams(double frequency, int octaves)
{
    using namespace build;
    return {
        number("frequency").defaultValue(frequency).above(0).max(1e6).soft(0.001, 0.1)
            .describe("lattice cells per world unit: smaller is broader"),
        integer("octaves").defaultValue(octaves).min(1).max(static_cast<double>(limits::maxOctaves)).soft(1, 8)
            .describe("layers of detail summed together"),
        number("lacunarity").defaultValue(2).min(0).max(1e3).soft(1, 4).describe("frequency multiplier per octave"),
        number("persistence").defaultValue(0.5).min(0).max(1e3).soft(0, 1)
            .describe("amplitude multiplier per octave: higher is rougher"),
        seed(),
    };
}

// The octave params, then how the octaves combine.
inline std::vector<ParamSpec> fractalParams(double frequency, int octaves)
{
    using namespace build;
    std::vector<ParamSpec> params = octaveParams(frequency, octaves);
    params.push_back(choice("fractal", kFractalKinds, FractalKind::Fbm)
            .describe("how octaves combine: fbm rolling hills, ridged sharp crests (1 - |2f - 1|), billow puffy "
                      "bumps (|2f - 1|)"));
    return params;
}

} // namespace grove
