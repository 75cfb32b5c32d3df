// warp_reduce.cu - warp-level reductions with shuffles.
//
// Launch: 1D, blockDim.x a multiple of 32.  Warp w (global) = (blockIdx.x*blockDim.x+threadIdx.x)/32,
// lane = threadIdx.x % 32.  Element index i = global thread id; v = (i < n) ? in[i] : 0.
//
// warp_sum_down(const int *in, int *out, int n)
//   out[w] = sum over the warp's 32 lanes of v (wrapping int32); written by lane 0.
//   Uses __shfl_down_sync with offsets 16, 8, 4, 2, 1.
// warp_sum_xor(const int *in, int *out, int n)
//   every lane i < n (and lanes >= n too, if they exist in the grid) computes the same warp sum by
//   a butterfly (__shfl_xor_sync 16..1); out[i] = warp sum for every i < n.
// warp_max_f32(const float *in, float *out, int n)
//   v = (i < n) ? in[i] : -INFINITY;  out[w] = max over the warp (fmaxf), written by lane 0.
// warp_sum_u64(const unsigned long long *in, unsigned long long *out, int n)
//   out[w] = sum of 64-bit v over the warp (wrapping), __shfl_down_sync on 64-bit values.
// warp_broadcast(const int *in, int *out, int src_lane, int n)
//   0 <= src_lane < 32.  For i < n: j = (i & ~31) + src_lane (same warp);
//   out[i] = (j < n) ? in[j] : 0, via __shfl_sync.
// warp_scan_up(const int *in, int *out, int n)
//   out[i] = inclusive prefix sum of v over lanes 0..lane of the warp (__shfl_up_sync), i < n.
extern "C" __global__ void warp_sum_down(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) out[i >> 5] = v;
}

extern "C" __global__ void warp_sum_xor(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (i < n) ? in[i] : 0;
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
    if (i < n) out[i] = v;
}

extern "C" __global__ void warp_max_f32(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : -__int_as_float(0x7f800000);
    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, off));
    if ((threadIdx.x & 31) == 0) out[i >> 5] = v;
}

extern "C" __global__ void warp_sum_u64(const unsigned long long *in, unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = (i < n) ? in[i] : 0ull;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) out[i >> 5] = v;
}

extern "C" __global__ void warp_broadcast(const int *in, int *out, int src_lane, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int w = __shfl_sync(0xffffffffu, (i < n) ? in[i] : 0, src_lane);
    if (i < n) out[i] = w;
}

extern "C" __global__ void warp_scan_up(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = (i < n) ? in[i] : 0;
    for (int off = 1; off < 32; off <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, v, off);
        if (lane >= off) v += t;
    }
    if (i < n) out[i] = v;
}
