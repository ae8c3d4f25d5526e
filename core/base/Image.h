// An 8-bit RGB picture in memory: what the preview paints and the PNG writer encodes.
#pragma once

#include <cstdint>
#include <vector>

namespace grove {

// 8-bit RGB, rows top to bottom, 3 bytes a pixel.
struct Image
{
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;

    bool empty() const { return width <= 0 || height <= 0; }
};

} // namespace grove
