// shapes: polygons, polylines and points from a Tiled object layer or GeoJSON as a mask (areas to
// build in, roads and rivers to keep clear, no-build zones).
#include "ParamBuilders.h"
#include "ShapesInput.h"

#include "core/graph/EvalContext.h"
#include "core/graph/NodeRegistry.h"
#include "core/geometry/Polygon.h"

namespace grove {

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
    d.params = shapesFileParams();
    d.params.push_back(number("width").defaultValue(4).min(0).max(1e7).soft(0, 100)
        .describe("lines and points cover what is closer than this to them (world units, after scale)"));
    d.params.push_back(flag("invert").defaultValue(false).describe("true outside the shapes instead: keep out of them"));
    for (ParamSpec &p : shapesTransformParams())
        d.params.push_back(std::move(p));
    d.checkParams = checkShapesFile;
    d.evaluate = [](EvalContext &ctx) {
        ShapeSet shapes;
        if (!loadShapesOf(ctx, shapes))
            return;
        ctx.setOutput("mask", MaskPtr(std::make_shared<ShapesMask>(std::move(shapes), ctx.number("width"), ctx.flag("invert"))));
    };
    registry.add(std::move(d));
}

} // namespace grove
