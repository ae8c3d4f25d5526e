// The JSON side of shapes and points files, shared by ShapesFile.cpp (shapes) and PointsFile.cpp
// (placements): reading a file within its bounds, JSON parsed after its nesting is checked, members
// by type, Tiled object layers and placements, GeoJSON positions and features. Internal to geometry.
#pragma once

#include "core/base/DataTypes.h"
#include "core/geometry/Polygon.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace grove::shapesfile {

using json = nlohmann::json;

std::string num(double v);
// s in double quotes, cut to 80 bytes, control characters as '?'
std::string quoted(const std::string &s);
// the first 20 quoted, then how many more ("none" when empty)
std::string nameList(const std::vector<std::string> &names);

// The whole file, refused before reading when it is not a regular file, empty or too large.
bool readBounded(const std::string &path, std::string &text, std::string &error);
// Parsed after its nesting is checked (the parser recurses).
bool parseJson(const std::string &text, json &out, std::string &error);

const json *member(const json &j, const char *key);
bool numberAt(const json &j, const char *key, double &out);
std::string textAt(const json &j, const char *key);
bool flagAt(const json &j, const char *key);

// ---- Tiled ----

bool isTiledMap(const json &root);

struct ObjectLayer
{
    const json *layer;
    std::string name;
    double offsetX, offsetY;
};

// The object layers `name` picks (empty: every one when allowAll), or why none.
bool pickObjectLayers(const json &root, const std::string &name, bool allowAll, std::vector<ObjectLayer> &picked,
                      std::string &error);
// "object 7 \"well\"", or "object #3" without an id
std::string objectLabel(const json &o, std::size_t index);

// A Tiled object's placement: (x, y) and its turn about that point, clockwise in degrees.
struct Placement
{
    double x = 0, y = 0, cos = 1, sin = 0;
    Vec2 at(double dx, double dy) const { return {x + dx * cos - dy * sin, y + dx * sin + dy * cos}; }
};

bool placementOf(const json &o, const ObjectLayer &layer, Placement &p, std::string &error);

// fn(object, label, placement) for each object of `layers` in order, the label naming the layer
// too when layerInLabel; stops at the first false, or at an object without a placement (then
// `error` says which and why).
template <class Fn>
bool forEachObject(const std::vector<ObjectLayer> &layers, bool layerInLabel, std::string &error, Fn &&fn)
{
    for (const ObjectLayer &layer : layers) {
        const json *objects = member(*layer.layer, "objects");
        if (!objects || !objects->is_array())
            continue;
        for (std::size_t i = 0; i < objects->size(); ++i) {
            const json &o = (*objects)[i];
            const std::string label = (layerInLabel ? "layer " + quoted(layer.name) + " " : std::string()) + objectLabel(o, i);
            Placement p;
            std::string why;
            if (!placementOf(o, layer, p, why)) {
                error = label + " " + why;
                return false;
            }
            if (!fn(o, label, p))
                return false;
        }
    }
    return true;
}
bool vertexList(const json &list, const Placement &p, std::vector<Vec2> &out, std::string &error);

// ---- GeoJSON ----

bool isGeoJson(const json &root);
bool position(const json &p, Vec2 &out);
// Appends the positions, taking one from budget each; false when one is not a position or the budget is spent.
bool positions(const json &list, std::vector<Vec2> &out, std::size_t &budget);

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

} // namespace grove::shapesfile
