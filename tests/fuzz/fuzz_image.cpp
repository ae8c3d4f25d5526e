// libFuzzer target: the image node's decoders (PNG through libpng, 16-bit RAW) on any bytes.
// The first byte picks the PNG channel and the RAW shape; the rest is the file, written to a
// private temporary file because the decoders read paths. Every load must end in an image whose
// samples match its size, or in a message; never a crash, a hang or an unbounded allocation.
#include "core/formats/ImageFile.h"
#include "core/base/Limits.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace grove;

namespace {

std::string tempPath(const char *suffix)
{
    return std::string("/tmp/grove_fuzz_image_") + std::to_string(::getpid()) + suffix;
}

void check(const ImageLoad &loaded, const char *what)
{
    if (loaded.ok()) {
        const ImageSamples &img = loaded.image;
        if (img.width <= 0 || img.height <= 0
            || img.values.size() != static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height)
            || static_cast<std::uint64_t>(img.values.size()) > limits::maxImagePixels) {
            std::fprintf(stderr, "fuzz_image: %s gave %d x %d with %zu samples\n", what, img.width, img.height, img.values.size());
            std::abort();
        }
    } else if (loaded.error.empty()) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const unsigned pick = data[0];
    const std::string png = tempPath(".png"), raw = tempPath(".r16");
    for (const std::string *path : {&png, &raw}) {
        if (std::FILE *f = std::fopen(path->c_str(), "wb")) {
            std::fwrite(data + 1, 1, size - 1, f);
            std::fclose(f);
        }
    }
    check(loadPng(png, static_cast<ImageChannel>(pick % 5)), "loadPng");
    const int side = static_cast<int>(pick >> 3);  // 0: a square from the size
    check(loadRaw16(raw, side, side ? static_cast<int>((size - 1) / 2 / static_cast<std::size_t>(side)) : 0), "loadRaw16");
    std::remove(png.c_str());
    std::remove(raw.c_str());
    return 0;
}
