// voronoi: regions around sites (territories, fields, districts): the nearest site's label at
// every spot, and a mask of the borders between regions.
#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/geometry/SiteIndex.h"

#include <algorithm>

namespace grove {

namespace {

// Sites each with a label of its own (no names given): each label carries a name and a colour.
constexpr std::size_t kMaxOwnLabels = std::size_t(1) << 20;

class RegionLabels final : public Labels
{
public:
    RegionLabels(std::shared_ptr<const SiteIndex> index, int count) : m_index(std::move(index)), m_count(count) {}
    int at(double x, double y) const override
    {
        const long long site = m_index->nearest(x, y);
        return site < 0 ? 0 : static_cast<int>(site % m_count);
    }

private:
    std::shared_ptr<const SiteIndex> m_index;
    int m_count;
};

class BorderMask final : public Mask
{
public:
    BorderMask(std::shared_ptr<const SiteIndex> index, double width) : m_index(std::move(index)), m_width(width) {}
    bool at(double x, double y) const override { return m_index->nearBorder(x, y, m_width); }

private:
    std::shared_ptr<const SiteIndex> m_index;
    double m_width;
};

const Rgb kRegionColors[] = {{164, 194, 98}, {218, 200, 140}, {118, 156, 72}, {184, 168, 106},
                             {93, 122, 78},  {196, 178, 128}, {140, 170, 90}, {150, 132, 96}};

} // namespace

void registerVoronoi(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "voronoi";
    d.displayName = "Voronoi";
    d.category = "Labels & masks";
    d.description =
        "Regions around sites (territories, fields, districts): the label at a spot is its nearest site's "
        "(by distance, the lower site index on a tie; sites numbered in wire order), found through a grid of "
        "buckets. borders is true within width of the region's border: the smallest bisector distance "
        "(|p-b|^2 - |p-a|^2) / (2 |a-b|) over the other sites b, a the nearest. Paint the labels as ground, keep "
        "trees off the borders with allowed_rule (mask: borders, invert), or cycle a few names (farm, forest, town) "
        "over the regions and pick by name with allowed_rule's include.";
    d.inputs = {port("sites", DataType::Points)
        .describe("the regions' sites: every point of every layer on the wire (at least one)")};
    d.outputs = {
        port("labels", DataType::Labels)
            .describe("the nearest site's region: with no names, label k is site k (\"region k\"); with names, "
                      "site k takes names[k mod the name count]"),
        port("borders", DataType::Mask).describe("true within width of a border between two regions"),
    };
    d.params = {
        nameList("names").describe("names cycled over the sites (empty: one label a site, \"region 0\", \"region "
                                   "1\", ...; then at most 1048576 sites)"),
        colorList("palette").describe("colours cycled over the labels (empty: eight muted ground colours)"),
        number("width").defaultValue(2).min(0).max(1e7).soft(0, 40)
            .describe("how far from a border the borders mask reaches, each side, in world units (0: nowhere)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        for (const auto &[k, v] : params) {
            if (k != "names" || !v.isList())
                continue;
            const ValueList &names = v.toList();
            for (std::size_t i = 0; i < names.size(); ++i)
                for (std::size_t j = 0; j < i; ++j)
                    if (names[i].isString() && names[j].isString() && names[i].toString() == names[j].toString()) {
                        issues.emplace_back("names", "names " + quote(names[i].toString()) + " twice: each name labels "
                                                     "one kind of region");
                        return;
                    }
        }
    };
    d.evaluate = [](EvalContext &ctx) {
        const PointSetPtr input = ctx.points("sites");
        std::vector<Vec2> sites;
        if (input) {
            sites.reserve(input->size());
            for (const auto &layer : input->layers)
                for (const PointXYR &p : layer->points)
                    sites.push_back({p.x, p.y});
        }
        const ValueList &names = ctx.param("names").toList();
        if (names.empty() && sites.size() > kMaxOwnLabels) {
            ctx.fail("the sites input holds " + std::to_string(sites.size()) + " points, over the limit of "
                     + std::to_string(kMaxOwnLabels) + " regions with a label each; give names (they cycle over "
                       "the sites) or fewer sites");
            return;
        }
        // the world widened by its size each side: sites beyond are few and tested at every query
        const World &w = ctx.world();
        const Region core{-w.width, -w.height, 2 * w.width, 2 * w.height};
        const bool sized = !w.endless && w.width > 0 && w.height > 0;
        auto index = std::make_shared<const SiteIndex>(sites, sized ? &core : nullptr);
        if (index->size() == 0) {
            ctx.fail("the sites input holds no points (with finite coordinates): the regions need at least one site");
            return;
        }
        const int count = static_cast<int>(names.empty() ? sites.size() : names.size());
        auto labels = std::make_shared<RegionLabels>(index, count);
        const ValueList &palette = ctx.param("palette").toList();
        labels->names.reserve(static_cast<std::size_t>(count));
        labels->colors.reserve(static_cast<std::size_t>(count));
        for (int k = 0; k < count; ++k) {
            const auto u = static_cast<std::size_t>(k);
            labels->names.push_back(names.empty() ? "region " + std::to_string(k) : names[u].toString());
            labels->colors.push_back(palette.empty() ? kRegionColors[u % 8] : parseHexColor(palette[u % palette.size()].toString()));
        }
        ctx.setOutput("labels", LabelsPtr(labels));
        ctx.setOutput("borders", MaskPtr(std::make_shared<BorderMask>(index, ctx.number("width"))));
    };
    registry.add(std::move(d));
}

} // namespace grove
