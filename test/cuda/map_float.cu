// map_float.cu - element-wise maps over float (IEEE binary32, round-to-nearest-even).
//
// Compiled without --use_fast_math, so + - * / and sqrt are correctly rounded.  A host reference
// must evaluate each expression in float, step by step, in the written order, and must NOT
// contract a*b+c into an FMA unless the comment says fmaf (nvcc does contract a*b+c by default,
// so the kernels below use __fmul_rn / __fadd_rn where an unfused result is intended).
// 1D launch; thread i = blockIdx.x*blockDim.x+threadIdx.x, nothing when i >= n.
//
// map_f32_arith(const float *a, const float *b, float *out, int n)
//   t = __fmul_rn(a[i], 2.5f);  t = __fadd_rn(t, b[i]);  t = __fsub_rn(t, 1.0f)  [each rounded]
//   out[i] = t / (fabsf(b[i]) + 1.0f)                     (IEEE division)
// map_f32_fma(const float *a, const float *b, const float *c, float *out, int n)
//   out[i] = fmaf(a[i], b[i], c[i])                        (single rounding)
// map_f32_neg_abs(const float *a, float *out, int n)
//   out[i] = -fabsf(a[i]) + copysignf(1.0f, a[i])         (-|a| then add, rounded once)
// map_f32_minmax(const float *a, const float *b, float *out, int n)
//   out[i] = fminf(a[i], b[i]) * 0.5f + fmaxf(a[i], b[i])  (contracted: fmaf(min, 0.5f, max))
//   fminf/fmaxf return the non-NaN operand when exactly one is NaN.
extern "C" __global__ void map_f32_arith(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = __fmul_rn(a[i], 2.5f);
        t = __fadd_rn(t, b[i]);
        t = __fsub_rn(t, 1.0f);
        out[i] = t / (fabsf(b[i]) + 1.0f);
    }
}

extern "C" __global__ void map_f32_fma(const float *a, const float *b, const float *c, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaf(a[i], b[i], c[i]);
}

extern "C" __global__ void map_f32_neg_abs(const float *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = -fabsf(a[i]) + copysignf(1.0f, a[i]);
}

extern "C" __global__ void map_f32_minmax(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaf(fminf(a[i], b[i]), 0.5f, fmaxf(a[i], b[i]));
}
