// PNG output for previews through libpng: 8-bit RGB, zlib at a fixed level, no timestamps, so bytes are stable.
#pragma once

#include "core/base/Image.h"

#include <optional>
#include <string>

namespace grove {

// The PNG file bytes, or nothing (with the reason in *error) for an empty or inconsistent image.
std::optional<std::string> encodePng(const Image &image, std::string *error = nullptr);

// Encodes and writes through writeFileAtomically: on failure returns the reason and leaves no file.
std::optional<std::string> writePng(const Image &image, const std::string &path);

} // namespace grove
