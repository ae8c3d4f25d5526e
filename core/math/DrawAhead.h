// The generator's stream read ahead: what the samplers use to look at a step's draws first.
#pragma once

#include "core/math/SeededRandom.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace grove {

// The generator's stream, drawn ahead: the values do not depend on how they are used, so a step
// can read the draws of all its candidates (and the next step's first draw) before deciding.
class DrawAhead
{
public:
    explicit DrawAhead(std::int32_t seed) : m_random(seed) {}

    double nextFloat()
    {
        if (m_pos == m_buffer.size())
            fill(1);
        return m_buffer[m_pos++];
    }
    // the draw `ahead` places after the next one, without taking it
    double peek(std::size_t ahead)
    {
        if (m_pos + ahead >= m_buffer.size())
            fill(ahead + 1);
        return m_buffer[m_pos + ahead];
    }
    void skip(std::size_t n) { m_pos += n; }  // only over draws already peeked
    // makes at least n draws readable through unread(); returns how many are
    std::size_t ensure(std::size_t n)
    {
        if (m_pos + n > m_buffer.size())
            fill(n);
        return m_buffer.size() - m_pos;
    }
    const double *unread() const { return m_buffer.data() + m_pos; }

private:
    void fill(std::size_t need)
    {
        // keep the unread draws, then top up to at least `need` of them, in batches
        const std::size_t unread = m_buffer.size() - m_pos;
        std::copy(m_buffer.begin() + static_cast<std::ptrdiff_t>(m_pos), m_buffer.end(), m_buffer.begin());
        m_pos = 0;
        const std::size_t target = std::max(need, unread + kBatch);
        m_buffer.resize(target);
        m_random.fillFloats(m_buffer.data() + unread, target - unread);
    }

    static constexpr std::size_t kBatch = 512;
    SeededRandom m_random;
    std::vector<double> m_buffer;
    std::size_t m_pos = 0;
};

} // namespace grove
