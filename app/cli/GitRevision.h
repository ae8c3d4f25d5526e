// Reading a file as a git revision holds it ("HEAD:world.grove.yaml"), for grove-cli diff.
#pragma once

#include <string>

namespace grove::cli {

// Whether `arg` names a git revision's file rather than a file: it is not an existing file, and
// it has a ':' after something that is not a drive letter ("C:/worlds/a.yaml").
bool isRevisionPath(const std::string &arg);

struct RevisionFile
{
    std::string bytes;
    // Where the file is in the working tree (absolute): graphs resolve their images and points
    // files against its folder. git's rule: a path starting ./ or ../ is relative to the current
    // folder, any other to the repository's top.
    std::string workTreePath;
    std::string error;  // one line: git's own reason, when git could not give the file
    bool ok() const { return error.empty(); }
};

// Runs `git show REV:PATH` in the current folder (fork and exec, no shell).
RevisionFile readRevisionFile(const std::string &arg);

} // namespace grove::cli
