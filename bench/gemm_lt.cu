/* bench/gemm_lt.cu: what a cuBLASLt GEMM step inside a plan's CUDA Graph would cost, measured
 * before building one: cublasLtMatmul throughput per compute mode (fp32, tf32, bf16 with fp32
 * storage through CUBLAS_COMPUTE_32F_FAST_16BF, bf16 storage) on square and MLP-shaped products,
 * the cost of capturing one call as a child graph and swapping it into an instantiated graph
 * (what a changed operand pointer would cost), and cublasGemmBatchedEx with device pointer arrays
 * (a batch of one: pointers read on the device, so a captured call never changes).
 * Build: nvcc -std=c++17 -O3 -arch=sm_90 -o build/dev/gemm_lt bench/gemm_lt.cu -lcublasLt -lcublas
 * Run on the GPU machine: build/dev/gemm_lt */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define BK(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { printf("%s:%d cublas %d\n", __FILE__, __LINE__, (int)s_); exit(1); } } while (0)

static cublasLtHandle_t lt;
static void *ws;
static const size_t WS = 32u << 20;

struct Lt {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t a, b, c;
    cublasLtMatmulAlgo_t algo;
};

/* Row-major C[M,N] = A[M,K] @ B[K,N] as column-major C^T = B^T A^T. */
static Lt make(int M, int N, int K, cublasComputeType_t ct, cudaDataType_t io) {
    Lt l;
    BK(cublasLtMatmulDescCreate(&l.op, ct, CUDA_R_32F));
    BK(cublasLtMatrixLayoutCreate(&l.a, io, N, K, N));
    BK(cublasLtMatrixLayoutCreate(&l.b, io, K, M, K));
    BK(cublasLtMatrixLayoutCreate(&l.c, io == CUDA_R_16BF ? CUDA_R_32F : io, N, M, N));
    cublasLtMatmulPreference_t pref;
    BK(cublasLtMatmulPreferenceCreate(&pref));
    BK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &WS, sizeof WS));
    cublasLtMatmulHeuristicResult_t r;
    int n = 0;
    BK(cublasLtMatmulAlgoGetHeuristic(lt, l.op, l.a, l.b, l.c, l.c, pref, 1, &r, &n));
    if (n == 0) { printf("no algo\n"); exit(1); }
    l.algo = r.algo;
    cublasLtMatmulPreferenceDestroy(pref);
    return l;
}

static void run(const Lt &l, const void *A, const void *B, void *C, cudaStream_t s) {
    const float one = 1, zero = 0;
    BK(cublasLtMatmul(lt, l.op, &one, B, l.a, A, l.b, &zero, C, l.c, C, l.c, &l.algo, ws, WS, s));
}

static double time_graph(cudaGraphExec_t ge, cudaStream_t s, int reps) {
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<float> t;
    for (int r = 0; r < 7; r++) {
        cudaEventRecord(e0, s);
        for (int i = 0; i < reps; i++) CK(cudaGraphLaunch(ge, s));
        cudaEventRecord(e1, s);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms * 1000 / reps);
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

int main() {
    BK(cublasLtCreate(&lt));
    CK(cudaMalloc(&ws, WS));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const size_t maxe = 4096ull * 4096;
    void *A, *B, *C, *A2;
    CK(cudaMalloc(&A, maxe * 4));
    CK(cudaMalloc(&A2, maxe * 4));
    CK(cudaMalloc(&B, maxe * 4));
    CK(cudaMalloc(&C, maxe * 4));
    CK(cudaMemset(A, 0, maxe * 4));
    CK(cudaMemset(B, 0, maxe * 4));
    struct { int M, N, K; } shapes[] = {{512, 256, 480}, {1024, 1024, 784}, {1024, 1024, 1024}, {4096, 4096, 4096}, {256, 64, 64}};
    struct { const char *name; cublasComputeType_t ct; cudaDataType_t io; } modes[] = {
        {"fp32", CUBLAS_COMPUTE_32F, CUDA_R_32F},
        {"tf32", CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F},
        {"bf16(f32 io)", CUBLAS_COMPUTE_32F_FAST_16BF, CUDA_R_32F},
        {"bf16 io", CUBLAS_COMPUTE_32F, CUDA_R_16BF},
    };
    printf("%-18s %-14s %10s %10s\n", "M x N x K", "mode", "us", "TFLOP/s");
    for (auto &sh : shapes)
        for (auto &m : modes) {
            Lt l = make(sh.M, sh.N, sh.K, m.ct, m.io);
            cudaGraph_t g;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            for (int i = 0; i < 10; i++) run(l, A, B, C, s);
            CK(cudaStreamEndCapture(s, &g));
            cudaGraphExec_t ge;
            CK(cudaGraphInstantiate(&ge, g, 0));
            const double us = time_graph(ge, s, sh.M >= 4096 ? 2 : 50) / 10;
            printf("%5dx%5dx%5d  %-14s %10.2f %10.1f\n", sh.M, sh.N, sh.K, m.name, us, 2.0 * sh.M * sh.N * sh.K / us / 1e6);
            cudaGraphExecDestroy(ge);
            cudaGraphDestroy(g);
        }
    /* Transposes and the heuristic's other candidates (4096^3, tf32 and fp32): op(A), op(B) as a
     * training step's backward asks (A^T B for weight gradients, A B^T for input gradients). */
    for (int ct = 0; ct < 2; ct++)
        for (int tr = 0; tr < 3; tr++) {
            const int M = 4096, N = 4096, K = 4096;
            const cublasOperation_t oa = tr == 2 ? CUBLAS_OP_T : CUBLAS_OP_N, ob = tr == 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
            cublasLtMatmulDesc_t op;
            BK(cublasLtMatmulDescCreate(&op, ct ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUDA_R_32F));
            BK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &oa, sizeof oa));
            BK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &ob, sizeof ob));
            cublasLtMatrixLayout_t la, lb, lc;
            BK(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, N, K, N));
            BK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, K, M, K));
            BK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, N, M, N));
            cublasLtMatmulPreference_t pref;
            BK(cublasLtMatmulPreferenceCreate(&pref));
            BK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &WS, sizeof WS));
            cublasLtMatmulHeuristicResult_t r[8];
            int n = 0;
            BK(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 8, r, &n));
            printf("4096^3 %s %s:", ct ? "tf32" : "fp32", tr == 0 ? "A B  " : tr == 1 ? "A^T B" : "A B^T");
            for (int i = 0; i < n && i < 4; i++) {
                const float one = 1, zero = 0;
                cudaGraph_t g;
                CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
                for (int j = 0; j < 4; j++)
                    BK(cublasLtMatmul(lt, op, &one, B, la, A, lb, &zero, C, lc, C, lc, &r[i].algo, ws, WS, s));
                CK(cudaStreamEndCapture(s, &g));
                cudaGraphExec_t ge;
                CK(cudaGraphInstantiate(&ge, g, 0));
                printf("  algo %d %.1f us", i, time_graph(ge, s, 1) / 4);
                cudaGraphExecDestroy(ge);
                cudaGraphDestroy(g);
            }
            printf("\n");
            cublasLtMatmulPreferenceDestroy(pref);
            cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
            cublasLtMatmulDescDestroy(op);
        }
    /* Re-capture cost: capture one call into a child graph and swap it into an exec. */
    for (auto &sh : shapes) {
        Lt l = make(sh.M, sh.N, sh.K, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F);
        cudaGraph_t child, parent;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        run(l, A, B, C, s);
        CK(cudaStreamEndCapture(s, &child));
        CK(cudaGraphCreate(&parent, 0));
        cudaGraphNode_t node;
        CK(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child));
        cudaGraphExec_t ge;
        CK(cudaGraphInstantiate(&ge, parent, 0));
        const int R = 200;
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < R; i++) {
            cudaGraph_t c2;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            run(l, (i & 1) ? A2 : A, B, C, s);
            CK(cudaStreamEndCapture(s, &c2));
            CK(cudaGraphExecChildGraphNodeSetParams(ge, node, c2));
            cudaGraphDestroy(c2);
        }
        auto t1 = std::chrono::steady_clock::now();
        printf("recapture+swap %dx%dx%d: %.2f us per call (host)\n", sh.M, sh.N, sh.K,
               std::chrono::duration<double, std::micro>(t1 - t0).count() / R);
        cudaGraphExecDestroy(ge);
        cudaGraphDestroy(parent);
        cudaGraphDestroy(child);
    }
    /* Pointer-array batched GEMM, batch of one, tf32 and fp32. */
    cublasHandle_t h;
    BK(cublasCreate(&h));
    BK(cublasSetStream(h, s));
    void **ptrs;
    CK(cudaMalloc(&ptrs, 3 * sizeof(void *)));
    void *hp[3] = {B, A, C};
    CK(cudaMemcpy(ptrs, hp, sizeof hp, cudaMemcpyHostToDevice));
    for (auto &sh : shapes)
        for (int tf = 0; tf < 2; tf++) {
            BK(cublasSetMathMode(h, tf ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
            const float one = 1, zero = 0;
            cudaGraph_t g;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            for (int i = 0; i < 10; i++)
                BK(cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, sh.N, sh.M, sh.K, &one, (const void *const *)ptrs, CUDA_R_32F, sh.N,
                                       (const void *const *)(ptrs + 1), CUDA_R_32F, sh.K, &zero, (void *const *)(ptrs + 2), CUDA_R_32F, sh.N, 1,
                                       tf ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
            CK(cudaStreamEndCapture(s, &g));
            cudaGraphExec_t ge;
            CK(cudaGraphInstantiate(&ge, g, 0));
            const double us = time_graph(ge, s, sh.M >= 4096 ? 2 : 50) / 10;
            printf("batched-ptr %5dx%5dx%5d %-5s %10.2f us %8.1f TFLOP/s\n", sh.M, sh.N, sh.K, tf ? "tf32" : "fp32", us,
                   2.0 * sh.M * sh.N * sh.K / us / 1e6);
            cudaGraphExecDestroy(ge);
            cudaGraphDestroy(g);
        }
    return 0;
}
