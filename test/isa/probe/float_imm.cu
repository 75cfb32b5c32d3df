// ISA probe (input of the table generator, not a test kernel): float operations with
// immediates, negated and absolute operands, so that each form's operand space is exercised.
extern "C" __global__ void probe_f32_imm(const float *a, float *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = a[i + n];
    o[i] = 1.0f - x;
    o[i + n] = -x * 2.5f + 0.75f;
    o[i + 2 * n] = fabsf(y) * -3.0f - y;
    o[i + 3 * n] = __fadd_rz(x, 0.375f) + __fmul_rn(y, 1.5f);
}

extern "C" __global__ void probe_f64_imm(const double *a, double *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i];
    o[i] = 1.0 - x;
    o[i + n] = fma(-x, 2.5, 0.75);
    o[i + 2 * n] = fabs(x) * -3.0 + (x < 0.5 ? 1.25 : -1.25);
}

extern "C" __global__ void probe_uniform(const unsigned *a, unsigned *o, unsigned n, unsigned k, unsigned long long s) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long w = (unsigned long long)blockIdx.x * k + s;
    unsigned sel = blockIdx.y >= k ? n : k;
    if (i < n) o[i] = a[i] + (unsigned)(w >> 7) + sel;
}
