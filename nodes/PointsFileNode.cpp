// points_file: placements made elsewhere (by hand in Tiled, in a GIS, by an earlier Grove run) as
// a points value, to wire into a layer's obstacles.
#include "LayerParams.h"
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/base/FileInput.h"
#include "core/graph/NodeRegistry.h"
#include "core/formats/PointsFile.h"

namespace grove {

namespace {

} // namespace

void registerPointsFile(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "points_file";
    d.displayName = "Points File";
    d.category = "Points";
    d.description =
        "Placements from a file as points, to wire into place_layer's obstacles: the houses a designer placed by hand "
        "are then kept clear by every layer after them. Reads a grove.points JSON export (layers[].points[]: x, y, r), "
        "a Tiled JSON map (.tmj, or .json with \"type\": \"map\": point objects at their x, y; rectangle, ellipse and "
        "tile objects at their centre; the `radius` custom property), GeoJSON (.geojson: Point and MultiPoint features, "
        "a `radius` property; other geometry is skipped) or CSV (.csv: a header with x and y columns; r or radius and "
        "layer optional). A point's radius is the file's when it has one and radius_from_file is on, else `radius`. "
        "Points outside the world are kept: they still block what grows near them. Not exported by default (export: "
        "the file's points would be written again).";
    d.outputs = {port("points", DataType::Points).role(PortRole::LayerPoints).describe("the file's points, in the file's order")};
    d.params = {
        text("path").role(ParamRole::FilePath)
            .describe("the placements file, relative to the graph file: .json, .tmj, .geojson or .csv"),
        text("layer").describe("which layer: a grove.points layer name, a Tiled object layer, a CSV `layer` value (empty: all)"),
        number("radius").defaultValue(10).above(0).max(1e7).soft(1, 100)
            .describe("the radius of a point the file gives none for (and of every point without radius_from_file)"),
        flag("radius_from_file").defaultValue(true).describe("use the file's radius (r, radius) where it has one"),
        flag("keep_radius").defaultValue(true)
            .describe("every layer after keeps at least each point's own radius from it (a house of radius 12 has no tree "
                      "within 12), not just the smaller of the two radii as layers do among themselves"),
        seed(),
    };
    appendLayerParams(d, SpriteShape::Chest, "#8a5a3c");
    for (ParamSpec &p : d.params)
        if (p.name == "export")
            p.defaultValue = false;
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        checkLayerParams(params, issues);
        for (const auto &[k, v] : params)
            if (k == "path") {
                const std::string path = v.isString() ? v.toString() : std::string();
                if (path.empty())
                    issues.emplace_back("path", "no placements file given: set path to a .json, .tmj, .geojson or .csv file");
                else if (!hasExtension(path, ".tmj") && !hasExtension(path, ".json") && !hasExtension(path, ".geojson") && !hasExtension(path, ".csv"))
                    issues.emplace_back("path", "the placements file must be .json (grove.points or Tiled), .tmj, .geojson or .csv");
            }
    };
    d.evaluate = [](EvalContext &ctx) {
        PointsFileOptions o;
        o.layer = ctx.text("layer");
        o.radius = ctx.number("radius");
        o.radiusFromFile = ctx.flag("radius_from_file");
        o.maxPoints = ctx.limits().maxPointsPerLayer;
        PointsLoad loaded = loadPointsFile(ctx.filePath("path"), o);
        if (!loaded.ok()) {
            ctx.failAt("path", ctx.text("path") + ": " + loaded.error);
            return;
        }
        auto layer = makeLayer(ctx, std::move(loaded.points));
        layer->info.keepsRadius = ctx.flag("keep_radius");
        auto set = std::make_shared<PointSet>();
        set->layers.push_back(layer);
        ctx.setOutput("points", PointSetPtr(set));
    };
    registry.add(std::move(d));
}

} // namespace grove
