// simplex_noise: simplex noise in [0, 1], summed as fbm, ridged or billow.
#include "FractalNoiseField.h"

#include "core/fields/SimplexNoise.h"
#include "core/graph/NodeRegistry.h"

namespace grove {

void registerSimplexNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "simplex_noise";
    d.displayName = "Simplex Noise";
    d.category = "Fields";
    // In a volume: 3D simplex noise (four-corner tetrahedra, kernels (0.6 - d^2)^4, twelve edge
    // gradients picked by mixBits32(cellHash(i, j, seed) ^ k * 0xc2b2ae35) >> 28 mod 12,
    // 0.5 + 16 n clamped to [0, 1]); 2D sampling is unchanged by it.
    d.description = "Simplex noise in [0, 1]: like gradient noise on a triangular lattice, with fewer straight "
                    "ridges and a wider spread of values, summed over octaves. Frequency sets the size of its "
                    "hills (smaller is broader); octaves add finer detail. In a volume (place_volume) it varies "
                    "with depth as well.";
    d.outputs = {port("field", DataType::Field).describe("noise in [0, 1]")};
    d.params = fractalParams(0.01, 4);
    d.evaluate = [](EvalContext &ctx) {
        ctx.setOutput("field", makeNoiseField(ctx, [](double y, std::int32_t seed, LatticePeriod) { return SimplexNoiseRow(y, seed); },
                                              &simplexNoise3));
    };
    d.wrapProblem = "its skewed lattice does not repeat over the world; use gradient_noise or value_noise, which do";
    registry.add(std::move(d));
}

} // namespace grove
