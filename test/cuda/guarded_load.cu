// guarded_load.cu - predicated and guarded memory accesses.
//
// gather_guarded(const int *src, const int *idx, int *out, int n, int src_len)
//   1D launch, i = global thread id, i < n:
//   j = idx[i];  out[i] = (j >= 0 && j < src_len) ? src[j] : -1
// masked_copy(const float *src, const unsigned char *mask, float *dst, int n)
//   i < n:  if mask[i] != 0 then dst[i] = src[i] else dst[i] is left unchanged.
// neighbour_sum(const int *a, int *out, int n)
//   i < n:  out[i] = a[i] + (i > 0 ? a[i-1] : 0) + (i + 1 < n ? a[i+1] : 0)   (wrapping int32)
// clamp_load(const double *a, double *out, int n, int lo, int hi)
//   i < n:  j = min(max(i, lo), hi) (clamped index, caller guarantees 0 <= lo <= hi < n);
//           out[i] = a[j]
extern "C" __global__ void gather_guarded(const int *src, const int *idx, int *out, int n, int src_len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int j = idx[i];
    out[i] = (j >= 0 && j < src_len) ? src[j] : -1;
}

extern "C" __global__ void masked_copy(const float *src, const unsigned char *mask, float *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && mask[i] != 0) dst[i] = src[i];
}

extern "C" __global__ void neighbour_sum(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned s = (unsigned)a[i];
        if (i > 0) s += (unsigned)a[i - 1];
        if (i + 1 < n) s += (unsigned)a[i + 1];
        out[i] = (int)s;
    }
}

extern "C" __global__ void clamp_load(const double *a, double *out, int n, int lo, int hi) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = min(max(i, lo), hi);
        out[i] = a[j];
    }
}
