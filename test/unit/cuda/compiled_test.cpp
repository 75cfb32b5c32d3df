// sasscomp's execution tests (test/unit/sasscomp/exec_test.cpp): corpus kernels compiled by
// rndn's own PTX -> SASS compiler, loaded and launched through the CUDA driver API, checked
// against the same C++ references.  On a GPU this is the hardware's verdict on our cubins.
#define RNDN_COMPILED_HARNESS "cuda/harness.h"
#define RNDN_CUDA_MODE "rndn"
#include "sasscomp/exec_test.cpp"
