// The shapes file a node reads (shapes, place_path): its params, their check and the load, so
// every node that reads one names, checks and places it the same way.
#pragma once

#include "core/graph/NodeDescriptor.h"
#include "core/base/DataTypes.h"
#include "core/geometry/Polygon.h"

#include <string>
#include <vector>

namespace grove {

class EvalContext;

// `path` (the file) and `layer` (a Tiled map's object layer).
std::vector<ParamSpec> shapesFileParams();
// `offset_x`, `offset_y` and the scale: world = offset + scale * file position. A node whose
// layer params have a `scale` of their own (the sprites') names this one otherwise.
std::vector<ParamSpec> shapesTransformParams(const std::string &scaleName = "scale");
// The file must be named and be a Tiled map or GeoJSON by its extension.
void checkShapesFile(const ValueMap &params, ParamIssues &issues);
// The shapes of the file the params name, in world units; false (the node failed at `path`,
// naming the file and what is wrong) when it cannot be read.
bool loadShapesOf(EvalContext &ctx, ShapeSet &out, const std::string &scaleName = "scale");

// The shapes as a mask: inside a polygon or ellipse, or closer than `width` to a line or point;
// flipped by invert (the shapes node's output, and where a place_path layer grows).
class ShapesMask final : public Mask
{
public:
    ShapesMask(ShapeSet shapes, double width, bool invert = false) : m_index(std::move(shapes), width), m_invert(invert) {}
    bool at(double x, double y) const override { return m_index.covered(x, y) != m_invert; }

private:
    ShapeIndex m_index;
    bool m_invert;
};

} // namespace grove
