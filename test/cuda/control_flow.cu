// control_flow.cu - loops, switch, break/continue, early exit and divergent branches.
//
// 1D launch; i = global thread id, i < n.
//
// collatz_steps(const unsigned *a, int *out, int n)
//   out[i] = number of Collatz steps to reach 1 from a[i] (x even: x/2, odd: 3x+1, 32-bit
//   wrapping), capped at 1000; a[i] == 0 gives 1000 (never reaches 1).  a[i] == 1 gives 0.
// switch_map(const int *a, int *out, int n)
//   out[i] = switch (a[i] & 7) { 0: 10; 1: 21; 2: a*2; 3: -a; 4: a^0xff; 5, 6: 99; default: 0 }
//   (a*2 and -a wrapping)
// nested_loops(const int *a, int *out, int n)
//   out[i] = sum_{j=0}^{a[i]%8 - 1} sum_{k=0}^{j} (j*k, skipping k == 2 via continue, breaking
//   the inner loop once j*k > 20)   (a[i] % 8 uses C's signed remainder; negative -> no loop)
//   Reference: s=0; for j in [0, m): for k in [0, j]: if k==2 continue; if j*k>20 break; s+=j*k
// divergent_exit(const int *a, int *out, int n)
//   if a[i] < 0: out[i] = -1 and the thread exits; otherwise t = a[i]; loop while t > 9:
//   t = digit sum of t; out[i] = t  (digital root; 0 stays 0).
extern "C" __global__ void collatz_steps(const unsigned *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i];
    int steps = 0;
    while (x != 1u && steps < 1000) {
        x = (x & 1u) ? 3u * x + 1u : x >> 1;
        ++steps;
    }
    out[i] = steps;
}

extern "C" __global__ void switch_map(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i], r;
    switch (v & 7) {
    case 0: r = 10; break;
    case 1: r = 21; break;
    case 2: r = (int)((unsigned)v * 2u); break;
    case 3: r = (int)(0u - (unsigned)v); break;
    case 4: r = v ^ 0xff; break;
    case 5:
    case 6: r = 99; break;
    default: r = 0; break;
    }
    out[i] = r;
}

extern "C" __global__ void nested_loops(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int m = a[i] % 8;
    int s = 0;
    for (int j = 0; j < m; ++j) {
        for (int k = 0; k <= j; ++k) {
            if (k == 2) continue;
            if (j * k > 20) break;
            s += j * k;
        }
    }
    out[i] = s;
}

extern "C" __global__ void divergent_exit(const int *a, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int t = a[i];
    if (t < 0) {
        out[i] = -1;
        return;
    }
    while (t > 9) {
        int s = 0;
        while (t > 0) {
            s += t % 10;
            t /= 10;
        }
        t = s;
    }
    out[i] = t;
}
