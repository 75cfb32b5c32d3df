// vector_memory.cu - vector loads/stores (.v2/.v4), read-only and cache-hinted accesses.
//
// 1D launch; i = global thread id, i < n.
//
// vec4_add_f32(const float4 *a, const float4 *b, float4 *out, int n)
//   out[i] = a[i] + b[i] component-wise (x,y,z,w), each one rounded float add.
// vec2_swap_i64(const longlong2 *a, longlong2 *out, int n)
//   out[i] = (a[i].y, a[i].x)
// vec4_u32_sum(const uint4 *a, unsigned *out, int n)
//   out[i] = a[i].x + a[i].y + a[i].z + a[i].w  (wrapping)
// ldg_scale(const float *__restrict__ a, float *__restrict__ out, float s, int n)
//   out[i] = __ldg(&a[i]) * s      (read-only cache load, ld.global.nc)
// cache_hints(const int *a, int *out, int n)
//   v = __ldcg(&a[i]) + __ldca(&a[i]) + __ldcs(&a[i]) + __ldlu(&a[i]) + __ldcv(&a[i]) (wrapping;
//   five loads of the same element = 5*a[i]);  __stcs(&out[i], v); __stwb(&out[i], v)
//   (both store v; final out[i] = 5*a[i] wrapping)
// volatile_copy(volatile int *a, int *out, int n)
//   out[i] = a[i] + a[i]  (two volatile loads, ld.volatile)
// vec2_f64_dot(const double2 *a, const double2 *b, double *out, int n)
//   out[i] = fma(a[i].x, b[i].x, a[i].y * b[i].y)   (the product a.y*b.y rounded once, then one fma)
extern "C" __global__ void vec4_add_f32(const float4 *a, const float4 *b, float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 x = a[i], y = b[i];
        out[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" __global__ void vec2_swap_i64(const longlong2 *a, longlong2 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        longlong2 v = a[i];
        out[i] = make_longlong2(v.y, v.x);
    }
}

extern "C" __global__ void vec4_u32_sum(const uint4 *a, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uint4 v = a[i];
        out[i] = v.x + v.y + v.z + v.w;
    }
}

extern "C" __global__ void ldg_scale(const float *__restrict__ a, float *__restrict__ out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __ldg(&a[i]) * s;
}

extern "C" __global__ void cache_hints(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned v = (unsigned)__ldcg(&a[i]) + (unsigned)__ldca(&a[i]) + (unsigned)__ldcs(&a[i]) +
                     (unsigned)__ldlu(&a[i]) + (unsigned)__ldcv(&a[i]);
        __stcs(&out[i], (int)v);
        __stwb(&out[i], (int)v);
    }
}

extern "C" __global__ void volatile_copy(volatile int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (int)((unsigned)a[i] + (unsigned)a[i]);
}

extern "C" __global__ void vec2_f64_dot(const double2 *a, const double2 *b, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fma(a[i].x, b[i].x, __dmul_rn(a[i].y, b[i].y));
}
