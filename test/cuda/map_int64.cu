// map_int64.cu - element-wise maps over 64-bit integers.
//
// All kernels: 1D launch; thread i = blockIdx.x*blockDim.x+threadIdx.x handles element i,
// nothing when i >= n.  Arithmetic wraps modulo 2^64.
//
// map_i64_affine(const long long *a, const long long *b, long long *out, long long n)
//   out[i] = a[i] * 1000003 + b[i] - 42                   (wrapping int64)
// map_i64_logic(const unsigned long long *a, const unsigned long long *b,
//               unsigned long long *out, long long n)
//   s = b[i] & 63;  out[i] = ((a[i] << s) | (a[i] >> (63 - s))) ^ (a[i] & ~b[i])
// map_i64_widen(const int *a, const unsigned *b, long long *out, int n)
//   out[i] = (long long)a[i] (sign-extended) + (long long)b[i] (zero-extended) * 4294967296
//   (the multiply wraps modulo 2^64)
// map_i64_narrow(const long long *a, int *lo, int *hi, int n)
//   lo[i] = (int)(a[i] & 0xffffffff);  hi[i] = (int)(a[i] >> 32)  (arithmetic shift)
extern "C" __global__ void map_i64_affine(const long long *a, const long long *b, long long *out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (long long)((unsigned long long)a[i] * 1000003ull + (unsigned long long)b[i] - 42ull);
}

extern "C" __global__ void map_i64_logic(const unsigned long long *a, const unsigned long long *b,
                                         unsigned long long *out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned s = (unsigned)(b[i] & 63ull);
        out[i] = ((a[i] << s) | (a[i] >> (63u - s))) ^ (a[i] & ~b[i]);
    }
}

extern "C" __global__ void map_i64_widen(const int *a, const unsigned *b, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (long long)((unsigned long long)(long long)a[i] + (unsigned long long)b[i] * 4294967296ull);
}

extern "C" __global__ void map_i64_narrow(const long long *a, int *lo, int *hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        lo[i] = (int)(a[i] & 0xffffffffll);
        hi[i] = (int)(a[i] >> 32);
    }
}
