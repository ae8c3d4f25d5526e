// A layer's expectation, "METRIC OP NUMBER" (count >= 400): what grove-cli check holds a layer to.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace grove {

// What can be measured of a layer (core/analysis/LayerMetrics.h says how).
enum class Metric { Count, Density, Tightest, TooClose, Clearing, Coverage, LowFreq, Anisotropy };

// The name in expectations ("too_close"), and every name in catalog order (for did-you-mean).
const char *metricName(Metric metric);
const std::vector<std::string> &metricNames();
std::optional<Metric> metricFromName(const std::string &name);

struct Expectation
{
    enum class Op { AtLeast, AtMost, Above, Below, Equal, NotEqual };

    Metric metric = Metric::Count;
    Op op = Op::AtLeast;
    double value = 0;

    bool holds(double measured) const;
    static const char *opText(Op op);  // ">=", "<=", ...
};

// Reads "METRIC OP NUMBER" (spaces around OP optional; NUMBER finite). On failure returns
// nothing and says why in *error; an unknown metric's message ends in a did-you-mean.
std::optional<Expectation> parseExpectation(const std::string &text, std::string *error);

// Splits the command line's "LAYER.METRIC OP NUMBER" into LAYER and "METRIC OP NUMBER" at the
// first '.'; nothing when there is no '.' before the operator.
std::optional<std::pair<std::string, std::string>> splitLayerExpectation(const std::string &text);

} // namespace grove
