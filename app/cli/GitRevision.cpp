// GitRevision: git run as a child process with its arguments as they are (never through a shell),
// its output and errors read together so neither pipe fills up and stalls it.
#include "GitRevision.h"

#include "core/base/Limits.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace grove::cli {

namespace {

struct Finished
{
    int status = -1;  // git's exit status; -1: it did not run or did not exit
    std::string out, err;
};

Finished runGit(const std::vector<std::string> &args)
{
    Finished done;
    int outPipe[2], errPipe[2];
    if (::pipe(outPipe) != 0)
        return done.err = std::string("cannot run git: ") + std::strerror(errno), done;
    if (::pipe(errPipe) != 0) {
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return done.err = std::string("cannot run git: ") + std::strerror(errno), done;
    }
    std::vector<char *> argv;
    std::vector<std::string> owned = args;
    owned.insert(owned.begin(), "git");
    for (std::string &a : owned)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(outPipe[1], STDOUT_FILENO);
        ::dup2(errPipe[1], STDERR_FILENO);
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        ::close(errPipe[0]);
        ::close(errPipe[1]);
        ::execvp("git", argv.data());
        const std::string why = std::string("cannot run git: ") + std::strerror(errno);
        [[maybe_unused]] auto n = ::write(STDERR_FILENO, why.data(), why.size());
        ::_exit(127);
    }
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (pid < 0) {
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return done.err = std::string("cannot run git: ") + std::strerror(errno), done;
    }
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    std::string *into[2] = {&done.out, &done.err};
    int open = 2;
    char buffer[65536];
    while (open > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0) {
                into[i]->append(buffer, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (pollfd &f : fds)
        if (f.fd >= 0)
            ::close(f.fd);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    done.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return done;
}

// git's first complaint on one line, without its "fatal: " prefix.
std::string firstLine(const std::string &text)
{
    std::string line = text.substr(0, text.find('\n'));
    if (line.rfind("fatal: ", 0) == 0)
        line = line.substr(7);
    return line.empty() ? "git gave no reason" : line;
}

} // namespace

bool isRevisionPath(const std::string &arg)
{
    std::error_code ec;
    if (arg.empty() || arg[0] == '-' || std::filesystem::exists(arg, ec))
        return false;
    const std::size_t colon = arg.find(':');
    if (colon == std::string::npos || colon == 0)
        return false;
    // "C:/x" or "C:\x": a drive letter, not a revision called C
    const bool drive = colon == 1 && std::isalpha(static_cast<unsigned char>(arg[0])) && arg.size() > 2
                       && (arg[2] == '/' || arg[2] == '\\');
    return !drive;
}

RevisionFile readRevisionFile(const std::string &arg)
{
    RevisionFile file;
    // "--" never follows: the argument is the object to show, and it cannot start with '-'
    // (isRevisionPath), so git cannot take it for an option
    const Finished type = runGit({"cat-file", "-t", arg});
    if (type.status != 0) {
        file.error = firstLine(type.err);
        return file;
    }
    if (const std::string kind = type.out.substr(0, type.out.find('\n')); kind != "blob") {
        file.error = arg + " is a " + kind + " in git, not a file";
        return file;
    }
    // the blob's size first: git would hand over however much there is
    const Finished size = runGit({"cat-file", "-s", arg});
    if (size.status != 0) {
        file.error = firstLine(size.err);
        return file;
    }
    if (std::strtoull(size.out.c_str(), nullptr, 10) > limits::maxDiffExportBytes) {
        file.error = arg + " is larger than the " + std::to_string(limits::maxDiffExportBytes >> 20) + " MiB export limit";
        return file;
    }
    const Finished shown = runGit({"show", "--no-textconv", arg});
    if (shown.status != 0) {
        file.error = firstLine(shown.err);
        return file;
    }
    file.bytes = shown.out;
    const std::string path = arg.substr(arg.find(':') + 1);
    std::filesystem::path where;
    if (path.rfind("./", 0) == 0 || path.rfind("../", 0) == 0 || path == "." || path == "..") {
        where = std::filesystem::current_path() / path;
    } else {
        const Finished top = runGit({"rev-parse", "--show-toplevel"});
        if (top.status != 0) {
            file.error = firstLine(top.err);
            return file;
        }
        std::string root = top.out.substr(0, top.out.find('\n'));
        where = std::filesystem::path(root) / path;
    }
    file.workTreePath = where.lexically_normal().string();
    return file;
}

} // namespace grove::cli
