// Files written a piece at a time: the output, replaced atomically on commit(), and spools, unnamed
// scratch files beside it. Neither leaves anything behind when dropped or when the process dies.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace grove {

// An anonymous scratch file in `folder` (created and unlinked at once: the kernel removes it
// when it is closed, even when the process is killed): appended to, then read back.
class Spool
{
public:
    Spool() = default;
    ~Spool();
    Spool(const Spool &) = delete;
    Spool &operator=(const Spool &) = delete;
    Spool(Spool &&other) noexcept;
    Spool &operator=(Spool &&other) noexcept;

    std::optional<std::string> open(const std::string &folder);
    std::optional<std::string> append(std::string_view bytes);
    std::uint64_t size() const { return m_size; }
    int fd() const { return m_fd; }

private:
    int m_fd = -1;
    std::uint64_t m_size = 0;
};

// The destination of a streamed export. A path that is a regular file or missing is written to a
// temporary file beside it and renamed over it by commit(); a device or pipe (/dev/null, a FIFO)
// is written into; an empty path is standard output. Dropped without commit(): the temporary
// file is removed and the old file is untouched.
class StreamedFile
{
public:
    StreamedFile() = default;
    ~StreamedFile();
    StreamedFile(const StreamedFile &) = delete;
    StreamedFile &operator=(const StreamedFile &) = delete;

    std::optional<std::string> open(const std::string &path);
    std::optional<std::string> write(std::string_view bytes);
    // Appends `length` bytes of `from` starting at `offset` (a spool, or a part being merged);
    // "interrupted" when `cancel` is set between two blocks.
    std::optional<std::string> copyFrom(int from, std::uint64_t offset, std::uint64_t length, const std::string &what,
                                        const std::atomic<bool> *cancel = nullptr);
    std::optional<std::string> commit();

    // The folder where spools for an output at `path` belong: beside it; the temporary folder
    // for stdout (an empty path) and devices.
    static std::string spoolFolder(const std::string &path);

private:
    std::string m_path, m_tmp;
    int m_fd = -1;
    bool m_ownsFd = false;
};

} // namespace grove
