// The cpu device's corpus tests and C++ references (test/unit/cpujit/corpus_misc_test.cpp), run on
// the cubins rndn::sasscomp compiles, in the SASS emulator with the hazard checker on (zero hazards),
// for sm_75, sm_80, sm_86, sm_89 and sm_90.  Tests that launch a kernel the compiler cannot compile
// yet are listed in sasscomp/harness.h (UnsupportedTests) and skipped; exec_test.cpp checks the list.
#define RNDN_CORPUS_HARNESS "sasscomp/harness.h"
#include "cpujit/corpus_misc_test.cpp"
