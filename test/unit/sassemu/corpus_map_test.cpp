// The cpu device's corpus tests and C++ references (test/unit/cpujit/corpus_map_test.cpp), run on
// ptxas's cubins in the SASS emulator for sm_75, sm_80, sm_86, sm_89, sm_90, sm_100 and sm_120.
#define RNDN_CORPUS_HARNESS "sassemu/harness.h"
#include "cpujit/corpus_map_test.cpp"
