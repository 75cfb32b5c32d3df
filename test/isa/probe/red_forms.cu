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
