// ISA-table probe: reductions (atomics whose result is unused) at register+offset addresses, so
// that their forms are observed rather than synthesized on every architecture.
__global__ void red_u64_offsets(unsigned long long *p, unsigned long long v) {
    atomicMax(p + 1, v);
    atomicMin(p + 2, v);
    atomicOr(p + 3, v);
    atomicAnd(p + 4, v);
    atomicXor(p + 5, v);
}
__global__ void red_u32_offsets(unsigned int *p, unsigned int v) {
    atomicOr(p + 1, v);
    atomicMax(p + 2, v);
    atomicMin(p + 3, v);
    atomicDec(p + 4, v);
    atomicInc(p + 5, v);
}
// Per-thread addresses (a register, not a uniform register, on sm_75), with and without an offset.
__global__ void red_per_thread(double *d, unsigned int *u, float *f) {
    int t = threadIdx.x;
    atomicAdd(d + t, 1.5);
    atomicAdd(d + t + 64, (double)t);
    atomicInc(u + t, 100u);
    atomicDec(u + t + 32, 100u);
    atomicAdd(f + t + 16, 2.0f);
}
