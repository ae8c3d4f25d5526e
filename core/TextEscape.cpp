// The one JSON string escaper, and the one \xHH byte escape.
#include "TextEscape.h"

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

} // namespace grove
