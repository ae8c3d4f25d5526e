// ShapesJson: the JSON helpers shared by the shapes and points files.
#include "core/geometry/ShapesJson.h"

#include "core/base/FileInput.h"
#include "core/base/Limits.h"
#include "core/base/Value.h"  // formatNumber
#include "core/math/ExactTrig.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

namespace grove::shapesfile {

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

namespace {

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

} // namespace

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

} // namespace grove::shapesfile
