// const_global_vars.cu - module-scope variables: __constant__ and __device__ globals with
// initialisers (PTX .const / .global declarations with arrays and initialisers).
//
// Tables (fixed in this file):
//   kPrimes[16]   (__constant__ int)   = 2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53
//   kScale[4]     (__constant__ float) = 0.5 1.0 2.0 4.0
//   kMagic        (__constant__ unsigned long long) = 0x0123456789abcdef
//   g_counter     (__device__ unsigned, initial 0; survives across launches of one module)
//   g_bias[3]     (__device__ double) = 1.5 -2.25 1e10
//
// const_lookup(const int *idx, int *out, float *fout, int n)
//   1D, i < n: k = idx[i] & 15; out[i] = kPrimes[k] * 2;  fout[i] = (float)kPrimes[k] * kScale[k & 3]
// const_magic(unsigned long long *out, int n)
//   out[i] = kMagic ^ (unsigned long long)i
// global_counter(unsigned *out, int n)
//   every thread i < n does atomicAdd(&g_counter, 1); then (not synchronised with other blocks)
//   out[i] = 1 (just marks participation).  Read g_counter from the host (module global) after
//   one launch on a fresh module: it equals n.
// global_bias(const double *a, double *out, int n)
//   out[i] = a[i] + g_bias[i % 3]
__constant__ int kPrimes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__constant__ float kScale[4] = {0.5f, 1.0f, 2.0f, 4.0f};
__constant__ unsigned long long kMagic = 0x0123456789abcdefull;
__device__ unsigned g_counter = 0;
__device__ double g_bias[3] = {1.5, -2.25, 1e10};

extern "C" __global__ void const_lookup(const int *idx, int *out, float *fout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int k = idx[i] & 15;
        out[i] = kPrimes[k] * 2;
        fout[i] = (float)kPrimes[k] * kScale[k & 3];
    }
}

extern "C" __global__ void const_magic(unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = kMagic ^ (unsigned long long)i;
}

extern "C" __global__ void global_counter(unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&g_counter, 1u);
        out[i] = 1;
    }
}

extern "C" __global__ void global_bias(const double *a, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + g_bias[i % 3];
}
