// PNG encoding: signature, IHDR, one IDAT (filtered rows, deflated), IEND; CRCs from zlib.
#include "core/formats/PngWriter.h"

#include "core/base/SafeFile.h"

#include <zlib.h>

#include <cstdlib>
#include <limits>

namespace grove {

namespace {

void putU32(std::string &out, std::uint32_t v)
{
    out.push_back(static_cast<char>(v >> 24));
    out.push_back(static_cast<char>(v >> 16));
    out.push_back(static_cast<char>(v >> 8));
    out.push_back(static_cast<char>(v));
}

void putChunk(std::string &out, const char type[4], const std::string &data)
{
    putU32(out, static_cast<std::uint32_t>(data.size()));
    const size_t start = out.size();
    out.append(type, 4);
    out += data;
    const auto *bytes = reinterpret_cast<const Bytef *>(out.data() + start);
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, bytes, static_cast<uInt>(out.size() - start));
    putU32(out, static_cast<std::uint32_t>(crc));
}

// Filters every row with whichever of None, Sub and Up gives the smallest sum of absolute
// (signed) bytes: libpng's heuristic, cheap and deterministic, and it shrinks smooth ground a lot.
std::string filterRows(const Image &image)
{
    const size_t stride = static_cast<size_t>(image.width) * 3;
    std::string out;
    out.reserve((stride + 1) * static_cast<size_t>(image.height));
    std::string candidate[3];
    for (auto &c : candidate)
        c.resize(stride);
    for (int y = 0; y < image.height; ++y) {
        const std::uint8_t *row = image.rgb.data() + static_cast<size_t>(y) * stride;
        const std::uint8_t *up = y > 0 ? row - stride : nullptr;
        long cost[3] = {0, 0, 0};
        for (size_t i = 0; i < stride; ++i) {
            const std::uint8_t v[3] = {row[i], static_cast<std::uint8_t>(row[i] - (i >= 3 ? row[i - 3] : 0)),
                                       static_cast<std::uint8_t>(row[i] - (up ? up[i] : 0))};
            for (int f = 0; f < 3; ++f) {
                candidate[f][i] = static_cast<char>(v[f]);
                cost[f] += std::abs(static_cast<int>(static_cast<std::int8_t>(v[f])));
            }
        }
        int best = 0;
        for (int f = 1; f < 3; ++f)
            if (cost[f] < cost[best])
                best = f;
        out.push_back(static_cast<char>(best));  // filter types 0 None, 1 Sub, 2 Up
        out += candidate[best];
    }
    return out;
}

} // namespace

std::optional<std::string> encodePng(const Image &image, std::string *error)
{
    auto failed = [&](std::string why) -> std::optional<std::string> {
        if (error)
            *error = std::move(why);
        return std::nullopt;
    };
    if (image.empty())
        return failed("the image is empty");
    if (image.width > (1 << 24) || image.height > (1 << 24))
        return failed("the image is too large for a PNG preview");
    if (image.rgb.size() != static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3)
        return failed("the image holds " + std::to_string(image.rgb.size()) + " bytes, not width * height * 3");

    const std::string raw = filterRows(image);
    if (raw.size() > std::numeric_limits<uLong>::max() / 2)
        return failed("the image is too large to compress");
    uLongf packedSize = compressBound(static_cast<uLong>(raw.size()));
    std::string packed(packedSize, '\0');
    const int z = compress2(reinterpret_cast<Bytef *>(packed.data()), &packedSize,
                            reinterpret_cast<const Bytef *>(raw.data()), static_cast<uLong>(raw.size()), 6);
    if (z != Z_OK)
        return failed("zlib could not compress the image (error " + std::to_string(z) + ")");
    packed.resize(packedSize);

    std::string png("\x89PNG\r\n\x1a\n", 8);
    std::string header;
    putU32(header, static_cast<std::uint32_t>(image.width));
    putU32(header, static_cast<std::uint32_t>(image.height));
    header += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, adaptive filters, no interlace
    putChunk(png, "IHDR", header);
    putChunk(png, "IDAT", packed);
    putChunk(png, "IEND", {});
    return png;
}

std::optional<std::string> writePng(const Image &image, const std::string &path)
{
    std::string error;
    const std::optional<std::string> bytes = encodePng(image, &error);
    if (!bytes)
        return "cannot write " + path + ": " + error;
    return writeFileAtomically(path, *bytes);
}

} // namespace grove
