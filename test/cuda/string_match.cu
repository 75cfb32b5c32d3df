// string_match.cu - string comparisons over an offsets + bytes layout (Arrow-style).
//
// A string column of n rows is `offsets` (n+1 ints, non-decreasing, offsets[0] = 0) and `bytes`;
// row r is bytes[offsets[r] .. offsets[r+1]).  1D launch; r = global thread id, r < n.
// Results are 0/1 bytes (unsigned char).
//
// str_equals(const int *offsets, const unsigned char *bytes, const unsigned char *pat, int pat_len,
//            unsigned char *out, int n)
//   out[r] = 1 iff row r has length pat_len and equals pat byte for byte.
// str_like_prefix(const int *offsets, const unsigned char *bytes, const unsigned char *prefix,
//                 int prefix_len, unsigned char *out, int n)
//   out[r] = 1 iff row r starts with prefix (SQL: col LIKE 'prefix%').
// str_like_suffix(... same parameters as str_like_prefix but `suffix`, `suffix_len` ...)
//   out[r] = 1 iff row r ends with suffix (SQL: col LIKE '%suffix').
// str_contains(const int *offsets, const unsigned char *bytes, const unsigned char *pat, int pat_len,
//              unsigned char *out, int n)
//   out[r] = 1 iff pat occurs as a contiguous substring of row r (naive search; the empty
//   pattern matches every row).  SQL: col LIKE '%pat%'.
// str_compare(const int *offsets, const unsigned char *bytes, const unsigned char *pat, int pat_len,
//             int *out, int n)
//   out[r] = -1, 0 or 1: the sign of memcmp-style lexicographic comparison of row r with pat
//   (bytes compared as unsigned; a proper prefix is smaller).
extern "C" __global__ void str_equals(const int *offsets, const unsigned char *bytes, const unsigned char *pat,
                                      int pat_len, unsigned char *out, int n) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int start = offsets[r], len = offsets[r + 1] - start;
    unsigned char eq = (len == pat_len);
    for (int k = 0; eq && k < len; ++k)
        if (bytes[start + k] != pat[k]) eq = 0;
    out[r] = eq;
}

extern "C" __global__ void str_like_prefix(const int *offsets, const unsigned char *bytes, const unsigned char *prefix,
                                           int prefix_len, unsigned char *out, int n) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int start = offsets[r], len = offsets[r + 1] - start;
    unsigned char ok = (len >= prefix_len);
    for (int k = 0; ok && k < prefix_len; ++k)
        if (bytes[start + k] != prefix[k]) ok = 0;
    out[r] = ok;
}

extern "C" __global__ void str_like_suffix(const int *offsets, const unsigned char *bytes, const unsigned char *suffix,
                                           int suffix_len, unsigned char *out, int n) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int start = offsets[r], len = offsets[r + 1] - start;
    unsigned char ok = (len >= suffix_len);
    int base = start + len - suffix_len;
    for (int k = 0; ok && k < suffix_len; ++k)
        if (bytes[base + k] != suffix[k]) ok = 0;
    out[r] = ok;
}

extern "C" __global__ void str_contains(const int *offsets, const unsigned char *bytes, const unsigned char *pat,
                                        int pat_len, unsigned char *out, int n) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int start = offsets[r], len = offsets[r + 1] - start;
    unsigned char found = 0;
    for (int s = 0; !found && s + pat_len <= len; ++s) {
        int k = 0;
        while (k < pat_len && bytes[start + s + k] == pat[k]) ++k;
        if (k == pat_len) found = 1;
    }
    out[r] = found;
}

extern "C" __global__ void str_compare(const int *offsets, const unsigned char *bytes, const unsigned char *pat,
                                       int pat_len, int *out, int n) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n) return;
    int start = offsets[r], len = offsets[r + 1] - start;
    int m = min(len, pat_len);
    int res = 0;
    for (int k = 0; k < m && res == 0; ++k) {
        int a = bytes[start + k], b = pat[k];
        res = (a > b) - (a < b);
    }
    if (res == 0) res = (len > pat_len) - (len < pat_len);
    out[r] = res;
}
