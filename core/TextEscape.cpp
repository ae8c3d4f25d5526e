// The one JSON string escaper, and the one \xHH byte escape.
#include "TextEscape.h"

#include <charconv>
#include <cmath>
#include <cstdint>
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
        if (static_cast<double>(whole) == value)
            return std::to_chars(out, out + 24, whole).ptr;
    }
    // Shortest round-trip digits, laid out as JavaScript's Number#toString does: plain
    // notation from 1e-7 up to 1e21, exponent form outside.
    char sci[32];
    const char *const end = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific).ptr;
    const char *p = sci;  // e.g. "-1.2345e+02"
    if (*p == '-') {
        *out++ = '-';
        ++p;
    }
    char digits[24];
    int k = 0;
    digits[k++] = *p++;
    if (*p == '.')
        for (++p; *p != 'e'; ++p)
            digits[k++] = *p;
    ++p;  // 'e'
    const bool negative = *p++ == '-';
    int exponent = 0;
    for (; p < end; ++p)
        exponent = exponent * 10 + (*p - '0');
    const int n = (negative ? -exponent : exponent) + 1;  // value = 0.digits * 10^n
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

} // namespace grove
