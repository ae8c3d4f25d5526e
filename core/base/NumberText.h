// Numbers as text, the same bytes in every locale. parseNumber reads every number Grove takes as
// text (graphs, expectations, CSV, CLI arguments, the C API, the editor's fields); formatNumber
// (Value.h, over TextEscape.h's writeNumber) prints them, shortest round trip; formatFixed prints
// a fixed number of decimals for messages and reports. All are built on std::from_chars and
// std::to_chars, which never consult the C locale a host (the editor's QApplication, a game
// engine) may have set: under de_DE.UTF-8 strtod and printf("%f") read and write "0,98".
#pragma once

#include <string>
#include <string_view>

namespace grove {

// Reads the whole of text as a number in the graph's notation: an optional sign, digits with an
// optional '.' fraction (".5" and "5." too), an optional exponent ("1e-3"), or YAML's ".inf",
// "-.inf" and ".nan". Nothing else: no spaces, no hexadecimal, no comma for a decimal point.
// A magnitude beyond double gives +-inf, one below its smallest 0 (callers wanting finite numbers
// check). formatNumber's text reads back to the same double. Returns false, out untouched, when
// text is not such a number.
bool parseNumber(std::string_view text, double &out);

// value with exactly `decimals` digits after a '.' (printf's "%.*f" in the C locale): "0.98",
// "12", "3.1416"; "inf", "-inf", "nan" when not finite.
std::string formatFixed(double value, int decimals);

// A distance or radius in a message a designer reads: whole numbers and magnitudes from 100 up
// without decimals, the rest with one ("11", "2.5", "1663", "-0.4").
std::string formatForReading(double value);

} // namespace grove
