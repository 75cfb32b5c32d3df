// ISA probe: 64-bit sums of three values with one or two of them negated, which ptxas
// writes as IADD3 with two carry-outs (and IADD3.X with inverted sources) on each arch.
// The loads go to locals first so that all three are issued before the arithmetic.
__global__ void carry_pair_neg_last(long long *o, const long long *a, const long long *b, const long long *c) {
    int i = threadIdx.x;
    long long x = a[i], y = c[i], z = b[i];
    o[i] = x - y + z;
}
__global__ void carry_pair_neg_a(long long *o, const long long *a, const long long *b, const long long *c) {
    int i = threadIdx.x;
    o[i] = a[i] + b[i] - c[i];
}
__global__ void carry_pair_neg_first(long long *o, const long long *a, const long long *b, const long long *c) {
    int i = threadIdx.x;
    long long x = b[i], y = a[i], z = c[i];
    o[i] = (x - y) + (z - y);
}
__global__ void carry_pair_neg_two(unsigned long long *o, const unsigned long long *a, const unsigned long long *b,
                                   const unsigned long long *c) {
    int i = threadIdx.x;
    o[i] = a[i] - b[i] - c[i];
}
