// ISA probe (generator input only, see mk/assembler.mk): barrier forms the corpus lacks.  A
// producer warp arrives on a named barrier (bar.arrive id, count: BAR.ARV) while the consumer
// warp waits on it; block-wide reductions over part of a block (bar.red with a thread count).
extern "C" __global__ void probe_bar_arrive(const int *in, int *out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = in[t] * 5;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else if (t < 64) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[t] = s[t - 32];
    }
}

extern "C" __global__ void probe_bar_arrive_ids(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = in[t] + 1;
        asm volatile("bar.arrive 2, 64;" ::: "memory");
    } else if (t < 64) {
        asm volatile("bar.sync 2, 64;" ::: "memory");
        out[t] = s[t - 32];
    } else if (t < 96) {
        s[t - 32] = in[t] - 1;
        asm volatile("bar.arrive 3, 96;" ::: "memory");
    } else {
        asm volatile("bar.sync 3, 96;" ::: "memory");
        out[t] = s[t - 64];
    }
}

extern "C" __global__ void probe_bar_red_count(const int *in, int *out) {
    int t = threadIdx.x;
    if (t >= 64) return;
    unsigned c, a, o;
    int v = in[t];
    asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, 0; bar.red.popc.u32 %0, 1, 64, p; }" : "=r"(c) : "r"(v) : "memory");
    asm volatile("{ .reg .pred p, q; setp.gt.s32 p, %1, 2; bar.red.and.pred q, 2, 64, p; selp.u32 %0, 1, 0, q; }" : "=r"(a) : "r"(v) : "memory");
    asm volatile("{ .reg .pred p, q; setp.gt.s32 p, %1, 7; bar.red.or.pred q, 3, 64, p; selp.u32 %0, 1, 0, q; }" : "=r"(o) : "r"(v) : "memory");
    out[t] = (int)(c * 4 + a * 2 + o);
}

// The whole id (0-15) and thread-count (up to 1024) ranges, so that the tables learn the fields'
// full widths (never launched).
extern "C" __global__ void probe_bar_wide_fields(const int *in, int *out) {
    int t = threadIdx.x;
    unsigned c, a, o, c2, a2, o2;
    asm volatile("bar.sync 15, 1024;" ::: "memory");
    asm volatile("bar.sync 14;" ::: "memory");
    asm volatile("bar.arrive 13, 1024;" ::: "memory");
    asm volatile("bar.arrive 12, 992;" ::: "memory");
    asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %6, 0;\n\t"
                 "bar.red.popc.u32 %0, 15, 1024, p;\n\t"
                 "bar.red.and.pred q, 14, 1024, p; selp.u32 %1, 1, 0, q;\n\t"
                 "bar.red.or.pred q, 13, 1024, p; selp.u32 %2, 1, 0, q;\n\t"
                 "bar.red.popc.u32 %3, 12, p;\n\t"
                 "bar.red.and.pred q, 11, p; selp.u32 %4, 1, 0, q;\n\t"
                 "bar.red.or.pred q, 10, p; selp.u32 %5, 1, 0, q; }"
                 : "=r"(c), "=r"(a), "=r"(o), "=r"(c2), "=r"(a2), "=r"(o2) : "r"(in[t]) : "memory");
    out[t] = (int)(c * 4 + a * 2 + o + c2 * 64 + a2 * 32 + o2 * 16);
}
