// Held-out kernel (never read by the ISA table generator): a 1D three-point stencil through
// shared memory with float and double arithmetic and a clamp.
extern "C" __global__ void stencil3_f32(const float *in, float *out, int n, float w0, float w1) {
    __shared__ float tile[258];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    tile[t] = i < n ? in[i] : 0.0f;
    if (threadIdx.x == 0) tile[0] = i > 0 && i - 1 < n ? in[i - 1] : 0.0f;
    if (threadIdx.x == blockDim.x - 1) tile[t + 1] = i + 1 < n ? in[i + 1] : 0.0f;
    __syncthreads();
    if (i < n) {
        float v = w0 * tile[t] + w1 * (tile[t - 1] + tile[t + 1]);
        out[i] = fminf(fmaxf(v, -4.0f), 4.0f);
    }
}

extern "C" __global__ void smooth_f64(const double *in, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0 && i + 1 < n) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1] - 1.5;
}
