// ISA probe (generator input only, see mk/assembler.mk): logic on the uniform datapath
// (ULOP3.LUT with registers and immediates, and with a uniform predicate destination on sm_100
// on): kernel parameters and the block index combined by AND/OR/XOR, loop trip counts whose
// unrolled remainders ptxas computes in uniform registers (n & 3, n & 7, n & ~15).
extern "C" __global__ void uniform_param_logic(const int *a, int *out, int n, unsigned m, unsigned k) {
    unsigned mask = (m & 7u) | (k << 3);
    unsigned sel = (m ^ k) & 0xff0u;
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    for (int j = i; j < n; j += (int)(mask + 1)) out[j] = a[j] + (int)sel;
}
extern "C" __global__ void uniform_block_imm(int *out, unsigned n) {
    unsigned b = blockIdx.x & 7u;
    unsigned c = (blockIdx.x | 0x30u) ^ n;
    out[threadIdx.x + b * 32] = (int)c;
}
extern "C" __global__ void uniform_block_logic(const long long *a, long long *out, int n, int m) {
    long long base = (long long)blockIdx.x * n;
    unsigned group = blockIdx.x & 7u;
    unsigned other = (blockIdx.x ^ (unsigned)m) | 0x40u;
    for (int i = threadIdx.x; i < m; i += blockDim.x) out[base + i] = a[base + i] + group + other;
}
extern "C" __global__ void uniform_trip_sum(const float *a, float *out, int n) {
    float s = 0.f;
    for (int j = 0; j < n; ++j) s += a[j * blockDim.x + threadIdx.x];
    out[threadIdx.x] = s;
}
extern "C" __global__ void uniform_trip_xor(const long long *a, long long *out, unsigned n, unsigned k) {
    long long s = 0;
    for (unsigned j = 0; j < (n | k); ++j) s ^= a[j];
    out[threadIdx.x] = s;
}
