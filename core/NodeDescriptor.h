// The one description of a node type: ports, params and evaluation. Everything else reads it.
#pragma once

#include "DataTypes.h"
#include "Value.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace grove {

class EvalContext;

enum class ParamKind {
    Number,      // a double within [min, max]
    Integer,     // a whole number within [min, max]
    Bool,
    String,
    Enum,        // one of enumValues
    NumberList,  // e.g. threshold cuts
    StringList,  // e.g. label names
    Color,       // "#rrggbb"
    ColorList,
    Range,       // [low, high], each within [min, max]
    TypeList,    // [{name, weight}]
    Special,     // null or {type, count}
};

const char *paramKindName(ParamKind kind);

struct ParamSpec
{
    std::string name;
    ParamKind kind = ParamKind::Number;
    Value defaultValue;
    std::string description;
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;     // e.g. radius > 0
    bool allowInfinite = false;    // allowed_rule's open bounds
    double softMin = 0, softMax = 1;  // the slider's range in the editor (the spin box goes to min/max)
    std::vector<std::string> enumValues;
};

struct PortSpec
{
    std::string name;
    DataType type = DataType::Field;
    bool optional = false;
    std::string description;
};

// Issues a descriptor's cross-param check reports: (param name, message).
using ParamIssues = std::vector<std::pair<std::string, std::string>>;

struct NodeDescriptor
{
    std::string typeId;
    std::string displayName;
    std::string category;     // "Fields", "Labels & masks", "Density", "Points", "Output"
    std::string description;
    std::vector<PortSpec> inputs;
    std::vector<PortSpec> outputs;
    std::vector<ParamSpec> params;
    bool exact = false;       // bit-exact with the seed JavaScript
    // Evaluates the node; reports failure through EvalContext::fail.
    std::function<void(EvalContext &)> evaluate;
    // Checks between params (cuts ascending, labels = cuts + 1, ...); params are already kind-checked.
    std::function<void(const ValueMap &params, ParamIssues &issues)> checkParams;

    const ParamSpec *param(const std::string &name) const;
    const PortSpec *input(const std::string &name) const;
    const PortSpec *output(const std::string &name) const;
    int inputIndex(const std::string &name) const;
    int outputIndex(const std::string &name) const;
    std::vector<std::string> paramNames() const;
    std::vector<std::string> inputNames() const;
    std::vector<std::string> outputNames() const;
};

// Checks one value against its spec: returns the problem, or nothing when it is valid.
std::optional<std::string> checkParamValue(const ParamSpec &spec, const Value &value);

// Every param of the node in catalog order: given values where present, defaults elsewhere.
// Unknown names are dropped (the loader reports them before this is called).
ValueMap completeParams(const NodeDescriptor &descriptor, const ValueMap &given);

} // namespace grove
