// The cpu device's corpus tests and C++ references (test/unit/cpujit/corpus_sync_test.cpp: warp
// collectives, barriers, atomics, shared memory), run on the cubins rndn::sasscomp compiles, in the
// SASS emulator with the hazard checker on, for sm_75..sm_90.  Every test is listed in
// sasscomp/harness.h (UnsupportedTests) today, with a kernel that does not compile yet; exec_test.cpp
// checks the list, so each test runs as soon as its kernels compile.
#define RNDN_CORPUS_HARNESS "sasscomp/harness.h"
#include "cpujit/corpus_sync_test.cpp"
