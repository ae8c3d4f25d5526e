// Atomic saves against real failures: a full disk, a read-only folder and a process killed in the
// middle of a save. In every case the previous file stays byte-identical.
#include "TestSupport.h"

#include "core/base/SafeFile.h"

#include <QTemporaryDir>

#include <csignal>
#include <fcntl.h>
#include <thread>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace grove;
using namespace grove::test;

class TestSaves : public QObject
{
    Q_OBJECT

private slots:
    void fullDiskLeavesOldFile();
    void readOnlyFolderLeavesOldFile();
    void killedMidSaveLeavesOldFile();
    void deviceIsWrittenIntoNotReplaced();
};

namespace {

// A small tmpfs of its own, unmounted at the end; null when this machine does not allow it.
struct SmallDisk
{
    std::string path;
    bool mounted = false;
    explicit SmallDisk(const std::string &where, const char *options) : path(where)
    {
        ::mkdir(path.c_str(), 0755);
        mounted = ::mount("tmpfs", path.c_str(), "tmpfs", 0, options) == 0;
    }
    ~SmallDisk()
    {
        if (mounted)
            ::umount2(path.c_str(), MNT_DETACH);
    }
};

} // namespace

void TestSaves::fullDiskLeavesOldFile()
{
    QTemporaryDir base;
    SmallDisk disk(base.path().toStdString() + "/disk", "size=64k");
    if (!disk.mounted)
        QSKIP("cannot mount a small tmpfs here (needs root); the RLIMIT_FSIZE case in tst_graphio covers a full disk");
    const std::string file = disk.path + "/world.grove.yaml";
    const std::string old = readFile(testsDir() + "/data/canonical/island.grove.yaml");
    QVERIFY(!writeFileAtomically(file, old));
    const std::string huge(200 * 1024, 'x');  // three times the disk
    auto err = writeFileAtomically(file, huge);
    QVERIFY(err.has_value());
    QVERIFY2(err->find("No space left on device") != std::string::npos, err->c_str());
    QCOMPARE(readFile(file), old);
    QCOMPARE(listDir(disk.path), std::vector<std::string>{"world.grove.yaml"});
}

void TestSaves::readOnlyFolderLeavesOldFile()
{
    QTemporaryDir base;
    SmallDisk disk(base.path().toStdString() + "/disk", "size=1m");
    if (!disk.mounted)
        QSKIP("cannot mount a tmpfs here (needs root); tst_graphio checks chmod 0555 when not root");
    const std::string file = disk.path + "/world.grove.yaml";
    const std::string old = readFile(testsDir() + "/data/canonical/island.grove.yaml");
    QVERIFY(!writeFileAtomically(file, old));
    // read-only even for root: remount the filesystem read-only
    QVERIFY(::mount("tmpfs", disk.path.c_str(), "tmpfs", MS_REMOUNT | MS_RDONLY, "size=1m") == 0);
    auto err = writeFileAtomically(file, old + old);
    QVERIFY(err.has_value());
    QVERIFY2(err->find("Read-only file system") != std::string::npos, err->c_str());
    QCOMPARE(readFile(file), old);
    QCOMPARE(listDir(disk.path), std::vector<std::string>{"world.grove.yaml"});
}

void TestSaves::killedMidSaveLeavesOldFile()
{
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    const std::string file = folder + "/world.grove.yaml";
    const std::string old = readFile(testsDir() + "/data/canonical/island.grove.yaml");
    QVERIFY(!writeFileAtomically(file, old));
    // A child saves a graph larger than the file size it may write: the kernel kills it (SIGXFSZ)
    // in the middle of writing its temporary file, exactly where a crash would.
    const pid_t pid = ::fork();
    if (pid == 0) {
        const rlimit noCore{0, 0}, small{64 * 1024, 64 * 1024};
        ::setrlimit(RLIMIT_CORE, &noCore);
        ::setrlimit(RLIMIT_FSIZE, &small);
        const std::string big(8u << 20, '#');
        writeFileAtomically(file, big);
        ::_exit(0);
    }
    int status = 0;
    QCOMPARE(::waitpid(pid, &status, 0), pid);
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGXFSZ);
    bool sawTemp = false;  // it died with its temporary file half written
    for (const auto &name : listDir(folder))
        sawTemp = sawTemp || name.find(".saving-") != std::string::npos;
    QVERIFY2(sawTemp, "the child never started writing");
    QCOMPARE(readFile(file), old);  // the old file, whole
    // the next save still works and replaces it whole
    QVERIFY(!writeFileAtomically(file, old + "# more\n"));
    QCOMPARE(readFile(file), old + "# more\n");
}

// `--png /dev/null` and the like: a save onto a device or a pipe writes into it; a rename would
// leave a plain file where /dev/null was (as root). A FIFO stands in for the device.
void TestSaves::deviceIsWrittenIntoNotReplaced()
{
    QTemporaryDir dir;
    const std::string fifo = dir.path().toStdString() + "/pipe";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const int keep = ::open(fifo.c_str(), O_RDWR);  // a writer, so the reader's open never blocks
    QVERIFY(keep >= 0);
    const int fd = ::open(fifo.c_str(), O_RDONLY);  // before the writers close: never blocks
    QVERIFY(fd >= 0);
    std::string got;
    std::thread reader([&] {
        char buf[4096];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0)
            got.append(buf, static_cast<size_t>(n));
        ::close(fd);
    });
    const auto err = writeFileAtomically(fifo, "grove: 1\n");
    ::close(keep);
    reader.join();
    QVERIFY2(!err, err.value_or("").c_str());
    QCOMPARE(got, std::string("grove: 1\n"));
    struct stat st{};
    QVERIFY(::stat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot), QStringList{"pipe"});
    // a folder is refused by name, and stays a folder
    const auto folder = writeFileAtomically(dir.path().toStdString(), "x");
    QVERIFY(folder && folder->find("it is a folder") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestSaves)
#include "tst_saves.moc"
