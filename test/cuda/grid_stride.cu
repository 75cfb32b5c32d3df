// grid_stride.cu - grid-stride loops (any grid size covers any n).
//
// Each kernel loops i = blockIdx.x*blockDim.x + threadIdx.x; i < n; i += blockDim.x*gridDim.x.
//
// gs_square_i64(const long long *in, long long *out, long long n)
//   out[i] = in[i] * in[i]       (wrapping int64), 64-bit loop counter.
// gs_fill_iota(int *out, int start, int step, int n)
//   out[i] = start + i * step    (wrapping int32)
// gs_sum_atomic(const int *in, unsigned long long *total, int n)
//   each thread sums its strided elements (as signed 64-bit) locally, then one
//   atomicAdd(total, (unsigned long long)local) per thread.  *total = sum of all in[i] as int64
//   (caller zeroes it; order-independent).
// gs_copy_u8(const unsigned char *in, unsigned char *out, int n)
//   out[i] = in[i] ^ 0x80
extern "C" __global__ void gs_square_i64(const long long *in, long long *out, long long n) {
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        out[i] = (long long)((unsigned long long)in[i] * (unsigned long long)in[i]);
}

extern "C" __global__ void gs_fill_iota(int *out, int start, int step, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = (int)((unsigned)start + (unsigned)i * (unsigned)step);
}

extern "C" __global__ void gs_sum_atomic(const int *in, unsigned long long *total, int n) {
    long long local = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) local += in[i];
    atomicAdd(total, (unsigned long long)local);
}

extern "C" __global__ void gs_copy_u8(const unsigned char *in, unsigned char *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i] ^ 0x80;
}
