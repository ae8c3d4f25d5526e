// Reading a graph file from disk for the reader: its size bounded before and while it is read
// (a device or pipe says nothing of its size), folders refused, file params resolved against its folder.
#include "core/graph/GraphReader.h"

#include "core/base/Limits.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace grove {

LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry)
{
    return loadGraphFile(path, registry, path);
}

LoadResult loadGraphFile(const std::string &path, const NodeRegistry &registry, const std::string &shownAs)
{
    auto unreadable = [&](std::string message) {
        LoadResult r;
        Diagnostic d;
        d.file = shownAs;
        d.message = std::move(message);
        r.diagnostics.push_back(std::move(d));
        return r;
    };
    const std::string tooLarge = "the file is larger than the " + std::to_string(limits::maxYamlBytes >> 20)
                                 + " MiB graph limit";
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return unreadable(std::string("cannot open: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        return unreadable("cannot open: it is a folder");
    if (static_cast<std::uint64_t>(st.st_size) > limits::maxYamlBytes)
        return unreadable(tooLarge);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return unreadable(std::string("cannot open: ") + std::strerror(errno));
    // st_size is 0 for pipes and devices (/dev/zero, /dev/stdin): the limit holds while reading.
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > limits::maxYamlBytes)
            return unreadable(tooLarge);
    }
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
    return loadGraphFromString(text, shownAs, registry, ec ? std::string() : absolute.parent_path().string());
}

} // namespace grove
