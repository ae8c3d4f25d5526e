// Short constructors for param and port specs, so each node file reads like its catalog row.
#pragma once

#include "core/NodeDescriptor.h"

#include <limits>
#include <string>
#include <vector>

namespace grove::build {

inline constexpr double inf = std::numeric_limits<double>::infinity();

inline ParamSpec number(std::string name, double def, double min, double max, double softMin, double softMax,
                        std::string description, bool minExclusive = false)
{
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::Number;
    p.defaultValue = def;
    p.min = min;
    p.max = max;
    p.softMin = softMin;
    p.softMax = softMax;
    p.minExclusive = minExclusive;
    p.description = std::move(description);
    return p;
}

inline ParamSpec integer(std::string name, double def, double min, double max, double softMin, double softMax,
                         std::string description)
{
    ParamSpec p = number(std::move(name), def, min, max, softMin, softMax, std::move(description));
    p.kind = ParamKind::Integer;
    return p;
}

// The seed offset every seeded node adds to world.seed.
inline ParamSpec seed()
{
    return integer("seed", 0, -2147483648.0, 2147483647.0, 0, 100,
                   "added to world.seed (wrapped to int32): a different seed grows a different result");
}

inline ParamSpec flag(std::string name, bool def, std::string description)
{
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::Bool;
    p.defaultValue = def;
    p.description = std::move(description);
    return p;
}

inline ParamSpec text(std::string name, std::string def, std::string description)
{
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::String;
    p.defaultValue = std::move(def);
    p.description = std::move(description);
    return p;
}

inline ParamSpec choice(std::string name, std::string def, std::vector<std::string> values, std::string description)
{
    ParamSpec p;
    p.name = std::move(name);
    p.kind = ParamKind::Enum;
    p.defaultValue = std::move(def);
    p.enumValues = std::move(values);
    p.description = std::move(description);
    return p;
}

inline ParamSpec ofKind(ParamKind kind, std::string name, Value def, std::string description)
{
    ParamSpec p;
    p.name = std::move(name);
    p.kind = kind;
    p.defaultValue = std::move(def);
    p.description = std::move(description);
    return p;
}

inline PortSpec port(std::string name, DataType type, std::string description, bool optional = false)
{
    return PortSpec{std::move(name), type, optional, std::move(description)};
}

} // namespace grove::build
