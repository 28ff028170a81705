/* bench/gemm_case.cuh: the harness bench/gemm_variants.cu and bench/gemm_split.cu share: a
 * product of M x N x K (A's K axis contiguous or not, B's K axis contiguous or not) on data of
 * either sign with a bias epilogue, its float64 CPU reference, and Case::run: one launch checked
 * against the reference (relative error) and against a second launch (the same bits), then
 * timed by bench_graph_us, plain and with programmatic dependent launch (the executor's edges on
 * sm_90). bench_graph_us: 20 launches captured in one CUDA Graph, the median of 31 replays, per
 * launch. Kernels take (A, B, bias, C). */
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

template <class L> double bench_graph_us(cudaStream_t st, L launch) {
    cudaGraph_t g;
    cudaGraphExec_t x;
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0)); CK(cudaEventCreate(&t1));
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (int r = 0; r < 20; r++) launch();
    CK(cudaStreamEndCapture(st, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphLaunch(x, st));
    float ms[31];
    for (int r = 0; r < 31; r++) {
        cudaEventRecord(t0, st); cudaGraphLaunch(x, st); cudaEventRecord(t1, st);
        CK(cudaEventSynchronize(t1)); cudaEventElapsedTime(&ms[r], t0, t1);
    }
    std::sort(ms, ms + 31);
    cudaGraphExecDestroy(x); cudaGraphDestroy(g);
    cudaEventDestroy(t0), cudaEventDestroy(t1);
    return ms[15] / 20 * 1e3;
}

/* a kernel launch in clusters of `cluster` blocks (1 x 1 x 1: none, or the kernel's own
 * __cluster_dims__), with the programmatic-serialization attribute when pdl */
template <class... P, class... A>
void bench_launch_cluster(void (*k)(P...), dim3 grid, int threads, int smem, cudaStream_t st, bool pdl, dim3 cluster, A... args) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid, cfg.blockDim = dim3(threads), cfg.dynamicSmemBytes = smem, cfg.stream = st;
    cudaLaunchAttribute at[2];
    int n = 0;
    if (cluster.x * cluster.y * cluster.z > 1) at[n].id = cudaLaunchAttributeClusterDimension, at[n].val.clusterDim.x = cluster.x,
                                              at[n].val.clusterDim.y = cluster.y, at[n].val.clusterDim.z = cluster.z, n++;
    if (pdl) at[n].id = cudaLaunchAttributeProgrammaticStreamSerialization, at[n].val.programmaticStreamSerializationAllowed = 1, n++;
    cfg.attrs = at, cfg.numAttrs = n;
    CK(cudaLaunchKernelEx(&cfg, k, (P)args...));
}
template <class... P, class... A> void bench_launch(void (*k)(P...), dim3 grid, int threads, int smem, cudaStream_t st, bool pdl, A... args) {
    bench_launch_cluster(k, grid, threads, smem, st, pdl, dim3(1, 1, 1), args...);
}

/* how many of a launch's clusters of `cluster` blocks the GPU holds at once (cluster 1 x 1 x 1 with
 * a kernel's own __cluster_dims__ asks for those): fewer than the launch has, and it runs in two
 * waves */
template <class... P> int bench_clusters_at_once(void (*k)(P...), dim3 grid, int threads, int smem, dim3 cluster) {
    if (smem > 48 * 1024) CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    if (cluster.x * cluster.y * cluster.z > 8) CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at;
    cfg.gridDim = grid, cfg.blockDim = dim3(threads), cfg.dynamicSmemBytes = smem;
    if (cluster.x * cluster.y * cluster.z > 1) {
        at.id = cudaLaunchAttributeClusterDimension, at.val.clusterDim.x = cluster.x, at.val.clusterDim.y = cluster.y,
        at.val.clusterDim.z = cluster.z, cfg.attrs = &at, cfg.numAttrs = 1;
    }
    int n = 0;
    CK(cudaOccupancyMaxActiveClusters(&n, (const void *)k, &cfg));
    return n;
}

static bool g_quick = false; /* one checked launch per variant, no timing (for ncu) */

template <int M, int N, int K, bool AK, bool BK1>
struct Case {
    const char *name;
    float *dA, *dB, *dbias, *dC;
    std::vector<double> ref;
    std::vector<float> hA, hB, hbias;
    cudaStream_t st;
    Case(const char *n) : name(n) {
        hA.resize((size_t)M * K), hB.resize((size_t)K * N), hbias.resize(N);
        srand(1);
        for (auto &v : hA) v = (float)rand() / RAND_MAX - 0.5f;
        for (auto &v : hB) v = (float)rand() / RAND_MAX - 0.5f;
        for (auto &v : hbias) v = (float)rand() / RAND_MAX - 0.5f;
        ref.assign((size_t)M * N, 0.0);
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) {
                double a = AK ? hA[(size_t)i * K + k] : hA[(size_t)k * M + i];
                for (int j = 0; j < N; j++) ref[(size_t)i * N + j] += a * (BK1 ? hB[(size_t)j * K + k] : hB[(size_t)k * N + j]);
            }
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) ref[(size_t)i * N + j] += hbias[j];
        CK(cudaMalloc(&dA, hA.size() * 4)); CK(cudaMalloc(&dB, hB.size() * 4));
        CK(cudaMalloc(&dbias, N * 4)); CK(cudaMalloc(&dC, (size_t)M * N * 4));
        CK(cudaMemcpy(dA, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dB, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dbias, hbias.data(), N * 4, cudaMemcpyHostToDevice));
        CK(cudaStreamCreate(&st));
    }
    using Kern = void (*)(const float *, const float *, const float *, float *);
    void launch(Kern kernel, dim3 grid, int threads, int smem, bool pdl) {
        bench_launch(kernel, grid, threads, smem, st, pdl, (const float *)dA, (const float *)dB, (const float *)dbias, dC);
    }
    double time(Kern kernel, dim3 grid, int threads, int smem, bool pdl) {
        return bench_graph_us(st, [&] { launch(kernel, grid, threads, smem, pdl); });
    }
    void run(const char *var, Kern kernel, dim3 grid, int threads = 256, int smem = 0, double tol = 1e-5) {
        CK(cudaMemset(dC, 0xff, (size_t)M * N * 4)); /* NaN poison */
        if (smem > 48 * 1024) CK(cudaFuncSetAttribute((const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        launch(kernel, grid, threads, smem, false);
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(st));
        std::vector<float> h((size_t)M * N);
        CK(cudaMemcpy(h.data(), dC, h.size() * 4, cudaMemcpyDeviceToHost));
        double num = 0, den = 0, worst = 0;
        for (size_t e = 0; e < h.size(); e++) {
            double d = (double)h[e] - ref[e];
            if (!(d == d)) d = 1e30;
            num += d * d, den += ref[e] * ref[e], worst = std::max(worst, std::fabs(d));
        }
        /* the same launch twice gives the same bits (the sums' order is fixed) */
        std::vector<float> h2((size_t)M * N);
        launch(kernel, grid, threads, smem, false);
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(h2.data(), dC, h2.size() * 4, cudaMemcpyDeviceToHost));
        const bool same = memcmp(h.data(), h2.data(), h.size() * 4) == 0;
        const double plain = g_quick ? 0 : time(kernel, grid, threads, smem, false), pdl = g_quick ? 0 : time(kernel, grid, threads, smem, true);
        printf("%-22s %-34s grid %3u x %2u x %u  %7.2f us  pdl %7.2f us  rel err %.1e%s%s\n", name, var, grid.x, grid.y,
               grid.z, plain, pdl, std::sqrt(num / den), std::sqrt(num / den) > tol ? "  FAIL" : "",
               same ? "" : "  NOT DETERMINISTIC");
    }
};

