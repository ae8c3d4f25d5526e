// The shortest decimal digits that read back as a given double: the digits writeNumber lays out
// as JavaScript does. Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020): three
// 128 x 64-bit products against a table of powers of ten, no big numbers, no digit-by-digit search.
#pragma once

#include <cstdint>

namespace grove {

// value = digits x 10^exponent: the fewest digits (no trailing zeros) of any decimal inside the
// double's rounding interval, the nearest to the double among those (ties to an even last
// digit), as IEEE round-to-nearest-even reads them back. For a finite, positive double; the same
// digits as std::to_chars' shortest form (tests/tst_numbers.cpp compares them).
struct ShortestDigits
{
    std::uint64_t digits;
    int exponent;
};
ShortestDigits shortestDigits(double positive);

} // namespace grove
