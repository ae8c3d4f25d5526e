// Value accessors, the one number formatter every writer (YAML, JSON, CSV) shares, and value hashing.
#include "Value.h"

#include "Sha256.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace grove {

namespace {
const std::string kEmptyString;
const ValueList kEmptyList;
const ValueMap kEmptyMap;

// Little-endian, so the bytes do not depend on the machine.
void hashU64(Sha256 &hash, std::uint64_t v)
{
    char bytes[8];
    for (int i = 0; i < 8; ++i)
        bytes[i] = static_cast<char>(v >> (8 * i));
    hash.update(std::string_view(bytes, 8));
}

void hashText(Sha256 &hash, const std::string &text)
{
    hashU64(hash, text.size());
    hash.update(text);
}
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
    if (value == 0)
        return std::signbit(value) ? "-0" : "0";
    // Shortest round-trip digits, laid out as JavaScript's Number#toString does: plain
    // notation from 1e-7 up to 1e21, exponent form outside.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, res.ptr);  // e.g. "-1.2345e+02"
    std::string out;
    size_t pos = 0;
    if (sci[0] == '-') {
        out = "-";
        pos = 1;
    }
    const size_t e = sci.find('e');
    std::string digits;
    for (size_t i = pos; i < e; ++i)
        if (sci[i] != '.')
            digits += sci[i];
    const int exponent = std::stoi(sci.substr(e + 1));
    const int k = static_cast<int>(digits.size());
    const int n = exponent + 1;  // value = 0.digits * 10^n
    if (k <= n && n <= 21) {
        out += digits + std::string(static_cast<size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        out += digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
    } else if (-6 < n && n <= 0) {
        out += "0." + std::string(static_cast<size_t>(-n), '0') + digits;
    } else {
        out += digits.substr(0, 1);
        if (k > 1)
            out += "." + digits.substr(1);
        out += "e" + std::string(n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
    }
    return out;
}

void hashValue(Sha256 &hash, const Value &value)
{
    static constexpr char kTags[] = "NBDSLM";  // one per Kind
    hash.update(std::string_view(&kTags[static_cast<int>(value.kind())], 1));
    switch (value.kind()) {
    case Value::Kind::Null: break;
    case Value::Kind::Bool: hash.update(value.toBool() ? "1" : "0"); break;
    case Value::Kind::Number: {
        const double d = value.toNumber();
        hashU64(hash, std::bit_cast<std::uint64_t>(std::isnan(d) ? std::numeric_limits<double>::quiet_NaN() : d));
        break;
    }
    case Value::Kind::String: hashText(hash, value.toString()); break;
    case Value::Kind::List:
        hashU64(hash, value.toList().size());
        for (const Value &item : value.toList())
            hashValue(hash, item);
        break;
    case Value::Kind::Map:
        hashU64(hash, value.toMap().size());
        for (const auto &[key, item] : value.toMap()) {
            hashText(hash, key);
            hashValue(hash, item);
        }
        break;
    }
}

} // namespace grove
