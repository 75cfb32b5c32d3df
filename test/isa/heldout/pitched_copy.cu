// Held-out kernel: tiled 2D copies through 64-bit pitched offsets where the row and tile bases are
// uniform per block (kernel parameters and block indices), so the index math lands in uniform
// registers.
extern "C" __global__ void pitched_transpose_add(const float *src, float *dst, unsigned long long src_pitch,
                                                 unsigned long long dst_pitch, int rows, int cols, float add) {
    __shared__ float tile[32][33];
    unsigned long long r0 = (unsigned long long)blockIdx.y * 32ull, c0 = (unsigned long long)blockIdx.x * 32ull;
    for (int k = threadIdx.y; k < 32; k += blockDim.y) {
        unsigned long long r = r0 + (unsigned long long)k, c = c0 + threadIdx.x;
        if (r < (unsigned long long)rows && c < (unsigned long long)cols)
            tile[k][threadIdx.x] = *(const float *)((const char *)src + r * src_pitch + c * 4ull) + add;
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += blockDim.y) {
        unsigned long long r = c0 + (unsigned long long)k, c = r0 + threadIdx.x;
        if (r < (unsigned long long)cols && c < (unsigned long long)rows)
            *(float *)((char *)dst + r * dst_pitch + c * 4ull) = tile[threadIdx.x][k];
    }
}

extern "C" __global__ void strided_gather_i64(const long long *base, long long *out, long long stride, long long offset,
                                              int per_block, int n) {
    long long block_base = (long long)blockIdx.x * (long long)per_block * stride + offset;
    for (int k = threadIdx.x; k < per_block; k += blockDim.x) {
        long long j = (long long)blockIdx.x * per_block + k;
        if (j < n) out[j] = base[block_base + (long long)k * stride] >> (blockIdx.x & 7u);
    }
}
