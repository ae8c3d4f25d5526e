// Raster files a graph reads as fields: PNG (8- or 16-bit; grey, grey+alpha, RGB, RGBA or
// palette; one channel chosen) decoded with libpng, and RAW heightmaps (16-bit little endian,
// the .r16/.raw of World Machine, Gaea and Unity terrains). Bounded: the header's size is checked
// against core/base/Limits.h before any pixel memory is taken.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace grove {

enum class ImageChannel { Grey, Red, Green, Blue, Alpha };

struct ImageSamples
{
    int width = 0, height = 0;
    std::vector<std::uint16_t> values;  // row-major, top row first
    double maxValue = 65535;            // what a full-scale sample is: 255 for 8-bit PNGs
    int bitDepth = 16;
    bool hadColor = false;
};

struct ImageLoad
{
    ImageSamples image;
    std::string error;  // empty when the file was read
    bool ok() const { return error.empty(); }
};

// A PNG: `channel` picks what a colour image gives (Grey: Rec. 601 luma of R, G, B, rounded;
// Alpha: 1 when the image has none).
ImageLoad loadPng(const std::string &path, ImageChannel channel);

// A RAW heightmap of width x height 16-bit little-endian samples. width and height 0: a square,
// its side from the file's size.
ImageLoad loadRaw16(const std::string &path, int width, int height);

} // namespace grove
