// saxpy.cu - the BLAS-1 classics.
//
// saxpy(int n, float a, const float *x, float *y)
//   1D launch; i = blockIdx.x*blockDim.x+threadIdx.x; if i < n: y[i] = fmaf(a, x[i], y[i])
//   (one fused multiply-add: a single rounding).
// daxpy(int n, double a, const double *x, double *y)
//   same in double: y[i] = fma(a, x[i], y[i]).
// sscal_offset(float *x, float a, float b, unsigned n)
//   x[i] = fmaf(x[i], a, b) for i < n (unsigned index comparison).
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaf(a, x[i], y[i]);
}

extern "C" __global__ void daxpy(int n, double a, const double *x, double *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fma(a, x[i], y[i]);
}

extern "C" __global__ void sscal_offset(float *x, float a, float b, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fmaf(x[i], a, b);
}
