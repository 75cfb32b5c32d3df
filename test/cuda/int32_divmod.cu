// int32_divmod.cu - 32-bit integer division and remainder (C semantics, truncation toward zero).
//
// 1D launch; i = global thread id, i < n.  Caller guarantees b[i] != 0 and, for the signed
// kernel, not (a[i] == INT_MIN && b[i] == -1).
//
// div_s32(const int *a, const int *b, int *q, int *r, int n)    q = a / b, r = a % b
// div_u32(const unsigned *a, const unsigned *b, unsigned *q, unsigned *r, int n)
// div_s32_pow2(const int *a, int *out, int n)
//   out[i] = a[i] / 16 + a[i] % 8 + a[i] / -3     (signed; constant divisors)
// div_u32_const(const unsigned *a, unsigned *out, int n)
//   out[i] = a[i] / 10u + a[i] % 10u + a[i] / 4096u
extern "C" __global__ void div_s32(const int *a, const int *b, int *q, int *r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void div_u32(const unsigned *a, const unsigned *b, unsigned *q, unsigned *r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
    }
}

extern "C" __global__ void div_s32_pow2(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] / 16 + a[i] % 8 + a[i] / -3;
}

extern "C" __global__ void div_u32_const(const unsigned *a, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] / 10u + a[i] % 10u + a[i] / 4096u;
}
