// Escaping text for the formats Grove writes: JSON strings, the \xHH byte escape of YAML and
// messages, and numbers in shortest round-trip form.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace grove {

class Value;

// A JSON string literal: quotes, `"` and `\` escaped, every control character below 0x20 as
// \b \f \n \r \t or \u00XX. Other bytes (valid UTF-8, DEL) pass through unchanged.
std::string jsonQuote(std::string_view text);

// Each of `items` as jsonQuote gives it, joined by ", " (no brackets): the body of a JSON array of
// strings, or of Godot's PackedStringArray(...).
std::string jsonQuotedList(const std::vector<std::string> &items);

// A CSV field (RFC 4180): as is, or in double quotes (quotes doubled) when it holds a comma,
// a quote or a line break.
std::string csvField(const std::string &s);

// Appends "\xHH" (lower-case hex) for one byte: the escape of YAML double-quoted scalars and of
// names quoted in messages. Not valid JSON, which has only \u00XX.
void appendHexEscape(std::string &out, unsigned char byte);

// Where `text` stops being UTF-8 (the offset of the first byte that does not belong: a stray
// continuation byte, a truncated, overlong or surrogate sequence, or a code point past
// U+10FFFF), or npos when all of it is.
std::size_t invalidUtf8At(std::string_view text);

// The first text in `v` (a string, a key, or one inside its lists and maps) that is not UTF-8:
// why, and where it is in `where` ("[2].name", empty for `v` itself); nothing when all is UTF-8.
std::optional<std::string> notUtf8(const Value &v, std::string &where);

// The room writeNumber needs at out: its text is at most 25 bytes (a sign, "0." and five zeros
// before 17 digits), and it may write scratch bytes past that text's end, up to 32.
inline constexpr std::size_t kMaxNumberChars = 32;

// Writes formatNumber(value)'s text (shortest round-trip digits in JavaScript's Number#toString
// layout; .nan, .inf, -.inf) at out, which has room for kMaxNumberChars, and returns its end.
// No allocation: the exports write millions of numbers through it.
char *writeNumber(char *out, double value);

} // namespace grove
