// Export destinations: checked as a whole first, so a bad one leaves no half results behind.
#include "core/export/ExportWriter.h"

#include "core/base/SafeFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

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
    // Every file is staged before any is put in place: a failure on one (a full disk, /dev/full)
    // leaves all of them as they were. Devices and pipes cannot be staged: they are written into
    // last, after every file is staged, before the first is committed.
    struct Staged
    {
        std::string path;
        const std::string *bytes;
        const ExportFile *file;  // its renderer, when it has one (ExportJob::streamText)
    };
    std::vector<Staged> files;
    bool madeFolder = false;
    if (!destination.points.empty()) {
        if (split) {
            if (kindOf(destination.points) == Kind::Missing) {
                if (::mkdir(destination.points.c_str(), 0755) != 0)
                    return "cannot create folder " + destination.points + ": " + std::strerror(errno);
                madeFolder = true;
            }
            for (const ExportFile &f : output.files)
                files.push_back({destination.points + "/" + f.name, &f.bytes, &f});
        } else {
            files.push_back({destination.points, &output.files.front().bytes, &output.files.front()});
        }
    }
    if (!destination.png.empty())
        files.push_back({destination.png, &output.png, nullptr});
    std::stable_partition(files.begin(), files.end(), [](const Staged &f) { return kindOf(f.path) != Kind::Stream; });
    std::vector<SafeFile> staged(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::optional<std::string> err = staged[i].open(files[i].path);
        if (!err && files[i].file && files[i].file->render) {
            // rendered straight into the staged file; after a failed write nothing more is written
            const TextSink sink = [&](std::string_view piece) {
                if (!err)
                    err = staged[i].write(piece);
            };
            const std::string rest = files[i].file->render(sink);
            if (!err)
                err = staged[i].write(rest);
        } else if (!err) {
            err = staged[i].write(*files[i].bytes);
        }
        if (!err)
            err = staged[i].finish();
        if (err) {
            staged.clear();  // the temporary files go
            if (madeFolder)
                ::rmdir(destination.points.c_str());
            return err;
        }
    }
    for (SafeFile &f : staged)
        if (auto err = f.commit())
            return err;
    return std::nullopt;
}

} // namespace grove
