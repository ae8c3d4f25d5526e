// The caves node's cellular automaton: a grid of wall (1) and open (0) cells, its seeded first fill
// and the birth/survival rule, apart from the node so a test can run one step on a hand-made grid.
#pragma once

#include "core/base/DataTypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace grove::cave {

// A rule in the B/S notation ("B5678/S45678"), counting WALL neighbours of the 8 around a cell
// (cells beyond the grid are wall): an open cell becomes wall when its count is a B digit, a wall
// stays wall when its count is an S digit, every other cell is open after the step.
struct Rule
{
    std::uint16_t birth = 0;     // bit n: n wall neighbours make an open cell wall
    std::uint16_t survival = 0;  // bit n: n wall neighbours keep a wall
};

// The classic cave rule (the "4-5 rule"): wall with 5 or more wall neighbours, or 4 for a wall.
inline constexpr const char *kClassicRule = "B5678/S45678";

// The rule in `text`, or nothing with the reason in `why`: "B", digits 0-8 (each at most once),
// "/S", digits 0-8 (each at most once). Either digit list may be empty.
inline std::optional<Rule> parseRule(const std::string &text, std::string *why = nullptr)
{
    auto fail = [&](std::string reason) -> std::optional<Rule> {
        if (why)
            *why = std::move(reason);
        return std::nullopt;
    };
    const std::size_t slash = text.find('/');
    if (text.size() < 3 || (text[0] != 'B' && text[0] != 'b') || slash == std::string::npos || slash + 1 >= text.size()
        || (text[slash + 1] != 'S' && text[slash + 1] != 's'))
        return fail("expected a rule like " + std::string(kClassicRule) + ": B, the wall-neighbour counts (0-8) that make "
                    "an open cell wall, /S, the counts that keep a wall");
    Rule rule;
    auto digits = [&](std::size_t from, std::size_t to, std::uint16_t &bits, const char *part) -> bool {
        for (std::size_t i = from; i < to; ++i) {
            const char c = text[i];
            if (c < '0' || c > '8') {
                fail(std::string("the ") + part + " part holds '" + std::string(1, c) + "': only the digits 0 to 8 count neighbours");
                return false;
            }
            const std::uint16_t bit = static_cast<std::uint16_t>(1u << (c - '0'));
            if (bits & bit) {
                fail(std::string("the ") + part + " part names " + std::string(1, c) + " twice");
                return false;
            }
            bits |= bit;
        }
        return true;
    };
    if (!digits(1, slash, rule.birth, "B") || !digits(slash + 2, text.size(), rule.survival, "S"))
        return std::nullopt;
    return rule;
}

// One synchronous step of `rule` on a cols x rows grid (row-major, 1 = wall), every cell from the
// grid before the step; cells beyond the border count as wall.
inline std::vector<std::uint8_t> step(const std::vector<std::uint8_t> &cells, int cols, int rows, Rule rule)
{
    std::vector<std::uint8_t> out(cells.size());
    auto wall = [&](int c, int r) -> int {
        if (c < 0 || r < 0 || c >= cols || r >= rows)
            return 1;
        return cells[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)];
    };
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            int n = 0;
            for (int dr = -1; dr <= 1; ++dr)
                for (int dc = -1; dc <= 1; ++dc)
                    if (dr != 0 || dc != 0)
                        n += wall(c + dc, r + dr);
            const std::uint16_t bit = static_cast<std::uint16_t>(1u << n);
            const bool isWall = wall(c, r) != 0;
            out[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)]
                = isWall ? ((rule.survival & bit) != 0) : ((rule.birth & bit) != 0);
        }
    return out;
}

// The salt of the first fill's hash.
inline constexpr std::uint32_t kFillSalt = 0x63617665u;  // "cave"

// Cell (col, row) starts as wall when pointHash01(seed, col + row * 2^32, kFillSalt) < fill: one
// hash per cell, so a cell's start does not depend on the world's size or on any other cell.
inline bool startsAsWall(std::int32_t seed, int col, int row, double fill)
{
    const std::uint64_t id = static_cast<std::uint64_t>(static_cast<std::uint32_t>(col))
                             | (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row)) << 32);
    return pointHash01(seed, id, kFillSalt) < fill;
}

} // namespace grove::cave
