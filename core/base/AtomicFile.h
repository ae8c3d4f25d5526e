// Replacing a file safely: the new bytes land whole or not at all (Tiled's savefile is the model).
#pragma once

#include <optional>
#include <string>

namespace grove {

// Writes bytes to path atomically (temporary file in the same folder, flush, fsync, rename).
// On failure returns the reason and leaves any existing file untouched.
std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &bytes);

// One file's new bytes, staged beside it (written and fsynced to a temporary file) and put in
// its place only by commit(): a writer of several files stages them all, then commits them all,
// so a failure on any leaves every one untouched. Dropped uncommitted, the temporary file goes.
// (A device or pipe cannot be staged: stage() writes into it at once.)
class StagedFile
{
public:
    StagedFile() = default;
    StagedFile(const StagedFile &) = delete;
    StagedFile &operator=(const StagedFile &) = delete;
    StagedFile(StagedFile &&other) noexcept;
    ~StagedFile();

    std::optional<std::string> stage(const std::string &path, const std::string &bytes);
    std::optional<std::string> commit();  // the rename; nothing to do for a device

private:
    std::string m_path, m_temporary;  // m_temporary empty: nothing staged (or written into a device)
};

} // namespace grove
