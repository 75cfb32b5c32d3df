// ISA probe (input of the table generator): 32-bit atomics through a generic address that
// points to shared or global memory (cvta.shared: the shared window's base is c[0x0][0x18] up to
// sm_89 and SR_SWINHI from sm_90), so that their forms are in the tables.  The emulator's test of
// generic atomics (test/unit/sassemu/errors_tool_test.cpp) runs this kernel's PTX.
// Even warps use the block's shared counters, odd warps the global ones (g).
extern "C" __global__ void generic_atomics(unsigned *o, unsigned *g) {
    __shared__ unsigned sh[8];
    unsigned t = threadIdx.x;
    if (t < 8) sh[t] = 0;
    __syncthreads();
    unsigned *p = t & 32 ? g : sh;
    unsigned old = atomicAdd(p + (t & 3), 1u);
    atomicMax(p + 4, t + 1);
    atomicAdd(p + 5, old);
    atomicCAS(p + 6, 0u, 7u);
    atomicExch(p + 7, 9u);
    __syncthreads();
    if (t < 8) o[blockIdx.x * 8 + t] = sh[t];
}
