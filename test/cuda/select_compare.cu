// select_compare.cu - comparison chains, selects and predicate logic (SQL CASE / BETWEEN / AND/OR).
//
// 1D launch; i = global thread id, i < n.
//
// case_when_i32(const int *a, int *out, int n)
//   out[i] = a<0 ? -1 : a==0 ? 0 : a<10 ? 1 : a<100 ? 2 : 3          (a = a[i])
// between_and_or(const int *a, const long long *b, const float *c, unsigned char *out, int n)
//   out[i] = ((10 <= a[i] && a[i] <= 20) || b[i] > 1000000000000) && !(c[i] != c[i]) && c[i] >= 0.5f
//   (c[i] != c[i] is true only for NaN; the whole value is 0/1)
// select_f64(const double *a, const double *b, const unsigned char *m, double *out, int n)
//   out[i] = m[i] ? a[i] : (a[i] < b[i] ? b[i] : -a[i])
// unsigned_vs_signed(const unsigned *u, const int *s, int *out, int n)
//   out[i] = (u[i] < 100u ? 1 : 0) + (s[i] < 100 ? 2 : 0) + ((unsigned)s[i] > u[i] ? 4 : 0)
//          + (u[i] >= 0x80000000u ? 8 : 0)
// float_unordered(const float *a, const float *b, int *out, int n)
//   bits of IEEE comparisons (NaN-aware, as in C):
//   out[i] = (a<b) | (a<=b)<<1 | (a>b)<<2 | (a>=b)<<3 | (a==b)<<4 | (a!=b)<<5
//          | isnan(a)<<6 | (!(a<b))<<7          (a = a[i], b = b[i])
// count_matches_u64(const unsigned long long *a, unsigned long long lo, unsigned long long hi,
//                   int *out, int n)
//   out[i] = (a[i] >= lo) + (a[i] <= hi) + (a[i] == lo) + ((long long)a[i] < 0)
extern "C" __global__ void case_when_i32(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = a[i];
        out[i] = v < 0 ? -1 : v == 0 ? 0 : v < 10 ? 1 : v < 100 ? 2 : 3;
    }
}

extern "C" __global__ void between_and_or(const int *a, const long long *b, const float *c, unsigned char *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        bool r = ((10 <= a[i] && a[i] <= 20) || b[i] > 1000000000000ll) && !(c[i] != c[i]) && c[i] >= 0.5f;
        out[i] = r ? 1 : 0;
    }
}

extern "C" __global__ void select_f64(const double *a, const double *b, const unsigned char *m, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = m[i] ? a[i] : (a[i] < b[i] ? b[i] : -a[i]);
}

extern "C" __global__ void unsigned_vs_signed(const unsigned *u, const int *s, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (u[i] < 100u ? 1 : 0) + (s[i] < 100 ? 2 : 0) + ((unsigned)s[i] > u[i] ? 4 : 0) +
                 (u[i] >= 0x80000000u ? 8 : 0);
}

extern "C" __global__ void float_unordered(const float *a, const float *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = a[i], y = b[i];
        out[i] = (x < y) | ((x <= y) << 1) | ((x > y) << 2) | ((x >= y) << 3) | ((x == y) << 4) |
                 ((x != y) << 5) | (isnan(x) << 6) | ((!(x < y)) << 7);
    }
}

extern "C" __global__ void count_matches_u64(const unsigned long long *a, unsigned long long lo, unsigned long long hi,
                                             int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (a[i] >= lo) + (a[i] <= hi) + (a[i] == lo) + ((long long)a[i] < 0);
}
