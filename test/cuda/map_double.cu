// map_double.cu - element-wise maps over double (IEEE binary64, round-to-nearest-even).
//
// 1D launch; thread i = blockIdx.x*blockDim.x+threadIdx.x, nothing when i >= n.
// Every operation is correctly rounded; the reference evaluates in double, in the written order,
// with fma() exactly where written.
//
// map_f64_arith(const double *a, const double *b, double *out, int n)
//   t = __dmul_rn(a[i], 3.0);  t = __dadd_rn(t, b[i]);  out[i] = t / (b[i] * b[i] + 1.0)
//   (the denominator is computed as fma(b[i], b[i], 1.0): one rounding)
// map_f64_fma(const double *a, const double *b, const double *c, double *out, int n)
//   out[i] = fma(a[i], b[i], c[i])
// map_f64_sqrt(const double *a, double *out, int n)
//   out[i] = sqrt(fabs(a[i]))
// map_f64_from_f32(const float *a, double *out, int n)
//   out[i] = (double)a[i] * 0.1       (exact widening, then one rounded multiply)
// map_f32_from_f64(const double *a, float *out, int n)
//   out[i] = (float)a[i]              (round to nearest even)
extern "C" __global__ void map_f64_arith(const double *a, const double *b, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double t = __dmul_rn(a[i], 3.0);
        t = __dadd_rn(t, b[i]);
        out[i] = t / fma(b[i], b[i], 1.0);
    }
}

extern "C" __global__ void map_f64_fma(const double *a, const double *b, const double *c, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fma(a[i], b[i], c[i]);
}

extern "C" __global__ void map_f64_sqrt(const double *a, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sqrt(fabs(a[i]));
}

extern "C" __global__ void map_f64_from_f32(const float *a, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (double)a[i] * 0.1;
}

extern "C" __global__ void map_f32_from_f64(const double *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (float)a[i];
}
