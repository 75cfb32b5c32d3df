// Starting helper threads inside a PostgreSQL backend.
//
// A thread inherits the signal mask in force when it is created.  Helper threads (the loader's
// deform workers, the cpu device's pool and compile threads, the interpreter's parallel chunks)
// must never take an asynchronous signal meant for the backend (SIGINT, SIGALRM, SIGUSR1 ...):
// PostgreSQL's handlers expect to run on the backend's own thread.  The synchronous signals a
// faulting instruction raises stay deliverable, since blocked they would kill the process at once.
#pragma once

#include <pthread.h>
#include <signal.h>

namespace rndn {

// Calls start() (which creates threads) with every asynchronous signal blocked, then restores
// the caller's mask, also when start() throws.  Returns what start() returns.
template <class Start>
decltype(auto) WithAsyncSignalsBlocked(Start &&start) {
    struct Restore {
        sigset_t old;
        ~Restore() { pthread_sigmask(SIG_SETMASK, &old, nullptr); }
    } restore;
    sigset_t blocked;
    sigfillset(&blocked);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP}) sigdelset(&blocked, sig);
    pthread_sigmask(SIG_SETMASK, &blocked, &restore.old);
    return start();
}

}  // namespace rndn
