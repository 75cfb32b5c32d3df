// local_array.cu - per-thread arrays that live in local memory (dynamically indexed).
//
// 1D launch; i = global thread id, i < n.
//
// local_sort8(const int *in, int *out, int n)
//   Each thread loads in[8*i .. 8*i+7] into a local array, insertion-sorts it ascending, and
//   writes it to out[8*i .. 8*i+7].
// local_lookup(const int *idx, int *out, int n)
//   Each thread fills a local table t[k] = k*k + i for k = 0..15 (wrapping int32), then
//   out[i] = t[idx[i] & 15]  (a runtime index, so the array is in local memory).
// local_digits(const unsigned long long *in, unsigned char *out, int n)
//   Writes the 20 decimal digits of in[i] (most significant first, zero padded) as ASCII into
//   out[20*i .. 20*i+19], building them in a local char array back to front.
extern "C" __global__ void local_sort8(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v[8];
    for (int k = 0; k < 8; ++k) v[k] = in[8 * i + k];
    for (int k = 1; k < 8; ++k) {
        int x = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = x;
    }
    for (int k = 0; k < 8; ++k) out[8 * i + k] = v[k];
}

extern "C" __global__ void local_lookup(const int *idx, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int t[16];
    for (int k = 0; k < 16; ++k) t[k] = (int)((unsigned)(k * k) + (unsigned)i);
    out[i] = t[idx[i] & 15];
}

extern "C" __global__ void local_digits(const unsigned long long *in, unsigned char *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned char d[20];
    unsigned long long v = in[i];
    for (int k = 19; k >= 0; --k) {
        d[k] = (unsigned char)('0' + v % 10);
        v /= 10;
    }
    for (int k = 0; k < 20; ++k) out[20 * i + k] = d[k];
}
