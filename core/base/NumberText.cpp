// Numbers read and fixed-decimal numbers written with std::from_chars and std::to_chars: no locale.
#include "core/base/NumberText.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace grove {

bool parseNumber(std::string_view text, double &out)
{
    if (text.empty())
        return false;
    const std::string s(text);
    std::string t = s;
    bool negative = false;
    if (t[0] == '+' || t[0] == '-') {
        negative = t[0] == '-';
        t = t.substr(1);
    }
    if (t == ".inf" || t == ".Inf" || t == ".INF") {
        out = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return true;
    }
    if ((t == ".nan" || t == ".NaN" || t == ".NAN") && s[0] != '+' && s[0] != '-') {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    // digits, optional fraction, optional exponent; nothing else
    size_t i = 0, digits = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
        ++i, ++digits;
    if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i, ++digits;
    }
    if (digits == 0)
        return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        size_t expDigits = 0;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i, ++expDigits;
        if (expDigits == 0)
            return false;
    }
    if (i != t.size())
        return false;
    if (t[0] == '.')
        t = "0" + t;  // from_chars wants a digit first
    double v = 0;
    auto res = std::from_chars(t.data(), t.data() + t.size(), v);
    if (res.ec == std::errc::result_out_of_range) {
        // beyond double: overflow gives inf (then refused by the param's range), underflow 0
        const size_t ePos = t.find_first_of("eE");
        const std::string mantissa = t.substr(0, ePos);
        long long exponent = 0;
        if (ePos != std::string::npos) {
            const std::string e = t.substr(ePos + 1);
            exponent = e.size() > 12 ? (e[0] == '-' ? -1000000 : 1000000) : std::stoll(e);
        }
        const size_t point = mantissa.find('.');
        const std::string whole = mantissa.substr(0, point);
        const size_t firstNonZero = whole.find_first_not_of('0');
        long long magnitude = firstNonZero == std::string::npos ? 0 : static_cast<long long>(whole.size() - firstNonZero);
        if (magnitude == 0 && point != std::string::npos) {
            const std::string frac = mantissa.substr(point + 1);
            magnitude = -static_cast<long long>(frac.find_first_not_of('0'));
        }
        v = magnitude + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    } else if (res.ec != std::errc() || res.ptr != t.data() + t.size()) {
        return false;
    }
    out = negative ? -v : v;
    return true;
}

std::string formatFixed(double value, int decimals)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    // the widest: a sign, 309 digits of DBL_MAX, the point and the decimals
    std::array<char, 330 + 64> buf;
    const int places = decimals < 0 ? 0 : decimals > 60 ? 60 : decimals;
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::fixed, places);
    return std::string(buf.data(), res.ptr);
}

std::string formatForReading(double value)
{
    return formatFixed(value, std::abs(value) >= 100 || value == std::floor(value) ? 0 : 1);
}

} // namespace grove
