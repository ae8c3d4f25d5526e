// The one JSON string escaper, and the one \xHH byte escape.
#include "core/base/TextEscape.h"

#include "core/base/DecimalDigits.h"
#include "core/base/ShortestDigits.h"
#include "core/base/Value.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace grove {

namespace {
constexpr char kHexDigits[] = "0123456789abcdef";
} // namespace

std::string jsonQuote(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (const char ch : text) {
        const unsigned char c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += kHexDigits[c >> 4];
                out += kHexDigits[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
    return out;
}

std::string jsonQuotedList(const std::vector<std::string> &items)
{
    std::string out;
    for (const std::string &item : items)
        out += (out.empty() ? "" : ", ") + jsonQuote(item);
    return out;
}

void appendHexEscape(std::string &out, unsigned char byte)
{
    out += "\\x";
    out += kHexDigits[byte >> 4];
    out += kHexDigits[byte & 15];
}

namespace {
template<std::size_t N>
char *copyText(char *out, const char (&s)[N])
{
    std::memcpy(out, s, N - 1);
    return out + N - 1;
}
} // namespace

char *writeNumber(char *out, double value)
{
    if (std::isnan(value))
        return copyText(out, ".nan");
    if (std::isinf(value))
        return value > 0 ? copyText(out, ".inf") : copyText(out, "-.inf");
    if (value == 0) {
        if (std::signbit(value))
            *out++ = '-';
        *out++ = '0';
        return out;
    }
    // Integers below 2^53 are their own shortest round-trip digits (neighbouring doubles are at
    // most 1 apart), and JavaScript writes them plainly.
    if (std::fabs(value) < 0x1p53) {
        const auto whole = static_cast<std::int64_t>(value);
        if (static_cast<double>(whole) == value) {
            if (whole < 0)
                *out++ = '-';
            return decimalDigits(out, static_cast<std::uint64_t>(whole < 0 ? -whole : whole));
        }
    }
    // Shortest round-trip digits (ShortestDigits.h), laid out as JavaScript's Number#toString
    // does: plain notation from 1e-6 up to (not including) 1e21, exponent form outside.
    if (value < 0) {
        *out++ = '-';
        value = -value;
    }
    const ShortestDigits shortest = shortestDigits(value);
    // The digits at the end of the first 24 bytes of `text`, the 16 after them spare: a number
    // with a point in its first 14 digits (coordinates, mostly) is two copies of 16 bytes, one
    // each side of the point, cut at the end (out has room for kMaxNumberChars: the sign, 14
    // digits, the point and 16 bytes are 32)
    char text[40] = {};
    const int k = decimalDigitsAtEnd(text, shortest.digits);
    const char *digits = text + 24 - k;
    const int n = shortest.exponent + k;  // value = 0.digits * 10^n
    if (0 < n && n < k && n <= 14) {
        std::memcpy(out, digits, 16);
        out[n] = '.';
        std::memcpy(out + n + 1, digits + n, 16);
        return out + k + 1;
    }
    if (k <= n && n <= 21) {
        std::memcpy(out, digits, static_cast<size_t>(k));
        std::memset(out + k, '0', static_cast<size_t>(n - k));
        return out + n;
    }
    if (0 < n && n <= 21) {
        std::memcpy(out, digits, static_cast<size_t>(n));
        out[n] = '.';
        std::memcpy(out + n + 1, digits + n, static_cast<size_t>(k - n));
        return out + k + 1;
    }
    if (-6 < n && n <= 0) {
        *out++ = '0';
        *out++ = '.';
        std::memset(out, '0', static_cast<size_t>(-n));
        out += -n;
        std::memcpy(out, digits, static_cast<size_t>(k));
        return out + k;
    }
    *out++ = digits[0];
    if (k > 1) {
        *out++ = '.';
        std::memcpy(out, digits + 1, static_cast<size_t>(k - 1));
        out += k - 1;
    }
    *out++ = 'e';
    *out++ = n - 1 >= 0 ? '+' : '-';
    return std::to_chars(out, out + 8, n - 1 >= 0 ? n - 1 : 1 - n).ptr;
}

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::size_t invalidUtf8At(std::string_view text)
{
    std::size_t i = 0;
    const std::size_t n = text.size();
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    while (i < n) {
        const unsigned char b = byte(i);
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range (RFC 3629's table)
        if (b >= 0xC2 && b <= 0xDF)
            len = 2;
        else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            lo = b == 0xE0 ? 0xA0 : 0x80;
            hi = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            lo = b == 0xF0 ? 0x90 : 0x80;
            hi = b == 0xF4 ? 0x8F : 0xBF;
        } else
            return i;
        if (i + 1 >= n || byte(i + 1) < lo || byte(i + 1) > hi)
            return i;
        for (std::size_t k = 2; k < len; ++k)
            if (i + k >= n || (byte(i + k) & 0xC0) != 0x80)
                return i;
        i += len;
    }
    return std::string_view::npos;
}

std::optional<std::string> notUtf8(const Value &v, std::string &where)
{
    auto check = [&](const std::string &text) -> std::optional<std::string> {
        const std::size_t at = invalidUtf8At(text);
        if (at == std::string::npos)
            return std::nullopt;
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[at])));
        return "the text is not valid UTF-8 (byte " + std::string(hex) + " at offset " + std::to_string(at)
               + "): write it as UTF-8";
    };
    if (v.isString())
        return check(v.toString());
    if (v.isList()) {
        const ValueList &list = v.toList();
        for (std::size_t i = 0; i < list.size(); ++i)
            if (auto err = notUtf8(list[i], where)) {
                where = "[" + std::to_string(i) + "]" + where;
                return err;
            }
    } else if (v.isMap()) {
        for (const auto &[key, item] : v.toMap()) {
            if (auto err = check(key)) {
                where.clear();
                return err;
            }
            if (auto err = notUtf8(item, where)) {
                where = "." + key + where;
                return err;
            }
        }
    }
    return std::nullopt;
}

} // namespace grove
