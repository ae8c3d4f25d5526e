// shapes: polygons, polylines and points from a Tiled object layer or GeoJSON as a mask (areas to
// build in, roads and rivers to keep clear, no-build zones).
#include "ParamBuilders.h"

#include "core/graph/EvalContext.h"
#include "core/base/FileInput.h"
#include "core/graph/NodeRegistry.h"
#include "core/geometry/ShapesFile.h"

namespace grove {

namespace {

class ShapesMask final : public Mask
{
public:
    ShapesMask(ShapeSet shapes, double width, bool invert) : m_index(std::move(shapes), width), m_invert(invert) {}
    bool at(double x, double y) const override { return m_index.covered(x, y) != m_invert; }

private:
    ShapeIndex m_index;
    bool m_invert;
};

} // namespace

void registerShapes(NodeRegistry &registry)
{
    using namespace build;
    NodeDescriptor d;
    d.typeId = "shapes";
    d.displayName = "Shapes";
    d.category = "Labels & masks";
    d.description =
        "Areas and lines drawn in Tiled or a GIS as a mask: true inside a polygon (holes excluded), a rectangle or an "
        "ellipse, and closer than `width` to a polyline (roads, rivers) or a point (distance < width: width is the "
        "clearance either side of the centre line, half a road's full width). invert: true everywhere else (no-build "
        "zones). Reads, told apart by content, a Tiled JSON map (.tmj, .json: the object layer named by `layer`; objects turn by their "
        "rotation, clockwise about their x, y; tile and text objects are refused) or GeoJSON (.geojson: Polygon with "
        "holes, MultiPolygon, LineString, MultiLineString, Point, MultiPoint, GeometryCollection, in a FeatureCollection "
        "or alone; coordinates taken as x, y). World position = offset + scale * file position. A polygon that crosses "
        "itself is an error naming the object or feature. The path is relative to the graph file; when the file "
        "changes, the node evaluates again.";
    d.outputs = {port("mask", DataType::Mask).describe("true inside the shapes or near the lines (false there with invert)")};
    d.params = {
        text("path").role(ParamRole::FilePath)
            .describe("the shapes file, relative to the graph file: a Tiled map (.tmj, .json) or GeoJSON (.geojson)"),
        text("layer").describe("the Tiled object layer to read (required for a Tiled map; GeoJSON: unused)"),
        number("width").defaultValue(4).min(0).max(1e7).soft(0, 100)
            .describe("lines and points cover what is closer than this to them (world units, after scale)"),
        flag("invert").defaultValue(false).describe("true outside the shapes instead: keep out of them"),
        number("offset_x").defaultValue(0).min(-1e9).max(1e9).soft(-1000, 1000).describe("added to every x after scale"),
        number("offset_y").defaultValue(0).min(-1e9).max(1e9).soft(-1000, 1000).describe("added to every y after scale"),
        number("scale").defaultValue(1).above(0).max(1e6).soft(0.1, 10)
            .describe("world units per file unit (Tiled pixels, GeoJSON coordinates)"),
    };
    d.checkParams = [](const ValueMap &params, ParamIssues &issues) {
        for (const auto &[k, v] : params)
            if (k == "path") {
                const std::string path = v.isString() ? v.toString() : std::string();
                if (path.empty())
                    issues.emplace_back("path", "no shapes file given: set path to a .tmj, .json or .geojson file");
                else if (!hasExtension(path, ".tmj") && !hasExtension(path, ".json") && !hasExtension(path, ".geojson"))
                    issues.emplace_back("path", "the shapes file must be a Tiled map (.tmj, .json) or GeoJSON (.geojson)");
            }
    };
    d.evaluate = [](EvalContext &ctx) {
        ShapesTransform t{ctx.number("offset_x"), ctx.number("offset_y"), ctx.number("scale")};
        ShapesLoad loaded = loadShapes(ctx.filePath("path"), ctx.text("layer"), t);
        if (!loaded.ok()) {
            ctx.failAt("path", ctx.text("path") + ": " + loaded.error);
            return;
        }
        ctx.setOutput("mask", MaskPtr(std::make_shared<ShapesMask>(std::move(loaded.shapes), ctx.number("width"), ctx.flag("invert"))));
    };
    registry.add(std::move(d));
}

} // namespace grove
