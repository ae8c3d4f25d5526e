// paint: the preview's ground, a colour per label, hill-shaded by a field (seed 000 step 7).
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>

namespace grove {

void registerPaint(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "paint";
    d.displayName = "Paint";
    d.category = "Output";
    d.description = "How the preview paints the ground: a colour per label, lit from the top left by the shade field "
                    "so hills show. Exported layers are drawn on top as sprites.";
    d.inputs = {
        port("ground", DataType::Labels).describe("the ground's labels (water, sand, grass, ...)"),
        port("shade", DataType::Field).optional()
            .describe("the height that lights the hills (usually the field the labels cut)"),
        port("moisture", DataType::Field).optional()
            .describe("wetter ground (higher values) grows bigger tree sprites"),
    };
    d.params = {
        colorList("palette").describe("one colour per ground label (empty: the labels' own colours)"),
        number("shading").defaultValue(0.5).min(0).max(10).soft(0, 2)
            .describe("hill-shading strength: 0 is flat, 0.5 is seed 000's look"),
        nameList("flat").namesFrom("ground").describe("labels never hill-shaded, e.g. water and sand (flat surfaces)"),
    };
    d.evaluate = [](EvalContext &ctx) {
        LabelsPtr labels = ctx.labels("ground");
        if (!labels) {
            ctx.fail("the ground input is not wired");
            return;
        }
        const auto &names = labels->names;
        auto ground = std::make_shared<Ground>();
        ground->labels = labels;
        ground->shade = ctx.field("shade");
        ground->moisture = ctx.field("moisture");
        ground->shading = ctx.number("shading");

        const ValueList &palette = ctx.param("palette").toList();
        if (!palette.empty() && palette.size() != names.size()) {
            ctx.fail("palette has " + std::to_string(palette.size()) + " colours, but the ground has "
                     + std::to_string(names.size()) + " labels; give one per label or none");
            return;
        }
        for (size_t i = 0; i < names.size(); ++i) {
            if (!palette.empty())
                ground->palette.push_back(parseHexColor(palette[i].toString()));
            else
                ground->palette.push_back(i < labels->colors.size() ? labels->colors[i] : Rgb{128, 128, 128});
        }

        ground->flat.assign(names.size(), 0);
        for (const auto &f : ctx.param("flat").toList()) {
            auto it = std::find(names.begin(), names.end(), f.toString());
            if (it == names.end()) {
                ctx.fail("flat names '" + f.toString() + "', which the ground labels do not have"
                         + didYouMean(f.toString(), names));
                return;
            }
            ground->flat[static_cast<size_t>(it - names.begin())] = 1;
        }
        ctx.setProduct(GroundPtr(ground));
    };
    registry.add(std::move(d));
}

} // namespace grove
