// The cpu device's corpus tests and C++ references (test/unit/cpujit/corpus_map_test.cpp) on
// ptxas's cubins, loaded and launched through the CUDA driver API (src/cuda): the emulated driver
// in CI, a GPU's libcuda where there is one.
#define RNDN_CORPUS_HARNESS "cuda/harness.h"
#define RNDN_CUDA_MODE "ptxas"
#include "cpujit/corpus_map_test.cpp"
