// bitonic_sort.cu - bitonic sort of 256-element tiles in shared memory.
//
// Launch: 1D, blockDim.x == 256.  Block b sorts tile [b*256, b*256+256) of `data` in place in
// ascending order; positions >= n are padded with the maximum value during the sort and are not
// written back (so each tile's valid prefix ends up sorted ascending).
//
// bitonic_sort_u32(unsigned *data, int n)      ascending unsigned 32-bit sort per tile.
// bitonic_sort_i64_kv(long long *keys, int *vals, int n)
//   sorts (key, value) pairs per tile by key ascending, ties broken by value ascending (so the
//   result is fully determined: a lexicographic sort of the pairs); padding is
//   (INT64_MAX, INT_MAX).
// bitonic_sort_f32_desc(float *data, int n)
//   descending sort of floats per tile (inputs must not contain NaN; -0.0 and +0.0 compare
//   equal, so a tile with both has them in unspecified relative order - avoid mixing them);
//   padding is -INFINITY.
extern "C" __global__ void bitonic_sort_u32(unsigned *data, int n) {
    __shared__ unsigned s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = (i < n) ? data[i] : 0xffffffffu;
    __syncthreads();
    for (int k = 2; k <= 256; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                bool up = (t & k) == 0;
                unsigned a = s[t], b = s[p];
                if ((a > b) == up) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    }
    if (i < n) data[i] = s[t];
}

extern "C" __global__ void bitonic_sort_i64_kv(long long *keys, int *vals, int n) {
    __shared__ long long sk[256];
    __shared__ int sv[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    sk[t] = (i < n) ? keys[i] : 0x7fffffffffffffffll;
    sv[t] = (i < n) ? vals[i] : 0x7fffffff;
    __syncthreads();
    for (int k = 2; k <= 256; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                bool up = (t & k) == 0;
                long long ka = sk[t], kb = sk[p];
                int va = sv[t], vb = sv[p];
                bool greater = (ka > kb) || (ka == kb && va > vb);
                if (greater == up) {
                    sk[t] = kb; sk[p] = ka;
                    sv[t] = vb; sv[p] = va;
                }
            }
            __syncthreads();
        }
    }
    if (i < n) {
        keys[i] = sk[t];
        vals[i] = sv[t];
    }
}

extern "C" __global__ void bitonic_sort_f32_desc(float *data, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = (i < n) ? data[i] : -__int_as_float(0x7f800000);
    __syncthreads();
    for (int k = 2; k <= 256; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = t ^ j;
            if (p > t) {
                bool down = (t & k) == 0;
                float a = s[t], b = s[p];
                if ((a < b) == down) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    }
    if (i < n) data[i] = s[t];
}
