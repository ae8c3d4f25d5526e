// FileInput: paths relative to the graph, and fingerprints for cache keys.
#include "core/base/FileInput.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace grove {

std::string resolveInputPath(const std::string &baseDir, const std::string &value)
{
    if (value.empty() || value.front() == '/' || baseDir.empty())
        return value;
    return baseDir.back() == '/' ? baseDir + value : baseDir + "/" + value;
}

std::optional<std::string> notRegularFile(const std::string &path, std::uint64_t *size)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return std::string(std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        return std::string("it is a folder, not a file");
    if (!S_ISREG(st.st_mode))
        return std::string("it is a pipe, socket or device, not a regular file");
    if (size)
        *size = static_cast<std::uint64_t>(st.st_size);
    return std::nullopt;
}

std::string fileFingerprint(const std::string &path)
{
    struct stat st{};
    if (path.empty() || ::stat(path.c_str(), &st) != 0)
        return std::string("missing:") + (path.empty() ? "no path" : std::strerror(errno));
    return std::to_string(static_cast<long long>(st.st_size)) + ":" + std::to_string(static_cast<long long>(st.st_mtim.tv_sec))
           + "." + std::to_string(static_cast<long long>(st.st_mtim.tv_nsec)) + ":" + std::to_string(static_cast<long long>(st.st_ino))
           + ":" + std::to_string(static_cast<unsigned>(st.st_mode & S_IFMT));
}

} // namespace grove
