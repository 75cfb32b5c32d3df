// block_scan.cu - inclusive and exclusive prefix sums within one block, in shared memory.
//
// Launch: 1D, blockDim.x == 256.  Each block scans its own 256-element segment independently:
// segment b covers indices [b*256, b*256+256); elements at i >= n are treated as 0 and not written.
//
// scan_inclusive_i32(const int *in, int *out, int n)
//   out[i] = sum of in[j] for j in [segment start, i]      (wrapping int32)
//   Hillis-Steele with double buffering in shared memory.
// scan_exclusive_i32(const int *in, int *out, int *block_totals, int n)
//   out[i] = sum of in[j] for j in [segment start, i)  (0 for the first element of a segment);
//   block_totals[b] = sum of the whole segment.  Blelloch up-sweep / down-sweep.
// scan_inclusive_u64(const unsigned long long *in, unsigned long long *out, int n)
//   inclusive scan of 64-bit unsigned values (wrapping), same segmentation.
extern "C" __global__ void scan_inclusive_i32(const int *in, int *out, int n) {
    __shared__ int buf[2][256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    int cur = 0;
    buf[0][t] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        int v = buf[cur][t];
        if (t >= off) v += buf[cur][t - off];
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (i < n) out[i] = buf[cur][t];
}

extern "C" __global__ void scan_exclusive_i32(const int *in, int *out, int *block_totals, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < 256; d <<= 1) {
        int k = (t + 1) * d * 2 - 1;
        if (k < 256) s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0) {
        block_totals[blockIdx.x] = s[255];
        s[255] = 0;
    }
    __syncthreads();
    for (int d = 128; d >= 1; d >>= 1) {
        int k = (t + 1) * d * 2 - 1;
        if (k < 256) {
            int left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
}

extern "C" __global__ void scan_inclusive_u64(const unsigned long long *in, unsigned long long *out, int n) {
    __shared__ unsigned long long s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = (i < n) ? in[i] : 0ull;
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
        unsigned long long add = (t >= off) ? s[t - off] : 0ull;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
}
