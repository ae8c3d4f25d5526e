// Plane geometry for the shapes node: polygons (rings, with holes), polylines and points with a
// clearance, ellipses; an exact inside / near test behind a grid of buckets, and a check that a
// polygon's rings do not cross themselves or each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grove {

struct Vec2
{
    double x = 0, y = 0;
};

// One polygon: its rings (the first is the outline, the rest holes). A point is inside when an
// odd number of its rings surround it (crossing number along +x, edges half-open in y).
struct ShapePolygon
{
    std::vector<std::vector<Vec2>> rings;  // each ring without its closing vertex
    std::string label;                     // what a message calls it ("object 7 \"village\"")
};

// An ellipse with centre c, half-axes a (along u) and b (along v); u = (cos, sin) of its turn.
struct ShapeEllipse
{
    Vec2 c;
    double a = 0, b = 0, cos = 1, sin = 0;
    std::string label;
};

struct ShapeSet
{
    std::vector<ShapePolygon> polygons;
    std::vector<std::vector<Vec2>> lines;  // polylines; a lone point is a line of one vertex
    std::vector<std::string> lineLabels;   // what a message calls each line, as a polygon's label
    std::vector<ShapeEllipse> ellipses;
    std::size_t vertexCount() const;
};

// Removes repeated consecutive vertices and a ring's closing vertex. Then, for every polygon:
// "" when its rings have 3 or more vertices and no two edges meet except neighbours at their
// shared vertex; otherwise what is wrong (e.g. "edges 2 and 5 cross at (10, 4)").
// Edges are swept along x and pairs whose boxes meet are tested; each pair looked at costs one
// unit of `budget` (shared by a file's polygons), and a polygon that would take more than is left
// is refused: the sweep is quadratic at worst (a comb of long edges).
std::string polygonProblem(ShapePolygon &polygon, std::uint64_t &budget);

// Inside a polygon's rings by the crossing number (exactly the test ShapeMask uses).
bool insideRings(const ShapePolygon &polygon, double x, double y);
// The squared distance from p to the segment a-b (a == b: to the point).
double squaredDistanceToSegment(Vec2 p, Vec2 a, Vec2 b);
bool insideEllipse(const ShapeEllipse &e, double x, double y);

// The mask: inside any polygon or ellipse, or closer than `width` to a line or point
// (distance^2 < width^2), flipped by invert. at() visits only the buckets around (x, y).
class ShapeIndex
{
public:
    ShapeIndex(ShapeSet shapes, double width);
    bool covered(double x, double y) const;

private:
    int colOf(double x) const;
    int rowOf(double y) const;
    bool insidePolygonsByRow(int row, double x, double y) const;

    ShapeSet m_shapes;
    double m_width2;  // width squared
    double m_x0 = 0, m_y0 = 0, m_x1 = 0, m_y1 = 0;  // the grid's extent
    double m_inv = 1;                               // cells per unit
    int m_cols = 1, m_rows = 1;
    // per cell: 0 outside every polygon, 1 inside one, 2 near an edge (ask the row)
    std::vector<std::uint8_t> m_polygonState;
    // per row: the polygon edges overlapping it, as (polygon, ring, edge) grouped by polygon
    struct EdgeRef
    {
        std::uint32_t polygon, ring, edge;
    };
    std::vector<std::size_t> m_rowStart;
    std::vector<EdgeRef> m_rowEdges;
    // per cell: the line segments and ellipses that may cover some of it
    struct Item
    {
        std::uint32_t kind;  // 0 segment, 1 ellipse
        std::uint32_t a, b;  // line and first vertex, or ellipse index
    };
    std::vector<std::size_t> m_cellStart;
    std::vector<Item> m_cellItems;
};

} // namespace grove
