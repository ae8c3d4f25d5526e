// ImageFile: PNG through libpng's classic API (no colour management: a heightmap's numbers are
// the file's numbers), RAW by hand. libpng reports errors by longjmp, so every object the decoder
// keeps across it lives on the heap, owned from before the setjmp.
#include "core/formats/ImageFile.h"

#include "core/base/FileInput.h"

#include "core/base/Limits.h"

#include <png.h>

#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>

namespace grove {

namespace {

std::string sizeLimitText()
{
    return std::to_string(limits::maxImageSide) + " pixels a side and " + std::to_string(limits::maxImagePixels >> 20)
           + " Mi pixels in all";
}

struct PngState
{
    std::FILE *file = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::vector<png_byte> row;
    std::string error, warning;
    ImageLoad result;
    ~PngState()
    {
        if (png)
            png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
        if (file)
            std::fclose(file);
    }
};

void onPngError(png_structp png, png_const_charp message)
{
    auto *state = static_cast<PngState *>(png_get_error_ptr(png));
    state->error = message ? message : "unknown libpng error";
    png_longjmp(png, 1);
}

void onPngWarning(png_structp png, png_const_charp message)
{
    auto *state = static_cast<PngState *>(png_get_error_ptr(png));
    state->warning = message ? message : "";
}

// Everything between setjmp and the end of the decode: no automatic object of this frame is
// changed after setjmp, so a longjmp back leaves nothing indeterminate.
bool decodePng(PngState *s, ImageChannel channel)
{
    if (setjmp(png_jmpbuf(s->png)))
        return false;
    png_init_io(s->png, s->file);
    png_set_sig_bytes(s->png, 8);
    png_read_info(s->png, s->info);
    const png_uint_32 w = png_get_image_width(s->png, s->info), h = png_get_image_height(s->png, s->info);
    if (static_cast<std::uint64_t>(w) * h > limits::maxImagePixels) {
        s->error = "the image is " + std::to_string(w) + " x " + std::to_string(h) + ", larger than the limit of "
                   + sizeLimitText();
        return false;
    }
    const int colorType = png_get_color_type(s->png, s->info);
    const int depth = png_get_bit_depth(s->png, s->info);
    if (png_get_interlace_type(s->png, s->info) != PNG_INTERLACE_NONE) {
        s->error = "interlaced PNGs are not read: save it without interlacing";
        return false;
    }
    // palettes and low-bit greys become 8-bit samples; transparency chunks become alpha
    if (colorType == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(s->png);
    if (colorType == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(s->png);
    if (png_get_valid(s->png, s->info, PNG_INFO_tRNS))
        png_set_tRNS_to_alpha(s->png);
    png_read_update_info(s->png, s->info);
    const int channels = png_get_channels(s->png, s->info);
    const int outDepth = png_get_bit_depth(s->png, s->info);
    const bool color = (png_get_color_type(s->png, s->info) & PNG_COLOR_MASK_COLOR) != 0;
    const bool alpha = (png_get_color_type(s->png, s->info) & PNG_COLOR_MASK_ALPHA) != 0;
    const std::size_t rowBytes = png_get_rowbytes(s->png, s->info);
    ImageSamples &img = s->result.image;
    img.width = static_cast<int>(w);
    img.height = static_cast<int>(h);
    img.bitDepth = outDepth;
    img.maxValue = outDepth == 16 ? 65535 : 255;
    img.hadColor = color;
    img.values.resize(static_cast<std::size_t>(w) * h);
    s->row.resize(rowBytes);
    const int bytes = outDepth == 16 ? 2 : 1;
    auto sample = [&](const png_byte *px, int c) -> std::uint32_t {
        const png_byte *p = px + c * bytes;
        return bytes == 2 ? (static_cast<std::uint32_t>(p[0]) << 8) | p[1] : p[0];  // PNG is big-endian
    };
    for (png_uint_32 y = 0; y < h; ++y) {
        png_read_row(s->png, s->row.data(), nullptr);
        std::uint16_t *out = img.values.data() + static_cast<std::size_t>(y) * w;
        for (png_uint_32 x = 0; x < w; ++x) {
            const png_byte *px = s->row.data() + static_cast<std::size_t>(x) * static_cast<std::size_t>(channels * bytes);
            std::uint32_t v;
            switch (channel) {
            case ImageChannel::Grey:
                if (color)  // Rec. 601 luma in integers, rounded: the same on every machine
                    v = (299 * sample(px, 0) + 587 * sample(px, 1) + 114 * sample(px, 2) + 500) / 1000;
                else
                    v = sample(px, 0);
                break;
            case ImageChannel::Red: v = sample(px, 0); break;
            case ImageChannel::Green: v = sample(px, color ? 1 : 0); break;
            case ImageChannel::Blue: v = sample(px, color ? 2 : 0); break;
            case ImageChannel::Alpha:
                v = alpha ? sample(px, channels - 1) : static_cast<std::uint32_t>(img.maxValue);
                break;
            default: v = 0;
            }
            out[x] = static_cast<std::uint16_t>(v);
        }
    }
    png_read_end(s->png, nullptr);
    return true;
}

} // namespace

ImageLoad loadPng(const std::string &path, ImageChannel channel)
{
    auto state = std::make_unique<PngState>();
    PngState *s = state.get();
    ImageLoad failed;
    if (auto problem = notRegularFile(path)) {
        failed.error = "cannot open: " + *problem;
        return failed;
    }
    s->file = std::fopen(path.c_str(), "rb");
    if (!s->file) {
        failed.error = std::string("cannot open: ") + std::strerror(errno);
        return failed;
    }
    png_byte signature[8];
    const std::size_t got = std::fread(signature, 1, 8, s->file);
    if (got == 0) {
        failed.error = "the file is empty";
        return failed;
    }
    if (got < 8 || png_sig_cmp(signature, 0, 8) != 0) {
        failed.error = "not a PNG file (its first bytes are not the PNG signature)";
        return failed;
    }
    // The header's size, before libpng reads on: a file that claims a huge image is refused here
    // (IHDR is always the first chunk; libpng checks the rest of it).
    png_byte ihdr[16];
    if (std::fread(ihdr, 1, 16, s->file) == 16 && std::memcmp(ihdr + 4, "IHDR", 4) == 0) {
        auto be32 = [](const png_byte *p) {
            return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
        };
        const std::uint64_t w = be32(ihdr + 8), h = be32(ihdr + 12);
        if (w > static_cast<std::uint64_t>(limits::maxImageSide) || h > static_cast<std::uint64_t>(limits::maxImageSide)
            || w * h > limits::maxImagePixels) {
            failed.error = "the image is " + std::to_string(w) + " x " + std::to_string(h) + ", larger than the limit of "
                           + sizeLimitText();
            return failed;
        }
    }
    if (std::fseek(s->file, 8, SEEK_SET) != 0) {
        failed.error = std::string("cannot read: ") + std::strerror(errno);
        return failed;
    }
    s->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, s, onPngError, onPngWarning);
    if (s->png)
        s->info = png_create_info_struct(s->png);
    if (!s->png || !s->info) {
        failed.error = "libpng could not start";
        return failed;
    }
    if (!decodePng(s, channel)) {
        if (s->error == "Read Error")  // libpng's words for a short read
            s->error = "the file ends early (truncated?)";
        else if (!s->warning.empty())  // libpng explains an invalid header in a warning first
            s->error += " (" + s->warning + ")";
        failed.error = s->error.rfind("the image is ", 0) == 0 ? s->error : "the PNG could not be read: " + s->error;
        return failed;
    }
    return std::move(s->result);
}

ImageLoad loadRaw16(const std::string &path, int width, int height)
{
    ImageLoad r;
    std::uint64_t size = 0;
    if (auto problem = notRegularFile(path, &size)) {
        r.error = "cannot open: " + *problem;
        return r;
    }
    if (size == 0) {
        r.error = "the file is empty";
        return r;
    }
    if (size % 2 != 0) {
        r.error = "a 16-bit RAW heightmap has an even number of bytes; this one has " + std::to_string(size);
        return r;
    }
    const std::uint64_t samples = size / 2;
    if (width == 0 && height == 0) {
        const auto side = static_cast<std::uint64_t>(std::llround(std::sqrt(static_cast<double>(samples))));
        if (side * side != samples) {
            r.error = "its " + std::to_string(samples) + " samples are not a square: give raw_width and raw_height";
            return r;
        }
        width = height = static_cast<int>(std::min<std::uint64_t>(side, static_cast<std::uint64_t>(limits::maxImageSide) + 1));
    }
    if (width <= 0 || height <= 0 || width > limits::maxImageSide || height > limits::maxImageSide
        || static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) > limits::maxImagePixels) {
        r.error = "a RAW heightmap of " + std::to_string(width) + " x " + std::to_string(height) + " is beyond the limit of "
                  + sizeLimitText();
        return r;
    }
    const std::uint64_t want = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) * 2;
    if (size != want) {
        r.error = "a " + std::to_string(width) + " x " + std::to_string(height) + " RAW heightmap has " + std::to_string(want)
                  + " bytes; this file has " + std::to_string(size) + (size < want ? " (truncated?)" : "");
        return r;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file) {
        r.error = std::string("cannot open: ") + std::strerror(errno);
        return r;
    }
    ImageSamples &img = r.image;
    img.width = width;
    img.height = height;
    img.values.resize(static_cast<std::size_t>(samples));
    std::vector<unsigned char> bytes(static_cast<std::size_t>(width) * 2);
    for (int y = 0; y < height; ++y) {
        if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) {
            r = {};
            r.error = "the file ended early (truncated while reading)";
            return r;
        }
        std::uint16_t *out = img.values.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
        for (int x = 0; x < width; ++x)
            out[x] = static_cast<std::uint16_t>(bytes[2 * static_cast<std::size_t>(x)] | (bytes[2 * static_cast<std::size_t>(x) + 1] << 8));
    }
    return r;
}

} // namespace grove
