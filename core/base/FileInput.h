// Files a graph reads (images, shapes, placements): where a param's path points, and what
// identifies the file's contents in a cache key.
#pragma once

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

namespace grove {

// `value` as written in the graph: absolute as is, otherwise relative to `baseDir` (the graph
// file's folder; empty: the working folder).
std::string resolveInputPath(const std::string &baseDir, const std::string &value);

// Whether path ends with suffix (".png"), ignoring the case of the path's letters.
inline bool hasExtension(const std::string &path, const std::string &suffix)
{
    if (path.size() < suffix.size())
        return false;
    for (std::size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(path[path.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

// Why `path` cannot be read as a file, or nothing when it is a regular file (its size then in
// `size`): the system's reason when it is missing or out of reach ("No such file or directory"),
// "it is a folder, not a file" or "it is a pipe, socket or device, not a regular file". Callers
// put their words before it ("cannot open: "). Asked before opening: opening a pipe waits for a
// writer, and a device may never end. Every file input (images, shapes, points files, group
// files, shard parts) asks it.
std::optional<std::string> notRegularFile(const std::string &path, std::uint64_t *size = nullptr);

// What changes when the file does: its size and modification time to the nanosecond, or
// "missing" (with the reason) when it cannot be read. Cheap: no byte of the file is read, so a
// big heightmap costs nothing while it is unchanged.
std::string fileFingerprint(const std::string &path);

} // namespace grove
