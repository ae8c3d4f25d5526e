// Value accessors and the one number formatter every writer (YAML, JSON, CSV) shares.
#include "Value.h"

#include <charconv>
#include <cmath>

namespace grove {

namespace {
const std::string kEmptyString;
const ValueList kEmptyList;
const ValueMap kEmptyMap;
} // namespace

const std::string &Value::toString() const
{
    return isString() ? std::get<std::string>(m_data) : kEmptyString;
}

const ValueList &Value::toList() const
{
    return isList() ? std::get<ValueList>(m_data) : kEmptyList;
}

const ValueMap &Value::toMap() const
{
    return isMap() ? std::get<ValueMap>(m_data) : kEmptyMap;
}

const Value *Value::find(const std::string &key) const
{
    if (!isMap())
        return nullptr;
    for (const auto &[k, v] : std::get<ValueMap>(m_data))
        if (k == key)
            return &v;
    return nullptr;
}

std::string formatNumber(double value)
{
    if (std::isnan(value))
        return ".nan";
    if (std::isinf(value))
        return value > 0 ? ".inf" : "-.inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, res.ptr);
}

} // namespace grove
