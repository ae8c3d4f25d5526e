// worley_noise: cellular noise in [0, 1] (f1 or f2 - f1), summed as fbm, ridged or billow.
#include "FractalNoiseField.h"

#include "core/fields/WorleyNoise.h"
#include "core/graph/NodeRegistry.h"

namespace grove {

namespace {
constexpr ChoiceTable<WorleyMode, 2> kModes{{{WorleyMode::F1, "f1"}, {WorleyMode::F2MinusF1, "f2_minus_f1"}}};
} // namespace

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
    d.outputs = {port("field", DataType::Field).describe("distance in cells, clamped to [0, 1]")};
    d.params = fractalParams(0.02, 1);
    d.params.push_back(choice("mode", kModes, WorleyMode::F1)
        .describe("f1: distance to the nearest cell centre; f2_minus_f1: 0 on cell borders, rising inside cells"));
    d.evaluate = [](EvalContext &ctx) {
        const WorleyMode mode = ctx.choice("mode", kModes);
        ctx.setOutput("field", makeNoiseField(ctx, [mode](double y, std::int32_t seed, LatticePeriod period) {
                          return WorleyNoiseRow(y, seed, mode, period);
                      }));
    };
    d.checkWrap = checkNoiseRepeats;
    registry.add(std::move(d));
}

} // namespace grove
