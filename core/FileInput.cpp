// FileInput: paths relative to the graph, and fingerprints for cache keys.
#include "FileInput.h"

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
