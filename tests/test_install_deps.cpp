// scripts/install-deps.sh on a busy machine: while another process holds the package manager's
// lock the way dpkg and apt take it (an fcntl write lock on /var/lib/dpkg/lock-frontend), the script
// says so and waits; it goes on once the lock is free, and gives up with a clear message after
// RBDGEN_APT_LOCK_TIMEOUT seconds.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "test_support.hpp"

namespace rbdgen {
namespace {

const char* const kLock = "/var/lib/dpkg/lock-frontend";

// A child process that holds the lock for `seconds`, as apt-get does during an installation.
pid_t hold_lock(int seconds) {
    int ready[2];
    if (pipe(ready) != 0) return -1;
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(kLock, O_RDWR | O_CREAT, 0640);
        struct flock lock = {};
        lock.l_type = F_WRLCK;
        lock.l_whence = SEEK_SET;
        const char ok = (fd >= 0 && fcntl(fd, F_SETLK, &lock) == 0) ? 1 : 0;
        (void)!write(ready[1], &ok, 1);
        sleep(seconds);
        _exit(0);
    }
    char ok = 0;
    (void)!read(ready[0], &ok, 1);
    close(ready[0]);
    close(ready[1]);
    return ok ? pid : -1;
}

test::CommandResult run_script(const std::string& environment) {
    return test::shell(environment + " " + std::string(RBDGEN_SOURCE_DIR) + "/scripts/install-deps.sh");
}

class InstallDeps : public ::testing::Test {
protected:
    void SetUp() override {
        if (geteuid() != 0 || access("/var/lib/dpkg", W_OK) != 0)
            GTEST_SKIP() << "not root: the test takes the package manager's lock, which only root can";
    }
};

TEST_F(InstallDeps, WaitsWithAMessageWhileAnotherInstallationHoldsTheLock) {
    const pid_t holder = hold_lock(4);
    ASSERT_GT(holder, 0) << "could not take " << kLock << " (an installation is running?)";
    const auto start = std::chrono::steady_clock::now();
    const test::CommandResult r = run_script("");
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    waitpid(holder, nullptr, 0);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("another package installation holds the package manager's lock (process " +
                         std::to_string(holder)),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("free again"), std::string::npos) << r.out;
    EXPECT_GE(waited, 2.0) << "it did not wait for the holder (" << r.out << ")";
}

TEST_F(InstallDeps, GivesUpWithAClearMessageAfterTheTimeout) {
    const pid_t holder = hold_lock(30);
    ASSERT_GT(holder, 0) << "could not take " << kLock;
    const test::CommandResult r = run_script("RBDGEN_APT_LOCK_TIMEOUT=2");
    kill(holder, SIGTERM);
    waitpid(holder, nullptr, 0);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("install-deps: error: the package manager is still locked by process " + std::to_string(holder)),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("RBDGEN_APT_LOCK_TIMEOUT"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace rbdgen
