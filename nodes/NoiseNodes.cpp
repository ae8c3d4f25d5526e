// gradient_noise, simplex_noise and worley_noise: lattice noises summed as fbm, ridged or billow.
#include "ParamBuilders.h"

#include "core/EvalContext.h"
#include "core/Fractal.h"
#include "core/GradientNoise.h"
#include "core/Limits.h"
#include "core/NodeRegistry.h"
#include "core/SimplexNoise.h"
#include "core/WorleyNoise.h"

namespace grove {

namespace {

// MakeRow(y, seed) gives a row sampler of one octave; the fractal sum and the raster path share it.
template <class MakeRow>
class FractalNoiseField final : public Field
{
public:
    FractalNoiseField(FractalSettings settings, std::int32_t seed, MakeRow makeRow)
        : m_settings(settings), m_seed(seed), m_makeRow(std::move(makeRow))
    {
    }

    double at(double x, double y) const override { return fractalAt(x, y, m_seed, m_settings, m_makeRow); }

    // Octave by octave along the row, so each lattice cell is hashed once per row, not per pixel.
    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        fractalRow(x0, dx, y, n, m_seed, m_settings, m_makeRow, out);
    }

private:
    FractalSettings m_settings;
    std::int32_t m_seed;
    MakeRow m_makeRow;
};

template <class MakeRow>
FieldPtr makeNoiseField(const EvalContext &ctx, MakeRow makeRow)
{
    FractalSettings s;
    s.frequency = ctx.number("frequency");
    s.octaves = static_cast<int>(ctx.integer("octaves"));
    s.lacunarity = ctx.number("lacunarity");
    s.persistence = ctx.number("persistence");
    s.kind = fractalKindFromName(ctx.text("fractal")).value_or(FractalKind::Fbm);
    return std::make_shared<FractalNoiseField<MakeRow>>(s, ctx.seed(), std::move(makeRow));
}

std::vector<ParamSpec> fractalParams(double frequency, int octaves)
{
    using namespace build;
    return {
        number("frequency", frequency, 0, 1e6, 0.001, 0.1, "lattice cells per world unit: smaller is broader", true),
        integer("octaves", octaves, 1, static_cast<double>(limits::maxOctaves), 1, 8, "layers of detail summed together"),
        number("lacunarity", 2, 0, 1e3, 1, 4, "frequency multiplier per octave"),
        number("persistence", 0.5, 0, 1e3, 0, 1, "amplitude multiplier per octave: higher is rougher"),
        seed(),
        choice("fractal", "fbm", {"fbm", "ridged", "billow"},
               "how octaves combine: fbm rolling hills, ridged sharp crests (1 - |2f - 1|), billow puffy "
               "bumps (|2f - 1|)"),
    };
}

} // namespace

void registerGradientNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "gradient_noise";
    d.displayName = "Gradient Noise";
    d.category = "Fields";
    d.description = "Perlin noise in [0, 1]: smooth hills without the blocky look of value noise, summed over "
                    "octaves. Values gather around 0.5 (most within 0.3 to 0.7 with 4 octaves).";
    d.outputs = {port("field", DataType::Field, "noise in [0, 1]")};
    d.params = fractalParams(0.01, 4);
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", makeNoiseField(ctx, [](double y, std::int32_t seed) { return GradientNoiseRow(y, seed); }));
    };
    registry.add(std::move(d));
}

void registerSimplexNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "simplex_noise";
    d.displayName = "Simplex Noise";
    d.category = "Fields";
    d.description = "Simplex noise in [0, 1]: like gradient noise on a triangular lattice, with fewer straight "
                    "ridges and a wider spread of values, summed over octaves.";
    d.outputs = {port("field", DataType::Field, "noise in [0, 1]")};
    d.params = fractalParams(0.01, 4);
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", makeNoiseField(ctx, [](double y, std::int32_t seed) { return SimplexNoiseRow(y, seed); }));
    };
    registry.add(std::move(d));
}

void registerWorleyNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "worley_noise";
    d.displayName = "Worley Noise";
    d.category = "Fields";
    d.description = "Cellular noise in [0, 1]: random cells like cracked ground, stone paving or scales. "
                    "f1 is the distance to the nearest cell centre (0 at the centres); f2_minus_f1 is 0 along "
                    "the borders between cells.";
    d.outputs = {port("field", DataType::Field, "distance in cells, clamped to [0, 1]")};
    d.params = fractalParams(0.02, 1);
    d.params.push_back(choice("mode", "f1", {"f1", "f2_minus_f1"},
                              "f1: distance to the nearest cell centre; f2_minus_f1: 0 on cell borders, rising inside cells"));
    d.evaluate = [](EvalContext &ctx) {
        const WorleyMode mode = worleyModeFromName(ctx.text("mode")).value_or(WorleyMode::F1);
        ctx.setOutput("field", makeNoiseField(ctx, [mode](double y, std::int32_t seed) {
                          return WorleyNoiseRow(y, seed, mode);
                      }));
    };
    registry.add(std::move(d));
}

} // namespace grove
