// Unsigned integers in decimal, eight digits at a time: what the exports' numbers are made of.
#pragma once

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace grove {

// How many decimal digits v has (1 for 0).
inline int decimalLength(std::uint64_t v)
{
    static constexpr std::uint64_t kPowers[20] = {1ull,
                                                  10ull,
                                                  100ull,
                                                  1000ull,
                                                  10000ull,
                                                  100000ull,
                                                  1000000ull,
                                                  10000000ull,
                                                  100000000ull,
                                                  1000000000ull,
                                                  10000000000ull,
                                                  100000000000ull,
                                                  1000000000000ull,
                                                  10000000000000ull,
                                                  100000000000000ull,
                                                  1000000000000000ull,
                                                  10000000000000000ull,
                                                  100000000000000000ull,
                                                  1000000000000000000ull,
                                                  10000000000000000000ull};
    // log10(2) is about 1233 / 4096: t + 1 is the length of 2^(width - 1), right or one short.
    // v | 1 has v's length (the powers of ten past 1 are even) and makes 0 count as 1.
    const std::uint64_t odd = v | 1;
    const int t = (static_cast<int>(std::bit_width(odd)) * 1233) >> 12;
    return t + 1 - static_cast<int>(odd < kPowers[t]);
}

// The eight digits of v < 10^8, zeros in front, at out. The four pairs of digits are worked out
// at once, in the 32- then 16-bit lanes of one 64-bit integer: a quotient by 100 or 10 as a
// product and a shift (exact below 10^4 and 100), the remainder from it, no carry between lanes.
inline void eightDigits(char *out, std::uint32_t v)
{
    const std::uint64_t halves = (v / 10000) | (static_cast<std::uint64_t>(v % 10000) << 32);
    const std::uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007Full;
    const std::uint64_t pairs = ((halves - 100 * hundreds) << 16) | hundreds;  // 16-bit lanes, in reading order
    const std::uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000Full;
    const std::uint64_t text = tens | ((pairs - 10 * tens) << 8) | 0x3030303030303030ull;
    std::memcpy(out, &text, 8);  // the first digit in the lowest byte
}

// The decimal digits of v (no sign, no zeros in front, "0" for 0) as the last of text[0, 24):
// their count n, the digits at text + 24 - n. What is before them is left as it was.
inline int decimalDigitsAtEnd(char *text, std::uint64_t v)
{
    if constexpr (std::endian::native != std::endian::little) {
        char digits[24];
        const int n = static_cast<int>(std::to_chars(digits, digits + 24, v).ptr - digits);
        std::memcpy(text + 24 - n, digits, static_cast<std::size_t>(n));
        return n;
    } else {
        const int n = decimalLength(v);
        eightDigits(text + 16, static_cast<std::uint32_t>(v % 100000000));
        if (n > 8) {
            const std::uint64_t high = v / 100000000;
            eightDigits(text + 8, static_cast<std::uint32_t>(high % 100000000));
            if (n > 16)
                eightDigits(text, static_cast<std::uint32_t>(high / 100000000));  // below 10^4
        }
        return n;
    }
}

// The decimal digits of v (no sign, no zeros in front, "0" for 0) at out, which has room for
// 20; returns their end. std::to_chars's text in half its time for 17 digits (the shortest digits
// of most coordinates): 18 against 36 ns here.
inline char *decimalDigits(char *out, std::uint64_t v)
{
    if (v < 10) {
        *out = static_cast<char>('0' + v);
        return out + 1;
    }
    char text[24];
    const int n = decimalDigitsAtEnd(text, v);
    std::memcpy(out, text + 24 - n, static_cast<std::size_t>(n));
    return out + n;
}

} // namespace grove
