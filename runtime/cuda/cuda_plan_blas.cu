// runtime/cuda/cuda_plan_blas.cu: a plan's GEMM step through cuBLASLt (RtPlanGemm, plan_abi.h),
// as a graph of its own that cuda_graph.cu adds to the plan's CUDA Graph as a child node. The
// matmul description, the layouts and the algorithm are chosen once, when the executor builds its
// graph (cuBLASLt's heuristic, deterministic for one device and library); a run whose operand or
// product pointers changed captures the call again with the new ones, and the executor swaps the
// child graph in place (measured on the H200: 4-9 us of host time, bench/gemm_lt.cu). Each step
// owns its workspace, so independent products may run side by side. With bf16 precision the
// captured graph first rounds both float32 operands to bfloat16 into the step's own staging
// buffers and multiplies those (float32 product and accumulation): cuBLASLt's tensor cores run
// bf16 operands at twice the rate of its fp32-storage bf16 mode (842 against 434 TFLOP/s on
// 4096^3), and the rounding is the same round-to-nearest-even. With tf32 or bf16, a weight
// gradient's A^T B (K the slow axis of both operands: cuBLASLt's "NT" case) first copies A
// transposed, since its tensor-core kernels run that case 1.65x slower (4096^3 tf32: 525 us
// against 319; a transposing copy of a 4096^2 operand costs about 40 us).
#include <stdlib.h>

#include <cublasLt.h>
#include <cuda_bf16.h>

#include "cuda_internal.cuh"
#include "rt_plan_blas.h"

#define BLAS_WORKSPACE (8u << 20)

static cublasLtHandle_t g_lt;

struct RtCudaBlas {
    RtPlanGemm gm;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc; // cuBLASLt's A (our B), B (our A), C: column-major views
    cublasLtMatmulAlgo_t algo[2];      // [0] for operands 16-byte aligned, [1] for any (element) alignment
    bool have[2];
    void *ws;
    cudaStream_t cap;                  // the stream captures run on (never launched on)
    void *stage[2];                    // A's and B's staged copies (NULL: used in place)
    int64_t extent[2];                 // their element counts
    bool flip;                         // A is staged transposed ([k][m] -> [m][k])
};

static __device__ __forceinline__ float stage_cvt(float x, float *) { return x; }
static __device__ __forceinline__ __nv_bfloat16 stage_cvt(float x, __nv_bfloat16 *) { return __float2bfloat16_rn(x); }

// A staged operand: float32 -> O (bfloat16: round to nearest even), element by element.
template <class O> __global__ void gtc_blas_stage(const float *__restrict__ x, O *__restrict__ y, int64_t n) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        y[i] = stage_cvt(x[i], y);
}

// The same four elements at a time (16-byte loads; one 8-byte store of four bfloat16, or 16 of
// four floats) when both buffers are aligned and n is a multiple of 4: the staging pass is
// memory-bound, and the element-wise kernel's 2-byte stores leave bandwidth unused.
static __device__ __forceinline__ void stage_store4(float4 v, float *y) { *(float4 *)y = v; }
static __device__ __forceinline__ void stage_store4(float4 v, __nv_bfloat16 *y) {
    __nv_bfloat162 lo = __floats2bfloat162_rn(v.x, v.y), hi = __floats2bfloat162_rn(v.z, v.w);
    uint2 u;
    memcpy(&u.x, &lo, 4), memcpy(&u.y, &hi, 4);
    *(uint2 *)y = u;
}
template <class O> __global__ void gtc_blas_stage4(const float4 *__restrict__ x, O *__restrict__ y, int64_t n4) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += (int64_t)gridDim.x * blockDim.x)
        stage_store4(x[i], y + 4 * i);
}

// The same, transposing a rows x cols matrix through 32x32 tiles of shared memory (coalesced both
// ways): y[c][r] = x[r][c].
template <class O> __global__ void gtc_blas_stage_t(const float *__restrict__ x, O *__restrict__ y, int64_t rows, int64_t cols) {
    __shared__ float t[32][33];
    const int64_t r0 = (int64_t)blockIdx.y * 32, c0 = (int64_t)blockIdx.x * 32;
    for (int i = threadIdx.y; i < 32; i += 8)
        if (r0 + i < rows && c0 + threadIdx.x < cols) t[i][threadIdx.x] = x[(r0 + i) * cols + c0 + threadIdx.x];
    __syncthreads();
    for (int i = threadIdx.y; i < 32; i += 8)
        if (c0 + i < cols && r0 + threadIdx.x < rows) y[(c0 + i) * rows + r0 + threadIdx.x] = stage_cvt(t[threadIdx.x][i], y);
}

template <class O> static void stage_launch(const float *x, void *y, int64_t n, bool tr, int64_t rows, int64_t cols,
                                            cudaStream_t st) {
    if (tr) {
        const dim3 grid((unsigned)((cols + 31) / 32), (unsigned)((rows + 31) / 32));
        gtc_blas_stage_t<O><<<grid, dim3(32, 8), 0, st>>>(x, (O *)y, rows, cols);
    } else if (n % 4 == 0 && ((uintptr_t)x & 15) == 0 && ((uintptr_t)y & 15) == 0) {
        const int64_t blocks = (n / 4 + 255) / 256;
        gtc_blas_stage4<O><<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, st>>>((const float4 *)x, (O *)y, n / 4);
    } else {
        const int64_t blocks = (n + 255) / 256;
        gtc_blas_stage<O><<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, st>>>(x, (O *)y, n);
    }
}

// The elements a stored operand spans: rows of ld elements, then the batch's further matrices.
static int64_t extent(int64_t rows, int64_t ld, int64_t batch, int64_t stride) {
    return rows * ld + (batch > 1 && stride > 0 ? (batch - 1) * stride : 0);
}

extern "C" void rt_cuda_blas_free(RtCudaBlas *b) {
    if (!b) return;
    if (b->op) cublasLtMatmulDescDestroy(b->op);
    if (b->la) cublasLtMatrixLayoutDestroy(b->la);
    if (b->lb) cublasLtMatrixLayoutDestroy(b->lb);
    if (b->lc) cublasLtMatrixLayoutDestroy(b->lc);
    if (b->ws) cudaFree(b->ws);
    for (int k = 0; k < 2; k++)
        if (b->stage[k]) cudaFree(b->stage[k]);
    if (b->cap) cudaStreamDestroy(b->cap);
    free(b);
}

extern "C" void rt_cuda_blas_shutdown(void) {
    if (g_lt) cublasLtDestroy(g_lt);
    g_lt = nullptr;
}

// A stored row-major matrix of `rows` x `cols` (leading dimension ld) is the column-major
// cols x rows matrix with the same ld; a batch steps `stride` elements.
static cublasStatus_t layout(cublasLtMatrixLayout_t *l, cudaDataType_t t, int64_t rows, int64_t cols, int64_t ld,
                             int64_t batch, int64_t stride) {
    cublasStatus_t s = cublasLtMatrixLayoutCreate(l, t, (uint64_t)cols, (uint64_t)rows, ld);
    if (s == CUBLAS_STATUS_SUCCESS && batch > 1) {
        int32_t n = (int32_t)batch;
        s = cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &n, sizeof n);
        if (s == CUBLAS_STATUS_SUCCESS)
            s = cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
    }
    return s;
}

// cuBLASLt's heuristic choice for the step's description and layouts, for operands aligned to 16
// bytes (k = 0: what the arena, the allocator and the staging buffers give) or only to their
// element (k = 1: a view starting inside an allocation), as PyTorch also chooses by alignment.
static cublasStatus_t choose(RtCudaBlas *b, int k) {
    if (b->have[k]) return CUBLAS_STATUS_SUCCESS;
    cublasLtMatmulPreference_t pref = nullptr;
    size_t wsz = BLAS_WORKSPACE;
    const uint32_t align = k ? (b->gm.dtype == DT_FLOAT64 ? 8 : b->stage[0] || b->stage[1] ? 2 : 4) : 16;
    cublasLtMatmulHeuristicResult_t r;
    int n = 0;
    cublasStatus_t s = cublasLtMatmulPreferenceCreate(&pref);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsz, sizeof wsz);
    const cublasLtMatmulPreferenceAttributes_t al[] = {
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
    for (int i = 0; i < 4 && s == CUBLAS_STATUS_SUCCESS; i++)
        s = cublasLtMatmulPreferenceSetAttribute(pref, al[i], &align, sizeof align);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = cublasLtMatmulAlgoGetHeuristic(g_lt, b->op, b->la, b->lb, b->lc, b->lc, pref, 1, &r, &n);
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (s == CUBLAS_STATUS_SUCCESS && n < 1) s = CUBLAS_STATUS_NOT_SUPPORTED;
    if (s == CUBLAS_STATUS_SUCCESS) b->algo[k] = r.algo, b->have[k] = true;
    return s;
}

// Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: cuBLASLt's A is our B and its
// B our A, each with its transpose flag.
extern "C" RtCudaBlas *rt_cuda_blas_new(const RtPlanGemm *gm, const char *graph, int step) {
    RtCudaBlas *b = (RtCudaBlas *)calloc(1, sizeof *b);
    if (!b) {
        rt_error(RT_EOOM, "out of host memory");
        return nullptr;
    }
    b->gm = *gm;
    const bool f64 = gm->dtype == DT_FLOAT64, bf16 = !f64 && gm->precision == RT_PREC_BF16;
    /* tensor cores on A^T B: A staged transposed, then read as an untransposed [m][k] */
    b->flip = !f64 && gm->precision != RT_PREC_FP32 && gm->ta && !gm->tb && gm->batch == 1 && gm->m < 65535LL * 32 &&
              gm->k < 65535LL * 32;
    const RtPlanGemm staged = {gm->on, gm->epilogue, gm->precision, gm->dtype, b->flip ? 0 : gm->ta, gm->tb, gm->m, gm->n,
                               gm->k, gm->batch, b->flip ? gm->k : gm->lda, gm->ldb, gm->ldc, gm->sa, gm->sb, gm->sc,
                               {gm->slot[0], gm->slot[1], gm->slot[2]}, {gm->off[0], gm->off[1], gm->off[2]}};
    gm = &staged;
    const cudaDataType_t t = f64 ? CUDA_R_64F : CUDA_R_32F, tin = bf16 ? CUDA_R_16BF : t;
    const cublasComputeType_t ct = f64 ? CUBLAS_COMPUTE_64F
                                   : gm->precision == RT_PREC_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                   : CUBLAS_COMPUTE_32F;
    const cublasOperation_t opa = gm->tb ? CUBLAS_OP_T : CUBLAS_OP_N, opb = gm->ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    const char *what = "cublasLtCreate";
    cudaError_t e = cudaSuccess;
    if (!g_lt) s = cublasLtCreate(&g_lt);
    if (s == CUBLAS_STATUS_SUCCESS) what = "cublasLtMatmulDescCreate", s = cublasLtMatmulDescCreate(&b->op, ct, t);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb);
    // our B stored [k][n] (or [n][k] transposed), our A stored [m][k] (or [k][m]), C [m][n]
    if (s == CUBLAS_STATUS_SUCCESS)
        what = "cublasLtMatrixLayoutCreate",
        s = layout(&b->la, tin, gm->tb ? gm->n : gm->k, gm->tb ? gm->k : gm->n, gm->ldb, gm->batch, gm->sb);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = layout(&b->lb, tin, gm->ta ? gm->k : gm->m, gm->ta ? gm->m : gm->k, gm->lda, gm->batch, gm->sa);
    if (s == CUBLAS_STATUS_SUCCESS) s = layout(&b->lc, t, gm->m, gm->n, gm->ldc, gm->batch, gm->sc);
    if (s == CUBLAS_STATUS_SUCCESS) what = "cublasLtMatmulAlgoGetHeuristic", s = choose(b, 0);
    if (s != CUBLAS_STATUS_SUCCESS) {
        rt_error(RT_ERUNTIME, "plan %s, step %d: cuBLASLt cannot run its %lld x %lld x %lld product: %s: %s (%s)", graph,
                 step, (long long)gm->m, (long long)gm->n, (long long)gm->k, what, cublasGetStatusName(s),
                 cublasGetStatusString(s));
        rt_cuda_blas_free(b);
        return nullptr;
    }
    e = cudaMalloc(&b->ws, BLAS_WORKSPACE);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&b->cap, cudaStreamNonBlocking);
    b->extent[0] = extent(gm->ta ? gm->k : gm->m, gm->lda, gm->batch, gm->sa);
    b->extent[1] = extent(gm->tb ? gm->n : gm->k, gm->ldb, gm->batch, gm->sb);
    for (int k = 0; e == cudaSuccess && k < 2; k++)
        if (bf16 || (k == 0 && b->flip))
            e = cudaMalloc(&b->stage[k], (size_t)b->extent[k] * (bf16 ? sizeof(__nv_bfloat16) : sizeof(float)));
    if (e != cudaSuccess) {
        cuda_fail("allocating a cuBLASLt step's workspace", e);
        rt_cuda_blas_free(b);
        return nullptr;
    }
    return b;
}

static char *slot_ptr(const void *args, int slot, int64_t off) {
    return ((char *const *)args)[slot] + off;
}

// The call with the argument block's current pointers, captured into a new graph.
extern "C" int rt_cuda_blas_capture(RtCudaBlas *b, const void *args, cudaGraph_t *out) {
    const RtPlanGemm *gm = &b->gm;
    const double one = 1, zero = 0;
    const float onef = 1, zerof = 0;
    const bool f64 = gm->dtype == DT_FLOAT64;
    const void *A = slot_ptr(args, gm->slot[0], gm->off[0]), *B = slot_ptr(args, gm->slot[1], gm->off[1]);
    void *C = slot_ptr(args, gm->slot[2], gm->off[2]);
    *out = nullptr;
    /* a view that starts inside an allocation may be aligned to its element only (the staging
     * buffers, the arena and fresh outputs are 256-byte aligned) */
    const uintptr_t used = (b->stage[0] ? 0 : (uintptr_t)A) | (b->stage[1] ? 0 : (uintptr_t)B) | (uintptr_t)C;
    const int k = used % 16 ? 1 : 0;
    cublasStatus_t s = choose(b, k);
    if (s != CUBLAS_STATUS_SUCCESS) return cublas_fail("cuBLASLt's algorithm for operands aligned to their element", s);
    CU_TRY("capturing a cuBLASLt step", cudaStreamBeginCapture(b->cap, cudaStreamCaptureModeThreadLocal));
    const void *ops[2] = {A, B};
    for (int i = 0; i < 2; i++) { /* bf16: round the operands first; A^T B: A transposed */
        if (!b->stage[i]) continue;
        const bool tr = i == 0 && b->flip;
        if (gm->precision == RT_PREC_BF16)
            stage_launch<__nv_bfloat16>((const float *)ops[i], b->stage[i], b->extent[i], tr, gm->k, gm->m, b->cap);
        else
            stage_launch<float>((const float *)ops[i], b->stage[i], b->extent[i], tr, gm->k, gm->m, b->cap);
        ops[i] = b->stage[i];
    }
    A = ops[0], B = ops[1];
    s = cublasLtMatmul(g_lt, b->op, f64 ? (const void *)&one : &onef, B, b->la, A, b->lb, f64 ? (const void *)&zero : &zerof,
                       C, b->lc, C, b->lc, &b->algo[k], b->ws, BLAS_WORKSPACE, b->cap);
    cudaGraph_t g = nullptr;
    cudaError_t e = cudaStreamEndCapture(b->cap, &g);
    if (s != CUBLAS_STATUS_SUCCESS) {
        if (g) cudaGraphDestroy(g);
        return cublas_fail("cublasLtMatmul (captured)", s);
    }
    if (e != cudaSuccess) return cuda_fail("capturing a cuBLASLt step", e);
    *out = g;
    return 0;
}
