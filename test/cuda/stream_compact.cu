// stream_compact.cu - stream compaction (filter) with __ballot_sync and __popc.
//
// Launch: 1D, blockDim.x == 256 (8 warps).  Block b handles segment [b*256, b*256+256) ∩ [0,n).
// The output is per-block and order-preserving, so it is deterministic:
//
// compact_positive(const int *in, int *out, int *block_counts, int n)
//   keep element i iff i < n and in[i] > 0.  Let c_b = number of kept elements of segment b.
//   block_counts[b] = c_b; out[b*256 + r] = r-th kept element of segment b (r = 0..c_b-1, in
//   index order); out[b*256 + r] for r >= c_b is not written.
//   Implementation: ballot + popc per warp gives the rank inside the warp; 8 warp counts are
//   exclusive-scanned in shared memory to get each warp's base.
// compact_indices_u64(const unsigned long long *in, unsigned long long lo, unsigned long long hi,
//                     int *out_idx, int *block_counts, int n)
//   keep i iff i < n and lo <= in[i] < hi (unsigned); same layout, but writes the global index i
//   instead of the value.
extern "C" __global__ void compact_positive(const int *in, int *out, int *block_counts, int n) {
    __shared__ int warp_count[8];
    __shared__ int warp_base[8];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * 256 + t;
    int v = (i < n) ? in[i] : 0;
    bool keep = (i < n) && v > 0;
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int rank = __popc(b & ((1u << lane) - 1u));
    if (lane == 0) warp_count[warp] = __popc(b);
    __syncthreads();
    if (t == 0) {
        int acc = 0;
        for (int w = 0; w < 8; ++w) {
            warp_base[w] = acc;
            acc += warp_count[w];
        }
        block_counts[blockIdx.x] = acc;
    }
    __syncthreads();
    if (keep) out[blockIdx.x * 256 + warp_base[warp] + rank] = v;
}

extern "C" __global__ void compact_indices_u64(const unsigned long long *in, unsigned long long lo,
                                               unsigned long long hi, int *out_idx, int *block_counts, int n) {
    __shared__ int warp_count[8];
    __shared__ int warp_base[8];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * 256 + t;
    bool keep = false;
    if (i < n) {
        unsigned long long v = in[i];
        keep = v >= lo && v < hi;
    }
    unsigned b = __ballot_sync(0xffffffffu, keep);
    int rank = __popc(b & ((1u << lane) - 1u));
    if (lane == 0) warp_count[warp] = __popc(b);
    __syncthreads();
    if (t == 0) {
        int acc = 0;
        for (int w = 0; w < 8; ++w) {
            warp_base[w] = acc;
            acc += warp_count[w];
        }
        block_counts[blockIdx.x] = acc;
    }
    __syncthreads();
    if (keep) out_idx[blockIdx.x * 256 + warp_base[warp] + rank] = i;
}
