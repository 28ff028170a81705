/* bench/reduce_variants.cu: the column reduction of a plan's REDUCE steps (a bias gradient: the
 * sum over a 4096 x 4096 float32 gradient's rows, accumulated in double as the emitted kernels do)
 * in several thread layouts: C consecutive columns per block (C = 8 is what the emitter wrote
 * before, a warp reading 4 rows of 32 bytes per load), 256 or 512 threads, the block's slices
 * combined in a fixed order. Each variant is checked against a CPU sum and timed as 20 launches
 * in one CUDA Graph (median of 31 replays, per launch), with the bandwidth it reached.
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/reduce_variants bench/reduce_variants.cu
 * Run on the GPU machine: build/dev/reduce_variants */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

/* C columns per block, NT threads: NT / C slices; slice partials combined in slice order. */
template <int C, int NT, int U>
__global__ void __launch_bounds__(NT) colsum(const float *__restrict__ x, float *__restrict__ out, int rows, int cols) {
    constexpr int S = NT / C;
    __shared__ double buf[S][C];
    for (int o0 = blockIdx.x * C; o0 < cols; o0 += gridDim.x * C) {
        const int o = o0 + (threadIdx.x % C), s = threadIdx.x / C;
        double acc = 0;
        if (o < cols) {
#pragma unroll U
            for (int t = s; t < rows; t += S) acc += (double)x[(long long)t * cols + o];
        }
        buf[s][threadIdx.x % C] = acc;
        __syncthreads();
        if (threadIdx.x < C && o < cols) {
            double v = buf[0][threadIdx.x];
            for (int k = 1; k < S; k++) v += buf[k][threadIdx.x];
            out[o] = (float)v;
        }
        __syncthreads();
    }
}

/* The emitter's form before (gtc_col_reduce: warp shuffles, then 8 warps in order). */
__global__ void __launch_bounds__(256) colsum8_old(const float *__restrict__ x, float *__restrict__ out, int rows, int cols) {
    __shared__ double buf[8][8];
    for (int o0 = blockIdx.x * 8; o0 < cols; o0 += gridDim.x * 8) {
        const int o = o0 + (threadIdx.x & 7);
        double acc = 0;
        for (int t = threadIdx.x >> 3; o < cols && t < rows; t += 32) acc += (double)x[(long long)t * cols + o];
        const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        acc += __shfl_xor_sync(0xffffffffu, acc, 8);
        acc += __shfl_xor_sync(0xffffffffu, acc, 16);
        if (lane < 8) buf[w][lane] = acc;
        __syncthreads();
        if (threadIdx.x < 8) {
            for (int k = 1; k < 8; k++) acc += buf[k][threadIdx.x];
            if (o < cols) out[o] = (float)acc;
        }
        __syncthreads();
    }
}

/* The masked gradient (where(a > 0, g, 0)), one element per iteration as emitted, and four. */
__global__ void __launch_bounds__(256) mask1(const float *__restrict__ g, const float *__restrict__ a, float *__restrict__ y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a[i] > 0 ? g[i] : 0.0f;
}
__global__ void __launch_bounds__(256) mask4(const float4 *__restrict__ g, const float4 *__restrict__ a, float4 *__restrict__ y, int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        const float4 u = g[i], v = a[i];
        y[i] = make_float4(v.x > 0 ? u.x : 0.f, v.y > 0 ? u.y : 0.f, v.z > 0 ? u.z : 0.f, v.w > 0 ? u.w : 0.f);
    }
}

static float time_graph(cudaStream_t st, void (*launch)(cudaStream_t)) {
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int r = 0; r < 20; r++) launch(st);
    CK(cudaStreamEndCapture(st, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, st));
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0), cudaEventCreate(&t1);
    float ms[31];
    for (int r = 0; r < 31; r++) {
        cudaEventRecord(t0, st), cudaGraphLaunch(x, st), cudaEventRecord(t1, st);
        CK(cudaEventSynchronize(t1));
        cudaEventElapsedTime(&ms[r], t0, t1);
    }
    std::sort(ms, ms + 31);
    cudaGraphExecDestroy(x), cudaGraphDestroy(g);
    return ms[15] / 20 * 1e3f;
}

static const int R = 4096, Cn = 4096;
static float *dx, *da, *dy, *dout;
static int g_grid;

template <int C, int NT, int U> static void L(cudaStream_t st) { colsum<C, NT, U><<<g_grid, NT, 0, st>>>(dx, dout, R, Cn); }
static void Lold(cudaStream_t st) { colsum8_old<<<g_grid, 256, 0, st>>>(dx, dout, R, Cn); }
static void Lm1(cudaStream_t st) { mask1<<<g_grid, 256, 0, st>>>(dx, da, dy, R * Cn); }
static void Lm4(cudaStream_t st) { mask4<<<g_grid, 256, 0, st>>>((const float4 *)dx, (const float4 *)da, (float4 *)dy, R * Cn / 4); }

int main() {
    std::vector<float> h((size_t)R * Cn), ha((size_t)R * Cn);
    srand(1);
    for (auto &v : h) v = (float)rand() / RAND_MAX - 0.5f;
    for (auto &v : ha) v = (float)rand() / RAND_MAX - 0.5f;
    std::vector<double> ref(Cn, 0.0);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < Cn; c++) ref[c] += h[(size_t)r * Cn + c];
    CK(cudaMalloc(&dx, h.size() * 4));
    CK(cudaMalloc(&da, h.size() * 4));
    CK(cudaMalloc(&dy, h.size() * 4));
    CK(cudaMalloc(&dout, Cn * 4));
    CK(cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(da, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    const double mb = (double)R * Cn * 4 / 1e6;
    struct V { const char *name; void (*f)(cudaStream_t); int grid; double mbytes; bool col; } vs[] = {
        {"cols 8, 256 thr, emitted (512 blocks)", Lold, Cn / 8, mb, true},
        {"cols 8, 256 thr, unroll 4", L<8, 256, 4>, Cn / 8, mb, true},
        {"cols 16, 256 thr (256 blocks)", L<16, 256, 1>, Cn / 16, mb, true},
        {"cols 16, 256 thr, unroll 4", L<16, 256, 4>, Cn / 16, mb, true},
        {"cols 16, 512 thr", L<16, 512, 1>, Cn / 16, mb, true},
        {"cols 32, 256 thr (128 blocks)", L<32, 256, 1>, Cn / 32, mb, true},
        {"cols 32, 256 thr, unroll 4", L<32, 256, 4>, Cn / 32, mb, true},
        {"cols 32, 512 thr", L<32, 512, 1>, Cn / 32, mb, true},
        {"cols 32, 1024 thr", L<32, 1024, 1>, Cn / 32, mb, true},
        {"cols 32, 1024 thr, unroll 4", L<32, 1024, 4>, Cn / 32, mb, true},
        {"cols 64, 1024 thr (64 blocks)", L<64, 1024, 1>, Cn / 64, mb, true},
        {"mask, 1 element, 1056 blocks", Lm1, 1056, 3 * mb, false},
        {"mask, 4 elements, 1056 blocks", Lm4, 1056, 3 * mb, false},
        {"mask, 1 element, 4224 blocks", Lm1, 4224, 3 * mb, false},
    };
    for (const V &v : vs) {
        g_grid = v.grid;
        CK(cudaMemset(dout, 0xff, Cn * 4));
        v.f(st);
        CK(cudaStreamSynchronize(st));
        double worst = 0;
        if (v.col) {
            std::vector<float> o(Cn);
            CK(cudaMemcpy(o.data(), dout, Cn * 4, cudaMemcpyDeviceToHost));
            for (int c = 0; c < Cn; c++) worst = std::max(worst, std::fabs(o[c] - ref[c]) / (1 + std::fabs(ref[c])));
        }
        const float us = time_graph(st, v.f);
        printf("%-40s %8.2f us  %6.2f TB/s  err %.1e%s\n", v.name, us, v.mbytes / us, worst, worst > 1e-6 ? "  FAIL" : "");
    }
    return 0;
}
