// The cpu device inside a host process that owns signals and fatal errors (a PostgreSQL
// backend): worker threads block every asynchronous signal, embedded mode installs no SIGSEGV handler, and
// LLVM's fatal errors reach the host's function instead of aborting the process.
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <llvm/Support/ErrorHandling.h>

#include "cpujit/cpujit.h"

namespace rndn::cpujit {
namespace {

std::set<int> ThreadIds() {
    std::set<int> ids;
    if (DIR *d = opendir("/proc/self/task")) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.') ids.insert(std::atoi(e->d_name));
        closedir(d);
    }
    return ids;
}

// The blocked-signal mask of thread `tid` (SigBlk in /proc).
unsigned long long BlockedMask(int tid) {
    std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("SigBlk:", 0) == 0) return std::stoull(line.substr(7), nullptr, 16);
    return 0;
}

bool Blocks(unsigned long long mask, int sig) { return (mask >> (sig - 1)) & 1ULL; }

TEST(CpujitEmbedded, WorkerThreadsBlockAsynchronousSignals) {
    const std::set<int> before = ThreadIds();
    Device dev(4);
    const std::set<int> after = ThreadIds();
    int workers = 0;
    for (int tid : after) {
        if (before.count(tid)) continue;
        const unsigned long long m = BlockedMask(tid);
        for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGHUP, SIGPIPE, SIGCHLD})
            EXPECT_TRUE(Blocks(m, sig)) << "worker thread " << tid << " takes signal " << sig;
        ++workers;
    }
    EXPECT_GE(workers, 3);  // the caller is worker 0
    // the creating thread's own mask is unchanged
    sigset_t cur;
    pthread_sigmask(SIG_SETMASK, nullptr, &cur);
    EXPECT_FALSE(sigismember(&cur, SIGINT));
}

void ReportAndExit(const char *reason) {
    std::fprintf(stderr, "host fatal: %s\n", reason);
    std::fflush(stderr);
    _exit(7);
}

void RaiseLlvmFatal(void *) { llvm::report_fatal_error("deliberate fatal error"); }

TEST(CpujitEmbeddedDeathTest, LlvmFatalErrorGoesToTheHost) {
    // Standalone, LLVM would abort the process; embedded, the host's function runs.
    EXPECT_EXIT(
        {
            SetEmbedded(ReportAndExit);
            RunLlvmSection(RaiseLlvmFatal, nullptr);
        },
        ::testing::ExitedWithCode(7), "host fatal: deliberate fatal error");
}

std::atomic<int> g_background_calls{0};
void CountBackgroundFatal(const char *) { g_background_calls.fetch_add(1); }

// On a background compile thread the host's fatal function is never called (a host such as
// PostgreSQL is not thread-safe): the thread is given up, the background callback runs, and
// StopCompiles stops waiting for it and says the process should end without destructors.
TEST(CpujitEmbeddedDeathTest, LlvmFatalErrorOnACompileThreadGivesTheThreadUp) {
    EXPECT_EXIT(
        {
            SetEmbedded(ReportAndExit, CountBackgroundFatal);
            if (!RunLlvmSectionOnCompileThread(RaiseLlvmFatal, nullptr)) _exit(3);
            for (int i = 0; i < 1000 && g_background_calls.load() == 0; ++i) usleep(10000);
            if (g_background_calls.load() != 1) _exit(4);
            if (StopCompiles()) _exit(5);  // must return (no wait for the parked thread), false
            Device dev(1);                 // and a load fails at once instead of waiting on its locks
            const char *ptx = ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry k()\n{\n    ret;\n}\n";
            if (dev.LoadModule(std::string(ptx)).ok()) _exit(6);
            std::fprintf(stderr, "given up, host function not called\n");
            std::fflush(stderr);
            _exit(0);
        },
        ::testing::ExitedWithCode(0), "fatal error in LLVM on a background compile thread: deliberate fatal error(.|\n)*given up, host function not called");
}

// Embedded mode: creating and using a Device leaves the SIGSEGV disposition as it was.
void EmbeddedDeviceKeepsSignalHandlers() {
    struct sigaction before;
    struct sigaction after;
    sigaction(SIGSEGV, nullptr, &before);
    SetEmbedded(ReportAndExit);
    {
        Device dev(2);
        void *buf = dev.Allocate(64);
        (void)buf;
    }
    sigaction(SIGSEGV, nullptr, &after);
    const bool same = before.sa_handler == after.sa_handler && Embedded();
    SetEmbedded(nullptr);
    _exit(same && !Embedded() ? 0 : 1);
}

TEST(CpujitEmbeddedDeathTest, NoProcessWideSignalHandler) {
    // In a child process, so that this binary's other tests keep the standalone mode.
    EXPECT_EXIT(EmbeddedDeviceKeepsSignalHandlers(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace rndn::cpujit
