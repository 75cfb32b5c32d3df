// atomic_minmax.cu - atomicMin, atomicMax, atomicExch, and the bitwise/inc/dec/sub atomics.
//
// Final values are order-independent (min/max/and/or/xor/sum are commutative and associative).
// 1D launch; i = global thread id; only i < n take part.
//
// atomic_min_max_i32(const int *in, int *result, int n)
//   result[0] = min(result[0], all in[i]);  result[1] = max(result[1], all in[i])  (signed)
//   The caller initialises result[0] = INT_MAX, result[1] = INT_MIN.
// atomic_min_max_u64(const unsigned long long *in, unsigned long long *result, int n)
//   result[0] = unsigned min, result[1] = unsigned max (64-bit atomicMin/atomicMax), same scheme.
// atomic_min_max_i64(const long long *in, long long *result, int n)
//   signed 64-bit min/max (atomicMin/atomicMax on long long).
// atomic_bitwise(const unsigned *in, unsigned *result, int n)
//   result[0] &= every in[i] (caller sets 0xffffffff); result[1] |= every in[i] (caller sets 0);
//   result[2] ^= every in[i] (caller sets 0); result[3] -= in[i] & 0xff (atomicSub, wrapping,
//   caller chooses the start value).
// atomic_exch_flag(int *flags, int *winners, int n)
//   Each i < n does old = atomicExch(&flags[i % 4], i + 1); if old == 0 it increments winners[0]
//   (atomicAdd).  Caller zeroes flags[0..3] and winners[0].  Afterwards winners[0] = min(n, 4)
//   (exactly one thread per touched flag sees 0), and flags[k] != 0 for k < min(n,4).
// atomic_inc_dec(unsigned *counters, int n)
//   Each i < n: atomicInc(&counters[0], 9) (wraps to 0 after reaching 9) and
//   atomicDec(&counters[1], 9) (value 0 or > 9 becomes 9, else minus one).  Caller initialises
//   both to 0.  Afterwards counters[0] = n mod 10 and counters[1] = (10 - n mod 10) mod 10;
//   both are order-independent because inc/dec wrap on a cycle of length 10.
#include <limits.h>

extern "C" __global__ void atomic_min_max_i32(const int *in, int *result, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMin(&result[0], in[i]);
        atomicMax(&result[1], in[i]);
    }
}

extern "C" __global__ void atomic_min_max_u64(const unsigned long long *in, unsigned long long *result, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMin(&result[0], in[i]);
        atomicMax(&result[1], in[i]);
    }
}

extern "C" __global__ void atomic_min_max_i64(const long long *in, long long *result, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicMin(&result[0], in[i]);
        atomicMax(&result[1], in[i]);
    }
}

extern "C" __global__ void atomic_bitwise(const unsigned *in, unsigned *result, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAnd(&result[0], in[i]);
        atomicOr(&result[1], in[i]);
        atomicXor(&result[2], in[i]);
        atomicSub(&result[3], in[i] & 0xffu);
    }
}

extern "C" __global__ void atomic_exch_flag(int *flags, int *winners, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int old = atomicExch(&flags[i % 4], i + 1);
        if (old == 0) atomicAdd(&winners[0], 1);
    }
}

extern "C" __global__ void atomic_inc_dec(unsigned *counters, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicInc(&counters[0], 9u);
        atomicDec(&counters[1], 9u);
    }
}
