// Park-Miller "minimal standard" generator, bit-exact with the seed tutorial's SeededRandom.
#pragma once

#include <cstddef>
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
        m_state = static_cast<std::int64_t>(mulMod(static_cast<std::uint64_t>(m_state), kMultiplier));
        return m_state;
    }

    // state * m mod (2^31 - 1) for state, m in [1, 2^31 - 2], by the Mersenne fold: the same
    // value as `%`, without a division. With m = 16807^j it jumps j draws ahead.
    static std::uint64_t mulMod(std::uint64_t state, std::uint64_t m)
    {
        const std::uint64_t x = state * m;  // < 2^62
        std::uint64_t r = (x & 0x7fffffffu) + (x >> 31);  // < 2^32 - 1, congruent to x
        if (r >= 0x7fffffffu)
            r -= 0x7fffffffu;
        return r;
    }
    static constexpr std::uint64_t kMultiplier = 16807;

    // Fills out[0..n) with the next n nextFloat() values, four interleaved chains at a time
    // (each jumps four draws), so the multiplications overlap. The same values as n calls.
    void fillFloats(double *out, std::size_t n)
    {
        constexpr std::uint64_t a2 = 16807ull * 16807ull % 0x7fffffffu;
        constexpr std::uint64_t a4 = a2 * a2 % 0x7fffffffu;
        std::size_t i = 0;
        if (n >= 8) {
            std::uint64_t s0 = mulMod(static_cast<std::uint64_t>(m_state), kMultiplier);
            std::uint64_t s1 = mulMod(s0, kMultiplier), s2 = mulMod(s1, kMultiplier), s3 = mulMod(s2, kMultiplier);
            for (; i + 4 <= n; i += 4) {
                out[i] = toFloat(s0);
                out[i + 1] = toFloat(s1);
                out[i + 2] = toFloat(s2);
                out[i + 3] = toFloat(s3);
                m_state = static_cast<std::int64_t>(s3);
                s0 = mulMod(s0, a4);
                s1 = mulMod(s1, a4);
                s2 = mulMod(s2, a4);
                s3 = mulMod(s3, a4);
            }
        }
        for (; i < n; ++i)
            out[i] = nextFloat();
    }

    // 1..2^31-2 mapped onto [0, 1).
    double nextFloat() { return toFloat(static_cast<std::uint64_t>(next())); }
    static double toFloat(std::uint64_t state) { return static_cast<double>(state - 1) / 2147483646.0; }

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
