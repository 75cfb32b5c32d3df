// min_max_abs.cu - integer and float min / max / abs.
//
// 1D launch; i = global thread id, i < n.
//
// minmax_i32(const int *a, const int *b, int *out, int n)
//   out[4*i+0] = min(a,b); [1] = max(a,b); [2] = abs(a) (abs(INT_MIN) = INT_MIN, wrapping);
//   [3] = (int)min((unsigned)a, (unsigned)b)
// minmax_i64(const long long *a, const long long *b, long long *out, int n)
//   out[4*i+0] = min; [1] = max; [2] = llabs(a) (wrapping for INT64_MIN);
//   [3] = (long long)max((unsigned long long)a, (unsigned long long)b)
// minmax_f32(const float *a, const float *b, float *out, int n)
//   out[3*i+0] = fminf(a,b); [1] = fmaxf(a,b)  (the non-NaN operand if one is NaN);
//   [2] = fabsf(a) (clears the sign bit, also of NaN)
// clamp_i32(const int *a, int lo, int hi, int *out, int n)
//   out[i] = min(max(a[i], lo), hi)   (caller: lo <= hi)
// abs_diff_u32(const unsigned *a, const unsigned *b, unsigned *out, int n)
//   out[i] = a > b ? a - b : b - a   (= __usad(a, b, 0))
extern "C" __global__ void minmax_i32(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = min(a[i], b[i]);
        out[4 * i + 1] = max(a[i], b[i]);
        out[4 * i + 2] = abs(a[i]);
        out[4 * i + 3] = (int)min((unsigned)a[i], (unsigned)b[i]);
    }
}

extern "C" __global__ void minmax_i64(const long long *a, const long long *b, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = min(a[i], b[i]);
        out[4 * i + 1] = max(a[i], b[i]);
        out[4 * i + 2] = llabs(a[i]);
        out[4 * i + 3] = (long long)max((unsigned long long)a[i], (unsigned long long)b[i]);
    }
}

extern "C" __global__ void minmax_f32(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[3 * i + 0] = fminf(a[i], b[i]);
        out[3 * i + 1] = fmaxf(a[i], b[i]);
        out[3 * i + 2] = fabsf(a[i]);
    }
}

extern "C" __global__ void clamp_i32(const int *a, int lo, int hi, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = min(max(a[i], lo), hi);
}

extern "C" __global__ void abs_diff_u32(const unsigned *a, const unsigned *b, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __usad(a[i], b[i], 0u);
}
