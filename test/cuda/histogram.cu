// histogram.cu - histograms with atomicAdd on shared and on global memory.
//
// Results are order-independent (integer sums), so they are deterministic whatever the order in
// which atomics land.  1D launch, any grid; i = global thread id.
//
// hist_global(const unsigned *keys, unsigned *bins, int nbins, int n)
//   for each i < n: atomicAdd(&bins[keys[i] % nbins], 1).  bins must be zeroed by the caller;
//   afterwards bins[k] = #{ i < n : keys[i] % nbins == k }.
// hist_shared256(const unsigned char *bytes, unsigned *bins, int n)
//   blockDim.x arbitrary; 256 bins.  Each block counts its elements i (grid-stride loop over all n,
//   stride gridDim.x*blockDim.x) into a shared 256-entry histogram (atomicAdd on shared), then
//   adds it to bins[0..255] in global memory with atomicAdd.  Caller zeroes bins; afterwards
//   bins[k] = #{ i < n : bytes[i] == k }.
// hist_weighted_u64(const unsigned *keys, const unsigned long long *weights,
//                   unsigned long long *bins, int nbins, int n)
//   bins[keys[i] % nbins] += weights[i] (64-bit atomicAdd, wrapping), caller zeroes bins.
extern "C" __global__ void hist_global(const unsigned *keys, unsigned *bins, int nbins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[keys[i] % (unsigned)nbins], 1u);
}

extern "C" __global__ void hist_shared256(const unsigned char *bytes, unsigned *bins, int n) {
    __shared__ unsigned local[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x) local[k] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[bytes[i]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        if (local[k] != 0) atomicAdd(&bins[k], local[k]);
}

extern "C" __global__ void hist_weighted_u64(const unsigned *keys, const unsigned long long *weights,
                                             unsigned long long *bins, int nbins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[keys[i] % (unsigned)nbins], weights[i]);
}
