// Helpers shared by tst_noise.cpp and tst_field_nodes.cpp.
#pragma once

#include "TestSupport.h"
#include "core/eval/Evaluator.h"
#include "core/fields/GradientNoise.h"
#include "core/base/Limits.h"
#include "core/fields/NoiseLattice.h"
#include "core/math/SeededRandom.h"
#include "core/fields/SimplexNoise.h"
#include "core/fields/ValueNoise.h"
#include "core/fields/WorleyNoise.h"
#include <cmath>
#include <cstring>
#include <vector>

using namespace grove;
using namespace grove::test;

namespace noise_support {
inline std::string graphText(const std::string &nodes, double width = 1000, double height = 1000, int seed = 0)
{
    return "grove: 1\nworld: {width: " + formatNumber(width) + ", height: " + formatNumber(height)
           + ", seed: " + std::to_string(seed) + "}\nnodes:\n" + nodes;
}

inline EvalResult run(const std::string &nodes, double width = 1000, double height = 1000, int seed = 0)
{
    return evaluateText(graphText(nodes, width, height, seed));
}

inline FieldPtr fieldOf(const std::string &nodes, const std::string &id, double width = 1000, double height = 1000, int seed = 0)
{
    EvalResult r = run(nodes, width, height, seed);
    if (!r.ok())
        qWarning("%s", formatAll(r.diagnostics).c_str());
    const PortValue v = r.output(id);
    const auto *f = std::get_if<FieldPtr>(&v);
    return f ? *f : nullptr;
}

// One noise node (id `n` unless given) with the given params (a YAML flow map's contents).
inline std::string noiseNode(const std::string &type, const std::string &params, const std::string &id = "n")
{
    return "  " + id + ":\n    type: " + type + "\n    params: {" + params + "}\n";
}

// A constant field node.
inline std::string constant(const std::string &id, double v)
{
    return "  " + id + ":\n    type: constant\n    params: {value: " + formatNumber(v) + "}\n";
}

// The noise variants every property test runs over: each noise type with each fractal sum.
inline void addNoiseRows()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("params");
    const char *types[][2] = {{"gradient_noise", ""},
                              {"simplex_noise", ""},
                              {"worley_noise", "mode: f1, "},
                              {"worley_noise", "mode: f2_minus_f1, "}};
    for (const auto &t : types)
        for (const char *fractal : {"fbm", "ridged", "billow"})
            for (const char *octaves : {"1", "4"}) {
                const QString params = QString(t[1]) + "fractal: " + fractal + ", octaves: " + octaves;
                QTest::newRow(qPrintable(QString(t[0]) + " " + params)) << QString(t[0]) << params;
            }
}

inline double correlation(const std::vector<double> &a, const std::vector<double> &b)
{
    double ma = 0, mb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= double(a.size());
    mb /= double(b.size());
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

} // namespace noise_support
