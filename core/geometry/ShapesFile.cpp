// ShapesFile: Tiled object layers, GeoJSON, grove.points JSON and CSV into shapes and points.
#include "core/geometry/ShapesFile.h"

#include "core/base/FileInput.h"

#include "core/math/ExactTrig.h"
#include "core/base/Limits.h"
#include "core/base/NumberText.h"
#include "core/base/Value.h"  // formatNumber

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <tuple>
#include <memory>

namespace grove {

namespace {

using json = nlohmann::json;

std::string num(double v) { return formatNumber(v); }

std::string quoted(const std::string &s)
{
    std::string out = "\"";
    for (char c : s.substr(0, 80))
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    return out + (s.size() > 80 ? "...\"" : "\"");
}

std::string nameList(const std::vector<std::string> &names)
{
    if (names.empty())
        return "none";
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 20; ++i)
        out += (i ? ", " : "") + quoted(names[i]);
    return names.size() > 20 ? out + " and " + std::to_string(names.size() - 20) + " more" : out;
}

// The whole file, refused before reading when it is not a regular file, empty or too large.
bool readBounded(const std::string &path, std::string &text, std::string &error)
{
    std::uint64_t size = 0;
    if (auto problem = notRegularFile(path, &size)) {
        error = "cannot open: " + *problem;
        return false;
    }
    if (size == 0) {
        error = "the file is empty";
        return false;
    }
    if (size > limits::maxInputFileBytes) {
        error = "the file has " + std::to_string(size) + " bytes, over the limit of "
                + std::to_string(limits::maxInputFileBytes >> 20) + " MiB";
        return false;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file) {
        error = std::string("cannot open: ") + std::strerror(errno);
        return false;
    }
    text.resize(static_cast<std::size_t>(size));
    if (std::fread(text.data(), 1, text.size(), file.get()) != text.size()) {
        error = "the file ended early while reading";
        return false;
    }
    return true;
}

bool parseJson(const std::string &text, json &out, std::string &error)
{
    // nesting first: the parser recurses
    int depth = 0;
    bool inString = false, escaped = false;
    for (char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limits::maxJsonDepth) {
                error = "the JSON nests deeper than " + std::to_string(limits::maxJsonDepth) + " levels";
                return false;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    try {
        out = json::parse(text);
    } catch (const json::exception &e) {
        std::string what = e.what();
        if (const auto close = what.find("] "); what.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
            what = what.substr(close + 2);
        error = "not valid JSON: " + what;
        return false;
    }
    return true;
}

const json *member(const json &j, const char *key)
{
    if (!j.is_object())
        return nullptr;
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

bool numberAt(const json &j, const char *key, double &out)
{
    const json *v = member(j, key);
    if (!v || !v->is_number())
        return false;
    out = v->get<double>();
    return true;
}

std::string textAt(const json &j, const char *key)
{
    const json *v = member(j, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

bool flagAt(const json &j, const char *key)
{
    const json *v = member(j, key);
    return v && v->is_boolean() && v->get<bool>();
}

// ---- Tiled ----

bool isTiledMap(const json &root)
{
    return root.is_object() && (textAt(root, "type") == "map" || member(root, "tiledversion") || member(root, "orientation"))
           && member(root, "layers");
}

struct ObjectLayer
{
    const json *layer;
    std::string name;
    double offsetX, offsetY;
};

void collectObjectLayers(const json &layers, double ox, double oy, std::vector<ObjectLayer> &out, int depth = 0)
{
    if (!layers.is_array() || depth > 32)
        return;
    for (const json &l : layers) {
        if (!l.is_object())
            continue;
        double dx = 0, dy = 0;
        numberAt(l, "offsetx", dx);
        numberAt(l, "offsety", dy);
        const std::string type = textAt(l, "type");
        if (type == "objectgroup")
            out.push_back({&l, textAt(l, "name"), ox + dx, oy + dy});
        else if (type == "group")
            if (const json *inner = member(l, "layers"))
                collectObjectLayers(*inner, ox + dx, oy + dy, out, depth + 1);
    }
}

// The object layers `name` picks (empty: every one when allowAll), or why none.
bool pickObjectLayers(const json &root, const std::string &name, bool allowAll, std::vector<ObjectLayer> &picked, std::string &error)
{
    std::vector<ObjectLayer> all;
    if (const json *layers = member(root, "layers"))
        collectObjectLayers(*layers, 0, 0, all);
    std::vector<std::string> names;
    for (const auto &l : all)
        names.push_back(l.name);
    if (name.empty() && !allowAll) {
        error = "a Tiled map needs `layer`: the name of one of its object layers (" + nameList(names) + ")";
        return false;
    }
    for (const auto &l : all)
        if (name.empty() || l.name == name)
            picked.push_back(l);
    if (picked.empty() && !name.empty()) {
        error = "the map has no object layer " + quoted(name) + "; its object layers: " + nameList(names);
        return false;
    }
    return true;
}

std::string objectLabel(const json &o, std::size_t index)
{
    double id = 0;
    std::string label = numberAt(o, "id", id) ? "object " + num(id) : "object #" + std::to_string(index);
    const std::string name = textAt(o, "name");
    return name.empty() ? label : label + " " + quoted(name);
}

// A Tiled object's placement: (x, y) and its turn about that point, clockwise in degrees.
struct Placement
{
    double x = 0, y = 0, cos = 1, sin = 0;
    Vec2 at(double dx, double dy) const { return {x + dx * cos - dy * sin, y + dx * sin + dy * cos}; }
};

bool placementOf(const json &o, const ObjectLayer &layer, Placement &p, std::string &error)
{
    if (!numberAt(o, "x", p.x) || !numberAt(o, "y", p.y)) {
        error = "has no numeric x and y";
        return false;
    }
    if (member(o, "template")) {
        error = "uses a template (" + quoted(textAt(o, "template")) + "), which is not read: detach it in Tiled";
        return false;
    }
    p.x += layer.offsetX;
    p.y += layer.offsetY;
    double rotation = 0;
    numberAt(o, "rotation", rotation);
    if (!std::isfinite(rotation)) {
        error = "has a rotation that is not a number";
        return false;
    }
    if (rotation != 0) {
        const double turns = rotation / 360;
        const auto [c, s] = unitVector(turns - std::floor(turns));
        p.cos = c;
        p.sin = s;
    }
    return true;
}

bool vertexList(const json &list, const Placement &p, std::vector<Vec2> &out, std::string &error)
{
    if (!list.is_array()) {
        error = "has a vertex list that is not a list";
        return false;
    }
    for (const json &v : list) {
        double x, y;
        if (!numberAt(v, "x", x) || !numberAt(v, "y", y)) {
            error = "has a vertex without numeric x and y";
            return false;
        }
        out.push_back(p.at(x, y));
    }
    return true;
}

// ---- GeoJSON ----

bool isGeoJson(const json &root)
{
    static const char *types[] = {"FeatureCollection", "Feature", "Point", "MultiPoint", "LineString", "MultiLineString",
                                  "Polygon", "MultiPolygon", "GeometryCollection"};
    const std::string type = textAt(root, "type");
    for (const char *t : types)
        if (type == t)
            return true;
    return false;
}

bool position(const json &p, Vec2 &out)
{
    if (!p.is_array() || p.size() < 2 || !p[0].is_number() || !p[1].is_number())
        return false;
    out = {p[0].get<double>(), p[1].get<double>()};
    return true;
}

bool positions(const json &list, std::vector<Vec2> &out, std::size_t &budget)
{
    if (!list.is_array())
        return false;
    for (const json &p : list) {
        Vec2 v;
        if (!position(p, v))
            return false;
        if (budget == 0)
            return false;
        --budget;
        out.push_back(v);
    }
    return true;
}

// Each feature (or the bare geometry) with its label: "feature 3" (its index), and its name.
template <class Fn>
bool forEachFeature(const json &root, std::string &error, Fn &&fn)
{
    const std::string type = textAt(root, "type");
    if (type == "FeatureCollection") {
        const json *features = member(root, "features");
        if (!features || !features->is_array()) {
            error = "a FeatureCollection without a features list";
            return false;
        }
        for (std::size_t i = 0; i < features->size(); ++i) {
            const json &f = (*features)[i];
            std::string label = "feature " + std::to_string(i);
            if (const json *props = member(f, "properties"))
                if (const std::string name = textAt(*props, "name"); !name.empty())
                    label += " " + quoted(name);
            if (textAt(f, "type") != "Feature") {
                error = label + " is not a Feature";
                return false;
            }
            const json *g = member(f, "geometry");
            const json *props = member(f, "properties");
            if (!fn(g, props, label))
                return false;
        }
        return true;
    }
    if (type == "Feature")
        return fn(member(root, "geometry"), member(root, "properties"), std::string("the feature"));
    return fn(&root, nullptr, std::string("the geometry"));
}

// ---- shapes ----

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
        return true;
    }
};

bool tiledShapes(const json &root, const std::string &layerName, ShapeBuilder &b)
{
    std::vector<ObjectLayer> layers;
    if (!pickObjectLayers(root, layerName, false, layers, b.out.error))
        return false;
    for (const ObjectLayer &layer : layers) {
        const json *objects = member(*layer.layer, "objects");
        if (!objects || !objects->is_array())
            continue;
        for (std::size_t i = 0; i < objects->size(); ++i) {
            const json &o = (*objects)[i];
            const std::string label = objectLabel(o, i);
            Placement p;
            std::string why;
            if (!placementOf(o, layer, p, why)) {
                b.out.error = label + " " + why;
                return false;
            }
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
        }
    }
    return true;
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
        error = label + ": unknown geometry type " + quoted(type);
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

// ---- points ----

namespace {

struct PointCollector
{
    PointsLoad &out;
    const PointsFileOptions &o;

    bool add(double x, double y, bool hasR, double r, const std::string &label)
    {
        if (!std::isfinite(x) || !std::isfinite(y)) {
            out.error = label + ": its position is not a finite number";
            return false;
        }
        if (hasR && o.radiusFromFile && !(r > 0 && std::isfinite(r) && r <= 1e7)) {
            out.error = label + ": its radius " + num(r) + " is not a number above 0 (up to 1e7)";
            return false;
        }
        if (out.points.size() >= o.maxPoints) {
            out.error = "the file holds more than " + std::to_string(o.maxPoints) + " points, over the limit per layer";
            return false;
        }
        out.points.push_back({x, y, hasR && o.radiusFromFile ? r : o.radius});
        return true;
    }
};

bool grovePoints(const json &root, PointCollector &c)
{
    const json *layers = member(root, "layers");
    if (!layers || !layers->is_array()) {
        c.out.error = "a grove.points file without a layers list";
        return false;
    }
    std::vector<std::string> names;
    bool found = false;
    for (std::size_t li = 0; li < layers->size(); ++li) {
        const json &l = (*layers)[li];
        const std::string name = textAt(l, "name");
        names.push_back(name);
        if (!c.o.layer.empty() && name != c.o.layer)
            continue;
        found = true;
        const json *points = member(l, "points");
        if (!points || !points->is_array()) {
            c.out.error = "layer " + quoted(name) + " has no points list";
            return false;
        }
        if (points->size() > c.o.maxPoints) {
            c.out.error = "layer " + quoted(name) + " holds " + std::to_string(points->size()) + " points, over the limit of "
                          + std::to_string(c.o.maxPoints) + " per layer";
            return false;
        }
        c.out.points.reserve(c.out.points.size() + points->size());
        for (std::size_t i = 0; i < points->size(); ++i) {
            const json &p = (*points)[i];
            const std::string label = "layer " + quoted(name) + " point " + std::to_string(i);
            double x, y, r = 0;
            if (!numberAt(p, "x", x) || !numberAt(p, "y", y)) {
                c.out.error = label + " has no numeric x and y";
                return false;
            }
            const bool hasR = numberAt(p, "r", r);
            if (!c.add(x, y, hasR, r, label))
                return false;
        }
    }
    if (!found && !c.o.layer.empty()) {
        c.out.error = "the file has no layer " + quoted(c.o.layer) + "; its layers: " + nameList(names);
        return false;
    }
    return true;
}

bool radiusProperty(const json &o, double &r)
{
    const json *props = member(o, "properties");
    if (!props)
        return false;
    if (props->is_array()) {  // Tiled: [{name, type, value}]
        for (const json &p : *props)
            if (textAt(p, "name") == "radius")
                return numberAt(p, "value", r);
        return false;
    }
    return numberAt(*props, "radius", r);  // GeoJSON properties, and old Tiled maps
}

bool tiledPoints(const json &root, PointCollector &c)
{
    std::vector<ObjectLayer> layers;
    if (!pickObjectLayers(root, c.o.layer, true, layers, c.out.error))
        return false;
    for (const ObjectLayer &layer : layers) {
        const json *objects = member(*layer.layer, "objects");
        if (!objects || !objects->is_array())
            continue;
        for (std::size_t i = 0; i < objects->size(); ++i) {
            const json &o = (*objects)[i];
            const std::string label = "layer " + quoted(layer.name) + " " + objectLabel(o, i);
            Placement p;
            std::string why;
            if (!placementOf(o, layer, p, why)) {
                c.out.error = label + " " + why;
                return false;
            }
            if (member(o, "polygon") || member(o, "polyline")) {
                c.out.error = label + " is a " + (member(o, "polygon") ? "polygon" : "polyline")
                              + "; points_file reads point, rectangle, ellipse and tile objects (their centre)";
                return false;
            }
            double w = 0, h = 0;
            numberAt(o, "width", w);
            numberAt(o, "height", h);
            // a point's own position; a box's centre (a tile object's box stands on its x, y)
            Vec2 at = flagAt(o, "point") ? p.at(0, 0) : member(o, "gid") ? p.at(w / 2, -h / 2) : p.at(w / 2, h / 2);
            double r = 0;
            const bool hasR = radiusProperty(o, r);
            if (!c.add(at.x, at.y, hasR, r, label))
                return false;
        }
    }
    return true;
}

bool geoPoints(const json &root, PointCollector &c)
{
    return forEachFeature(root, c.out.error, [&](const json *g, const json *props, const std::string &label) {
        if (!g || g->is_null())
            return true;
        const std::string type = textAt(*g, "type");
        if (type != "Point" && type != "MultiPoint")
            return true;  // roads and areas in the same file are not placements
        double r = 0;
        const bool hasR = props && numberAt(*props, "radius", r);
        const json *coords = member(*g, "coordinates");
        Vec2 v;
        if (type == "Point") {
            if (!coords || !position(*coords, v)) {
                c.out.error = label + ": its Point coordinates are not a position [x, y]";
                return false;
            }
            return c.add(v.x, v.y, hasR, r, label);
        }
        if (!coords || !coords->is_array()) {
            c.out.error = label + ": its MultiPoint coordinates are not a list of positions";
            return false;
        }
        for (const json &p : *coords) {
            if (!position(p, v)) {
                c.out.error = label + ": its MultiPoint coordinates are not a list of positions";
                return false;
            }
            if (!c.add(v.x, v.y, hasR, r, label))
                return false;
        }
        return true;
    });
}

std::vector<std::string> csvFields(const std::string &line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (ch == '"') {
                quoted = false;
            } else {
                fields.back() += ch;
            }
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            fields.emplace_back();
        } else {
            fields.back() += ch;
        }
    }
    for (auto &f : fields) {
        const auto b = f.find_first_not_of(" \t"), e = f.find_last_not_of(" \t");
        f = b == std::string::npos ? std::string() : f.substr(b, e - b + 1);
    }
    return fields;
}

bool csvNumber(const std::string &s, double &v) { return parseNumber(s, v) && std::isfinite(v); }

bool csvPoints(const std::string &text, PointCollector &c)
{
    std::size_t pos = 0, lineNo = 0;
    auto nextLine = [&](std::string &line) {
        if (pos >= text.size())
            return false;
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        pos = end + 1;
        ++lineNo;
        return true;
    };
    std::string line;
    if (!nextLine(line)) {
        c.out.error = "the file is empty";
        return false;
    }
    if (line.rfind("\xEF\xBB\xBF", 0) == 0)
        line = line.substr(3);
    const std::vector<std::string> header = csvFields(line);
    int xi = -1, yi = -1, ri = -1, li = -1;
    const std::string found = nameList(header);  // a few, then how many more: a header may have millions
    for (std::size_t i = 0; i < header.size(); ++i) {
        std::string h = header[i];
        for (char &ch : h)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (h == "x" && xi < 0)
            xi = static_cast<int>(i);
        else if (h == "y" && yi < 0)
            yi = static_cast<int>(i);
        else if ((h == "r" || h == "radius") && ri < 0)
            ri = static_cast<int>(i);
        else if (h == "layer" && li < 0)
            li = static_cast<int>(i);
    }
    if (xi < 0 || yi < 0) {
        c.out.error = std::string("the CSV header has no ") + (xi < 0 && yi < 0 ? "x and y columns" : xi < 0 ? "x column" : "y column")
                      + "; line 1 has " + found;
        return false;
    }
    if (!c.o.layer.empty() && li < 0) {
        c.out.error = "layer is " + quoted(c.o.layer) + " but the CSV has no layer column; line 1 has " + found;
        return false;
    }
    std::vector<std::string> layers;
    bool matched = false;
    while (nextLine(line)) {
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        const std::vector<std::string> f = csvFields(line);
        const std::string label = "line " + std::to_string(lineNo);
        const int need = std::max({xi, yi, ri, li});
        if (static_cast<int>(f.size()) <= need) {
            c.out.error = label + " has " + std::to_string(f.size()) + " fields; the header has " + std::to_string(header.size());
            return false;
        }
        if (li >= 0 && !c.o.layer.empty()) {
            const std::string &name = f[static_cast<std::size_t>(li)];
            if (std::find(layers.begin(), layers.end(), name) == layers.end() && layers.size() < 1000)
                layers.push_back(name);
            if (name != c.o.layer)
                continue;
            matched = true;
        }
        double x, y, r = 0;
        for (const auto &[index, value, name] : {std::tuple{xi, &x, "x"}, std::tuple{yi, &y, "y"}})
            if (!csvNumber(f[static_cast<std::size_t>(index)], *value)) {
                c.out.error = label + ": " + name + " is " + quoted(f[static_cast<std::size_t>(index)]) + ", not a number";
                return false;
            }
        bool hasR = false;
        if (ri >= 0 && !f[static_cast<std::size_t>(ri)].empty()) {
            if (!csvNumber(f[static_cast<std::size_t>(ri)], r)) {
                c.out.error = label + ": " + header[static_cast<std::size_t>(ri)] + " is " + quoted(f[static_cast<std::size_t>(ri)])
                              + ", not a number";
                return false;
            }
            hasR = true;
        }
        if (!c.add(x, y, hasR, r, label))
            return false;
    }
    if (!c.o.layer.empty() && !matched) {
        c.out.error = "the CSV has no rows of layer " + quoted(c.o.layer) + "; its layers: " + nameList(layers);
        return false;
    }
    return true;
}

} // namespace

PointsLoad loadPointsFile(const std::string &path, const PointsFileOptions &options)
{
    PointsLoad r;
    std::string text;
    if (!readBounded(path, text, r.error))
        return r;
    PointCollector c{r, options};
    bool ok;
    if (hasExtension(path, ".csv")) {
        ok = csvPoints(text, c);
    } else {
        json root;
        if (!parseJson(text, root, r.error))
            return r;
        text = {};
        if (textAt(root, "format") == "grove.points")
            ok = grovePoints(root, c);
        else if (isTiledMap(root))
            ok = tiledPoints(root, c);
        else if (isGeoJson(root))
            ok = geoPoints(root, c);
        else {
            r.error = "neither a grove.points export, a Tiled JSON map nor GeoJSON";
            ok = false;
        }
    }
    if (!ok)
        r.points = {};
    return r;
}

} // namespace grove
