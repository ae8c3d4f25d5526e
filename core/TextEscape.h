// Escaping text for the formats Grove writes: JSON strings, and the \xHH byte escape of YAML and messages.
#pragma once

#include <string>
#include <string_view>

namespace grove {

// A JSON string literal: quotes, `"` and `\` escaped, every control character below 0x20 as
// \b \f \n \r \t or \u00XX. Other bytes (valid UTF-8, DEL) pass through unchanged.
std::string jsonQuote(std::string_view text);

// Appends "\xHH" (lower-case hex) for one byte: the escape of YAML double-quoted scalars and of
// names quoted in messages. Not valid JSON, which has only \u00XX.
void appendHexEscape(std::string &out, unsigned char byte);

} // namespace grove
