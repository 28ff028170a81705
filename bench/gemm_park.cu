/* bench/gemm_park.cu: whether blocks parked on the SMs slow the step's first product. In a plan's
 * CUDA Graph (runtime/cuda/cuda_graph.cu) a step's dependents are launched once all its blocks
 * have begun (a programmatic edge from cudaGraphKernelNodePortLaunchCompletion), so while the
 * tf32 480-256-2 step's x @ w1 runs, the row step's 128 blocks and the side steps' 67 more sit
 * on its SMs in griddepcontrol.wait; the product took 5.5-5.6 us there against 4.7 as a node
 * alone (test_emit_gpu). Here one CUDA Graph holds 20 pairs of the emitted kernel (x @ w1,
 * 512x256x480 on TF32 tensor cores, 32x32 tiles, all of K in flight) and a dependent "row"
 * kernel (128 blocks of 128 threads, or 195 blocks of 256 threads, that wait and then read a
 * little), with the dependent launched (a) by a full edge, (b) by a programmatic edge from
 * launch completion (the executor's), (c) by a programmatic edge from the product's trigger
 * (griddepcontrol.launch_dependents by every thread at its first epilogue element, after the K loop and
 * the group sum; cudaGraphKernelNodePortProgrammatic);
 * us per pair, median of 31 replays. Result (H200, 2026-12-03): launch completion is the fastest
 * (5.45 us against 5.8 with a full edge and 6.1 with the trigger); bench/README.md.
 * Build here: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/gemm_park bench/gemm_park.cu
 * Run on the GPU machine: build/dev/gemm_park */
#include "gemm_case.cuh"
#include "../templates/kernels_types.cuh"
#include "../ir/scalar.h"
#include "../templates/kernels_prelude.cuh"

constexpr int M = 512, N = 256, K = 480;

/* the emitted step 0 (no EARLY), optionally triggering its dependents when its products are done */
template <bool TRIGGER>
__global__ void __launch_bounds__(256) kgemm(const float *A, const float *B, const float *bias, float *C) {
    gtc_wait_prior_steps();
    bool first = true; /* every thread triggers on its first epilogue element */
    gtc_gemm<float, 32, 32, 8, 8, 64, true, false, true, 9, 0>(A, K, 1, B, N, 1, M, N, K, [&](int i, int j, float acc) {
        if (TRIGGER && first) {
            asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
            first = false;
        }
        const float v = acc + bias[j];
        C[i * N + j] = v > 0 ? v : 0;
    });
}

/* a dependent that waits for the product, then reads one value per warp of it */
__global__ void __launch_bounds__(256) krow(const float *C, float *out) {
    gtc_wait_prior_steps();
    if ((threadIdx.x & 31) == 0) out[blockIdx.x * 8 + threadIdx.x / 32] = C[(blockIdx.x * 8 + threadIdx.x / 32) % (M * N)];
}

static cudaGraphExec_t build(int mode, bool trigger, int rblocks, int rthreads, const float *A, const float *B,
                             const float *bias, float *C, float *out) {
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t prev = nullptr;
    const int smem = GtcGemmSmem<float, 32, 32, 8, 8, 64, true, false, true, 9>::BYTES;
    void *ga[] = {(void *)&A, (void *)&B, (void *)&bias, (void *)&C};
    void *ra[] = {(void *)&C, (void *)&out};
    for (int r = 0; r < 20; r++) {
        cudaKernelNodeParams kp = {};
        kp.func = trigger ? (void *)kgemm<true> : (void *)kgemm<false>;
        kp.gridDim = dim3(16, 8), kp.blockDim = dim3(256), kp.sharedMemBytes = smem, kp.kernelParams = ga;
        cudaGraphNode_t gn, rn;
        CK(cudaGraphAddKernelNode(&gn, g, prev ? &prev : nullptr, prev ? 1 : 0, &kp));
        cudaKernelNodeParams rp = {};
        rp.func = (void *)krow, rp.gridDim = dim3(rblocks), rp.blockDim = dim3(rthreads), rp.kernelParams = ra;
        CK(cudaGraphAddKernelNode(&rn, g, mode == 0 ? &gn : nullptr, mode == 0 ? 1 : 0, &rp));
        if (mode) {
            cudaGraphEdgeData ed;
            memset(&ed, 0, sizeof ed);
            ed.type = cudaGraphDependencyTypeProgrammatic;
            ed.from_port = mode == 1 ? cudaGraphKernelNodePortLaunchCompletion : cudaGraphKernelNodePortProgrammatic;
            CK(cudaGraphAddDependencies(g, &gn, &rn, &ed, 1));
        }
        prev = rn;
    }
    cudaGraphExec_t x;
    CK(cudaGraphInstantiate(&x, g, 0));
    cudaGraphDestroy(g);
    return x;
}

int main() {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("gemm_park on %s (%d SMs): 20 x (x @ w1 512x256x480 tf32, then a dependent kernel) in one graph, us per pair\n",
           p.name, p.multiProcessorCount);
    float *A, *B, *bias, *C, *out;
    CK(cudaMalloc(&A, M * K * 4)); CK(cudaMalloc(&B, K * N * 4)); CK(cudaMalloc(&bias, N * 4));
    CK(cudaMalloc(&C, M * N * 4)); CK(cudaMalloc(&out, 4096 * 4));
    CK(cudaMemset(A, 0, M * K * 4)); CK(cudaMemset(B, 0, K * N * 4)); CK(cudaMemset(bias, 0, N * 4));
    const int smem = GtcGemmSmem<float, 32, 32, 8, 8, 64, true, false, true, 9>::BYTES;
    CK(cudaFuncSetAttribute((const void *)kgemm<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute((const void *)kgemm<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0)); CK(cudaEventCreate(&t1));
    const char *modes[] = {"full edge", "programmatic, launch completion (executor)", "programmatic, trigger after K loop"};
    printf("%-46s %-22s %8s\n", "dependent launched by", "dependent", "us/pair");
    for (int rb : {128, 195})
        for (int mode = 0; mode < 3; mode++) {
            const int rt = rb == 128 ? 128 : 256;
            cudaGraphExec_t x = build(mode, mode == 2, rb, rt, A, B, bias, C, out);
            CK(cudaGraphLaunch(x, st));
            CK(cudaStreamSynchronize(st));
            float ms[31];
            for (int r = 0; r < 31; r++) {
                cudaEventRecord(t0, st); cudaGraphLaunch(x, st); cudaEventRecord(t1, st);
                CK(cudaEventSynchronize(t1)); cudaEventElapsedTime(&ms[r], t0, t1);
            }
            std::sort(ms, ms + 31);
            char dep[64];
            snprintf(dep, sizeof dep, "%d blocks x %d", rb, rt);
            printf("%-46s %-22s %8.2f\n", modes[mode], dep, ms[15] / 20 * 1e3);
            cudaGraphExecDestroy(x);
        }
    return 0;
}
