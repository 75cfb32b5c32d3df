// grid_3d.cu - 2D and 3D grids and blocks (blockIdx.y/z, threadIdx.y/z, gridDim, blockDim).
//
// transpose_2d(const float *in, float *out, int rows, int cols)
//   2D launch: x = blockIdx.x*blockDim.x+threadIdx.x (column), y = blockIdx.y*blockDim.y+
//   threadIdx.y (row).  For x < cols, y < rows: out[x*rows + y] = in[y*cols + x].
// tiled_transpose_32(const float *in, float *out, int rows, int cols)
//   same result as transpose_2d, launched with blockDim = (32, 8); uses a 32x33 shared tile.
// volume_index_3d(int *out, int nx, int ny, int nz)
//   3D launch: x/y/z = blockIdx.{x,y,z}*blockDim.{x,y,z}+threadIdx.{x,y,z}.  For x<nx, y<ny, z<nz:
//   out[(z*ny + y)*nx + x] = x + 1000*y + 1000000*z.
// grid_dims(int *out)
//   Thread (0,0,0) of block (0,0,0) writes out[0..5] = gridDim.x, gridDim.y, gridDim.z,
//   blockDim.x, blockDim.y, blockDim.z; every thread with linear block id
//   bid = (blockIdx.z*gridDim.y + blockIdx.y)*gridDim.x + blockIdx.x and linear thread id
//   tid = (threadIdx.z*blockDim.y + threadIdx.y)*blockDim.x + threadIdx.x writes
//   out[6 + bid*(blockDim.x*blockDim.y*blockDim.z) + tid] = bid * 65536 + tid.
extern "C" __global__ void transpose_2d(const float *in, float *out, int rows, int cols) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

extern "C" __global__ void tiled_transpose_32(const float *in, float *out, int rows, int cols) {
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y0 = blockIdx.y * 32;
    for (int j = threadIdx.y; j < 32; j += 8) {
        int y = y0 + j;
        if (x < cols && y < rows) tile[j][threadIdx.x] = in[y * cols + x];
    }
    __syncthreads();
    int ox = blockIdx.y * 32 + threadIdx.x;
    for (int j = threadIdx.y; j < 32; j += 8) {
        int oy = blockIdx.x * 32 + j;
        if (ox < rows && oy < cols) out[oy * rows + ox] = tile[threadIdx.x][j];
    }
}

extern "C" __global__ void volume_index_3d(int *out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 1000 * y + 1000000 * z;
}

extern "C" __global__ void grid_dims(int *out) {
    unsigned bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
    if (bid == 0 && tid == 0) {
        out[0] = gridDim.x; out[1] = gridDim.y; out[2] = gridDim.z;
        out[3] = blockDim.x; out[4] = blockDim.y; out[5] = blockDim.z;
    }
    out[6 + bid * per_block + tid] = (int)(bid * 65536u + tid);
}
