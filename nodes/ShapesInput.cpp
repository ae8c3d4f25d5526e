// The shapes file params, their check and the load shared by the nodes that read shapes.
#include "ShapesInput.h"

#include "ParamBuilders.h"

#include "core/base/FileInput.h"
#include "core/geometry/ShapesFile.h"
#include "core/graph/EvalContext.h"

namespace grove {

std::vector<ParamSpec> shapesFileParams()
{
    using namespace build;
    return {
        text("path").role(ParamRole::FilePath)
            .describe("the shapes file, relative to the graph file: a Tiled map (.tmj, .json) or GeoJSON (.geojson)"),
        text("layer").describe("the Tiled object layer to read (required for a Tiled map; GeoJSON: unused)"),
    };
}

std::vector<ParamSpec> shapesTransformParams(const std::string &scaleName)
{
    using namespace build;
    return {
        number("offset_x").defaultValue(0).min(-1e9).max(1e9).soft(-1000, 1000).describe("added to every x after scale"),
        number("offset_y").defaultValue(0).min(-1e9).max(1e9).soft(-1000, 1000).describe("added to every y after scale"),
        number(scaleName).defaultValue(1).above(0).max(1e6).soft(0.1, 10)
            .describe("world units per file unit (Tiled pixels, GeoJSON coordinates)"),
    };
}

void checkShapesFile(const ValueMap &params, ParamIssues &issues)
{
    for (const auto &[k, v] : params)
        if (k == "path") {
            const std::string path = v.isString() ? v.toString() : std::string();
            if (path.empty())
                issues.emplace_back("path", "no shapes file given: set path to a .tmj, .json or .geojson file");
            else if (!hasExtension(path, ".tmj") && !hasExtension(path, ".json") && !hasExtension(path, ".geojson"))
                issues.emplace_back("path", "the shapes file must be a Tiled map (.tmj, .json) or GeoJSON (.geojson)");
        }
}

bool loadShapesOf(EvalContext &ctx, ShapeSet &out, const std::string &scaleName)
{
    ShapesTransform t{ctx.number("offset_x"), ctx.number("offset_y"), ctx.number(scaleName)};
    ShapesLoad loaded = loadShapes(ctx.filePath("path"), ctx.text("layer"), t);
    if (!loaded.ok()) {
        ctx.failAt("path", ctx.text("path") + ": " + loaded.error);
        return false;
    }
    out = std::move(loaded.shapes);
    return true;
}

} // namespace grove
