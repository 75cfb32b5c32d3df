// sync_variants.cu - barrier and fence variants: __syncthreads_count/_and/_or (bar.red),
// __syncwarp, __threadfence / __threadfence_block, named barriers via bar.sync with an id.
//
// block_vote_counts(const int *in, int *out, int n)
//   Any 1D launch.  p = (i < n) && in[i] > 0 for global thread i.  For each block b:
//   out[3*b+0] = number of threads of the block with p (__syncthreads_count);
//   out[3*b+1] = 1 if all threads of the block have p else 0 (__syncthreads_and);
//   out[3*b+2] = 1 if any thread has p else 0 (__syncthreads_or).  Written by thread 0.
// warp_sync_exchange(const int *in, int *out, int n)
//   blockDim.x == 64.  Each thread stores v = (i<n ? in[i] : 0) into shared s[t], __syncwarp(),
//   then for i < n: out[i] = s[t ^ 1] (its pair neighbour within the warp).
// fence_publish(int *data, volatile int *flag, int n)
//   Each thread i < n writes data[i] = i * 3, then __threadfence(), then thread 0 of each block
//   after __syncthreads() and __threadfence_block() sets flag[blockIdx.x] = 1.
//   Afterwards data[i] = 3i for i < n and flag[b] = 1 for each block b.
// named_barrier(const int *in, int *out, int n)
//   blockDim.x == 128.  Warps 0-1 and warps 2-3 synchronise on named barriers 1 and 2 (bar.sync
//   id, 64): each thread writes s[t] = (i<n ? in[i] : 0), syncs on its barrier, and for i < n
//   writes out[i] = s[t ^ 32] (the same lane of the other warp of its pair).
extern "C" __global__ void block_vote_counts(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = (i < n) && in[i] > 0;
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(p);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = c;
        out[3 * blockIdx.x + 1] = a ? 1 : 0;
        out[3 * blockIdx.x + 2] = o ? 1 : 0;
    }
}

extern "C" __global__ void warp_sync_exchange(const int *in, int *out, int n) {
    __shared__ int s[64];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0;
    __syncwarp();
    if (i < n) out[i] = s[t ^ 1];
}

extern "C" __global__ void fence_publish(int *data, volatile int *flag, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = i * 3;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence_block();
        flag[blockIdx.x] = 1;
    }
}

extern "C" __global__ void named_barrier(const int *in, int *out, int n) {
    __shared__ int s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? in[i] : 0;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    if (i < n) out[i] = s[t ^ 32];
}
