// PNG encoding through libpng (the library that reads Grove's PNG inputs): 8-bit RGB, rows
// filtered None, Sub or Up by libpng's smallest-sum heuristic, zlib level 6 with its default
// strategy, one IDAT, no timestamp or text chunks, so the bytes depend on the pixels alone.
// libpng reports errors by longjmp, so what the encoder keeps across it lives outside the frame.
#include "core/formats/PngWriter.h"

#include "core/base/SafeFile.h"

#include <png.h>
#include <zlib.h>

#include <csetjmp>
#include <algorithm>

namespace grove {

namespace {

struct PngOut
{
    std::string bytes;
    std::string error;
};

void onWrite(png_structp png, png_bytep data, png_size_t length)
{
    static_cast<PngOut *>(png_get_io_ptr(png))->bytes.append(reinterpret_cast<const char *>(data), length);
}

void onFlush(png_structp) {}

void onError(png_structp png, png_const_charp message)
{
    static_cast<PngOut *>(png_get_error_ptr(png))->error = message ? message : "unknown libpng error";
    png_longjmp(png, 1);
}

void onWarning(png_structp, png_const_charp) {}

// Everything between setjmp and the end of the encode; no automatic object of this frame changes
// after setjmp.
bool encode(png_structp png, png_infop info, const Image &image, PngOut &out)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    png_set_write_fn(png, &out, onWrite, onFlush);
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP);
    png_set_compression_level(png, 6);
    png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
    // one IDAT: the whole deflated image fits the buffer (past 2 GiB, several)
    const std::size_t stride = static_cast<std::size_t>(image.width) * 3;
    const std::size_t raw = (stride + 1) * static_cast<std::size_t>(image.height);
    png_set_compression_buffer_size(png, static_cast<std::size_t>(std::min<uLong>(compressBound(static_cast<uLong>(raw)), 0x7fffffff)));
    png_write_info(png, info);
    for (int y = 0; y < image.height; ++y)
        png_write_row(png, image.rgb.data() + static_cast<std::size_t>(y) * stride);
    png_write_end(png, nullptr);
    return true;
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

    PngOut out;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &out, onError, onWarning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return failed("libpng could not start");
    }
    const bool ok = encode(png, info, image, out);
    png_destroy_write_struct(&png, &info);
    if (!ok)
        return failed("libpng could not write the image: " + out.error);
    return std::move(out.bytes);
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
