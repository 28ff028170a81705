/* bench/load_tma.cu: whether TMA tensor copies (cp.async.bulk.tensor.2d, sm_90: one instruction
 * per 2-D box of a tensor map), with or without multicast inside a thread-block cluster, lower the
 * L2 floor under the 480-256-2 step's products, where bench/load_mcast.cu's per-row bulk copies
 * raised it. The operands in their real layouts: A = x [512][480] (K contiguous), B = w1
 * [480][256] (N contiguous), a 16 x 8 grid of 32x32 tiles, block (x, y) needing A's rows
 * 32x.. (32 x 480) and B's columns 32y.. (480 x 32), 61 KB each, all of K at once (the emitted
 * kernel's "all of K in flight"). Boxes: A 32 rows x 64 K (8 KB, 8 per panel, the last one half
 * out of range and zero-filled), B 64 K x 32 columns (8 KB, 8 per panel). In a cluster of CX x CY
 * blocks the CX blocks of one grid row share B's panel and the CY of one grid column A's: each
 * copies its share of the boxes and multicasts them. Each row: 20 launches in one CUDA Graph,
 * median of 31 replays, per launch (bench/gemm_case.cuh), with every block's panels checked.
 * Build here: nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -o build/dev/load_tma bench/load_tma.cu -lcuda
 * Run on the GPU machine: build/dev/load_tma */
#include <cuda.h>
#include "gemm_case.cuh"
#include "../templates/kernels_types.cuh"
#include "../ir/scalar.h"
#include "../templates/kernels_prelude.cuh"

#include "bulk.cuh"

constexpr int M = 512, N = 256, K = 480, BOX = 8192, NBOX = 8, PANEL = NBOX * BOX;

__device__ __forceinline__ void tma_2d(void *dst, const CUtensorMap *map, int c0, int c1, unsigned long long *b,
                                       unsigned short mask, bool mc) {
    if (mc)
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                     " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(gtc_smem_u32(dst)),
                     "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(gtc_smem_u32(b)), "h"(mask)
                     : "memory");
    else
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(gtc_smem_u32(dst)),
                     "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(gtc_smem_u32(b))
                     : "memory");
}
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

/* the block's checksum of its two panels as they landed (A box i is [32 m][64 k], B box i [64 k][32
 * n]), one float of every 64 bytes: each 16-byte copy of every box is seen, at little cost */
__device__ float panel_sum(const float *sa, const float *sb) {
    float s = 0;
    for (int e = threadIdx.x * 16; e < PANEL / 4; e += blockDim.x * 16) s += sa[e] * 0.5f + sb[e];
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    __shared__ float ws[32];
    if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0;
        for (int w = 0; w < (int)blockDim.x / 32; w++) t += ws[w];
        return t;
    }
    return 0;
}

template <int CX, int CY, bool TAIL, int COPIERS>
__global__ void __launch_bounds__(256, 1) k_tma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb, float *out) {
    __shared__ unsigned long long bar;
    float *sa = (float *)(((unsigned long long)gtc_dsmem + 1023) & ~1023ull), *sb = sa + PANEL / 4;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    if (CX * CY > 1) cluster_sync(); /* the peers' barriers exist before anything lands on them */
    else __syncthreads();
    gtc_wait_prior_steps();
    const unsigned rx = blockIdx.x % CX, ry = blockIdx.y % CY;
    if (threadIdx.x == 0) mbar_expect(&bar, 2 * PANEL);
    if (threadIdx.x < COPIERS) {
        const unsigned short mB = (unsigned short)(((1u << CX) - 1) << (CX * ry));
        unsigned short mA = 0;
        for (int i = 0; i < CY; i++) mA |= (unsigned short)(1u << (rx + CX * i));
        for (int i = threadIdx.x; i < NBOX; i += COPIERS) {
            if (i % CY == (int)ry) tma_2d(sa + i * BOX / 4, &ma, 64 * i, 32 * blockIdx.x, &bar, mA, CY > 1);
            if (i % CX == (int)rx) tma_2d(sb + i * BOX / 4, &mb, 32 * blockIdx.y, 64 * i, &bar, mB, CX > 1);
        }
    }
    mbar_wait(&bar, 0);
    const float s = panel_sum(sa, sb);
    if (threadIdx.x == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = s;
    if (TAIL && CX * CY > 1) cluster_sync(); /* no block leaves while a peer may still write into it */
}

/* the emitted kernel's way: cp.async by every thread, 16 bytes, into the same box layout */
__global__ void __launch_bounds__(256, 1) k_cpasync(const __grid_constant__ CUtensorMap, const __grid_constant__ CUtensorMap,
                                                    const float *A, const float *B, float *out) {
    float *sa = (float *)(((unsigned long long)gtc_dsmem + 1023) & ~1023ull), *sb = sa + PANEL / 4;
    gtc_wait_prior_steps();
    for (int c = threadIdx.x; c < PANEL / 16; c += 256) {
        /* A: box i, row r, 4 k at kk; B: box i, k row r, 4 n at nn */
        const int i = c / 512, r = c % 512 / 16, kk = c % 16 * 4, kr = c % 512 / 8, nn = c % 8 * 4;
        const int k = 64 * i + kk, kb = 64 * i + kr;
        gtc_cp_async<16>(sa + c * 4, k < K ? A + (size_t)(32 * blockIdx.x + r) * K + k : A, k < K);
        gtc_cp_async<16>(sb + c * 4, kb < K ? B + (size_t)kb * N + 32 * blockIdx.y + nn : B, kb < K);
    }
    gtc_cp_commit();
    gtc_cp_wait<0>();
    __syncthreads();
    const float s = panel_sum(sa, sb);
    if (threadIdx.x == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = s;
}

__global__ void k_empty(float *) { gtc_wait_prior_steps(); }

static cudaStream_t st;
static CUtensorMap g_ma, g_mb;
static float *g_A, *g_B, *g_out;

template <class Kern, class... P>
static void launch(Kern k, int cx, int cy, bool pdl, P... args) {
    bench_launch_cluster(k, dim3(16, 8), 256, 2 * PANEL + 1024, st, pdl, dim3(cx, cy, 1), args...);
}

template <class Kern, class... P>
static void row(const char *name, Kern k, int cx, int cy, const std::vector<float> &want, P... args) {
    CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * PANEL + 1024));
    if (cx * cy > 8) CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CK(cudaMemset(g_out, 0, 128 * 4));
    launch(k, cx, cy, false, args...);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(st));
    std::vector<float> h(128);
    CK(cudaMemcpy(h.data(), g_out, 128 * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < (int)want.size(); i++) bad += std::fabs(h[i] - want[i]) > 1e-3f * std::fabs(want[i]) + 1e-2f;
    const int fit = cx * cy > 1 ? bench_clusters_at_once(k, dim3(16, 8), 256, 2 * PANEL + 1024, dim3(cx, cy, 1)) : 0;
    const double plain = bench_graph_us(st, [&] { launch(k, cx, cy, false, args...); });
    const double pdl = bench_graph_us(st, [&] { launch(k, cx, cy, true, args...); });
    printf("%-46s %8.2f %8.2f  %s", name, plain, pdl, bad ? "WRONG BYTES" : "ok");
    if (fit) printf("  (%d of %d clusters at once)", fit, 128 / (cx * cy));
    printf("\n");
}

static void encode(CUtensorMap *m, float *base, unsigned long long inner, unsigned long long outer, unsigned bi, unsigned bo) {
    cuuint64_t dims[2] = {inner, outer}, strides[1] = {inner * 4};
    cuuint32_t box[2] = {bi, bo}, es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, es,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) printf("cuTensorMapEncodeTiled: %d\n", (int)r), exit(1);
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("load_tma on %s (%d SMs): 16 x 8 blocks, A rows 32x (32 x 480) + B columns 32y (480 x 32), us per launch\n",
           p.name, p.multiProcessorCount);
    CK(cudaMalloc(&g_A, (size_t)M * K * 4)); CK(cudaMalloc(&g_B, (size_t)K * N * 4)); CK(cudaMalloc(&g_out, 128 * 4));
    std::vector<float> ha((size_t)M * K), hb((size_t)K * N), want(128, 0.0f);
    for (size_t i = 0; i < ha.size(); i++) ha[i] = (float)(i % 1000) * 1e-3f;
    for (size_t i = 0; i < hb.size(); i++) hb[i] = (float)(i % 777) * 1e-3f;
    CK(cudaMemcpy(g_A, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(g_B, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
            double s = 0;
            for (int e = 0; e < PANEL / 4; e += 16) { /* panel_sum's floats: box i, row r, column c */
                const int i = e / 2048, r = e % 2048 / 64, c = e % 64, kb = e % 2048 / 32, nb = e % 32;
                if (64 * i + c < K) s += ha[(size_t)(32 * x + r) * K + 64 * i + c] * 0.5;
                if (64 * i + kb < K) s += hb[(size_t)(64 * i + kb) * N + 32 * y + nb];
            }
            want[y * 16 + x] = (float)s;
        }
    encode(&g_ma, g_A, K, M, 64, 32);
    encode(&g_mb, g_B, N, K, 32, 64);
    CK(cudaStreamCreate(&st));
    printf("%-46s %8s %8s\n", "variant", "plain", "pdl");
    row("empty (the kernel without copies)", k_empty, 1, 1, std::vector<float>(), g_out);
    row("cp.async 16 B by every thread, no cluster", k_cpasync, 1, 1, want, g_ma, g_mb, (const float *)g_A, (const float *)g_B, g_out);
    row("TMA 2-D boxes, one thread, no cluster", k_tma<1, 1, false, 1>, 1, 1, want, g_ma, g_mb, g_out);
    row("TMA 2-D boxes, 8 threads, no cluster", k_tma<1, 1, false, 8>, 1, 1, want, g_ma, g_mb, g_out);
    row("TMA cluster 2x1 (B multicast)", k_tma<2, 1, true, 8>, 2, 1, want, g_ma, g_mb, g_out);
    row("TMA cluster 1x2 (A multicast)", k_tma<1, 2, true, 8>, 1, 2, want, g_ma, g_mb, g_out);
    row("TMA cluster 2x2 (both)", k_tma<2, 2, true, 8>, 2, 2, want, g_ma, g_mb, g_out);
    row("TMA cluster 2x2, no closing cluster barrier", k_tma<2, 2, false, 8>, 2, 2, want, g_ma, g_mb, g_out);
    row("TMA cluster 4x2", k_tma<4, 2, true, 8>, 4, 2, want, g_ma, g_mb, g_out);
    row("TMA cluster 2x4", k_tma<2, 4, true, 8>, 2, 4, want, g_ma, g_mb, g_out);
    row("TMA cluster 4x4", k_tma<4, 4, true, 8>, 4, 4, want, g_ma, g_mb, g_out);
    return 0;
}
