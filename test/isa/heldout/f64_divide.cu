// Held-out kernel: double-precision division, square root and rounding next to signed and
// unsigned integer division by run-time divisors.
extern "C" __global__ void ratio_f64(const double *num, const double *den, double *out, long long *whole, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double q = num[i] / den[i];
    double r = sqrt(fabs(q)) + floor(q * 0.125);
    out[i] = fmin(fmax(r, -1.0e9), 1.0e9);
    whole[i] = (long long)trunc(q);
}

extern "C" __global__ void divmod_mixed(const int *a, const unsigned long long *b, int *qi, unsigned long long *ru,
                                        int d, unsigned long long e, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i];
    qi[i] = x / d - x % (d | 1);
    ru[i] = b[i] % e + b[i] / (e + 3ull);
}
