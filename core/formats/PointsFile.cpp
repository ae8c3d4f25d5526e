// PointsFile: grove.points JSON (through the one reader of Grove's exports), Tiled objects,
// GeoJSON points and CSV (through the shared CsvReader) into placements.
#include "core/formats/PointsFile.h"

#include "core/formats/PointsExportReader.h"

#include "core/geometry/ShapesJson.h"
#include "core/base/CsvReader.h"
#include "core/base/FileInput.h"
#include "core/base/NumberText.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <tuple>

namespace grove {

namespace {

using namespace shapesfile;

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

// A grove.points export, read by the one reader of that format (PointsExportReader); a point
// needs x and y here, its radius and id are optional.
bool grovePoints(const PointsExportRead &read, PointCollector &c)
{
    std::vector<std::string> names;
    bool found = false;
    for (const DiffLayer &layer : read.layers) {
        names.push_back(layer.name);
        if (!c.o.layer.empty() && layer.name != c.o.layer)
            continue;
        found = true;
        if (layer.points.size() > c.o.maxPoints) {
            c.out.error = "layer " + shapesfile::quoted(layer.name) + " holds " + std::to_string(layer.points.size())
                          + " points, over the limit of " + std::to_string(c.o.maxPoints) + " per layer";
            return false;
        }
        c.out.points.reserve(c.out.points.size() + layer.points.size());
        for (std::size_t i = 0; i < layer.points.size(); ++i) {
            const DiffPoint &p = layer.points[i];
            const std::string label = "layer " + shapesfile::quoted(layer.name) + " point " + std::to_string(i);
            if (!c.add(p.x, p.y, !std::isnan(p.r), p.r, label))
                return false;
        }
    }
    if (!found && !c.o.layer.empty()) {
        c.out.error = "the file has no layer " + shapesfile::quoted(c.o.layer) + "; its layers: " + nameList(names);
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
    return forEachObject(layers, true, c.out.error, [&](const json &o, const std::string &label, const Placement &p) {
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
        return c.add(at.x, at.y, hasR, r, label);
    });
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

// A field as the CSV holds it, without the spaces and tabs around it.
std::string trimmed(const std::string &f)
{
    const auto b = f.find_first_not_of(" \t"), e = f.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : f.substr(b, e - b + 1);
}

bool csvNumber(const std::string &s, double &v) { return parseNumber(s, v) && std::isfinite(v); }

bool csvPoints(const std::string &text, PointCollector &c)
{
    CsvText input(text);
    CsvReader csv(input);
    const auto csvError = [&] {
        c.out.error = "line " + std::to_string(csv.errorLine()) + ", column " + std::to_string(csv.errorColumn()) + ": "
                      + csv.errorMessage();
        return false;
    };
    std::vector<std::string> header;
    if (!csv.next(header))
        return csv.error().empty() ? (c.out.error = "the file is empty", false) : csvError();
    for (std::string &h : header)
        h = trimmed(h);
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
        c.out.error = "layer is " + shapesfile::quoted(c.o.layer) + " but the CSV has no layer column; line 1 has " + found;
        return false;
    }
    std::vector<std::string> layers;
    bool matched = false;
    std::vector<std::string> f;
    while (csv.next(f)) {
        for (std::string &field : f)
            field = trimmed(field);
        if (f.size() == 1 && f[0].empty())
            continue;  // a blank line
        const std::string label = "line " + std::to_string(csv.recordLine());
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
                c.out.error = label + ": " + name + " is " + shapesfile::quoted(f[static_cast<std::size_t>(index)]) + ", not a number";
                return false;
            }
        bool hasR = false;
        if (ri >= 0 && !f[static_cast<std::size_t>(ri)].empty()) {
            if (!csvNumber(f[static_cast<std::size_t>(ri)], r)) {
                c.out.error = label + ": " + header[static_cast<std::size_t>(ri)] + " is " + shapesfile::quoted(f[static_cast<std::size_t>(ri)])
                              + ", not a number";
                return false;
            }
            hasR = true;
        }
        if (!c.add(x, y, hasR, r, label))
            return false;
    }
    if (!csv.error().empty())
        return csvError();
    if (!c.o.layer.empty() && !matched) {
        c.out.error = "the CSV has no rows of layer " + shapesfile::quoted(c.o.layer) + "; its layers: " + nameList(layers);
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
        const std::uint64_t size = text.size();
        std::istringstream in(std::move(text));  // the text itself, not a copy of it
        const PointsExportRead grove = readPointsExport(in, size + 1, nullptr, 0, PointsExportNeeds::Position);
        if (grove.kind == PointsTextKind::GrovePointsJson) {
            if (!grove.ok()) {
                r.error = grove.error;
                return r;
            }
            ok = grovePoints(grove, c);
            if (!ok)
                r.points = {};
            return r;
        }
        text = std::move(in).str();  // back, for the tree of a Tiled map or GeoJSON (or neither)
        json root;
        if (!parseJson(text, root, r.error))
            return r;
        text = {};
        if (isTiledMap(root))
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
