// int64_divmod.cu - 64-bit integer division and remainder (C semantics: truncation toward zero,
// remainder has the sign of the dividend).
//
// 1D launch; i = global thread id, i < n.  The caller guarantees b[i] != 0, and for signed
// kernels not (a[i] == INT64_MIN && b[i] == -1).
//
// div_s64(const long long *a, const long long *b, long long *q, long long *r, int n)
//   q[i] = a[i] / b[i];  r[i] = a[i] % b[i]
// div_u64(const unsigned long long *a, const unsigned long long *b, unsigned long long *q,
//         unsigned long long *r, int n)
//   unsigned quotient and remainder.
// div_s64_const(const long long *a, long long *out, int n)
//   out[i] = a[i] / 1000 + a[i] % 7       (constant divisors: nvcc uses multiply-high sequences)
// div_u64_by_u32(const unsigned long long *a, unsigned d, unsigned long long *out, int n)
//   out[i] = a[i] / d + a[i] % d    (d != 0, zero-extended to 64 bits; wrapping add)
extern "C" __global__ void div_s64(const long long *a, const long long *b, long long *q, long long *r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void div_u64(const unsigned long long *a, const unsigned long long *b,
                                   unsigned long long *q, unsigned long long *r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void div_s64_const(const long long *a, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] / 1000 + a[i] % 7;
}

extern "C" __global__ void div_u64_by_u32(const unsigned long long *a, unsigned d, unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] / d + a[i] % d;
}
