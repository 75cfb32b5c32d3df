// Held-out kernel: an odd-even transposition sort of 32 unsigned keys per warp with shuffles and
// unsigned compares, and a warp-wide merge-path style rank of 64-bit keys.
extern "C" __global__ void warp_oddeven_u32(unsigned *keys, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31u;
    unsigned k = i < n ? keys[i] : 0xffffffffu;
    for (int round = 0; round < 32; ++round) {
        bool even_pair = ((lane ^ (unsigned)round) & 1u) == 0u;
        unsigned partner = even_pair ? lane + 1u : lane - 1u;
        unsigned other = __shfl_sync(0xffffffffu, k, partner & 31u);
        bool valid = partner < 32u;
        bool low = lane < partner;
        unsigned lo = min(k, other), hi = max(k, other);
        if (valid) k = low ? lo : hi;
    }
    if (i < n) keys[i] = k;
}

extern "C" __global__ void warp_rank_u64(const unsigned long long *a, unsigned *rank, unsigned long long pivot, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long v = i < n ? a[i] : ~0ull;
    unsigned below = __ballot_sync(0xffffffffu, v < pivot);
    unsigned equal = __ballot_sync(0xffffffffu, v == pivot);
    unsigned lane_mask = (1u << (threadIdx.x & 31u)) - 1u;
    unsigned r = __popc(below & lane_mask) + (v == pivot ? __popc(below) + __popc(equal & lane_mask) : 0u);
    if (i < n) rank[i] = r ^ __brev(below) % 7u;
}
