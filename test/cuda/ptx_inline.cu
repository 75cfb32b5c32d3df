// ptx_inline.cu - PTX instructions that nvcc rarely emits on its own, written as inline asm.
//
// 1D launch; i = global thread id, i < n.
//
// carry_add128(const unsigned long long *a, const unsigned long long *b, unsigned long long *out, int n)
//   128-bit addition of (a[2i+1]:a[2i]) + (b[2i+1]:b[2i]) with add.cc / addc over four 32-bit limbs
//   (limb 0 = low 32 bits of a[2i]); out[2i] = low 64 bits, out[2i+1] = high 64 bits (mod 2^128).
// borrow_sub64(const unsigned long long *a, const unsigned long long *b, unsigned long long *out, int n)
//   out[i] = a[i] - b[i] (mod 2^64) computed with sub.cc / subc on 32-bit halves.
// bfe_bfi_prmt(const unsigned *a, const unsigned *b, unsigned *out, int n)
//   out[4*i+0] = bfe.u32(a, 4, 8)   = (a >> 4) & 0xff
//   out[4*i+1] = bfe.s32(a, 4, 8)   = sign-extended 8-bit field at bit 4
//   out[4*i+2] = bfi.b32(a, b, 8, 12) = b with bits [8,20) replaced by the low 12 bits of a
//   out[4*i+3] = prmt.b32(a, b, 0x5140) = bytes (a0, b0, a1, b1) from low to high, where
//     a0 = byte 0 of a, b0 = byte 0 of b (selector nibbles 0,4,1,5)
// set_testp(const float *x, const int *y, unsigned *out, int n)
//   out[3*i+0] = set.gt.u32.s32(y, 5) = 0xffffffff if y > 5 else 0
//   out[3*i+1] = testp.finite.f32(x) ? 1 : 0
//   out[3*i+2] = (set.lt.and.u32.f32 with predicate (y[i] & 1) != 0) = 0xffffffff iff (x < 1.0 and
//                y odd)
// mad_hi_wide(const int *a, const int *b, long long *out, int n)
//   out[2*i+0] = mad.hi.s32(a, b, 1) = (int)(((long long)a*b) >> 32) + 1 (wrapping int32), sign-extended
//   out[2*i+1] = mad.wide.s32(a, b, 7) = (long long)a*b + 7
// dp4a_sum(const unsigned *a, const unsigned *b, int *out, int n)
//   out[i] = dp4a.s32.s32(a, b, 0): sum over k=0..3 of signed byte k of a times signed byte k of b
// atom_scoped(unsigned *ctr, unsigned *old_sum, int n)
//   each i < n: atom.add.acq_rel.gpu on ctr[0] (+1), red.add.relaxed.cta on ctr[1] (+2),
//   atom.global.exch.b32 on ctr[2] (i + 1), fence.acq_rel.gpu / membar.cta between them;
//   caller zeroes ctr[0..2]; afterwards ctr[0] = n, ctr[1] = 2n, ctr[2] in [1, n].
//   old_sum is unused except that thread 0 writes 0 to it.
// pred_logic(const int *a, const int *b, int *out, int n)
//   setp with a predicate combiner and a '|' destination pair, plus negated guards:
//   q = b[i] > 0;  p = (a[i] < 10) && q;  np = !(a[i] < 10) && q   (setp.lt.and.s32 p|np, a, 10, q)
//   out[i] = (p ? 1 : 2) + (np ? 4 : 0)      (@p / @!p / @np guarded adds)
extern "C" __global__ void carry_add128(const unsigned long long *a, const unsigned long long *b, unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long alo = a[2 * i], ahi = a[2 * i + 1], blo = b[2 * i], bhi = b[2 * i + 1];
        unsigned r0, r1, r2, r3;
        asm("add.cc.u32 %0, %4, %8;\n\t"
            "addc.cc.u32 %1, %5, %9;\n\t"
            "addc.cc.u32 %2, %6, %10;\n\t"
            "addc.u32 %3, %7, %11;"
            : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
            : "r"((unsigned)alo), "r"((unsigned)(alo >> 32)), "r"((unsigned)ahi), "r"((unsigned)(ahi >> 32)),
              "r"((unsigned)blo), "r"((unsigned)(blo >> 32)), "r"((unsigned)bhi), "r"((unsigned)(bhi >> 32)));
        out[2 * i] = ((unsigned long long)r1 << 32) | r0;
        out[2 * i + 1] = ((unsigned long long)r3 << 32) | r2;
    }
}

extern "C" __global__ void borrow_sub64(const unsigned long long *a, const unsigned long long *b, unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned lo, hi;
        asm("sub.cc.u32 %0, %2, %4;\n\tsubc.u32 %1, %3, %5;"
            : "=r"(lo), "=r"(hi)
            : "r"((unsigned)a[i]), "r"((unsigned)(a[i] >> 32)), "r"((unsigned)b[i]), "r"((unsigned)(b[i] >> 32)));
        out[i] = ((unsigned long long)hi << 32) | lo;
    }
}

extern "C" __global__ void bfe_bfi_prmt(const unsigned *a, const unsigned *b, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned x = a[i], y = b[i], r0, r2, r3;
        int r1;
        asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r0) : "r"(x));
        asm("bfe.s32 %0, %1, 4, 8;" : "=r"(r1) : "r"((int)x));
        asm("bfi.b32 %0, %1, %2, 8, 12;" : "=r"(r2) : "r"(x), "r"(y));
        asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(r3) : "r"(x), "r"(y));
        out[4 * i + 0] = r0;
        out[4 * i + 1] = (unsigned)r1;
        out[4 * i + 2] = r2;
        out[4 * i + 3] = r3;
    }
}

extern "C" __global__ void set_testp(const float *x, const int *y, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned r0, r1, r2;
        asm("set.gt.u32.s32 %0, %1, 5;" : "=r"(r0) : "r"(y[i]));
        asm("{\n\t.reg .pred p;\n\ttestp.finite.f32 p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r1) : "f"(x[i]));
        asm("{\n\t.reg .pred q;\n\t.reg .b32 t;\n\tand.b32 t, %2, 1;\n\tsetp.ne.u32 q, t, 0;\n\t"
            "set.lt.and.u32.f32 %0, %1, 0f3F800000, q;\n\t}"
            : "=r"(r2) : "f"(x[i]), "r"(y[i]));
        out[3 * i + 0] = r0;
        out[3 * i + 1] = r1;
        out[3 * i + 2] = r2;
    }
}

extern "C" __global__ void mad_hi_wide(const int *a, const int *b, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int hi;
        long long wide;
        asm("mad.hi.s32 %0, %1, %2, 1;" : "=r"(hi) : "r"(a[i]), "r"(b[i]));
        asm("mad.wide.s32 %0, %1, %2, 7;" : "=l"(wide) : "r"(a[i]), "r"(b[i]));
        out[2 * i + 0] = hi;
        out[2 * i + 1] = wide;
    }
}

extern "C" __global__ void dp4a_sum(const unsigned *a, const unsigned *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __dp4a((int)a[i], (int)b[i], 0);
}

extern "C" __global__ void atom_scoped(unsigned *ctr, unsigned *old_sum, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned old;
        asm volatile("atom.add.acq_rel.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(ctr) : "memory");
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        asm volatile("red.relaxed.cta.global.add.u32 [%0], 2;" ::"l"(ctr + 1) : "memory");
        asm volatile("membar.cta;" ::: "memory");
        unsigned prev;
        asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(prev) : "l"(ctr + 2), "r"(i + 1) : "memory");
        if (i == 0) *old_sum = 0 * (old + prev);
    }
}

extern "C" __global__ void pred_logic(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int r;
        asm("{\n\t.reg .pred p, q, np;\n\t"
            "setp.gt.s32 q, %2, 0;\n\t"
            "setp.lt.and.s32 p|np, %1, 10, q;\n\t"
            "mov.u32 %0, 0;\n\t"
            "@p add.s32 %0, %0, 1;\n\t"
            "@!p add.s32 %0, %0, 2;\n\t"
            "@np add.s32 %0, %0, 4;\n\t"
            "}"
            : "=r"(r)
            : "r"(a[i]), "r"(b[i]));
        out[i] = r;
    }
}
