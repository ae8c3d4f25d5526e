// Writing files safely, the one way Grove does (Tiled's SaveFile is the model): every file Grove
// writes (graphs, autosaves, exports, PNGs, merged shards) goes through SafeFile, so new bytes land
// whole or not at all. Spools are its scratch files: unnamed, gone when dropped or when the process dies.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace grove {

// A file's new bytes, written a piece at a time. A path that is a regular file or missing is
// written to a temporary file beside it (with the old file's permissions, 0644 for a new one),
// made durable (fsync) and renamed over it by commit(); a device or pipe (/dev/null, a FIFO) is
// written into; an empty path is standard output. Dropped without commit(): the temporary file
// is removed and the old file is untouched.
class SafeFile
{
public:
    SafeFile() = default;
    ~SafeFile();
    SafeFile(const SafeFile &) = delete;
    SafeFile &operator=(const SafeFile &) = delete;
    SafeFile(SafeFile &&other) noexcept;

    std::optional<std::string> open(const std::string &path);
    std::optional<std::string> write(std::string_view bytes);
    // Appends `length` bytes of `from` starting at `offset` (a spool, or a part being merged);
    // "interrupted" when `cancel` is set between two blocks.
    std::optional<std::string> copyFrom(int from, std::uint64_t offset, std::uint64_t length, const std::string &what,
                                        const std::atomic<bool> *cancel = nullptr);
    // Flushes the bytes to disk and closes the file, leaving only commit()'s rename: a writer of
    // several files finishes them all before it commits any, so a failure (a full disk) on any
    // leaves every one as it was.
    std::optional<std::string> finish();
    // finish() when not done yet, then the rename; nothing more for a device, a pipe or stdout.
    std::optional<std::string> commit();

    // The folder where spools for an output at `path` belong: beside it; the temporary folder
    // for stdout (an empty path) and devices.
    static std::string spoolFolder(const std::string &path);

private:
    // counts `added` bytes written; a staged file's bytes not yet handed to the disk go to it once
    // they make a piece (8 MB; sync_file_range, not waited for), so finish()'s fsync finds most
    // of them written
    void handToDisk(std::uint64_t added);

    std::string m_path, m_tmp;  // m_tmp empty: nothing to rename (a device, a pipe, stdout, or committed)
    int m_fd = -1;
    bool m_ownsFd = false;
    std::uint64_t m_written = 0;  // a staged file's bytes so far
    std::uint64_t m_handed = 0;   // ... of which handed to the disk
};

// The whole of `bytes` through a SafeFile: on failure returns the reason and leaves any existing
// file untouched.
std::optional<std::string> writeFileAtomically(const std::string &path, std::string_view bytes);

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

} // namespace grove
