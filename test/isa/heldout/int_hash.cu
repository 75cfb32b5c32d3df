// Held-out kernel: integer hashing and bit manipulation on 32- and 64-bit values.
extern "C" __global__ void hash_mix(const unsigned long long *keys, unsigned *out, int n, unsigned seed) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned long long k = keys[i] ^ seed;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    unsigned h = (unsigned)k ^ (unsigned)(k >> 32);
    out[i] = (h % 1021u) + __popc(h) + __clz(h | 1u) + (unsigned)__ffs((int)h);
}

extern "C" __global__ void bucket_count(const int *v, int *counts, int n, int lo, int hi) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && v[i] >= lo && v[i] < hi) atomicAdd(&counts[(v[i] - lo) >> 4], 1);
}
