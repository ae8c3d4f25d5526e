// Export destinations: checked as a whole first, so a bad one leaves no half results behind.
#include "ExportWriter.h"

#include "AtomicFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace grove {

namespace {

// Stream: a device or pipe (/dev/null, /dev/stdout, a FIFO), written into, never replaced.
enum class Kind { Missing, File, Folder, Stream };

Kind kindOf(const std::string &path)
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0)
        return Kind::Missing;
    return S_ISDIR(st.st_mode) ? Kind::Folder : S_ISREG(st.st_mode) ? Kind::File : Kind::Stream;
}

// A device or pipe cannot be replaced atomically: a rename over /dev/null put a plain file in
// its place (as root), and a temporary file in /dev cannot be made (as anyone else). Its bytes
// go into it, in large blocks.
std::optional<std::string> writeInto(const std::string &path, const std::string &bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return "cannot write " + path + ": " + std::strerror(errno);
    constexpr size_t kBlock = size_t(1) << 20;
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, std::min(kBlock, bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            std::string reason = "cannot write " + path + ": " + std::strerror(errno);
            ::close(fd);
            return reason;
        }
        done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0)
        return "cannot write " + path + ": " + std::strerror(errno);
    return std::nullopt;
}

std::optional<std::string> writeFile(const std::string &path, const std::string &bytes)
{
    return kindOf(path) == Kind::Stream ? writeInto(path, bytes) : writeFileAtomically(path, bytes);
}

std::string parentOf(const std::string &path)
{
    std::string p = path;
    while (p.size() > 1 && p.back() == '/')
        p.pop_back();
    const auto slash = p.find_last_of('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : p.substr(0, slash);
}

std::optional<std::string> writable(const std::string &dest, const std::string &folder)
{
    if (kindOf(folder) == Kind::File)
        return "cannot write " + dest + ": " + folder + " is a file, not a folder";
    if (::access(folder.c_str(), W_OK) != 0)
        return "cannot write " + dest + ": " + std::strerror(errno);
    return std::nullopt;
}

std::optional<std::string> streamWritable(const std::string &dest)
{
    if (::access(dest.c_str(), W_OK) != 0)
        return "cannot write " + dest + ": " + std::strerror(errno);
    return std::nullopt;
}

} // namespace

std::optional<std::string> checkExportDestination(const ExportDestination &destination, bool split)
{
    if (!destination.points.empty()) {
        const Kind kind = kindOf(destination.points);
        if (split && (kind == Kind::File || kind == Kind::Stream))
            return "cannot write into " + destination.points + ": it is a file, and one file per layer needs a folder";
        if (!split && kind == Kind::Folder)
            return "cannot write " + destination.points + ": it is a folder";
        // the folder a file goes into must exist; a missing split folder is made in its parent; a
        // device is written into, so it must be writable itself
        const std::string folder = split && kind == Kind::Folder ? destination.points : parentOf(destination.points);
        if (auto err = kind == Kind::Stream ? streamWritable(destination.points) : writable(destination.points, folder))
            return err;
    }
    if (!destination.png.empty()) {
        const Kind kind = kindOf(destination.png);
        if (kind == Kind::Folder)
            return "cannot write " + destination.png + ": it is a folder";
        if (auto err = kind == Kind::Stream ? streamWritable(destination.png) : writable(destination.png, parentOf(destination.png)))
            return err;
    }
    return std::nullopt;
}

std::optional<std::string> writeExport(const ExportOutput &output, const ExportDestination &destination, bool split)
{
    if (auto err = checkExportDestination(destination, split))
        return err;
    if (!destination.points.empty()) {
        if (split) {
            if (kindOf(destination.points) == Kind::Missing && ::mkdir(destination.points.c_str(), 0755) != 0)
                return "cannot create folder " + destination.points + ": " + std::strerror(errno);
            for (const ExportFile &f : output.files)
                if (auto err = writeFileAtomically(destination.points + "/" + f.name, f.bytes))
                    return err;
        } else {
            if (auto err = writeFile(destination.points, output.files.front().bytes))
                return err;
        }
    }
    if (!destination.png.empty()) {
        if (auto err = writeFile(destination.png, output.png))
            return err;
    }
    return std::nullopt;
}

} // namespace grove
