// hash_table.cu - open-addressing hash table built with atomicCAS, then probed.
//
// Table layout: `slots` has capacity entries (capacity a power of two), each entry a 64-bit word
// ((unsigned long long)key << 32) | value, or EMPTY = 0xffffffffffffffff.  Keys are 32-bit and
// must not be 0xffffffff.  hash(k) = (k * 2654435761u) & (capacity - 1)  (32-bit wrapping multiply).
// Linear probing: slot h, h+1, h+2, ... (mod capacity).  1D launch, i = global thread id.
//
// ht_build(const unsigned *keys, const unsigned *vals, unsigned long long *slots,
//          unsigned capacity, int n)
//   The caller fills slots with EMPTY.  Each i < n inserts (keys[i], vals[i]): claims the first
//   slot on its probe path that is EMPTY using atomicCAS on the 64-bit slot.  Keys are assumed
//   distinct (then the SET of occupied (key,value) entries is order-independent, although their
//   slot positions can depend on atomic order when probe paths overlap).  The table must have a
//   free slot (n < capacity).
// ht_probe(const unsigned *keys, const unsigned long long *slots, unsigned capacity,
//          unsigned *out_vals, int *found, int n)
//   For i < n: walk the probe path of keys[i] until the key is found (found[i]=1, out_vals[i] =
//   its value) or an EMPTY slot is reached (found[i]=0, out_vals[i] = 0).
// ht_count_distinct(const unsigned *keys, unsigned *slots32, unsigned capacity,
//                   unsigned *distinct, int n)
//   A 32-bit key-only set: slots32 filled with 0xffffffff by the caller.  Each i < n inserts
//   keys[i] with 32-bit atomicCAS; the thread that claims a new slot increments *distinct.
//   Afterwards *distinct = number of distinct keys among keys[0..n) (caller zeroes it).
#define EMPTY64 0xffffffffffffffffull

__device__ __forceinline__ unsigned ht_hash(unsigned k, unsigned capacity) {
    return (k * 2654435761u) & (capacity - 1u);
}

extern "C" __global__ void ht_build(const unsigned *keys, const unsigned *vals, unsigned long long *slots,
                                    unsigned capacity, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    unsigned long long entry = ((unsigned long long)k << 32) | vals[i];
    unsigned h = ht_hash(k, capacity);
    while (true) {
        unsigned long long prev = atomicCAS(&slots[h], EMPTY64, entry);
        if (prev == EMPTY64) return;
        h = (h + 1u) & (capacity - 1u);
    }
}

extern "C" __global__ void ht_probe(const unsigned *keys, const unsigned long long *slots, unsigned capacity,
                                    unsigned *out_vals, int *found, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    unsigned h = ht_hash(k, capacity);
    for (unsigned step = 0; step < capacity; ++step) {
        unsigned long long e = slots[h];
        if (e == EMPTY64) break;
        if ((unsigned)(e >> 32) == k) {
            out_vals[i] = (unsigned)e;
            found[i] = 1;
            return;
        }
        h = (h + 1u) & (capacity - 1u);
    }
    out_vals[i] = 0;
    found[i] = 0;
}

extern "C" __global__ void ht_count_distinct(const unsigned *keys, unsigned *slots32, unsigned capacity,
                                             unsigned *distinct, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned k = keys[i];
    unsigned h = ht_hash(k, capacity);
    for (unsigned step = 0; step < capacity; ++step) {
        unsigned prev = atomicCAS(&slots32[h], 0xffffffffu, k);
        if (prev == 0xffffffffu) {
            atomicAdd(distinct, 1u);
            return;
        }
        if (prev == k) return;
        h = (h + 1u) & (capacity - 1u);
    }
}
