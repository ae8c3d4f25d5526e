// The atomic write: a temporary file beside the target, written, fsynced, then renamed over it.
#include "core/base/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace grove {

namespace {

std::optional<std::string> writeAll(int fd, const std::string &bytes, const std::string &path)
{
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return "cannot write " + path + ": " + std::strerror(errno);
        }
        done += static_cast<size_t>(n);
    }
    return std::nullopt;
}

} // namespace

StagedFile::StagedFile(StagedFile &&other) noexcept : m_path(std::move(other.m_path)), m_temporary(std::move(other.m_temporary))
{
    other.m_temporary.clear();
}

StagedFile::~StagedFile()
{
    if (!m_temporary.empty())
        ::unlink(m_temporary.c_str());
}

std::optional<std::string> StagedFile::stage(const std::string &path, const std::string &bytes)
{
    m_path = path;
    // a device or a pipe (-o /dev/null, a named pipe) is written into, never replaced by a file
    struct stat target{};
    if (::stat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode)) {
        if (S_ISDIR(target.st_mode))
            return "cannot write " + path + ": it is a folder";
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return "cannot write " + path + ": " + std::strerror(errno);
        auto err = writeAll(fd, bytes, path);
        if (::close(fd) != 0 && !err)
            err = "cannot write " + path + ": " + std::strerror(errno);
        return err;
    }
    auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string tmpl = dir + "/." + base + ".saving-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0)
        return "cannot create a temporary file in " + dir + ": " + std::strerror(errno);
    const std::string tmp(name.data());
    auto fail = [&](const std::string &what) {
        std::string reason = what + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(tmp.c_str());
        return reason;
    };
    // keep the permissions of the file being replaced (mkstemp makes 0600)
    struct stat st{};
    if (::stat(path.c_str(), &st) == 0)
        ::fchmod(fd, st.st_mode & 07777);
    else
        ::fchmod(fd, 0644);
    if (auto err = writeAll(fd, bytes, path)) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return err;
    }
    if (::fsync(fd) != 0)
        return fail("cannot flush " + path);
    if (::close(fd) != 0) {
        std::string reason = "cannot write " + path + ": " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return reason;
    }
    m_temporary = tmp;
    return std::nullopt;
}

std::optional<std::string> StagedFile::commit()
{
    if (m_temporary.empty())
        return std::nullopt;
    const std::string tmp = std::move(m_temporary);
    m_temporary.clear();
    if (::rename(tmp.c_str(), m_path.c_str()) != 0) {
        std::string reason = "cannot replace " + m_path + ": " + std::strerror(errno);
        ::unlink(tmp.c_str());
        return reason;
    }
    return std::nullopt;
}

std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &bytes)
{
    StagedFile file;
    if (auto err = file.stage(path, bytes))
        return err;
    return file.commit();
}

} // namespace grove
