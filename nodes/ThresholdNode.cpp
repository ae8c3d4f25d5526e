// threshold: cuts a field into labelled bands, seed 002's terrain bands (exact).
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cstdint>

namespace grove {

namespace {

class ThresholdLabels final : public Labels
{
public:
    ThresholdLabels(FieldPtr field, std::vector<double> cuts) : m_field(std::move(field)), m_cuts(std::move(cuts)) {}
    int at(double x, double y) const override { return band(m_field->at(x, y)); }
    void sampleRow(double x0, double dx, double y, int n, int *out) const override
    {
        // The field's row path gives at()'s values bit for bit, a row of noise at a time.
        thread_local std::vector<double> values;
        values.resize(static_cast<size_t>(std::max(n, 0)));
        m_field->sampleRowShared(x0, dx, y, n, values.data());
        for (int i = 0; i < n; ++i) {
            const double f = values[static_cast<size_t>(i)];
            int label = static_cast<int>(m_cuts.size());
            for (size_t c = 0; c < m_cuts.size(); ++c)
                if (f < m_cuts[c]) {
                    label = static_cast<int>(c);
                    break;
                }
            out[i] = label;
        }
    }

    // The bands between the field's lowest and highest value over the area (at() picks the band
    // of a value by the first cut above it, which only grows with the value).
    std::uint64_t labelsIn(const Region &area) const override
    {
        const FieldRange r = m_field->rangeIn(area);
        if (!r.known() || m_cuts.size() >= 63)
            return kAnyLabel;
        std::uint64_t bits = 0;
        for (int l = band(r.lo); l <= band(r.hi); ++l)
            bits |= std::uint64_t(1) << l;
        return bits;
    }

private:
    int band(double f) const
    {
        for (size_t i = 0; i < m_cuts.size(); ++i)
            if (f < m_cuts[i])
                return static_cast<int>(i);
        return static_cast<int>(m_cuts.size());
    }

    FieldPtr m_field;
    std::vector<double> m_cuts;
};

// A distinct, stable colour for label i when the node names none.
Rgb fallbackColor(size_t i)
{
    static const Rgb palette[] = {{42, 102, 156}, {218, 200, 140}, {118, 156, 72}, {150, 156, 164},
                                  {46, 90, 52},   {226, 150, 255}, {255, 204, 80}, {124, 76, 36}};
    return palette[i % 8];
}

} // namespace

void registerThreshold(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "threshold";
    d.displayName = "Threshold";
    d.category = "Labels & masks";
    d.description = "Cuts a field into bands: label i where the field is below cuts[i], else the last label.";
    d.matchesSeedJs = true;
    d.inputs = {port("field", DataType::Field).describe("the field to cut into bands")};
    d.outputs = {port("labels", DataType::Labels).describe("a band index per spot")};
    d.params = {
        numberList("cuts").defaultValue(ValueList{0.35, 0.45, 0.7}).min(-1e12).max(1e12)
            .describe("ascending band boundaries"),
        nameList("labels").defaultValue(ValueList{"water", "sand", "grass", "rock"})
            .describe("band names: one more than the cuts"),
        colorList("colors").describe("band colours for previews, one per label (empty: automatic)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        ValueList cutList, labelList, colorList;
        for (const auto &[k, v] : params) {
            if (k == "cuts")
                cutList = v.toList();
            if (k == "labels")
                labelList = v.toList();
            if (k == "colors")
                colorList = v.toList();
        }
        for (size_t i = 1; i < cutList.size(); ++i)
            if (!(cutList[i - 1].toNumber() < cutList[i].toNumber())) {
                issues.emplace_back("cuts", "cuts must ascend, but " + formatNumber(cutList[i].toNumber()) + " follows "
                                                + formatNumber(cutList[i - 1].toNumber()));
                break;
            }
        if (labelList.size() != cutList.size() + 1)
            issues.emplace_back("labels", std::to_string(cutList.size()) + " cuts make " + std::to_string(cutList.size() + 1)
                                              + " bands, but " + std::to_string(labelList.size()) + " labels are given");
        if (!colorList.empty() && colorList.size() != labelList.size())
            issues.emplace_back("colors", "give one colour per label (" + std::to_string(labelList.size()) + ") or none");
    };
    d.evaluate = [](EvalContext &ctx) {
        std::vector<double> bounds;
        for (const auto &c : ctx.param("cuts").toList())
            bounds.push_back(c.toNumber());
        auto labels = std::make_shared<ThresholdLabels>(ctx.field("field"), bounds);
        const ValueList &names = ctx.param("labels").toList();
        const ValueList &colors = ctx.param("colors").toList();
        for (size_t i = 0; i < names.size(); ++i) {
            labels->names.push_back(names[i].toString());
            labels->colors.push_back(i < colors.size() ? parseHexColor(colors[i].toString()) : fallbackColor(i));
        }
        ctx.setOutput("labels", LabelsPtr(labels));
    };
    registry.add(std::move(d));
}

} // namespace grove
