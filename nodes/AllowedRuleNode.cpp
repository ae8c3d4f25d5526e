// allowed_rule: where a layer may grow (biome rules): field ranges, labels and masks combined.
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cstdint>

namespace grove {

namespace {

class RuleMask final : public Mask
{
public:
    FieldPtr field;
    LabelsPtr labels;
    MaskPtr mask;
    double min = 0, max = 0;
    std::vector<char> included;  // by label index
    bool invert = false;

    bool at(double x, double y) const override
    {
        bool ok = true;
        if (mask)
            ok = mask->at(x, y);
        if (ok && labels) {
            const int l = labels->at(x, y);
            ok = l >= 0 && static_cast<size_t>(l) < included.size() && included[static_cast<size_t>(l)];
        }
        if (ok && field) {
            const double f = field->at(x, y);
            ok = min <= f && f < max;
        }
        return ok != invert;
    }

    // Every wired condition over the area: false everywhere if one is, true everywhere if all are.
    MaskOver over(const Region &area) const override
    {
        bool allTrue = true;
        const auto join = [&](MaskOver m) {
            allTrue = allTrue && m == MaskOver::AllTrue;
            return m == MaskOver::AllFalse;
        };
        const bool allFalse = (mask && join(mask->over(area))) || (labels && join(labelsOver(area)))
                              || (field && join(fieldOver(area)));
        if (allFalse || allTrue)
            return (allFalse != invert) ? MaskOver::AllFalse : MaskOver::AllTrue;
        return MaskOver::Mixed;
    }

    // In a volume: the field and the mask are asked at depth z (labels are 2D, extruded along z).
    bool at3(double x, double y, double z) const override
    {
        bool ok = true;
        if (mask)
            ok = mask->at3(x, y, z);
        if (ok && labels) {
            const int l = labels->at(x, y);
            ok = l >= 0 && static_cast<size_t>(l) < included.size() && included[static_cast<size_t>(l)];
        }
        if (ok && field) {
            const double f = field->at3(x, y, z);
            ok = min <= f && f < max;
        }
        return ok != invert;
    }

private:
    MaskOver labelsOver(const Region &area) const
    {
        const std::uint64_t possible = labels->labelsIn(area);
        if (possible & Labels::kOtherLabels)
            return MaskOver::Mixed;
        std::uint64_t wanted = 0;
        for (size_t l = 0; l < included.size() && l < 63; ++l)
            wanted |= included[l] ? std::uint64_t(1) << l : 0;
        return (possible & ~wanted) == 0 ? MaskOver::AllTrue : (possible & wanted) == 0 ? MaskOver::AllFalse : MaskOver::Mixed;
    }
    MaskOver fieldOver(const Region &area) const
    {
        const FieldRange r = field->rangeIn(area);
        if (min <= r.lo && r.hi < max)
            return MaskOver::AllTrue;
        return r.hi < min || r.lo >= max ? MaskOver::AllFalse : MaskOver::Mixed;
    }
};

} // namespace

void registerAllowedRule(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "allowed_rule";
    d.displayName = "Allowed Rule";
    d.category = "Labels & masks";
    d.description = "Where a layer may grow: every wired condition must hold (min <= field < max; label in include; "
                    "mask true). Invert flips the result.";
    d.inputs = {
        port("field", DataType::Field).optional().describe("allowed where min <= field < max"),
        port("labels", DataType::Labels).optional().describe("allowed where the label is in include"),
        port("mask", DataType::Mask).optional().describe("allowed where this mask is"),
    };
    d.outputs = {port("mask", DataType::Mask).describe("true where allowed")};
    d.params = {
        number("min").defaultValue(-inf).allowInfinite().soft(0, 1).describe("lowest allowed field value (inclusive)"),
        number("max").defaultValue(inf).allowInfinite().soft(0, 1)
            .describe("field values from here up are not allowed"),
        nameList("include").namesFrom("labels").describe("allowed labels (with labels wired)"),
        flag("invert").defaultValue(false).describe("allow exactly where the conditions do not hold"),
    };
    d.evaluate = [](EvalContext &ctx) {
        auto rule = std::make_shared<RuleMask>();
        rule->field = ctx.field("field");
        rule->labels = ctx.labels("labels");
        rule->mask = ctx.mask("mask");
        rule->min = ctx.number("min");
        rule->max = ctx.number("max");
        rule->invert = ctx.flag("invert");
        if (rule->labels) {
            const auto &names = rule->labels->names;
            rule->included.assign(names.size(), 0);
            for (const auto &inc : ctx.param("include").toList()) {
                auto it = std::find(names.begin(), names.end(), inc.toString());
                if (it == names.end()) {
                    ctx.fail("include names " + quote(inc.toString()) + ", which the wired labels do not have"
                             + didYouMean(inc.toString(), names));
                    return;
                }
                rule->included[static_cast<size_t>(it - names.begin())] = 1;
            }
        }
        ctx.setOutput("mask", MaskPtr(rule));
    };
    registry.add(std::move(d));
}

} // namespace grove
