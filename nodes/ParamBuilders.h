// Param and port declarations with named setters, so a node file reads like its catalog row:
//   number("radius").defaultValue(20).above(0).max(1e7).soft(1, 200).describe("...")
#pragma once

#include "core/base/Choices.h"
#include "core/graph/NodeDescriptor.h"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace grove::build {

inline constexpr double inf = std::numeric_limits<double>::infinity();

// A param's value among those a checkParams hook is given: the number (0 when absent or not a
// number), or the text (null when absent or not a string).
inline double paramNumber(const ValueMap &params, const std::string &name)
{
    for (const auto &[k, v] : params)
        if (k == name)
            return v.isNumber() ? v.toNumber() : 0;
    return 0;
}
inline const std::string *paramText(const ValueMap &params, const std::string &name)
{
    for (const auto &[k, v] : params)
        if (k == name && v.isString())
            return &v.toString();
    return nullptr;
}

class Param
{
public:
    Param(ParamKind kind, std::string name)
    {
        m_spec.kind = kind;
        m_spec.name = std::move(name);
    }
    Param &defaultValue(Value v) { m_spec.defaultValue = std::move(v); return *this; }
    Param &describe(std::string text) { m_spec.description = std::move(text); return *this; }
    Param &min(double v) { m_spec.min = v; return *this; }
    Param &max(double v) { m_spec.max = v; return *this; }
    // Strictly above v (a radius above 0).
    Param &above(double v) { m_spec.min = v; m_spec.minExclusive = true; return *this; }
    // The slider's range; typing goes to min and max.
    Param &soft(double low, double high) { m_spec.softMin = low; m_spec.softMax = high; return *this; }
    Param &allowInfinite() { m_spec.allowInfinite = true; return *this; }
    Param &values(std::vector<std::string> v) { m_spec.enumValues = std::move(v); return *this; }
    // A list of names picked from those the labels wired into `input` offer.
    Param &namesFrom(std::string input) { m_spec.namesFrom = std::move(input); return *this; }
    // The param matters only when `when` holds for the node's params (the editor hides it otherwise).
    Param &mattersWhen(std::function<bool(const ValueMap &)> when) { m_spec.mattersWhen = std::move(when); return *this; }
    Param &field(RecordField f) { m_spec.fields.push_back(std::move(f)); return *this; }
    Param &unique(std::string field, std::string noun)
    {
        m_spec.uniqueField = std::move(field);
        m_spec.recordNoun = std::move(noun);
        return *this;
    }
    Param &role(ParamRole r, std::string value = {})
    {
        m_spec.role = r;
        m_spec.roleValue = std::move(value);
        return *this;
    }
    operator ParamSpec() const { return m_spec; }

private:
    ParamSpec m_spec;
};

inline Param number(std::string name) { return Param(ParamKind::Number, std::move(name)); }
inline Param integer(std::string name) { return Param(ParamKind::Integer, std::move(name)); }
inline Param flag(std::string name) { return Param(ParamKind::Bool, std::move(name)); }
inline Param text(std::string name) { return Param(ParamKind::String, std::move(name)).defaultValue(std::string()); }
// A choice param whose values are a table's names, defaulting to `fallback`; evaluate reads it
// through the same table: ctx.choice("mode", kModes) gives the enum, never a string.
template <typename E, std::size_t N>
Param choice(std::string name, const ChoiceTable<E, N> &table, E fallback)
{
    return Param(ParamKind::Enum, std::move(name)).values(choiceNames(table)).defaultValue(choiceName(table, fallback));
}
inline Param numberList(std::string name) { return Param(ParamKind::NumberList, std::move(name)).defaultValue(ValueList{}); }
inline Param nameList(std::string name) { return Param(ParamKind::StringList, std::move(name)).defaultValue(ValueList{}); }
inline Param color(std::string name) { return Param(ParamKind::Color, std::move(name)); }
inline Param colorList(std::string name) { return Param(ParamKind::ColorList, std::move(name)).defaultValue(ValueList{}); }
inline Param range(std::string name) { return Param(ParamKind::Range, std::move(name)); }
inline Param recordList(std::string name) { return Param(ParamKind::RecordList, std::move(name)).defaultValue(ValueList{}); }
inline Param record(std::string name) { return Param(ParamKind::Record, std::move(name)); }
inline Param areaList(std::string name) { return Param(ParamKind::AreaList, std::move(name)).defaultValue(ValueList{}); }
inline Param pathList(std::string name) { return Param(ParamKind::PathList, std::move(name)).defaultValue(ValueList{}); }

// The seed offset every seeded node adds to world.seed.
inline Param seed()
{
    return integer("seed").role(ParamRole::Seed).defaultValue(0).min(-2147483648.0).max(2147483647.0).soft(0, 100)
        .describe("added to world.seed (wrapped to int32): a different seed grows a different result");
}

class Port
{
public:
    Port(std::string name, DataType type)
    {
        m_spec.name = std::move(name);
        m_spec.type = type;
    }
    Port &optional() { m_spec.optional = true; return *this; }
    Port &describe(std::string text) { m_spec.description = std::move(text); return *this; }
    Port &role(PortRole r) { m_spec.role = r; return *this; }
    operator PortSpec() const { return m_spec; }

private:
    PortSpec m_spec;
};

inline Port port(std::string name, DataType type) { return Port(std::move(name), type); }

} // namespace grove::build
