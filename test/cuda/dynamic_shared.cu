// dynamic_shared.cu - dynamically sized shared memory (extern __shared__).
//
// dyn_reverse_block(const int *in, int *out, int n)
//   Launch with blockDim.x threads (any size) and blockDim.x*4 bytes of dynamic shared memory.
//   Block b covers [b*blockDim.x, (b+1)*blockDim.x); let m = number of those indices < n.
//   out[b*blockDim.x + t] = in[b*blockDim.x + (m - 1 - t)] for t < m  (each block's valid part
//   reversed).
// dyn_two_arrays(const float *a, const int *k, float *out, int n)
//   Dynamic shared memory of blockDim.x*(4+4) bytes holds two arrays: floats then ints.  Each
//   thread t of block b stores a[i] and k[i] (i = b*blockDim.x+t; 0 and 0 when i >= n), syncs,
//   then for i < n: out[i] = sa[(t+1) % blockDim.x] * (float)sk[t]   (neighbour in the block;
//   one rounded multiply; the neighbour's value is 0 when its index is >= n).
// dyn_double_sum(const double *in, double *out, int n)
//   blockDim.x a power of two, blockDim.x*8 bytes dynamic shared memory; tree reduction like
//   block_sum_f64_ordered (stride blockDim.x/2 down to 1), out[b] = block total.
extern "C" __global__ void dyn_reverse_block(const int *in, int *out, int n) {
    extern __shared__ int sbuf[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int m = min((int)blockDim.x, n - base);
    if (t < m) sbuf[t] = in[base + t];
    __syncthreads();
    if (t < m) out[base + t] = sbuf[m - 1 - t];
}

extern "C" __global__ void dyn_two_arrays(const float *a, const int *k, float *out, int n) {
    extern __shared__ float sdyn[];
    float *sa = sdyn;
    int *sk = (int *)(sdyn + blockDim.x);
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sa[t] = (i < n) ? a[i] : 0.0f;
    sk[t] = (i < n) ? k[i] : 0;
    __syncthreads();
    if (i < n) out[i] = sa[(t + 1) % blockDim.x] * (float)sk[t];
}

extern "C" __global__ void dyn_double_sum(const double *in, double *out, int n) {
    extern __shared__ double sd[];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    sd[t] = (i < n) ? in[i] : 0.0;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) sd[t] = sd[t] + sd[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = sd[0];
}
