// Value accessors, the one number formatter every writer (YAML, JSON, CSV) shares, and value hashing.
#include "core/base/Value.h"

#include "core/base/Sha256.h"
#include "core/base/TextEscape.h"

#include <bit>
#include <cmath>
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
    char buf[kMaxNumberChars];
    return std::string(buf, writeNumber(buf, value));
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
