// Park-Miller "minimal standard" generator, bit-exact with the seed tutorial's SeededRandom.
#pragma once

#include <cstdint>

namespace grove {

class SeededRandom
{
public:
    explicit SeededRandom(std::int32_t seed)
    {
        m_state = static_cast<std::int64_t>(seed) % 2147483647;  // truncating, as JS's %
        if (m_state <= 0)
            m_state += 2147483646;
    }

    std::int64_t next()
    {
        // state * 16807 mod (2^31 - 1), by the Mersenne fold: the same value as `%` for the
        // positive states the generator keeps, without a division
        const std::uint64_t x = static_cast<std::uint64_t>(m_state) * 16807u;
        std::uint64_t r = (x & 0x7fffffffu) + (x >> 31);
        if (r >= 0x7fffffffu)
            r -= 0x7fffffffu;
        m_state = static_cast<std::int64_t>(r);
        return m_state;
    }

    // 1..2^31-2 mapped onto [0, 1).
    double nextFloat() { return static_cast<double>(next() - 1) / 2147483646.0; }

    std::int64_t state() const { return m_state; }

private:
    std::int64_t m_state;
};

// world.seed + params.seed, wrapped to int32 (JS's `(a + b) | 0`).
inline std::int32_t effectiveSeed(std::int32_t worldSeed, std::int64_t paramSeed)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(worldSeed) + static_cast<std::uint32_t>(paramSeed));
}

} // namespace grove
