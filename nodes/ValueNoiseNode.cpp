// value_noise: seed 002's fBm value noise as a field (exact).
#include "FractalNoiseField.h"

#include "core/graph/EvalContext.h"
#include "core/base/Limits.h"
#include "core/graph/NodeRegistry.h"
#include "core/fields/ValueNoise.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace grove {

namespace {

class ValueNoiseField final : public Field
{
public:
    ValueNoiseField(double frequency, int octaves, double lacunarity, double persistence, std::int32_t seed)
        : m_frequency(frequency), m_octaves(octaves), m_lacunarity(lacunarity), m_persistence(persistence), m_seed(seed)
    {
    }
    // A wrapped world's sides (0: that axis does not wrap): the noise repeats over them.
    void wrap(double width, double height)
    {
        m_wrapWidth = width;
        m_wrapHeight = height;
    }

    double at(double x, double y) const override
    {
        // One noise often feeds several rules at the same spot (allowed, then density): a
        // one-entry memo per thread answers the repeat. Fields are told apart by a serial, not
        // their address, which a later field may reuse.
        struct Last
        {
            std::uint64_t serial = 0;
            double x = 0, y = 0, value = 0;
        };
        thread_local Last last;
        if (last.serial == serial() && last.x == x && last.y == y)
            return last.value;
        const double v = wraps() ? periodicAt(x, y)
                                 : valueFbm(x * m_frequency, y * m_frequency, m_seed, m_octaves, m_lacunarity, m_persistence);
        last = {serial(), x, y, v};
        return v;
    }

    double at3(double x, double y, double z) const override
    {
        return valueFbm3(x * m_frequency, y * m_frequency, z * m_frequency, m_seed, m_octaves, m_lacunarity, m_persistence);
    }

    void sampleRow(double x0, double dx, double y, int n, double *out) const override
    {
        if (wraps()) {
            for (int i = 0; i < n; ++i)
                out[i] = periodicAt(x0 + i * dx, y);
            return;
        }
        // the same products the point path forms: (x0 + i * dx) * frequency, then y * frequency
        thread_local std::vector<double> xs;
        xs.resize(static_cast<size_t>(std::max(n, 0)));
        for (int i = 0; i < n; ++i)
            xs[static_cast<size_t>(i)] = (x0 + i * dx) * m_frequency;
        valueFbmRow(xs.data(), y * m_frequency, n, m_seed, m_octaves, m_lacunarity, m_persistence, out);
    }

    FieldRange rangeIn(const Region &a) const override
    {
        if (wraps() || !(m_octaves >= 1))
            return {};  // a wrapped world's coordinates come round the torus: not bounded here
        FieldRange r;
        valueFbmRange(a.x0 * m_frequency, a.x1 * m_frequency, a.y0 * m_frequency, a.y1 * m_frequency, m_seed, m_octaves,
                      m_lacunarity, m_persistence, r.lo, r.hi);
        return std::isfinite(r.lo) && std::isfinite(r.hi) ? r.widened() : FieldRange{};
    }

private:
    bool wraps() const { return m_wrapWidth > 0 || m_wrapHeight > 0; }
    // on the torus: the coordinates come in across the edges, the lattice repeats with the world
    double periodicAt(double x, double y) const
    {
        if (m_wrapWidth > 0)
            x = wrapInto(x, 0, m_wrapWidth);
        if (m_wrapHeight > 0)
            y = wrapInto(y, 0, m_wrapHeight);
        return valueFbmPeriodic(x * m_frequency, y * m_frequency, m_seed, m_octaves, m_lacunarity, m_persistence,
                                octavePeriod(m_wrapWidth, m_frequency, 1), octavePeriod(m_wrapHeight, m_frequency, 1));
    }

    double m_wrapWidth = 0, m_wrapHeight = 0;
    double m_frequency;
    int m_octaves;
    double m_lacunarity;
    double m_persistence;
    std::int32_t m_seed;
};

} // namespace

void registerValueNoise(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "value_noise";
    d.displayName = "Value Noise";
    d.category = "Fields";
    // The arithmetic, for the record (seed 002's, extended to 3D): the lattice hash is
    // h = ix * 374761393 + iy * 668265263 + iz * 2246822519 + seed * 1442695041 in uint32 (Math.imul's
    // wrap; iz = 0 gives seed 002's hash2), finished by h ^= h >> 13, h *= 1274126177,
    // (h ^ h >> 16) / 2^32, and blended with smoothstep weights (x, then y, then z).
    d.description = "Soft random blobs of high and low ground, values from 0 to just under 1: the classic "
                    "noise for rolling hills, moisture and patchy forests. Frequency sets the size of the "
                    "blobs (smaller is broader: 0.01 gives blobs about 100 units across); octaves add finer "
                    "and finer detail on top, each at lacunarity times the frequency and persistence times "
                    "the strength. In a volume (place_volume) it varies with depth as well. The values match "
                    "the seed JavaScript exactly.";
    d.matchesSeedJs = true;
    d.outputs = {port("field", DataType::Field).describe("noise in [0, 1)")};
    d.params = octaveParams(0.01, 4);
    d.evaluate = [](EvalContext &ctx) {
        auto field = std::make_shared<ValueNoiseField>(ctx.number("frequency"), static_cast<int>(ctx.integer("octaves")),
                                                       ctx.number("lacunarity"), ctx.number("persistence"), ctx.seed());
        const World &w = ctx.world();
        field->wrap(w.wrapX ? w.width : 0, w.wrapY ? w.height : 0);
        ctx.setOutput("field", field);
    };
    d.checkWrap = checkNoiseRepeats;
    registry.add(std::move(d));
}

} // namespace grove
