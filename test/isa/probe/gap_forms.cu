// ISA probe (generator input only, see mk/assembler.mk): 64-bit integer comparisons (one
// ISETP.*.S64/.U64 on sm_120, ISETP + ISETP.*.EX before) alone, selected and combined with a
// predicate; 16-bit remainders; run-time indexed local arrays (LDL/STL); three predicates
// combined (PLOP3.LUT); shared-memory atomics (ATOMS) with results used and unused.
#define CMP(name, T, op)                                                                          \
    extern "C" __global__ void name(const T *a, const T *b, int *out, int n) {                    \
        int i = threadIdx.x + blockIdx.x * blockDim.x;                                            \
        if (i >= n) return;                                                                       \
        T x = a[i], y = b[i];                                                                     \
        if (x op y) out[i] = i * 3;                                                               \
    }                                                                                             \
    extern "C" __global__ void name##_sel(const T *a, const T *b, int *out, int n) {              \
        int i = threadIdx.x + blockIdx.x * blockDim.x;                                            \
        if (i >= n) return;                                                                       \
        T x = a[i], y = b[i];                                                                     \
        out[i] = (x op y) ? a[i + n] != 0 : out[i] > 4;                                           \
    }                                                                                             \
    extern "C" __global__ void name##_and(const T *a, const T *b, int *out, int n, T k) {         \
        int i = threadIdx.x + blockIdx.x * blockDim.x;                                            \
        if (i >= n) return;                                                                       \
        T x = a[i], y = b[i];                                                                     \
        out[i] = ((x op y) && (out[i] > 2)) ? 7 : ((x op k) ? 9 : 11);                            \
    }
CMP(lt_s64, long long, <)
CMP(le_s64, long long, <=)
CMP(gt_s64, long long, >)
CMP(ge_s64, long long, >=)
CMP(eq_s64, long long, ==)
CMP(ne_s64, long long, !=)
CMP(lt_u64, unsigned long long, <)
CMP(le_u64, unsigned long long, <=)
CMP(gt_u64, unsigned long long, >)
CMP(ge_u64, unsigned long long, >=)
CMP(eq_u64, unsigned long long, ==)
CMP(ne_u64, unsigned long long, !=)

// 16-bit remainders and quotients
extern "C" __global__ void rem_u16(const unsigned short *a, const unsigned short *b, unsigned short *out, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) out[i] = (unsigned short)(a[i] % b[i]) + (unsigned short)(a[i] / b[i]);
}

// local arrays indexed at run time (LDL/STL, 32 and 64-bit)
extern "C" __global__ void local_dyn(const int *idx, const int *v, const long long *w, long long *out, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int arr[24];
    long long wide[12];
    for (int k = 0; k < 24; ++k) arr[k] = v[k * n + i];
    for (int k = 0; k < 12; ++k) wide[k] = w[k * n + i];
    arr[idx[i] % 24] += 5;
    wide[idx[i + n] % 12] -= 3;
    out[i] = arr[idx[i + 2 * n] % 24] + wide[idx[i + 3 * n] % 12];
}

// three predicates combined (PLOP3.LUT with three predicate sources)
extern "C" __global__ void three_preds(const int *a, const int *b, const int *c, int *out, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i];
    bool p = x < y, q = y < z, r = z < x;
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        if ((p && !q) || r) acc += a[k];
        if ((p ^ q) ^ r) acc ^= b[k];
        if ((p || q) && !r) acc -= c[k];
        p = a[k] > acc, q = b[k] < acc, r = c[k] == acc;
    }
    out[i] = acc;
}

// shared-memory atomics (ATOMS), result used and unused
extern "C" __global__ void shared_atomics(const int *a, const float *f, unsigned long long *u, int *out, float *fo, int n) {
    __shared__ int si[64];
    __shared__ unsigned su[64];
    __shared__ float sf[64];
    __shared__ unsigned long long sl[64];
    int t = threadIdx.x;
    si[t & 63] = 0, su[t & 63] = 0, sf[t & 63] = 0, sl[t & 63] = 0;
    __syncthreads();
    int i = t + blockIdx.x * blockDim.x;
    if (i < n) {
        int v = a[i];
        atomicAdd(&si[v & 63], v + 1);
        atomicAdd(&su[(v >> 6) & 63], (unsigned)v);
        atomicAdd(&sf[(v >> 12) & 63], f[i]);
        atomicAdd(&sl[(v >> 3) & 63], u[i]);
        atomicMin(&si[(v >> 1) & 63], v);
        atomicMax(&si[(v >> 2) & 63], v);
        atomicMin(&su[(v >> 4) & 63], (unsigned)v);
        atomicMax(&su[(v >> 5) & 63], (unsigned)v);
        atomicAnd(&si[(v >> 7) & 63], v);
        atomicOr(&si[(v >> 8) & 63], v);
        atomicXor(&si[(v >> 9) & 63], v);
        int o1 = atomicAdd(&si[(v >> 10) & 63], 3);
        unsigned o2 = atomicInc(&su[(v >> 11) & 63], 17u);
        unsigned o3 = atomicDec(&su[(v >> 13) & 63], 17u);
        int o4 = atomicExch(&si[(v >> 14) & 63], v);
        int o5 = atomicCAS(&si[(v >> 15) & 63], v, o1);
        unsigned long long o6 = atomicCAS(&sl[(v >> 16) & 63], u[i], 5ull);
        unsigned long long o7 = atomicAdd(&sl[(v >> 17) & 63], 9ull);
        float o8 = atomicAdd(&sf[(v >> 18) & 63], 1.5f);
        int o9 = atomicMin(&si[(v >> 19) & 63], 4);
        int o10 = atomicMax(&si[(v >> 20) & 63], o9);
        unsigned o11 = atomicMax(&su[(v >> 21) & 63], 8u);
        unsigned o12 = atomicOr(&su[(v >> 22) & 63], 8u);
        out[i] = o1 + o2 + o3 + o4 + o5 + (int)o6 + (int)o7 + o10 + o11 + o12;
        fo[i] = o8;
    }
    __syncthreads();
    out[n + t] = si[t & 63] + su[t & 63] + (int)sl[t & 63];
    fo[n + t] = sf[t & 63];
}

// local array elements at constant offsets from a run-time index (LDL/STL [R+offset])
extern "C" __global__ void local_offsets(const int *idx, const int *v, const long long *w, long long *out, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    int arr[32];
    long long wide[16];
    for (int k = 0; k < 32; ++k) arr[k] = v[k * n + i];
    for (int k = 0; k < 16; ++k) wide[k] = w[k * n + i];
    int j = idx[i] & 15, m = idx[i + n] & 7;
    arr[j + 1] = arr[j + 3] + 1;
    arr[j + 2] = arr[j + 5] * 3;
    wide[m + 1] = wide[m + 2] + wide[m + 3];
    wide[m + 4] = arr[j + 7];
    out[i] = arr[idx[i + 2 * n] & 31] + wide[idx[i + 3 * n] & 15] + arr[j + 4] + wide[m + 5];
}

// global accesses at large and negative constant offsets ([R.64+offset], 24 bits signed)
extern "C" __global__ void global_offsets(const int *a, const long long *b, int *out, long long *wo, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    const int *p = a + i + 4096;
    out[i + 8] = p[-4096] + p[-3] + p[100000];
    out[i + 70000] = p[1000000];
    wo[i + 3000] = b[i + 200000] + b[i + 12];
    out[i + 1048000] = (int)b[i + 3];
}
