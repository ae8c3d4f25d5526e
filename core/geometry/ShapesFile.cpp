// ShapesFile: Tiled object layers and GeoJSON into shapes (polygons, ellipses and lines).
#include "core/geometry/ShapesFile.h"

#include "core/geometry/ShapesJson.h"
#include "core/base/Limits.h"

#include <cmath>
#include <functional>

namespace grove {

namespace {

using namespace shapesfile;

struct ShapeBuilder
{
    ShapesLoad &out;
    ShapesTransform t;
    std::size_t budget = limits::maxShapeVertices;
    std::uint64_t pairBudget = limits::maxShapeEdgePairChecks;

    Vec2 map(Vec2 v) const { return {t.offsetX + t.scale * v.x, t.offsetY + t.scale * v.y}; }
    bool finite(const std::vector<Vec2> &vs) const
    {
        for (const Vec2 &v : vs)
            if (!std::isfinite(v.x) || !std::isfinite(v.y) || std::abs(v.x) > 1e12 || std::abs(v.y) > 1e12)
                return false;
        return true;
    }
    bool take(std::size_t n, const std::string &label)
    {
        if (n > budget) {
            out.error = label + ": the file has more than " + std::to_string(limits::maxShapeVertices)
                        + " vertices, over the limit";
            return false;
        }
        budget -= n;
        return true;
    }
    bool addPolygon(std::vector<std::vector<Vec2>> rings, const std::string &label)
    {
        ShapePolygon p;
        p.label = label;
        std::size_t n = 0;
        for (auto &r : rings) {
            for (Vec2 &v : r)
                v = map(v);
            if (!finite(r)) {
                out.error = label + ": a vertex is not a finite number (or beyond 1e12)";
                return false;
            }
            n += r.size();
        }
        if (n > limits::maxShapePolygonVertices) {
            out.error = label + ": a polygon of " + std::to_string(n) + " vertices, over the limit of "
                        + std::to_string(limits::maxShapePolygonVertices) + " (split it)";
            return false;
        }
        p.rings = std::move(rings);
        if (std::string problem = polygonProblem(p, pairBudget); !problem.empty()) {
            out.error = label + ": " + problem;
            return false;
        }
        out.shapes.polygons.push_back(std::move(p));
        return true;
    }
    bool addLine(std::vector<Vec2> line, const std::string &label)
    {
        for (Vec2 &v : line)
            v = map(v);
        if (!finite(line)) {
            out.error = label + ": a vertex is not a finite number (or beyond 1e12)";
            return false;
        }
        if (line.empty()) {
            out.error = label + ": a line without vertices";
            return false;
        }
        out.shapes.lines.push_back(std::move(line));
        out.shapes.lineLabels.push_back(label);
        return true;
    }
};

bool tiledShapes(const json &root, const std::string &layerName, ShapeBuilder &b)
{
    std::vector<ObjectLayer> layers;
    if (!pickObjectLayers(root, layerName, false, layers, b.out.error))
        return false;
    return forEachObject(layers, false, b.out.error, [&](const json &o, const std::string &label, const Placement &p) {
        if (member(o, "gid") || member(o, "text")) {
            b.out.error = label + " is a " + (member(o, "gid") ? "tile" : "text")
                          + " object; shapes reads polygons, polylines, rectangles, ellipses and points";
            return false;
        }
        double w = 0, h = 0;
        numberAt(o, "width", w);
        numberAt(o, "height", h);
        if (const json *poly = member(o, "polygon"); poly || member(o, "polyline")) {
            std::vector<Vec2> vs;
            std::string why;
            const json &list = poly ? *poly : *member(o, "polyline");
            if (!b.take(list.is_array() ? list.size() : 0, label))
                return false;
            if (!vertexList(list, p, vs, why)) {
                b.out.error = label + " " + why;
                return false;
            }
            if (poly ? !b.addPolygon({std::move(vs)}, label) : !b.addLine(std::move(vs), label))
                return false;
        } else if (flagAt(o, "point")) {
            if (!b.take(1, label) || !b.addLine({p.at(0, 0)}, label))
                return false;
        } else {
            const bool ellipse = flagAt(o, "ellipse");
            if (!(w > 0 && h > 0 && std::isfinite(w) && std::isfinite(h))) {
                b.out.error = label + " is " + (ellipse ? "an ellipse" : "a rectangle") + " of size " + num(w) + " x " + num(h)
                              + "; it needs a width and height above 0";
                return false;
            }
            if (!b.take(4, label))
                return false;
            if (ellipse) {
                ShapeEllipse e;
                e.c = b.map(p.at(w / 2, h / 2));
                e.a = w / 2 * b.t.scale;
                e.b = h / 2 * b.t.scale;
                e.cos = p.cos;
                e.sin = p.sin;
                e.label = label;
                if (!b.finite({e.c}) || !(e.a > 0 && e.b > 0 && std::isfinite(e.a) && std::isfinite(e.b))) {
                    b.out.error = label + ": the ellipse is not finite";
                    return false;
                }
                b.out.shapes.ellipses.push_back(e);
            } else if (!b.addPolygon({{p.at(0, 0), p.at(w, 0), p.at(w, h), p.at(0, h)}}, label)) {
                return false;
            }
        }
        return true;
    });
}

bool geoShapes(const json &root, ShapeBuilder &b)
{
    std::string &error = b.out.error;
    std::function<bool(const json *, const std::string &, int)> geometry = [&](const json *g, const std::string &label, int depth) {
        if (!g || g->is_null())
            return true;
        const std::string type = textAt(*g, "type");
        if (type == "GeometryCollection") {
            const json *list = member(*g, "geometries");
            if (!list || !list->is_array() || depth > 16) {
                error = label + ": a GeometryCollection without a geometries list";
                return false;
            }
            for (const json &inner : *list)
                if (!geometry(&inner, label, depth + 1))
                    return false;
            return true;
        }
        const json *c = member(*g, "coordinates");
        if (!c || !c->is_array()) {
            error = label + ": a " + (type.empty() ? std::string("geometry") : type) + " without coordinates";
            return false;
        }
        auto bad = [&](const char *what) {
            error = label + ": its " + type + " coordinates are not " + what;
            return false;
        };
        std::size_t before = b.budget;
        auto budgetLeft = [&] {
            if (b.budget == 0 && before > 0) {
                error = label + ": the file has more than " + std::to_string(limits::maxShapeVertices) + " vertices, over the limit";
                return false;
            }
            return true;
        };
        if (type == "Point") {
            Vec2 v;
            if (!position(*c, v))
                return bad("a position [x, y]");
            return b.take(1, label) && b.addLine({v}, label);
        }
        if (type == "MultiPoint" || type == "LineString") {
            std::vector<Vec2> vs;
            if (!positions(*c, vs, b.budget))
                return budgetLeft() && bad("a list of positions");
            if (type == "LineString") {
                if (vs.size() < 2)
                    return bad("two or more positions");
                return b.addLine(std::move(vs), label);
            }
            for (const Vec2 &v : vs)
                if (!b.addLine({v}, label))
                    return false;
            return true;
        }
        if (type == "MultiLineString") {
            for (const json &line : *c) {
                std::vector<Vec2> vs;
                if (!positions(line, vs, b.budget))
                    return budgetLeft() && bad("lists of positions");
                if (vs.size() < 2)
                    return bad("lines of two or more positions");
                if (!b.addLine(std::move(vs), label))
                    return false;
            }
            return true;
        }
        auto polygon = [&](const json &rings, const std::string &name) {
            if (!rings.is_array() || rings.empty())
                return bad("a list of rings");
            std::vector<std::vector<Vec2>> rs;
            for (const json &ring : rings) {
                rs.emplace_back();
                if (!positions(ring, rs.back(), b.budget))
                    return budgetLeft() && bad("rings of positions");
            }
            return b.addPolygon(std::move(rs), name);
        };
        if (type == "Polygon")
            return polygon(*c, label);
        if (type == "MultiPolygon") {
            for (std::size_t i = 0; i < c->size(); ++i)
                if (!polygon((*c)[i], label + " polygon " + std::to_string(i)))
                    return false;
            return true;
        }
        error = label + ": unknown geometry type " + shapesfile::quoted(type);
        return false;
    };
    return forEachFeature(root, error, [&](const json *g, const json *, const std::string &label) { return geometry(g, label, 0); });
}

} // namespace

ShapesLoad loadShapes(const std::string &path, const std::string &layer, const ShapesTransform &transform)
{
    ShapesLoad r;
    std::string text;
    json root;
    if (!readBounded(path, text, r.error) || !parseJson(text, root, r.error))
        return r;
    text = {};
    ShapeBuilder b{r, transform};
    if (isTiledMap(root)) {
        if (!tiledShapes(root, layer, b))
            r.shapes = {};
    } else if (isGeoJson(root)) {
        if (!geoShapes(root, b))
            r.shapes = {};
    } else {
        r.error = "neither a Tiled JSON map (with \"type\": \"map\" and layers) nor GeoJSON (a FeatureCollection, Feature or geometry)";
    }
    return r;
}

} // namespace grove
