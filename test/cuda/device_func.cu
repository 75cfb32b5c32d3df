// device_func.cu - non-inlined __device__ functions (.func, call with params and return value),
// and recursion-free call chains.
//
// 1D launch; i = global thread id, i < n.
//
// call_poly(const int *a, int *out, int n)
//   out[i] = poly(a[i]) where poly(x) = 3*x*x - 2*x + 1 (wrapping int32), computed by a
//   __noinline__ device function.
// call_two_results(const double *a, double *s, double *c, int n)
//   a noinline function returns through pointers: s[i] = a[i] * 2.0; c[i] = a[i] - 1.0
// call_chain(const unsigned long long *a, unsigned long long *out, int n)
//   out[i] = g(f(a[i])) with f(x) = x ^ (x >> 17), g(y) = y * 0x9e3779b97f4a7c15 (wrapping),
//   both noinline.
// call_pred(const float *a, int *out, int n)
//   out[i] = is_in_unit(a[i]) ? 7 : 9, where is_in_unit(x) = (x >= 0 && x <= 1), noinline,
//   returning bool.
__device__ __noinline__ int poly(int x) {
    unsigned ux = (unsigned)x;
    return (int)(3u * ux * ux - 2u * ux + 1u);
}

__device__ __noinline__ void two_results(double x, double *s, double *c) {
    *s = x * 2.0;
    *c = x - 1.0;
}

__device__ __noinline__ unsigned long long mix_f(unsigned long long x) { return x ^ (x >> 17); }
__device__ __noinline__ unsigned long long mix_g(unsigned long long y) { return y * 0x9e3779b97f4a7c15ull; }
__device__ __noinline__ bool is_in_unit(float x) { return x >= 0.0f && x <= 1.0f; }

extern "C" __global__ void call_poly(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = poly(a[i]);
}

extern "C" __global__ void call_two_results(const double *a, double *s, double *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) two_results(a[i], &s[i], &c[i]);
}

extern "C" __global__ void call_chain(const unsigned long long *a, unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = mix_g(mix_f(a[i]));
}

extern "C" __global__ void call_pred(const float *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = is_in_unit(a[i]) ? 7 : 9;
}
