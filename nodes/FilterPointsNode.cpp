// filter_points (Filter points): the points of a layer that pass an attribute range, a list of
// types and a mask, exported in the layer's place; and, for the layers placed after it, the
// obstacles whose tags it names followed by the points it kept.
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/formats/PointsExport.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace grove {

namespace {

std::vector<std::string> namesIn(const Value &list)
{
    std::vector<std::string> names;
    for (const Value &v : list.toList())
        names.push_back(v.toString());
    return names;
}

bool contains(const std::vector<std::string> &names, const std::string &name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::string listOrNone(const std::vector<std::string> &names)
{
    return names.empty() ? std::string("none") : commaList(names);
}

// The layer's type names, by type index, as its exports name them (one, the layer's name, for a
// layer without types).
std::vector<std::string> typeNames(const PointLayer &layer)
{
    std::vector<std::string> names;
    for (const WeightedType &t : exportTypes(layer))
        names.push_back(t.name);
    return names;
}

// What a point must pass to be kept, for one layer (its names already checked against it).
struct PointTest
{
    std::string attribute;  // empty: no attribute test
    double low = 0, high = 1;
    std::vector<char> typeKept;  // by type index; empty: every type
    MaskPtr mask;
    bool invert = false;
};

// The points of `source` that pass `test`, with their ids, heights, values and specials; null when
// cancelled.
std::shared_ptr<PointLayer> keptPoints(const PointLayer &source, const PointTest &test, const std::atomic<bool> *cancel)
{
    const AttributeColumn *column = nullptr;
    for (const AttributeColumn &c : source.columns)
        if (!test.attribute.empty() && c.name == test.attribute)
            column = &c;
    const bool depth = source.info.volume && source.z.size() == source.points.size();
    std::vector<char> keep(source.points.size());
    for (std::size_t i = 0; i < source.points.size(); ++i) {
        if ((i & 4095) == 0 && cancel && cancel->load(std::memory_order_relaxed))
            return nullptr;
        const PointXYR &p = source.points[i];
        bool pass = true;
        if (column) {
            const double v = column->values[i];
            pass = v >= test.low && v <= test.high;  // NaN (a field undefined there) is in no range
        }
        if (pass && !test.typeKept.empty()) {
            const int t = source.attributes(source.idOf(i)).type;
            const std::size_t n = test.typeKept.size();
            pass = test.typeKept[t < 0 || static_cast<std::size_t>(t) >= n ? 0 : static_cast<std::size_t>(t)] != 0;
        }
        if (pass && test.mask)
            pass = depth ? test.mask->at3(p.x, p.y, source.z[i]) : test.mask->at(p.x, p.y);
        keep[i] = pass != test.invert;
    }
    auto layer = source.subset(keep);
    layer->grownIn = source.grownIn;
    return layer;
}

// The same, for each region an endless world's layer is asked for.
class KeptPoints : public PointRefinement
{
public:
    explicit KeptPoints(PointTest test) : m_test(std::move(test)) {}
    std::shared_ptr<PointLayer> apply(const PointLayer &layer, const std::atomic<bool> *cancel) const override
    {
        return keptPoints(layer, m_test, cancel);
    }

private:
    PointTest m_test;
};

} // namespace

void registerFilterPoints(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "filter_points";
    d.displayName = "Filter points";
    d.category = "Points";
    d.description =
        "Keeps the points of a layer that pass every test set here, as Unreal PCG's Filter by attribute does: an "
        "attribute within a range (stored by an attribute node earlier in the chain), one of the named types, "
        "inside the mask. The kept points are exported and drawn in the layer's place, under its name, with their "
        "ids, so a filter changes which points are written, never where the others are. `all` is the obstacles "
        "followed by the kept points: wire it into the layers placed after, which then keep clear of the kept "
        "points only. With tags set, only the obstacle layers carrying one of them pass into `all` (grass that "
        "keeps off rocks and trees tagged solid, but not off flowers); wire obstacles alone to filter a chain. "
        "In an endless world the layer stays endless: each region asked for (the view, an export's region, a "
        "chunk placed after it) is filtered.";
    d.takesLazyLayers = true;
    d.inputs = {
        port("points", DataType::Points).optional().role(PortRole::Refines)
            .describe("one layer's own points (a layer node's `points` output, or an attribute node's)"),
        port("obstacles", DataType::Points).optional()
            .describe("the points placed before (a layer's `all`): passed on in `all`, by tag when tags are set"),
        port("mask", DataType::Mask).optional().describe("keep only the points inside it"),
    };
    d.outputs = {
        port("points", DataType::Points).role(PortRole::LayerPoints)
            .describe("the kept points: exported and drawn in the source layer's place"),
        port("all", DataType::Points).role(PortRole::LayerChain)
            .describe("the obstacles (those tagged, with tags set) followed by the kept points: wire it into the next layer"),
    };
    d.params = {
        text("attribute").describe("keep points whose value of this attribute is within range (empty: no attribute test)"),
        range("range").defaultValue(ValueList{0.0, 1.0}).min(-1e12).max(1e12).soft(0, 1)
            .describe("the attribute's kept values, [low, high], both ends kept"),
        nameList("types").describe("keep points of these types (empty: every type); a layer without types has one, "
                                   "named after the layer"),
        flag("invert").defaultValue(false)
            .describe("keep the points that fail the attribute, type and mask tests instead (the rest of the layer)"),
        nameList("tags").describe("obstacle layers passed on in `all`: those carrying one of these tags (empty: all)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        for (const auto &[key, value] : params) {
            if (key != "types" && key != "tags")
                continue;
            std::vector<std::string> seen;
            for (const std::string &name : namesIn(value)) {
                if (name.empty())
                    issues.push_back({key, key + " holds an empty name"});
                else if (contains(seen, name))
                    issues.push_back({key, key + " names " + quote(name) + " twice"});
                seen.push_back(name);
            }
        }
    };
    d.evaluate = [](EvalContext &ctx) {
        const PointSetPtr input = ctx.points("points");
        const PointSetPtr obstacles = ctx.points("obstacles");
        const MaskPtr mask = ctx.mask("mask");
        const std::string &attribute = ctx.text("attribute");
        const ValueList &range = ctx.param("range").toList();
        const double low = range.size() == 2 ? range[0].toNumber() : 0, high = range.size() == 2 ? range[1].toNumber() : 1;
        const std::vector<std::string> types = namesIn(ctx.param("types"));
        const std::vector<std::string> tags = namesIn(ctx.param("tags"));
        const bool invert = ctx.flag("invert");

        auto kept = std::make_shared<PointSet>();
        for (const PointLayerPtr &source : input ? input->layers : std::vector<PointLayerPtr>{}) {
            PointTest test{attribute, low, high, {}, mask, invert};
            if (!attribute.empty()) {
                std::vector<std::string> names;
                for (const AttributeColumn &c : source->columns)
                    names.push_back(c.name);
                if (!contains(names, attribute)) {
                    ctx.failAt("attribute", "layer " + quote(source->info.name) + " has no attribute " + quote(attribute)
                                                + " (its attributes: " + listOrNone(names)
                                                + "); store one with an attribute node before this filter");
                    return;
                }
            }
            const std::vector<std::string> names = typeNames(*source);
            if (!types.empty())
                test.typeKept.assign(names.size(), 0);
            for (const std::string &t : types) {
                auto it = std::find(names.begin(), names.end(), t);
                if (it == names.end()) {
                    ctx.failAt("types", "layer " + quote(source->info.name) + " has no type " + quote(t) + " (its types: "
                                            + listOrNone(names) + ")" + didYouMean(t, names));
                    return;
                }
                test.typeKept[static_cast<std::size_t>(it - names.begin())] = 1;
            }
            if (source->lazy) {  // an endless world's layer: each region's points are filtered
                auto layer = std::make_shared<PointLayer>(*source);
                layer->refinements.push_back(std::make_shared<KeptPoints>(std::move(test)));
                kept->layers.push_back(std::move(layer));
                continue;
            }
            auto layer = keptPoints(*source, test, ctx.cancelFlag());
            if (!layer)
                return;
            kept->layers.push_back(std::move(layer));
        }
        if (!input) {  // a chain filter only: no layer of its own to export or draw
            auto none = std::make_shared<PointLayer>();
            none->info.name = none->info.nodeId = ctx.node().id;
            none->info.exported = false;
            kept->layers.push_back(std::move(none));
        }
        auto all = std::make_shared<PointSet>();
        for (const PointLayerPtr &layer : obstacles ? obstacles->layers : std::vector<PointLayerPtr>{})
            if (tags.empty() || std::any_of(tags.begin(), tags.end(), [&](const std::string &t) { return contains(layer->info.tags, t); }))
                all->layers.push_back(layer);
        if (input)  // a chain filter's own layer is empty and unexported: not on the chain
            all->layers.insert(all->layers.end(), kept->layers.begin(), kept->layers.end());
        ctx.setOutput("points", PointSetPtr(kept));
        ctx.setOutput("all", PointSetPtr(all));
    };
    registry.add(std::move(d));
}

} // namespace grove
