// Shared layer params: how a points node names, types, turns, scales and draws its points.
#include "LayerParams.h"

#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/eval/Evaluator.h"

#include <algorithm>
#include <cmath>

namespace grove {

std::vector<ParamSpec> layerParams(SpriteShape defaultSprite, const std::string &defaultColor)
{
    using namespace build;
    return {
        text("name").role(ParamRole::LayerName).describe("the layer's name in exports (empty: the node id)"),
        recordList("types")
            .field({"name", ParamKind::String, true, std::string()})
            .field({"weight", ParamKind::Number, false, 1.0, 0})
            .unique("name", "type")
            .describe("object types picked per point by weight, e.g. oak 3, pine 1 (empty: untyped)"),
        record("special")
            .field({"type", ParamKind::String, true, std::string()})
            .field({"count", ParamKind::Integer, true, 0.0, 0, 1e9})
            .describe("reserve this many points for one type (collectible trees, quest items)"),
        range("rotation").defaultValue(ValueList{0.0, 0.0}).min(-36000).max(36000).soft(0, 360)
            .describe("each point turns by a uniform angle in [low, high] degrees, clockwise"),
        range("scale").defaultValue(ValueList{1.0, 1.0}).min(0).max(1000).soft(0.5, 2)
            .describe("each point's sprite scale, uniform in [low, high]"),
        color("color").defaultValue(defaultColor).describe("the sprite's colour in the preview"),
        choice("sprite", kSpriteShapes, defaultSprite)
            .describe("how the preview draws each point"),
        flag("export").defaultValue(true).role(ParamRole::ExportSwitch)
            .describe("write this layer to exports (and draw it in the preview)"),
        nameList("tags").describe("words for the layer, e.g. solid, tall (a-z, 0-9, _ and -): filter_points passes on the "
                                  "obstacle layers carrying a tag it names, and the JSON export lists them"),
    };
}

NodeDescriptor scatterDescriptor(std::string typeId, std::string displayName, std::string description)
{
    NodeDescriptor d;
    d.typeId = std::move(typeId);
    d.displayName = std::move(displayName);
    d.category = "Points";
    d.description = std::move(description);
    d.matchesSeedJs = true;
    d.needsWorldSize = true;  // it throws its points over the whole world
    d.outputs = {build::port("points", DataType::Points).role(PortRole::LayerPoints)
        .describe("the scattered points")};
    d.checkParams = checkLayerParams;
    return d;
}

void appendLayerParams(NodeDescriptor &d, SpriteShape defaultSprite, const std::string &defaultColor)
{
    for (auto &p : layerParams(defaultSprite, defaultColor))
        d.params.push_back(std::move(p));
}

void setLayerOutput(EvalContext &ctx, std::vector<PointXYR> points)
{
    auto set = std::make_shared<PointSet>();
    set->layers.push_back(makeLayer(ctx, std::move(points)));
    ctx.setOutput("points", PointSetPtr(set));
}

namespace {

// Why `tag` cannot tag a layer, or empty.
std::string tagProblem(const std::string &tag)
{
    constexpr std::size_t kMaxTagLength = 32;
    if (tag.empty())
        return "a tag may not be empty";
    if (tag.size() > kMaxTagLength)
        return "tag " + quote(tag) + " is " + std::to_string(tag.size()) + " characters long, over the limit of "
               + std::to_string(kMaxTagLength);
    if (!std::all_of(tag.begin(), tag.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; }))
        return "tag " + quote(tag) + " may hold only a-z, 0-9, _ and -";
    return {};
}

} // namespace

void checkLayerParams(const ValueMap &params, ParamIssues &issues)
{
    const Value *special = nullptr, *types = nullptr;
    for (const auto &[k, v] : params) {
        if (k == "special")
            special = &v;
        if (k == "types")
            types = &v;
        if (k != "tags")
            continue;
        constexpr std::size_t kMaxTags = 16;
        const ValueList &tags = v.toList();
        if (tags.size() > kMaxTags)
            issues.emplace_back("tags", "a layer has at most " + std::to_string(kMaxTags) + " tags; this one has "
                                            + std::to_string(tags.size()));
        for (std::size_t i = 0; i < tags.size() && i < kMaxTags; ++i) {
            if (const std::string why = tagProblem(tags[i].toString()); !why.empty())
                issues.emplace_back("tags", why);
            else if (std::find(tags.begin(), tags.begin() + static_cast<std::ptrdiff_t>(i), tags[i]) != tags.begin() + static_cast<std::ptrdiff_t>(i))
                issues.emplace_back("tags", "tag " + quote(tags[i].toString()) + " is given twice");
        }
    }
    if (!special || !special->isMap())
        return;
    const std::string wanted = special->find("type") ? special->find("type")->toString() : std::string();
    std::vector<std::string> names;
    for (const auto &t : types ? types->toList() : ValueList{})
        if (const Value *n = t.find("name"))
            names.push_back(n->toString());
    for (const auto &n : names)
        if (n == wanted)
            return;
    issues.emplace_back("special", names.empty() ? "special type " + quote(wanted) + " needs a types list that names it"
                                                 : "special type " + quote(wanted) + " is not one of the types"
                                                       + didYouMean(wanted, names));
}

LayerInfo layerInfo(const EvalContext &ctx)
{
    LayerInfo info;
    info.nodeId = ctx.node().id;
    info.name = layerName(ctx.node(), ctx.descriptor());
    info.exported = ctx.flag("export");
    info.attributeSeed = ctx.seed();
    for (const auto &t : ctx.param("types").toList())
        info.types.push_back({t.find("name") ? t.find("name")->toString() : std::string(),
                              t.find("weight") ? t.find("weight")->toNumber(1) : 1.0});
    if (const Value &special = ctx.param("special"); special.isMap()) {
        info.specialType = special.find("type") ? special.find("type")->toString() : std::string();
        info.specialCount = special.find("count") ? static_cast<std::int64_t>(special.find("count")->toNumber()) : 0;
    }
    const ValueList &rotation = ctx.param("rotation").toList();
    if (rotation.size() == 2) {
        info.rotationMin = rotation[0].toNumber();
        info.rotationMax = rotation[1].toNumber();
    }
    const ValueList &scale = ctx.param("scale").toList();
    if (scale.size() == 2) {
        info.scaleMin = scale[0].toNumber();
        info.scaleMax = scale[1].toNumber();
    }
    for (const Value &tag : ctx.param("tags").toList())
        info.tags.push_back(tag.toString());
    info.color = parseHexColor(ctx.text("color"));
    info.sprite = ctx.choice("sprite", kSpriteShapes);
    return info;
}

std::shared_ptr<PointLayer> makeLayer(const EvalContext &ctx, std::vector<PointXYR> points)
{
    auto layer = std::make_shared<PointLayer>();
    layer->info = layerInfo(ctx);
    layer->points = std::move(points);
    layer->assignSpecials();
    return layer;
}

bool withinPointBudget(EvalContext &ctx, double estimate, const std::string &what)
{
    const double limit = static_cast<double>(ctx.limits().maxPointsPerLayer);
    if (std::isfinite(estimate) && estimate <= limit)
        return true;
    ctx.fail(what + " could make up to " + (std::isfinite(estimate) ? formatNumber(std::floor(estimate)) : "infinitely many")
             + " points, over the limit of " + formatNumber(limit)
             + " per layer; raise the spacing, shrink the world, or raise the limit (grove-cli --max-points)");
    return false;
}

} // namespace grove
