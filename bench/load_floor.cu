/* bench/load_floor.cu: how fast 128 blocks (one per SM of the H200) pull B bytes each from L2
 * into shared memory, by three means: 16-byte cp.async by every thread, 16-byte global loads into
 * registers, and bulk copies (cp.async.bulk, sm_90) of 1 or 4 KB completing on an mbarrier; and by
 * cp.async when every block reads the same bytes (as GEMM blocks sharing a panel do), each in the
 * same order or starting at its own chunk. The floor
 * under bench/gemm_split.cu's products (their tiles are 61-123 KB of operands per block). Each
 * row: 20 launches in one CUDA Graph, median of 31 replays, per launch (bench/gemm_case.cuh).
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/load_floor bench/load_floor.cu
 * Run on the GPU machine: build/dev/load_floor */
#include "gemm_case.cuh"
#include "../templates/kernels_types.cuh"
#include "../ir/scalar.h"
#include "../templates/kernels_prelude.cuh"


/* block b reads bytes [b * bytes % span, ...) of src: neighbouring blocks overlap as tiles do */
__device__ __forceinline__ const char *block_src(const char *src, int bytes, int span) {
    return src + (long long)blockIdx.x * 65536 % (span - bytes) / 16 * 16;
}

__global__ void k_empty(const char *, float *, int, int) { gtc_wait_prior_steps(); }

__global__ void __launch_bounds__(256, 1) k_cpasync(const char *src, float *out, int bytes, int span) {
    gtc_wait_prior_steps();
    const char *s = block_src(src, bytes, span);
    for (int c = threadIdx.x * 16; c < bytes; c += 256 * 16) gtc_cp_async<16>(gtc_dsmem + c, s + c, true);
    gtc_cp_commit();
    gtc_cp_wait<0>();
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = ((float *)gtc_dsmem)[bytes / 4 - 1];
}

/* every block the same bytes (as the blocks of a GEMM that share a panel), in the same order, or
 * each starting at its own chunk */
template <bool ROT>
__global__ void __launch_bounds__(256, 1) k_same(const char *src, float *out, int bytes, int span) {
    gtc_wait_prior_steps();
    const int n = bytes / 16, rot = ROT ? (int)blockIdx.x * 97 % n : 0;
    for (int c = threadIdx.x; c < n; c += 256) {
        int cc = c + rot;
        if (cc >= n) cc -= n;
        gtc_cp_async<16>(gtc_dsmem + cc * 16, src + cc * 16, true);
    }
    gtc_cp_commit();
    gtc_cp_wait<0>();
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = ((float *)gtc_dsmem)[bytes / 4 - 1];
}

__global__ void __launch_bounds__(256, 1) k_ldg(const char *src, float *out, int bytes, int span) {
    gtc_wait_prior_steps();
    const char *s = block_src(src, bytes, span);
    float4 acc = make_float4(0, 0, 0, 0);
#pragma unroll 8
    for (int c = threadIdx.x * 16; c < bytes; c += 256 * 16) {
        const float4 v = __ldcg((const float4 *)(s + c));
        acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
    }
    if (acc.x + acc.y + acc.z + acc.w == 12345.0f) out[blockIdx.x] = 1;
}

#include "bulk.cuh"

template <int SEG>
__global__ void __launch_bounds__(256, 1) k_bulk(const char *src, float *out, int bytes, int span) {
    __shared__ unsigned long long bar;
    const char *s = block_src(src, bytes, span);
    if (threadIdx.x == 0) mbar_init(&bar, 1);
    __syncthreads();
    gtc_wait_prior_steps();
    if (threadIdx.x == 0) mbar_expect(&bar, bytes);
    __syncthreads();
    /* one thread per segment (lanes issue in parallel) */
    for (int c = threadIdx.x * SEG; c < bytes; c += 256 * SEG) bulk_copy(gtc_dsmem + c, s + c, min(SEG, bytes - c), &bar);
    mbar_wait(&bar, 0);
    if (threadIdx.x == 0) out[blockIdx.x] = ((float *)gtc_dsmem)[bytes / 4 - 1];
}

using Kern = void (*)(const char *, float *, int, int);
static cudaStream_t st;
static double time_it(Kern k, int blocks, int smem, const char *src, float *out, int bytes, int span) {
    if (smem > 48 * 1024) CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    return bench_graph_us(st, [&] { bench_launch(k, dim3(blocks), 256, smem, st, true, src, out, bytes, span); });
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("load_floor on %s (%d SMs), 128 blocks of 256 threads, us per launch (PDL chain in a graph)\n", p.name,
           p.multiProcessorCount);
    const int span = 2 << 20;
    char *src; float *out;
    CK(cudaMalloc(&src, span)); CK(cudaMalloc(&out, 4096 * 4));
    CK(cudaMemset(src, 0, span));
    CK(cudaStreamCreate(&st));
    printf("%-10s %10s %10s %10s %12s %12s %10s %10s\n", "KB/block", "empty", "cp.async", "ldg.v4", "bulk 1KB", "bulk 4KB",
           "same", "same rot");
    for (int kb : {8, 16, 32, 61, 92, 123, 180}) {
        const int bytes = kb * 1024;
        printf("%-10d %10.2f %10.2f %10.2f %12.2f %12.2f %10.2f %10.2f\n", kb, time_it(k_empty, 128, bytes, src, out, bytes, span),
               time_it(k_cpasync, 128, bytes, src, out, bytes, span), time_it(k_ldg, 128, 0, src, out, bytes, span),
               time_it(k_bulk<1024>, 128, bytes, src, out, bytes, span), time_it(k_bulk<4096>, 128, bytes, src, out, bytes, span),
               time_it(k_same<false>, 128, bytes, src, out, bytes, span), time_it(k_same<true>, 128, bytes, src, out, bytes, span));
    }
    return 0;
}
