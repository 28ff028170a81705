/* bench/load_mcast.cu: whether thread-block clusters that share operand panels through TMA
 * multicast (cp.async.bulk ... .multicast::cluster, sm_90) lower the L2 floor under the 480-256-2
 * step's products (bench/load_floor.cu: 128 blocks pulling 123 KB each cost 2.9 us per launch,
 * 61 KB 2.0). Model of a 16 x 8 grid of 32x32 tiles over K = 480: block (x, y) needs A panel x
 * and B panel y (61 KB each, copied in SEG-byte rows as a GEMM's padded tile rows would be).
 * Without clusters every block copies both; in a cluster of CX x CY blocks the blocks of one
 * column (same y) share B panel y and those of one row (same x) share A panel x: each block
 * copies 1/CX of the shared B (1/CY of A) and multicasts it to the blocks that need it, so L2
 * serves 1/CX (1/CY) of the bytes. Each row: 20 launches in one CUDA Graph, median of 31
 * replays, per launch (bench/gemm_case.cuh), with the check that every block saw its bytes.
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90a -o build/dev/load_mcast bench/load_mcast.cu
 * Run on the GPU machine: build/dev/load_mcast */
#include "gemm_case.cuh"
#include "../templates/kernels_types.cuh"
#include "../ir/scalar.h"
#include "../templates/kernels_prelude.cuh"

#include "bulk.cuh"

/* the same bytes into the same offsets of every block of the cluster in mask, each block's own
 * mbarrier at b's offset counting them */
__device__ __forceinline__ void bulk_mcast(void *dst, const void *src, unsigned bytes, unsigned long long *b,
                                           unsigned short mask) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, "
                 "[%3], %4;" ::"r"(gtc_smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(gtc_smem_u32(b)), "h"(mask)
                 : "memory");
}
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
__device__ __forceinline__ unsigned cluster_rank() {
    unsigned r;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

constexpr int PANEL = 61440; /* 32 rows (or columns) x 480 floats */

/* block (x, y): A panel x, B panel y into shared memory; CX x CY > 1: clusters share them by
 * multicast (rank = x % CX + CX * (y % CY), the hardware's order for a (CX, CY) cluster) */
template <int CX, int CY, int SEG, bool TAIL>
__global__ void __launch_bounds__(256, 1) k_panels(const char *A, const char *B, float *out) {
    __shared__ unsigned long long bar;
    char *sa = (char *)gtc_dsmem, *sb = sa + PANEL;
    const char *pa = A + (size_t)blockIdx.x * PANEL, *pb = B + (size_t)blockIdx.y * PANEL;
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    if (CX * CY > 1) cluster_sync(); /* the peers' barriers exist before anything lands on them */
    else __syncthreads();
    gtc_wait_prior_steps();
    if (threadIdx.x == 0) mbar_expect(&bar, 2 * PANEL);
    const unsigned rx = blockIdx.x % CX, ry = blockIdx.y % CY;
    /* B panel y: shared by the CX blocks of this cluster row; this block copies rows rx, rx + CX, ... */
    const unsigned short mb = (unsigned short)(((1u << CX) - 1) << (CX * ry));
    unsigned short ma = 0;
    for (int i = 0; i < CY; i++) ma |= (unsigned short)(1u << (rx + CX * i));
    for (int c = threadIdx.x; c < PANEL / SEG; c += 256) {
        if (CY == 1) bulk_copy(sa + c * SEG, pa + c * SEG, SEG, &bar);
        else if (c % CY == (int)ry) bulk_mcast(sa + c * SEG, pa + c * SEG, SEG, &bar, ma);
        if (CX == 1) bulk_copy(sb + c * SEG, pb + c * SEG, SEG, &bar);
        else if (c % CX == (int)rx) bulk_mcast(sb + c * SEG, pb + c * SEG, SEG, &bar, mb);
    }
    mbar_wait(&bar, 0);
    if (threadIdx.x == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = ((float *)sa)[PANEL / 4 - 1] + ((float *)sb)[PANEL / 4 - 1];
    if (TAIL && CX * CY > 1) cluster_sync(); /* no block leaves while a peer may still write into it */
}

/* the same with cp.async by every thread, no clusters (the emitted kernel's way) */
__global__ void __launch_bounds__(256, 1) k_cpasync(const char *A, const char *B, float *out) {
    char *sa = (char *)gtc_dsmem, *sb = sa + PANEL;
    const char *pa = A + (size_t)blockIdx.x * PANEL, *pb = B + (size_t)blockIdx.y * PANEL;
    gtc_wait_prior_steps();
    for (int c = threadIdx.x * 16; c < PANEL; c += 256 * 16) gtc_cp_async<16>(sa + c, pa + c, true), gtc_cp_async<16>(sb + c, pb + c, true);
    gtc_cp_commit();
    gtc_cp_wait<0>();
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.y * gridDim.x + blockIdx.x] = ((float *)sa)[PANEL / 4 - 1] + ((float *)sb)[PANEL / 4 - 1];
}

using Kern = void (*)(const char *, const char *, float *);
static cudaStream_t st;

static void launch(Kern k, int cx, int cy, const char *A, const char *B, float *out, bool pdl) {
    bench_launch_cluster(k, dim3(16, 8), 256, 2 * PANEL, st, pdl, dim3(cx, cy, 1), A, B, out);
}

static void row(const char *name, Kern k, int cx, int cy, const char *A, const char *B, float *out, const std::vector<float> &want) {
    CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * PANEL));
    if (cx * cy > 1) CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CK(cudaMemset(out, 0, 128 * 4));
    launch(k, cx, cy, A, B, out, false);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(st));
    std::vector<float> h(128);
    CK(cudaMemcpy(h.data(), out, 128 * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 128; i++) bad += h[i] != want[i];
    const double plain = bench_graph_us(st, [&] { launch(k, cx, cy, A, B, out, false); });
    const double pdl = bench_graph_us(st, [&] { launch(k, cx, cy, A, B, out, true); });
    printf("%-44s %8.2f %8.2f  %s\n", name, plain, pdl, bad ? "WRONG BYTES" : "ok");
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("load_mcast on %s (%d SMs): 16 x 8 blocks, A panel x + B panel y (61,440 bytes each) per block, us per launch\n",
           p.name, p.multiProcessorCount);
    char *A, *B;
    float *out;
    CK(cudaMalloc(&A, 16 * PANEL)); CK(cudaMalloc(&B, 8 * PANEL)); CK(cudaMalloc(&out, 128 * 4));
    std::vector<float> ha(16 * PANEL / 4), hb(8 * PANEL / 4), want(128);
    for (size_t i = 0; i < ha.size(); i++) ha[i] = (float)(i % 1000);
    for (size_t i = 0; i < hb.size(); i++) hb[i] = (float)(i % 777) * 0.5f;
    CK(cudaMemcpy(A, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) want[y * 16 + x] = ha[(x + 1) * PANEL / 4 - 1] + hb[(y + 1) * PANEL / 4 - 1];
    CK(cudaStreamCreate(&st));
    printf("%-44s %8s %8s\n", "variant", "plain", "pdl");
    row("cp.async 16 B, no cluster", k_cpasync, 1, 1, A, B, out, want);
    row("bulk 256 B rows, no cluster", k_panels<1, 1, 256, false>, 1, 1, A, B, out, want);
    row("bulk 128 B rows, no cluster", k_panels<1, 1, 128, false>, 1, 1, A, B, out, want);
    row("cluster 2x1 (B shared), 256 B", k_panels<2, 1, 256, true>, 2, 1, A, B, out, want);
    row("cluster 1x2 (A shared), 256 B", k_panels<1, 2, 256, true>, 1, 2, A, B, out, want);
    row("cluster 2x2 (both shared), 256 B", k_panels<2, 2, 256, true>, 2, 2, A, B, out, want);
    row("cluster 2x2, 128 B", k_panels<2, 2, 128, true>, 2, 2, A, B, out, want);
    row("cluster 2x2, 256 B, no closing cluster barrier", k_panels<2, 2, 256, false>, 2, 2, A, B, out, want);
    row("cluster 4x2 (B by 4, A by 2), 256 B", k_panels<4, 2, 256, true>, 4, 2, A, B, out, want);
    row("cluster 2x4, 256 B", k_panels<2, 4, 256, true>, 2, 4, A, B, out, want);
    row("cluster 4x4, 256 B", k_panels<4, 4, 256, true>, 4, 4, A, B, out, want);
    return 0;
}
