// SHA-256, for the graph hash and evaluation cache keys.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace grove {

class Sha256
{
public:
    Sha256();
    void update(std::string_view data);
    std::array<std::uint8_t, 32> finish();
    static std::string hex(std::string_view data);

private:
    void block(const std::uint8_t *p);
    std::array<std::uint32_t, 8> m_h;
    std::array<std::uint8_t, 64> m_buffer{};
    std::size_t m_used = 0;
    std::uint64_t m_length = 0;
};

} // namespace grove
