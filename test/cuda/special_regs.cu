// special_regs.cu - special registers and timers (results reduced to deterministic values).
//
// sreg_ids(int *out)
//   Any 1D launch with blockDim.x a multiple of 32.  For global thread g:
//   out[4*g+0] = %laneid (== threadIdx.x % 32), out[4*g+1] = %nctaid.x (gridDim.x),
//   out[4*g+2] = %ntid.x (blockDim.x), out[4*g+3] = (%warpid < 64) ? 1 : 0  (%warpid is the
//   hardware warp slot, volatile; only its range is checked).
// sreg_clocks(int *out)
//   out[g] = 1 if %clock64 read twice is non-decreasing AND %globaltimer read twice is
//   non-decreasing AND the 32-bit %clock was read (always), else 0.  Expected: all 1.
// sreg_lanemasks(unsigned *out)
//   out[5*g+0..4] = %lanemask_eq, %lanemask_lt, %lanemask_le, %lanemask_gt, %lanemask_ge
//   for the lane l = g % 32: 1<<l, (1<<l)-1, (2<<l)-1 (0xffffffff for l=31), ~((2<<l)-1),
//   ~((1<<l)-1).
// sreg_smid(unsigned *out)
//   out[g] = (%smid < %nsmid) ? 1 : 0     (expected 1)
__device__ __forceinline__ unsigned read_laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned read_warpid() { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long read_gtimer() {
    unsigned long long r;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r));
    return r;
}
__device__ __forceinline__ unsigned read_smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned read_nsmid() { unsigned r; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); return r; }

extern "C" __global__ void sreg_ids(int *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * g + 0] = (int)read_laneid();
    out[4 * g + 1] = (int)gridDim.x;
    out[4 * g + 2] = (int)blockDim.x;
    out[4 * g + 3] = read_warpid() < 64 ? 1 : 0;
}

extern "C" __global__ void sreg_clocks(int *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    long long c0 = clock64();
    unsigned long long t0 = read_gtimer();
    unsigned c32 = (unsigned)clock();
    long long c1 = clock64();
    unsigned long long t1 = read_gtimer();
    out[g] = (c1 >= c0 && t1 >= t0 && (c32 | 1u) != 0u) ? 1 : 0;
}

extern "C" __global__ void sreg_lanemasks(unsigned *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned eq, lt, le, gt, ge;
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    out[5 * g + 0] = eq;
    out[5 * g + 1] = lt;
    out[5 * g + 2] = le;
    out[5 * g + 3] = gt;
    out[5 * g + 4] = ge;
}

extern "C" __global__ void sreg_smid(unsigned *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    out[g] = read_smid() < read_nsmid() ? 1u : 0u;
}
