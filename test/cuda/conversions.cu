// conversions.cu - int <-> float conversions with explicit rounding modes.
//
// 1D launch; i = global thread id, i < n.  Float->int conversions of NaN give 0 and of
// out-of-range values saturate to the integer type's min/max (PTX cvt semantics).
//
// f32_to_i32_modes(const float *a, int *out, int n)
//   out[4*i+0] = __float2int_rn(a[i])  (nearest, ties to even)
//   out[4*i+1] = __float2int_rz(a[i])  (toward zero)
//   out[4*i+2] = __float2int_rd(a[i])  (toward -inf)
//   out[4*i+3] = __float2int_ru(a[i])  (toward +inf)
// i32_to_f32_modes(const int *a, float *out, int n)
//   out[4*i+0..3] = __int2float_rn / _rz / _rd / _ru (a[i])
// f64_to_i64_u64(const double *a, long long *s, unsigned long long *u, int n)
//   s[i] = (long long)a[i] (toward zero, saturating);  u[i] = __double2ull_rd(a[i])
//   (toward -inf; negative inputs give 0)
// i64_to_f64_f32(const long long *a, double *d, float *f, int n)
//   d[i] = (double)a[i] (nearest even);  f[i] = __ll2float_rz(a[i])  (toward zero)
// u32_f32_bits(const unsigned *a, float *f, unsigned *u, int n)
//   f[i] = __uint_as_float(a[i]) + (float)a[i]  (bit cast, plus the nearest-even conversion;
//   one rounded float add; NaN bit patterns give NaN)
//   u[i] = (unsigned)__float_as_uint((float)(a[i] & 0xffff))   (bits of an exact conversion)
// f32_to_u8_i16(const float *a, unsigned char *b, short *h, int n)
//   b[i] = (unsigned char)(int)a[i];  h[i] = (short)(int)a[i]   (float -> int toward zero
//   (saturating at int range), then truncation to 8/16 bits)
extern "C" __global__ void f32_to_i32_modes(const float *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = __float2int_rn(a[i]);
        out[4 * i + 1] = __float2int_rz(a[i]);
        out[4 * i + 2] = __float2int_rd(a[i]);
        out[4 * i + 3] = __float2int_ru(a[i]);
    }
}

extern "C" __global__ void i32_to_f32_modes(const int *a, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = __int2float_rn(a[i]);
        out[4 * i + 1] = __int2float_rz(a[i]);
        out[4 * i + 2] = __int2float_rd(a[i]);
        out[4 * i + 3] = __int2float_ru(a[i]);
    }
}

extern "C" __global__ void f64_to_i64_u64(const double *a, long long *s, unsigned long long *u, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        s[i] = (long long)a[i];
        u[i] = __double2ull_rd(a[i]);
    }
}

extern "C" __global__ void i64_to_f64_f32(const long long *a, double *d, float *f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        d[i] = (double)a[i];
        f[i] = __ll2float_rz(a[i]);
    }
}

extern "C" __global__ void u32_f32_bits(const unsigned *a, float *f, unsigned *u, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        f[i] = __uint_as_float(a[i]) + (float)a[i];
        u[i] = __float_as_uint((float)(a[i] & 0xffffu));
    }
}

extern "C" __global__ void f32_to_u8_i16(const float *a, unsigned char *b, short *h, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = (int)a[i];
        b[i] = (unsigned char)v;
        h[i] = (short)v;
    }
}
