// float_math.cu - single-precision math library calls and conversions.
//
// Compiled without fast-math: sqrtf and '/' are IEEE correctly rounded (0 ulp).  expf and logf
// are CUDA library functions with documented maximum errors (CUDA Math API): expf <= 2 ulp,
// logf <= 1 ulp; a host reference must compare those with that tolerance.  The *_approx kernel
// uses __expf/__logf/__fdividef (hardware approximations; compare with a relative tolerance of
// 2^-21 for values of moderate magnitude).
// 1D launch; i = global thread id, i < n.
//
// f32_sqrt_div(const float *a, const float *b, float *out, int n)
//   out[i] = sqrtf(fabsf(a[i])) / b[i]                      (both correctly rounded)
// f32_exp_log(const float *a, float *e, float *l, int n)
//   e[i] = expf(a[i]);  l[i] = logf(fabsf(a[i]) + 1.0f)
// f32_approx(const float *a, const float *b, float *out, int n)
//   out[i] = __expf(a[i] * 0.125f) + __logf(fabsf(b[i]) + 2.0f) + __fdividef(a[i], fabsf(b[i]) + 1.0f)
// f32_rcp_rsqrt(const float *a, float *rcp, float *rs, int n)
//   rcp[i] = __frcp_rn(a[i]) (IEEE reciprocal, correctly rounded);
//   rs[i] = rsqrtf(fabsf(a[i]) + 1.0f)  (<= 2 ulp)
// f32_round_funcs(const float *a, float *out, int n)
//   out[4*i+0] = floorf(a[i]); out[4*i+1] = ceilf(a[i]); out[4*i+2] = truncf(a[i]);
//   out[4*i+3] = rintf(a[i])  (round half to even)   - all exact.
// f32_ftz_sat(const float *a, float *out, int n)
//   out[i] = __saturatef(a[i] * 2.0f)   (clamp to [0,1]; NaN -> 0)  - exact for finite products.
extern "C" __global__ void f32_sqrt_div(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sqrtf(fabsf(a[i])) / b[i];
}

extern "C" __global__ void f32_exp_log(const float *a, float *e, float *l, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        e[i] = expf(a[i]);
        l[i] = logf(fabsf(a[i]) + 1.0f);
    }
}

extern "C" __global__ void f32_approx(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __expf(a[i] * 0.125f) + __logf(fabsf(b[i]) + 2.0f) + __fdividef(a[i], fabsf(b[i]) + 1.0f);
}

extern "C" __global__ void f32_rcp_rsqrt(const float *a, float *rcp, float *rs, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rcp[i] = __frcp_rn(a[i]);
        rs[i] = rsqrtf(fabsf(a[i]) + 1.0f);
    }
}

extern "C" __global__ void f32_round_funcs(const float *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = floorf(a[i]);
        out[4 * i + 1] = ceilf(a[i]);
        out[4 * i + 2] = truncf(a[i]);
        out[4 * i + 3] = rintf(a[i]);
    }
}

extern "C" __global__ void f32_ftz_sat(const float *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __saturatef(a[i] * 2.0f);
}
