// warp_match.cu - __match_any_sync / __match_all_sync (sm_70+).
//
// Launch: 1D, blockDim.x a multiple of 32, all lanes active.  i = global thread id,
// lane = threadIdx.x % 32, key = (i < n) ? keys[i] : -1 (lanes past n use key -1).
//
// match_any_i32(const int *keys, unsigned *out, int n)
//   out[i] (i < n) = mask of the lanes in i's warp whose key equals this lane's key.
// match_any_u64(const unsigned long long *keys, unsigned *out, int n)
//   same with 64-bit keys; lanes past n use key 0xffffffffffffffff.
// match_group_leader(const int *keys, int *leader, int *group_size, int n)
//   m = match_any mask of this lane's key; leader[i] = index of the lowest set bit of m (a lane
//   number 0..31); group_size[i] = popc(m).  (For i < n.)
// match_all_i32(const int *keys, unsigned *out, int *pred, int n)
//   out[w] = __match_all_sync(full, key, &p): 0xffffffff if all 32 lanes' keys are equal else 0;
//   pred[w] = p (1/0).  Written by lane 0; w = i / 32.
extern "C" __global__ void match_any_i32(const int *keys, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int key = (i < n) ? keys[i] : -1;
    unsigned m = __match_any_sync(0xffffffffu, key);
    if (i < n) out[i] = m;
}

extern "C" __global__ void match_any_u64(const unsigned long long *keys, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long key = (i < n) ? keys[i] : ~0ull;
    unsigned m = __match_any_sync(0xffffffffu, key);
    if (i < n) out[i] = m;
}

extern "C" __global__ void match_group_leader(const int *keys, int *leader, int *group_size, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int key = (i < n) ? keys[i] : -1;
    unsigned m = __match_any_sync(0xffffffffu, key);
    if (i < n) {
        leader[i] = __ffs(m) - 1;
        group_size[i] = __popc(m);
    }
}

extern "C" __global__ void match_all_i32(const int *keys, unsigned *out, int *pred, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int key = (i < n) ? keys[i] : -1;
    int p = 0;
    unsigned m = __match_all_sync(0xffffffffu, key, &p);
    if ((threadIdx.x & 31) == 0) {
        out[i >> 5] = m;
        pred[i >> 5] = p ? 1 : 0;
    }
}
