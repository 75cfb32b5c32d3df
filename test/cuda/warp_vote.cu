// warp_vote.cu - warp vote intrinsics.
//
// Launch: 1D, blockDim.x a multiple of 32; all 32 lanes of every warp are active at the vote.
// i = global thread id, lane = threadIdx.x % 32, w = i / 32; p = (i < n) && (in[i] > threshold).
//
// vote_ballot(const int *in, unsigned *out, int threshold, int n)
//   out[w] = bit mask with bit `lane` set iff p for that lane (__ballot_sync); written by lane 0.
// vote_any_all(const int *in, int *out_any, int *out_all, int threshold, int n)
//   out_any[w] = 1 if p for any lane else 0;  out_all[w] = 1 if p for all 32 lanes else 0.
// vote_active(const int *in, unsigned *out, int n)
//   Lanes with i < n and in[i] odd enter a branch and write out[i] = __activemask() there
//   (the set of lanes of the warp inside that branch: exactly the lanes with i < n and in[i] odd,
//   assuming the branch is not reconverged early); other lanes with i < n write out[i] = 0.
//   NOTE: __activemask() is only a hint in CUDA; a reference should expect the mask of the
//   lanes taking the branch.
// vote_count(const int *in, int *out, int threshold, int n)
//   out[i] (i < n) = number of lanes of i's warp with p (popc of the ballot) + 100 * (lane's rank
//   among the p-lanes = popc(ballot & ((1<<lane)-1))).
extern "C" __global__ void vote_ballot(const int *in, unsigned *out, int threshold, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = (i < n) && (in[i] > threshold);
    unsigned b = __ballot_sync(0xffffffffu, p);
    if ((threadIdx.x & 31) == 0) out[i >> 5] = b;
}

extern "C" __global__ void vote_any_all(const int *in, int *out_any, int *out_all, int threshold, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = (i < n) && (in[i] > threshold);
    int a = __any_sync(0xffffffffu, p);
    int l = __all_sync(0xffffffffu, p);
    if ((threadIdx.x & 31) == 0) {
        out_any[i >> 5] = a ? 1 : 0;
        out_all[i >> 5] = l ? 1 : 0;
    }
}

extern "C" __global__ void vote_active(const int *in, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (in[i] & 1) {
        out[i] = __activemask();
    } else {
        out[i] = 0;
    }
}

extern "C" __global__ void vote_count(const int *in, int *out, int threshold, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool p = (i < n) && (in[i] > threshold);
    unsigned b = __ballot_sync(0xffffffffu, p);
    int rank = __popc(b & ((1u << lane) - 1u));
    if (i < n) out[i] = __popc(b) + 100 * rank;
}
