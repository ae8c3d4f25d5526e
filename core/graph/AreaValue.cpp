// AreaValue: reading and writing an area of an area list, with the loader's located messages.
#include "core/graph/AreaValue.h"

#include "core/base/Diagnostic.h"

#include <cmath>

namespace grove {

namespace {

bool coordinate(const Value &v, const char *what, double &out, std::string &error)
{
    if (!v.isNumber()) {
        error = std::string(what) + " must be a number, got " + describeKind(v);
        return false;
    }
    out = v.toNumber();
    if (!std::isfinite(out) || std::fabs(out) > kAreaReach) {
        error = std::string(what) + " must be a finite number within +-" + formatNumber(kAreaReach) + ", got "
                + formatNumber(out);
        return false;
    }
    return true;
}

std::optional<Area> readIt(const Value &v, std::string &error, std::string &where, std::size_t &vertices)
{
    static const std::vector<std::string> shapes{"circle", "polygon"};
    if (!v.isMap() || v.toMap().size() != 1) {
        error = "expected {circle: [x, y, radius]} or {polygon: [[x, y], [x, y], [x, y], ...]}, got "
                + (v.isMap() ? std::to_string(v.toMap().size()) + " keys" : describeKind(v));
        return std::nullopt;
    }
    const auto &[key, shape] = v.toMap().front();
    where = "." + key;
    Area area;
    if (key == "circle") {
        if (!shape.isList() || shape.toList().size() != 3) {
            error = "circle must be [x, y, radius], got "
                    + (shape.isList() ? std::to_string(shape.toList().size()) + " values" : describeKind(shape));
            return std::nullopt;
        }
        const auto &c = shape.toList();
        double *targets[3] = {&area.centre.x, &area.centre.y, &area.radius};
        const char *names[3] = {"x", "y", "radius"};
        for (std::size_t i = 0; i < 3; ++i)
            if (!coordinate(c[i], names[i], *targets[i], error)) {
                error = "circle " + error;
                return std::nullopt;
            }
        if (!(area.radius > 0)) {
            error = "circle radius must be > 0, got " + formatNumber(area.radius);
            return std::nullopt;
        }
        return area;
    }
    if (key == "polygon") {
        area.circle = false;
        if (!shape.isList()) {
            error = "polygon must be a list of [x, y] vertices, got " + describeKind(shape);
            return std::nullopt;
        }
        const auto &list = shape.toList();
        if (list.size() < 3) {
            error = "polygon needs 3 or more vertices, got " + std::to_string(list.size());
            return std::nullopt;
        }
        vertices += list.size();
        if (vertices > kAreaVertexLimit) {
            error = "the areas hold more than " + std::to_string(kAreaVertexLimit) + " vertices in all";
            return std::nullopt;
        }
        area.polygon.resize(list.size());
        for (std::size_t i = 0; i < list.size(); ++i)
            if (!readVertex(list[i], area.polygon[i], error)) {
                where = ".polygon[" + std::to_string(i) + "]";
                error = "vertex " + std::to_string(i) + " " + error;
                return std::nullopt;
            }
        return area;
    }
    where.clear();
    error = "unknown area " + quote(key) + didYouMean(key, shapes) + "; an area is a circle or a polygon";
    return std::nullopt;
}

} // namespace

bool readVertex(const Value &v, AreaPoint &out, std::string &error)
{
    if (!v.isList() || v.toList().size() != 2) {
        error = "must be [x, y], got " + (v.isList() ? std::to_string(v.toList().size()) + " values" : describeKind(v));
        return false;
    }
    return coordinate(v.toList()[0], "x", out.x, error) && coordinate(v.toList()[1], "y", out.y, error);
}

std::optional<Area> readArea(const Value &v, std::string *error, std::string *where, std::size_t *vertices)
{
    std::string e, w;
    std::size_t count = 0;
    std::optional<Area> area = readIt(v, error ? *error : e, where ? *where : w, vertices ? *vertices : count);
    return area;
}

std::vector<std::optional<Area>> readAreaList(const Value &list)
{
    std::vector<std::optional<Area>> areas;
    if (list.isList())
        for (const Value &item : list.toList())
            areas.push_back(readArea(item));
    return areas;
}

Value areaValue(const Area &area)
{
    ValueMap out;
    if (area.circle) {
        out.emplace_back("circle", ValueList{Value(area.centre.x), Value(area.centre.y), Value(area.radius)});
    } else {
        ValueList vertices;
        for (const AreaPoint &p : area.polygon)
            vertices.emplace_back(ValueList{Value(p.x), Value(p.y)});
        out.emplace_back("polygon", std::move(vertices));
    }
    return Value(std::move(out));
}

std::string describeKind(const Value &v)
{
    switch (v.kind()) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a bool";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::List: return "a list";
    case Value::Kind::Map: return "a map";
    }
    return "?";
}

} // namespace grove
