// place_layer's pins and erase areas: their params, their checks, the erase mask.
#include "HandEdits.h"

#include "ParamBuilders.h"

#include "core/base/Diagnostic.h"
#include "core/graph/AreaValue.h"
#include "core/graph/EvalContext.h"
#include "core/geometry/Polygon.h"
#include "core/math/ExactHypot.h"
#include "core/math/Torus.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace grove {

namespace {

std::string pinText(std::size_t i) { return "pin " + std::to_string(i); }

std::string at(double x, double y) { return "(" + formatNumber(x) + ", " + formatNumber(y) + ")"; }

// The closest-listed pair of pins closer than `spacing(a, b)` (<= reach): pins bucketed in cells
// of side `reach`, so a long list costs n log n plus the close pairs. Of several pairs, the one
// whose later pin comes first in the list.
template <typename PairSpacing>
std::optional<std::pair<std::size_t, std::size_t>> closePins(const std::vector<Pin> &pins, double reach, PairSpacing spacing)
{
    const auto cellOf = [&](double v) {
        return static_cast<std::int64_t>(std::clamp(std::floor(v / reach), -4e18, 4e18));
    };
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> cells;
    std::optional<std::pair<std::size_t, std::size_t>> found;
    for (std::size_t b = 0; b < pins.size() && !found; ++b) {
        if (!std::isfinite(pins[b].x) || !std::isfinite(pins[b].y))
            continue;  // a NaN pin is its own problem, reported by the value check
        const std::int64_t cx = cellOf(pins[b].x), cy = cellOf(pins[b].y);
        for (std::int64_t dy = -1; dy <= 1; ++dy)
            for (std::int64_t dx = -1; dx <= 1; ++dx) {
                auto it = cells.find({cx + dx, cy + dy});
                if (it == cells.end())
                    continue;
                for (std::size_t a : it->second) {
                    const double ex = pins[a].x - pins[b].x, ey = pins[a].y - pins[b].y;
                    const double s = spacing(a, b);
                    if (ex * ex + ey * ey < s * s && (!found || a < found->first))
                        found = std::make_pair(a, b);
                }
            }
        cells[{cx, cy}].push_back(b);
    }
    return found;
}

std::string closeMessage(const std::vector<Pin> &pins, std::size_t a, std::size_t b, double spacing, const std::string &what)
{
    const double d = exactHypot(pins[a].x - pins[b].x, pins[a].y - pins[b].y);
    return pinText(b) + " at " + at(pins[b].x, pins[b].y) + " is " + formatNumber(std::round(d * 1000) / 1000) + " from " + pinText(a) + " at "
           + at(pins[a].x, pins[a].y) + ", closer than " + what + " " + formatNumber(spacing)
           + ": move one of them, or delete one";
}

// `allowed` with the erase areas taken out.
class ErasedMask final : public Mask
{
public:
    ErasedMask(MaskPtr allowed, ShapeSet areas, double periodX, double periodY)
        : m_allowed(std::move(allowed)), m_bounds(boundsOf(areas)), m_areas(std::move(areas), 0), m_periodX(periodX),
          m_periodY(periodY)
    {
    }
    // Away from every erased area, the allowed area's own answer; erasing only takes ground away.
    MaskOver over(const Region &area) const override
    {
        const MaskOver allowed = m_allowed ? m_allowed->over(area) : MaskOver::AllTrue;
        const bool apart = m_periodX <= 0 && m_periodY <= 0
                           && (area.x1 < m_bounds.x0 || area.x0 > m_bounds.x1 || area.y1 < m_bounds.y0 || area.y0 > m_bounds.y1);
        return apart || allowed == MaskOver::AllFalse ? allowed : MaskOver::Mixed;
    }
    bool at(double x, double y) const override
    {
        const bool erased = m_periodX > 0 || m_periodY > 0
                                ? onTorus(x, y, m_periodX, m_periodY, [this](double u, double v) { return m_areas.covered(u, v); })
                                : m_areas.covered(x, y);
        return !erased && (!m_allowed || m_allowed->at(x, y));
    }

private:
    // a box around every area, a little wider than rounding could make it
    static Region boundsOf(const ShapeSet &areas)
    {
        Region b{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
        const auto grow = [&](double x, double y, double r) {
            b = {std::min(b.x0, x - r), std::min(b.y0, y - r), std::max(b.x1, x + r), std::max(b.y1, y + r)};
        };
        for (const ShapeEllipse &e : areas.ellipses)
            grow(e.c.x, e.c.y, std::max(e.a, e.b));
        for (const ShapePolygon &polygon : areas.polygons)
            for (const auto &ring : polygon.rings)
                for (const Vec2 &v : ring)
                    grow(v.x, v.y, 0);
        const double margin = 1e-6 * (1 + std::max({std::fabs(b.x0), std::fabs(b.y0), std::fabs(b.x1), std::fabs(b.y1)}));
        return {b.x0 - margin, b.y0 - margin, b.x1 + margin, b.y1 + margin};
    }

    MaskPtr m_allowed;
    Region m_bounds;
    ShapeIndex m_areas;
    double m_periodX, m_periodY;
};

} // namespace

ParamSpec pinsParam()
{
    using namespace build;
    RecordField x{"x", ParamKind::Number, true, Value(), -1e9, 1e9, false, FieldRole::X};
    RecordField y{"y", ParamKind::Number, true, Value(), -1e9, 1e9, false, FieldRole::Y};
    RecordField type{"type", ParamKind::String, false, Value(), -inf, inf, true, FieldRole::Type};
    RecordField rotation{"rotation", ParamKind::Number, false, Value(), -1e6, 1e6, true, FieldRole::Rotation};
    RecordField scale{"scale", ParamKind::Number, false, Value(), 1e-6, 1e6, true, FieldRole::Scale};
    return recordList("pins").role(ParamRole::Pins).field(x).field(y).field(type).field(rotation).field(scale)
        .describe("points placed by hand, before the layer grows around them: {x, y} and optionally a type, a "
                  "rotation (degrees) and a scale; placed at exactly x, y whatever changes upstream");
}

ParamSpec eraseParam()
{
    using namespace build;
    return areaList("erase").role(ParamRole::EraseAreas).describe(
        "areas this layer keeps empty, taken out of its allowed area before placement: {circle: [x, y, radius]} or "
        "{polygon: [[x, y], [x, y], [x, y], ...]} (even-odd inside); pins inside an area stay");
}

std::vector<Pin> readPins(const Value &pins, const std::vector<WeightedType> &types)
{
    std::vector<Pin> out;
    for (const Value &item : pins.toList()) {
        Pin p;
        p.x = item.find("x") ? item.find("x")->toNumber() : 0;
        p.y = item.find("y") ? item.find("y")->toNumber() : 0;
        if (const Value *t = item.find("type"); t && t->isString())
            for (std::size_t i = 0; i < types.size(); ++i)
                if (types[i].name == t->toString())
                    p.type = static_cast<int>(i);
        if (const Value *r = item.find("rotation"); r && r->isNumber())
            p.rotation = r->toNumber();
        if (const Value *s = item.find("scale"); s && s->isNumber())
            p.scale = s->toNumber();
        out.push_back(p);
    }
    return out;
}

void checkPins(const ValueMap &params, ParamIssues &issues)
{
    const Value *pinsValue = nullptr, *typesValue = nullptr;
    for (const auto &[k, v] : params) {
        if (k == "pins")
            pinsValue = &v;
        if (k == "types")
            typesValue = &v;
    }
    if (!pinsValue || !pinsValue->isList())
        return;
    std::vector<std::string> names;
    for (const auto &t : typesValue ? typesValue->toList() : ValueList{})
        if (const Value *n = t.find("name"))
            names.push_back(n->toString());
    const ValueList &list = pinsValue->toList();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Value *t = list[i].find("type");
        if (!t || !t->isString() || std::find(names.begin(), names.end(), t->toString()) != names.end())
            continue;
        issues.emplace_back("pins[" + std::to_string(i) + "].type",
                            names.empty() ? pinText(i) + "'s type " + quote(t->toString()) + " needs a types list that names it"
                                          : pinText(i) + "'s type " + quote(t->toString()) + " is not one of the types"
                                                + didYouMean(t->toString(), names));
    }
    const double radius = build::paramNumber(params, "radius");
    if (!(radius > 0) || list.size() < 2)
        return;
    const std::vector<Pin> pins = readPins(*pinsValue, {});
    if (auto pair = closePins(pins, radius, [&](std::size_t, std::size_t) { return radius; }))
        issues.emplace_back("pins[" + std::to_string(pair->second) + "]",
                            closeMessage(pins, pair->first, pair->second, radius, "the layer's radius"));
}

bool checkPinsInWorld(EvalContext &ctx, const std::vector<Pin> &pins, const std::vector<double> &radii)
{
    const World &w = ctx.world();
    for (std::size_t i = 0; i < pins.size(); ++i)
        if (!w.endless && !(pins[i].x >= 0 && pins[i].x < w.width && pins[i].y >= 0 && pins[i].y < w.height)) {
            ctx.failAt("pins[" + std::to_string(i) + "]",
                       pinText(i) + " at " + at(pins[i].x, pins[i].y) + " lies outside the world (0 to " + formatNumber(w.width)
                           + " x 0 to " + formatNumber(w.height) + "): move it inside, or delete it");
            return false;
        }
    double reach = 0;
    for (double r : radii)
        reach = std::max(reach, r);
    if (auto pair = closePins(pins, reach, [&](std::size_t a, std::size_t b) { return std::min(radii[a], radii[b]); })) {
        const double spacing = std::min(radii[pair->first], radii[pair->second]);
        ctx.failAt("pins[" + std::to_string(pair->second) + "]",
                   closeMessage(pins, pair->first, pair->second, spacing, "their radius there"));
        return false;
    }
    return true;
}

MaskPtr withoutErased(MaskPtr allowed, const Value &erase, double periodX, double periodY)
{
    if (!erase.isList() || erase.toList().empty())
        return allowed;
    ShapeSet areas;
    for (const std::optional<Area> &area : readAreaList(erase)) {
        if (!area) {
            continue;  // a checked graph holds none
        } else if (area->circle) {
            ShapeEllipse e;
            e.c = {area->centre.x, area->centre.y};
            e.a = e.b = area->radius;
            areas.ellipses.push_back(e);
        } else {
            ShapePolygon polygon;
            polygon.rings.emplace_back();
            for (const AreaPoint &v : area->polygon)
                polygon.rings[0].push_back({v.x, v.y});
            areas.polygons.push_back(std::move(polygon));
        }
    }
    return std::make_shared<ErasedMask>(std::move(allowed), std::move(areas), periodX, periodY);
}

std::vector<PinnedAttributes> pinnedAttributes(const std::vector<Pin> &pins, const std::vector<std::uint64_t> &ids)
{
    std::vector<PinnedAttributes> out;
    for (std::size_t i = 0; i < pins.size() && i < ids.size(); ++i) {
        const Pin &p = pins[i];
        if (p.type < 0 && std::isnan(p.rotation) && std::isnan(p.scale))
            continue;
        out.push_back({ids[i], p.type, p.rotation, p.scale});
    }
    std::sort(out.begin(), out.end(), [](const PinnedAttributes &a, const PinnedAttributes &b) { return a.id < b.id; });
    return out;
}

} // namespace grove
