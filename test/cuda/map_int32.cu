// map_int32.cu - element-wise maps over 32-bit integers.
//
// All kernels: 1D launch, any grid/block shape; thread i = blockIdx.x*blockDim.x+threadIdx.x
// handles element i and does nothing when i >= n.  Arithmetic wraps modulo 2^32 (two's complement).
//
// map_i32_affine(const int *a, const int *b, int *out, int n)
//   out[i] = a[i] * 3 + b[i] - 7                          (wrapping int32)
// map_i32_logic(const int *a, const int *b, int *out, int n)
//   out[i] = ((a[i] & b[i]) | (a[i] ^ 0x5a5a5a5a)) ^ ~b[i]
// map_i32_shift(const int *a, const unsigned *b, int *out, int n)
//   s = b[i] & 31;  out[i] = (a[i] >> s) + (int)((unsigned)a[i] << s) + (int)((unsigned)a[i] >> s)
//   (a[i] >> s is an arithmetic shift of the signed value)
// map_u32_mulhi(const unsigned *a, const unsigned *b, unsigned *out, int n)
//   out[i] = (unsigned)(((uint64_t)a[i] * b[i]) >> 32) + __umulhi(a[i], 7u)
//   i.e. the high 32 bits of the 64-bit unsigned product a*b plus the high bits of a*7.
// map_i32_mulwide(const int *a, const int *b, long long *out, int n)
//   out[i] = (long long)a[i] * (long long)b[i]           (full 64-bit signed product)
#include <stdint.h>

extern "C" __global__ void map_i32_affine(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (int)((unsigned)a[i] * 3u + (unsigned)b[i] - 7u);
}

extern "C" __global__ void map_i32_logic(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ((a[i] & b[i]) | (a[i] ^ 0x5a5a5a5a)) ^ ~b[i];
}

extern "C" __global__ void map_i32_shift(const int *a, const unsigned *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned s = b[i] & 31u;
        unsigned ua = (unsigned)a[i];
        out[i] = (int)((unsigned)(a[i] >> s) + (ua << s) + (ua >> s));
    }
}

extern "C" __global__ void map_u32_mulhi(const unsigned *a, const unsigned *b, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned)(((uint64_t)a[i] * b[i]) >> 32) + __umulhi(a[i], 7u);
}

extern "C" __global__ void map_i32_mulwide(const int *a, const int *b, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (long long)a[i] * (long long)b[i];
}
