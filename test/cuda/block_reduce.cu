// block_reduce.cu - block-wide reductions through shared memory and __syncthreads.
//
// Launch: 1D, blockDim.x == 256 exactly (static shared arrays of 256).  i = global thread id,
// v = (i < n) ? in[i] : identity.  Each block b writes one partial result out[b].
//
// block_sum_i32(const int *in, int *out, int n)
//   out[b] = sum of in[i] for i in [b*256, b*256+256) ∩ [0, n)   (wrapping int32)
//   Tree reduction in shared memory: strides 128, 64, ..., 1 with __syncthreads between.
// block_min_max_i64(const long long *in, long long *out_min, long long *out_max, int n)
//   out_min[b] / out_max[b] = min / max of the block's elements (identity INT64_MAX / INT64_MIN).
// block_sum_f64_ordered(const double *in, double *out, int n)
//   out[b] = sum of the block's doubles, added in this exact tree order:
//   s[t] = v_t;  for stride = 128, 64, ..., 1: for t < stride: s[t] = s[t] + s[t + stride];
//   out[b] = s[0].  (A reference must reproduce this pairing to get identical rounding.)
// block_sum_warp_shfl(const int *in, int *out, int n)
//   same result as block_sum_i32, computed as a warp shuffle reduction per warp, then the 8 warp
//   sums reduced by warp 0 through an 8-entry shared array.
extern "C" __global__ void block_sum_i32(const int *in, int *out, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = (i < n) ? in[i] : 0;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void block_min_max_i64(const long long *in, long long *out_min, long long *out_max, int n) {
    __shared__ long long smin[256];
    __shared__ long long smax[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    smin[t] = (i < n) ? in[i] : 0x7fffffffffffffffll;
    smax[t] = (i < n) ? in[i] : (-0x7fffffffffffffffll - 1);
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) {
            smin[t] = min(smin[t], smin[t + stride]);
            smax[t] = max(smax[t], smax[t + stride]);
        }
        __syncthreads();
    }
    if (t == 0) {
        out_min[blockIdx.x] = smin[0];
        out_max[blockIdx.x] = smax[0];
    }
}

extern "C" __global__ void block_sum_f64_ordered(const double *in, double *out, int n) {
    __shared__ double s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    s[t] = (i < n) ? in[i] : 0.0;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = s[t] + s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void block_sum_warp_shfl(const int *in, int *out, int n) {
    __shared__ int warp_sums[8];
    int t = threadIdx.x;
    int i = blockIdx.x * 256 + t;
    int v = (i < n) ? in[i] : 0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
    if ((t & 31) == 0) warp_sums[t >> 5] = v;
    __syncthreads();
    if (t < 32) {
        int w = (t < 8) ? warp_sums[t] : 0;
        for (int off = 4; off > 0; off >>= 1) w += __shfl_down_sync(0xffffffffu, w, off);
        if (t == 0) out[blockIdx.x] = w;
    }
}
