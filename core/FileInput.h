// Files a graph reads (images, shapes, placements): where a param's path points, and what
// identifies the file's contents in a cache key.
#pragma once

#include <string>

namespace grove {

// `value` as written in the graph: absolute as is, otherwise relative to `baseDir` (the graph
// file's folder; empty: the working folder).
std::string resolveInputPath(const std::string &baseDir, const std::string &value);

// What changes when the file does: its size and modification time to the nanosecond, or
// "missing" (with the reason) when it cannot be read. Cheap: no byte of the file is read, so a
// big heightmap costs nothing while it is unchanged.
std::string fileFingerprint(const std::string &path);

} // namespace grove
