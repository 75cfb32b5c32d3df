// Held-out kernel: warp-level inclusive scan and a block maximum with shuffles and votes.
extern "C" __global__ void warp_inclusive_scan(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if ((threadIdx.x & 31) >= d) v += u;
    }
    if (i < n) out[i] = v;
}

extern "C" __global__ void block_max_f32(const float *in, float *out, int n) {
    __shared__ float part[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : -1e30f;
    for (int d = 16; d > 0; d >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = threadIdx.x < (blockDim.x + 31) / 32 ? part[threadIdx.x] : -1e30f;
        for (int d = 16; d > 0; d >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
        if (threadIdx.x == 0 && __any_sync(0xffffffffu, v > 0.0f)) out[blockIdx.x] = v;
    }
}
