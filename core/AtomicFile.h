// Replacing a file safely: the new bytes land whole or not at all (Tiled's savefile is the model).
#pragma once

#include <optional>
#include <string>

namespace grove {

// Writes bytes to path atomically (temporary file in the same folder, flush, fsync, rename).
// On failure returns the reason and leaves any existing file untouched.
std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &bytes);

} // namespace grove
