// atomic_float.cu - floating-point atomics.
//
// Floating-point sums depend on the order in which atomics land.  The kernels are deterministic
// only when every partial sum is exactly representable: use inputs that are small integers (or
// multiples of a power of two) whose running totals stay below 2^24 (float) / 2^53 (double).
// 1D launch; i = global thread id, i < n.
//
// atomic_add_f32(const float *in, float *sum, int n)
//   sum[0] += in[i] for every i (atomicAdd on float; caller initialises sum[0]).
// atomic_add_f32_bins(const float *in, const int *bin, float *sums, int n)
//   sums[bin[i]] += in[i]  (caller guarantees bin[i] in range and zeroes sums).
// atomic_add_f64(const double *in, double *sum, int n)
//   sum[0] += in[i] (atomicAdd on double, sm_60+).
// atomic_add_f32_shared(const float *in, float *sum, int n)
//   Block-local: a shared float accumulator (zeroed by thread 0, __syncthreads) gets every in[i]
//   of the block with atomicAdd on shared memory; then thread 0 does atomicAdd(sum, block total).
//   Same exactness requirement.
extern "C" __global__ void atomic_add_f32(const float *in, float *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

extern "C" __global__ void atomic_add_f32_bins(const float *in, const int *bin, float *sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&sums[bin[i]], in[i]);
}

extern "C" __global__ void atomic_add_f64(const double *in, double *sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, in[i]);
}

extern "C" __global__ void atomic_add_f32_shared(const float *in, float *sum, int n) {
    __shared__ float block_sum;
    if (threadIdx.x == 0) block_sum = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&block_sum, in[i]);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(sum, block_sum);
}
