// bit_ops.cu - bit-manipulation intrinsics.
//
// 1D launch; i = global thread id, i < n.
//
// bits_u32(const unsigned *a, int *out, int n)
//   x = a[i];  out[6*i+0] = __popc(x);  out[6*i+1] = __clz(x) (32 for x == 0);
//   out[6*i+2] = (int)__brev(x);  out[6*i+3] = __ffs(x) (1-based index of lowest set bit, 0 if
//   x == 0);  out[6*i+4] = 31 - __clz(x) (position of highest set bit, -1 if x == 0);
//   out[6*i+5] = (int)__byte_perm(x, 0, 0x0123) (byte reverse)
// bits_u64(const unsigned long long *a, int *out, unsigned long long *rev, int n)
//   x = a[i]; out[3*i+0] = __popcll(x); out[3*i+1] = __clzll(x); out[3*i+2] = __ffsll(x);
//   rev[i] = __brevll(x)
// funnel_shift(const unsigned *lo, const unsigned *hi, const unsigned *s, unsigned *out, int n)
//   out[2*i+0] = __funnelshift_l(lo[i], hi[i], s[i])  = high 32 bits of ((hi:lo) << (s & 31))
//   out[2*i+1] = __funnelshift_r(lo[i], hi[i], s[i])  = low 32 bits of ((hi:lo) >> (s & 31))
//   ((hi:lo) is the 64-bit value hi*2^32 + lo)
// funnel_shift_clamp(const unsigned *lo, const unsigned *hi, const unsigned *s, unsigned *out, int n)
//   as funnel_shift with __funnelshift_lc / __funnelshift_rc: shift amount min(s, 32).
// rotate_extract(const unsigned *a, const unsigned *s, unsigned *out, int n)
//   r = s[i] & 31; out[2*i] = (a << r) | (a >> ((32 - r) & 31)) (rotate left; for r=0 that is
//   a | a = a);  out[2*i+1] = (a >> 7) & 0x1ff  (bit field [7,16)).
// shifts_signed(const int *a, const int *s, int *out, long long *out64, int n)
//   sh = s[i] & 31:  out[2*i] = a[i] >> sh (arithmetic);  out[2*i+1] = (int)((unsigned)a[i] >> sh)
//   out64[i] = ((long long)a[i] << 32) >> (sh + 1)   (arithmetic 64-bit shift by sh+1 <= 32)
extern "C" __global__ void bits_u32(const unsigned *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i];
        out[6 * i + 0] = __popc(x);
        out[6 * i + 1] = __clz(x);
        out[6 * i + 2] = (int)__brev(x);
        out[6 * i + 3] = __ffs(x);
        out[6 * i + 4] = 31 - __clz(x);
        out[6 * i + 5] = (int)__byte_perm(x, 0, 0x0123);
    }
}

extern "C" __global__ void bits_u64(const unsigned long long *a, int *out, unsigned long long *rev, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long x = a[i];
        out[3 * i + 0] = __popcll(x);
        out[3 * i + 1] = __clzll(x);
        out[3 * i + 2] = __ffsll(x);
        rev[i] = __brevll(x);
    }
}

extern "C" __global__ void funnel_shift(const unsigned *lo, const unsigned *hi, const unsigned *s, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i + 0] = __funnelshift_l(lo[i], hi[i], s[i]);
        out[2 * i + 1] = __funnelshift_r(lo[i], hi[i], s[i]);
    }
}

extern "C" __global__ void funnel_shift_clamp(const unsigned *lo, const unsigned *hi, const unsigned *s, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i + 0] = __funnelshift_lc(lo[i], hi[i], s[i]);
        out[2 * i + 1] = __funnelshift_rc(lo[i], hi[i], s[i]);
    }
}

extern "C" __global__ void rotate_extract(const unsigned *a, const unsigned *s, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], r = s[i] & 31u;
        out[2 * i] = (x << r) | (x >> ((32u - r) & 31u));
        out[2 * i + 1] = (x >> 7) & 0x1ffu;
    }
}

extern "C" __global__ void shifts_signed(const int *a, const int *s, int *out, long long *out64, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int sh = s[i] & 31;
        out[2 * i] = a[i] >> sh;
        out[2 * i + 1] = (int)((unsigned)a[i] >> sh);
        out64[i] = (long long)((unsigned long long)(long long)a[i] << 32) >> (sh + 1);
    }
}
