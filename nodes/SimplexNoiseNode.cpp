// simplex_noise: simplex noise in [0, 1], summed as fbm, ridged or billow.
#include "FractalNoiseField.h"

#include "core/SimplexNoise.h"
#include "core/NodeRegistry.h"

namespace grove {

void registerSimplexNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "simplex_noise";
    d.displayName = "Simplex Noise";
    d.category = "Fields";
    d.description = "Simplex noise in [0, 1]: like gradient noise on a triangular lattice, with fewer straight "
                    "ridges and a wider spread of values, summed over octaves.";
    d.outputs = {port("field", DataType::Field).describe("noise in [0, 1]")};
    d.params = fractalParams(0.01, 4);
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", makeNoiseField(ctx, [](double y, std::int32_t seed) { return SimplexNoiseRow(y, seed); }));
    };
    registry.add(std::move(d));
}

} // namespace grove
