// Held-out kernel (never read by the ISA table generator): a 64-bin histogram of clamped, scaled
// floats counted with shared-memory atomics, plus per-block float extremes kept with integer
// atomics on the order-preserving bit pattern.
extern "C" __global__ void clamp_hist64(const float *x, unsigned *bins, int n, float scale, float bias) {
    __shared__ unsigned local[64];
    for (int k = threadIdx.x; k < 64; k += blockDim.x) local[k] = 0u;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = fmaf(x[i], scale, bias);
        v = fminf(fmaxf(v, 0.0f), 63.0f);
        atomicAdd(&local[__float2uint_rz(v)], 1u);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < 64; k += blockDim.x) {
        unsigned c = local[k];
        if (c) atomicAdd(&bins[k], c);
    }
}

__device__ __forceinline__ int order_key(float f) {
    int b = __float_as_int(f);
    return b >= 0 ? b : b ^ 0x7fffffff;
}

extern "C" __global__ void block_extremes(const float *x, int *lo_hi, int n) {
    __shared__ int smin, smax;
    if (threadIdx.x == 0) {
        smin = 0x7fffffff;
        smax = (int)0x80000000;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = fmaxf(fminf(x[i], 1.0e6f), -1.0e6f);
        int key = order_key(v);
        atomicMin(&smin, key);
        atomicMax(&smax, key);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicMin(&lo_hi[0], smin);
        atomicMax(&lo_hi[1], smax);
    }
}
