// double_math.cu - double-precision math.
//
// sqrt and '/' are IEEE correctly rounded.  exp/log are CUDA library functions (<= 1 ulp per the
// CUDA Math API); pow <= 2 ulp.  1D launch; i = global thread id, i < n.
//
// f64_sqrt_div(const double *a, const double *b, double *out, int n)
//   out[i] = sqrt(fabs(a[i])) / b[i]
// f64_exp_log(const double *a, double *e, double *l, int n)
//   e[i] = exp(a[i]);  l[i] = log(fabs(a[i]) + 1.0)
// f64_pow_int(const double *a, const int *k, double *out, int n)
//   out[i] = pow(a[i], (double)k[i])
// f64_round_funcs(const double *a, double *out, int n)
//   out[3*i+0] = floor(a[i]); out[3*i+1] = ceil(a[i]); out[3*i+2] = rint(a[i]) (half to even)
// f64_rcp(const double *a, double *out, int n)
//   out[i] = 1.0 / a[i]            (IEEE division)
// f64_minmax_abs(const double *a, const double *b, double *out, int n)
//   out[i] = fmax(a[i], b[i]) - fmin(fabs(a[i]), fabs(b[i]))   (one rounding)
extern "C" __global__ void f64_sqrt_div(const double *a, const double *b, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sqrt(fabs(a[i])) / b[i];
}

extern "C" __global__ void f64_exp_log(const double *a, double *e, double *l, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        e[i] = exp(a[i]);
        l[i] = log(fabs(a[i]) + 1.0);
    }
}

extern "C" __global__ void f64_pow_int(const double *a, const int *k, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = pow(a[i], (double)k[i]);
}

extern "C" __global__ void f64_round_funcs(const double *a, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[3 * i + 0] = floor(a[i]);
        out[3 * i + 1] = ceil(a[i]);
        out[3 * i + 2] = rint(a[i]);
    }
}

extern "C" __global__ void f64_rcp(const double *a, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0 / a[i];
}

extern "C" __global__ void f64_minmax_abs(const double *a, const double *b, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmax(a[i], b[i]) - fmin(fabs(a[i]), fabs(b[i]));
}
