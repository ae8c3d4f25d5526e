// A parameter value: a small JSON-like tree with ordered maps, so params stay diffable and typed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace grove {

class Sha256;
class Value;
using ValueList = std::vector<Value>;
using ValueMap = std::vector<std::pair<std::string, Value>>;  // insertion-ordered

class Value
{
public:
    enum class Kind { Null, Bool, Number, String, List, Map };

    Value() = default;
    Value(bool b) : m_data(b) {}
    Value(double d) : m_data(d) {}
    Value(int i) : m_data(static_cast<double>(i)) {}
    Value(std::int64_t i) : m_data(static_cast<double>(i)) {}
    Value(const char *s) : m_data(std::string(s)) {}
    Value(std::string s) : m_data(std::move(s)) {}
    Value(ValueList l) : m_data(std::move(l)) {}
    Value(ValueMap m) : m_data(std::move(m)) {}

    Kind kind() const { return static_cast<Kind>(m_data.index()); }
    bool isNull() const { return kind() == Kind::Null; }
    bool isBool() const { return kind() == Kind::Bool; }
    bool isNumber() const { return kind() == Kind::Number; }
    bool isString() const { return kind() == Kind::String; }
    bool isList() const { return kind() == Kind::List; }
    bool isMap() const { return kind() == Kind::Map; }

    bool toBool(bool fallback = false) const { return isBool() ? std::get<bool>(m_data) : fallback; }
    double toNumber(double fallback = 0) const { return isNumber() ? std::get<double>(m_data) : fallback; }
    const std::string &toString() const;
    const ValueList &toList() const;
    const ValueMap &toMap() const;

    // Map lookup; returns nullptr when absent or not a map.
    const Value *find(const std::string &key) const;

    bool operator==(const Value &other) const { return m_data == other.m_data; }
    bool operator!=(const Value &other) const { return !(*this == other); }

private:
    std::variant<std::monostate, bool, double, std::string, ValueList, ValueMap> m_data;
};

// Shortest round-trip text for a double ("0.1", "880", "1e-07", ".inf", "-.inf", ".nan").
std::string formatNumber(double value);

// Feeds a value into a hash for cache keys: kind-tagged and length-prefixed, so no two different
// values feed the same bytes; numbers by their bits (-0 stays apart from 0, every NaN is one NaN).
// Independent of any file format, and stable across runs and builds.
void hashValue(Sha256 &hash, const Value &value);

} // namespace grove
