// gradient_noise: Perlin noise in [0, 1], summed as fbm, ridged or billow.
#include "FractalNoiseField.h"

#include "core/fields/GradientNoise.h"
#include "core/graph/NodeRegistry.h"

namespace grove {

void registerGradientNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "gradient_noise";
    d.displayName = "Gradient Noise";
    d.category = "Fields";
    d.description = "Perlin noise in [0, 1]: smooth hills without the blocky look of value noise, summed over "
                    "octaves. Values gather around 0.5 (most within 0.3 to 0.7 with 4 octaves).";
    d.outputs = {port("field", DataType::Field).describe("noise in [0, 1]")};
    d.params = fractalParams(0.01, 4);
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", makeNoiseField(ctx, [](double y, std::int32_t seed, LatticePeriod period) { return GradientNoiseRow(y, seed, period); }));
    };
    d.checkWrap = checkNoiseRepeats;
    registry.add(std::move(d));
}

} // namespace grove
