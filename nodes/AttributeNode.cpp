// attribute (Store attribute): a layer's points with a field sampled at each of them as a named
// per-point value, the layer otherwise as it was; exports take it in the layer's place.
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <array>
#include <string>

namespace grove {

namespace {

constexpr std::size_t kMaxNameLength = 32;

// Names the exports already write for a point (JSON, CSV, Tiled, Unreal; names are lower case,
// so Unreal's capitalised columns are among them too): an attribute may not take one.
constexpr std::array<const char *, 17> kReserved = {"id", "x", "y", "z", "r", "t", "s", "rot", "type", "rotation",
                                                    "scale", "radius", "layer", "name", "node", "class", "attributes"};

// Why `name` cannot name an attribute, or empty.
std::string nameProblem(const std::string &name)
{
    if (name.empty())
        return "an attribute needs a name (letters a-z, digits and _, starting with a letter or _)";
    if (name.size() > kMaxNameLength)
        return "attribute name " + quote(name) + " is " + std::to_string(name.size()) + " characters long, over the limit of "
               + std::to_string(kMaxNameLength);
    const bool first = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';
    const bool rest = std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!first || !rest)
        return "attribute name " + quote(name) + " may hold only a-z, 0-9 and _, and may not start with a digit";
    if (std::find_if(kReserved.begin(), kReserved.end(), [&](const char *r) { return name == r; }) != kReserved.end())
        return "attribute name " + quote(name) + " is a field every export already writes for a point; pick another";
    return {};
}

// `layer` with `field` sampled at each of its points as the column `name`; null when cancelled.
std::shared_ptr<PointLayer> withAttribute(const PointLayer &source, const std::string &name, const Field &field,
                                          const std::atomic<bool> *cancel)
{
    auto layer = std::make_shared<PointLayer>(source);
    AttributeColumn column{name, std::vector<double>(layer->points.size())};
    const bool depth = layer->info.volume && layer->z.size() == layer->points.size();
    for (std::size_t i = 0; i < layer->points.size(); ++i) {
        if ((i & 4095) == 0 && cancel && cancel->load(std::memory_order_relaxed))
            return nullptr;
        const PointXYR &p = layer->points[i];
        column.values[i] = depth ? field.at3(p.x, p.y, layer->z[i]) : field.at(p.x, p.y);
    }
    layer->columns.push_back(std::move(column));
    return layer;
}

// The same, for each region an endless world's layer is asked for.
class StoredAttribute : public PointRefinement
{
public:
    StoredAttribute(std::string name, FieldPtr field) : m_name(std::move(name)), m_field(std::move(field)) {}
    std::shared_ptr<PointLayer> apply(const PointLayer &layer, const std::atomic<bool> *cancel) const override
    {
        return withAttribute(layer, m_name, *m_field, cancel);
    }

private:
    std::string m_name;
    FieldPtr m_field;
};

} // namespace

void registerAttribute(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "attribute";
    d.displayName = "Store attribute";
    d.category = "Points";
    d.description =
        "Samples a field at every point of a layer and stores the value under a name, as Blender's Store Named "
        "Attribute does: the layer comes out with one more value per point (a moisture tint, a height, a wind "
        "weight), its points, ids, name and look unchanged. A volume layer's points sample the field in 3D (x, y, "
        "z). Exports write the layer with its attributes in the layer's own place (JSON per point under "
        "\"attributes\", CSV and Unreal columns, Tiled properties, glTF `_NAME` instance attributes, Godot "
        "custom data); chain a second attribute node after this one for a second value. Wire a layer's own "
        "points, not its `all` chain, and refine each layer with one chain. In an endless world the layer stays "
        "endless: each region asked for (the view, an export's region, a chunk placed after it) gets its values.";
    d.takesLazyLayers = true;
    d.inputs = {
        port("points", DataType::Points).role(PortRole::Refines)
            .describe("one layer's own points (a layer node's `points` output, or another attribute node's)"),
        port("field", DataType::Field).describe("the value to store, sampled at each point"),
    };
    d.outputs = {port("points", DataType::Points).role(PortRole::LayerPoints)
        .describe("the same layer with the attribute added: exported and drawn in the source layer's place")};
    d.params = {
        text("name").defaultValue(std::string("value"))
            .describe("the attribute's name: a-z, 0-9 and _, not starting with a digit, at most 32 characters, "
                      "not a name the exports already write for a point (id, x, y, z, r, type, rotation, scale, ...)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        if (const std::string *name = paramText(params, "name"))
            if (const std::string why = nameProblem(*name); !why.empty())
                issues.push_back({"name", why});
    };
    d.evaluate = [](EvalContext &ctx) {
        const PointSetPtr input = ctx.points("points");
        const FieldPtr field = ctx.field("field");
        const std::string &name = ctx.text("name");
        auto set = std::make_shared<PointSet>();
        for (const PointLayerPtr &source : input ? input->layers : std::vector<PointLayerPtr>{}) {
            for (const AttributeColumn &c : source->columns)
                if (c.name == name) {
                    ctx.failAt("name", "layer " + quote(source->info.name) + " already has an attribute " + quote(name)
                                           + " from earlier in its chain; give this one another name");
                    return;
                }
            auto layer = withAttribute(*source, name, *field, ctx.cancelFlag());
            if (!layer)
                return;
            if (layer->lazy)  // an endless world's layer: each region's points get the attribute
                layer->refinements.push_back(std::make_shared<StoredAttribute>(name, field));
            set->layers.push_back(std::move(layer));
        }
        ctx.setOutput("points", PointSetPtr(set));
    };
    registry.add(std::move(d));
}

} // namespace grove
