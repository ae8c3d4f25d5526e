// PathValue: reading and writing a drawn path of a path list, with the loader's located messages.
#include "core/graph/PathValue.h"

#include "core/base/Diagnostic.h"
#include "core/base/Limits.h"

namespace grove {

namespace {

std::optional<DrawnPath> readOnePath(const Value &v, std::string &error, std::string &where)
{
    static const std::vector<std::string> keys{"points", "closed"};
    if (!v.isMap()) {
        error = "expected {points: [[x, y], [x, y], ...], closed: false}, got " + describeKind(v);
        return std::nullopt;
    }
    DrawnPath path;
    const Value *points = nullptr;
    for (const auto &[key, value] : v.toMap()) {
        where = "." + key;
        if (key == "points") {
            points = &value;
        } else if (key == "closed") {
            if (!value.isBool()) {
                error = "closed must be true or false, got " + describeKind(value);
                return std::nullopt;
            }
            path.closed = value.toBool();
        } else {
            error = "unknown key " + quote(key) + " in a path (a path has points and closed)" + didYouMean(key, keys);
            return std::nullopt;
        }
    }
    where = ".points";
    if (!points) {
        where.clear();
        error = "a path needs points: [[x, y], [x, y], ...]";
        return std::nullopt;
    }
    if (!points->isList()) {
        error = "points must be a list of [x, y] vertices, got " + describeKind(*points);
        return std::nullopt;
    }
    const ValueList &list = points->toList();
    if (list.size() < minimumVertices(path.closed)) {
        error = std::string(path.closed ? "a closed" : "an open") + " path needs " + std::to_string(minimumVertices(path.closed))
                + " or more vertices, got " + std::to_string(list.size());
        return std::nullopt;
    }
    if (list.size() > limits::maxDrawnPathVertices) {
        error = "a path holds at most " + std::to_string(limits::maxDrawnPathVertices) + " vertices, got "
                + std::to_string(list.size());
        return std::nullopt;
    }
    path.points.resize(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        if (!readVertex(list[i], path.points[i], error)) {
            where = ".points[" + std::to_string(i) + "]";
            error = "vertex " + std::to_string(i) + " " + error;
            return std::nullopt;
        }
    where.clear();
    return path;
}

} // namespace

std::optional<DrawnPath> readDrawnPath(const Value &v, std::string *error, std::string *where)
{
    std::string e, w;
    return readOnePath(v, error ? *error : e, where ? *where : w);
}

std::optional<std::string> checkPathList(const Value &list, std::string &where)
{
    if (!list.isList())
        return "expected a list of paths ({points: [[x, y], [x, y], ...], closed: false}), got " + describeKind(list);
    const ValueList &items = list.toList();
    if (items.size() > limits::maxDrawnPaths)
        return "a node keeps at most " + std::to_string(limits::maxDrawnPaths) + " drawn paths, got "
               + std::to_string(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        std::string part, error;
        if (!readOnePath(items[i], error, part)) {
            where = "[" + std::to_string(i) + "]" + part;
            return "path " + std::to_string(i) + ": " + error;
        }
    }
    return std::nullopt;
}

std::vector<std::optional<DrawnPath>> readPathList(const Value &list)
{
    std::vector<std::optional<DrawnPath>> paths;
    if (list.isList())
        for (const Value &item : list.toList())
            paths.push_back(readDrawnPath(item));
    return paths;
}

Value pathValue(const DrawnPath &path)
{
    ValueList points;
    for (const AreaPoint &p : path.points)
        points.emplace_back(ValueList{Value(p.x), Value(p.y)});
    ValueMap out;
    out.emplace_back("points", std::move(points));
    out.emplace_back("closed", path.closed);
    return Value(std::move(out));
}

} // namespace grove
