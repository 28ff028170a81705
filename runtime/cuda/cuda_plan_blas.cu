// runtime/cuda/cuda_plan_blas.cu: a plan's GEMM step through cuBLASLt (RtPlanGemm, plan_abi.h),
// as a graph of its own that cuda_graph.cu adds to the plan's CUDA Graph as a child node. The
// matmul description, the layouts and the algorithm are chosen once, when the executor builds its
// graph (the fastest of cuBLASLt's heuristic candidates, timed once per process and product: see
// choose); a run whose operand or
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
#include <string.h>

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
    bool borrowed[2];                  // stage[k] is an earlier step's copy (rt_cuda_blas_share)
    bool lib_bias;                     // gm.bias (and gm.relu) through cuBLASLt's epilogue (else gtc_blas_bias)
    float *bias_buf;                   // n floats: the bias row, copied before each call
    bool bias16;                       // with a bfloat16 D: the bias row copied as bfloat16 (cuBLASLt
                                       // had no algorithm for a float32 bias with that D)
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

// The same, transposing a rows x cols matrix through 64x64 tiles of shared memory (coalesced both
// ways): y[c][r] = x[r][c]. Each of the 256 threads moves 16 elements and, where rows is even,
// stores two consecutive ones at once (bfloat162 or float2): with 32x32 tiles and 2-byte stores
// the 4096x4096 weight-gradient operand took 50 us under the profiler (1.7 TB/s).
static __device__ __forceinline__ void stage_store2(float a, float b, float *y) { *(float2 *)y = make_float2(a, b); }
static __device__ __forceinline__ void stage_store2(float a, float b, __nv_bfloat16 *y) {
    *(__nv_bfloat162 *)y = __floats2bfloat162_rn(a, b);
}
template <class O> __global__ void gtc_blas_stage_t(const float *__restrict__ x, O *__restrict__ y, int64_t rows, int64_t cols) {
    __shared__ float t[64][65];
    const int64_t r0 = (int64_t)blockIdx.y * 64, c0 = (int64_t)blockIdx.x * 64;
    const int tx = threadIdx.x, ty = threadIdx.y;
#pragma unroll
    for (int i = ty; i < 64; i += 8)
#pragma unroll
        for (int h = 0; h < 64; h += 32)
            if (r0 + i < rows && c0 + tx + h < cols) t[i][tx + h] = x[(r0 + i) * cols + c0 + tx + h];
    __syncthreads();
    const int64_t r = r0 + 2 * tx;
#pragma unroll
    for (int c = ty; c < 64; c += 8) {
        if (c0 + c >= cols) break;
        O *out = y + (c0 + c) * rows + r;
        if (rows % 2 == 0 && r + 1 < rows) stage_store2(t[2 * tx][c], t[2 * tx + 1][c], out);
        else
            for (int k = 0; k < 2 && r + k < rows; k++) out[k] = stage_cvt(t[2 * tx + k][c], y);
    }
}

// C[r][c] += bias[c] (then relu, as cuBLASLt's max(x, 0)): the bias row where cuBLASLt offers no
// algorithm with its BIAS (RELU_BIAS) epilogue for the product (the same float32 addition; with a
// bfloat16 D, from the product rounded to bfloat16, then rounded again).
static __device__ __forceinline__ float bias_load(const float *p) { return *p; }
static __device__ __forceinline__ float bias_load(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
template <class O> __global__ void gtc_blas_bias(O *__restrict__ c, const float *__restrict__ bias, int64_t m, int64_t n,
                                                 int64_t ldc, int relu) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m * n; i += (int64_t)gridDim.x * blockDim.x) {
        O *p = c + i / n * ldc + i % n;
        const float v = bias_load(p) + bias[i % n];
        *p = stage_cvt(relu ? fmaxf(v, 0.0f) : v, p);
    }
}

template <class O> static void stage_launch(const float *x, void *y, int64_t n, bool tr, int64_t rows, int64_t cols,
                                            cudaStream_t st) {
    if (tr) {
        const dim3 grid((unsigned)((cols + 63) / 64), (unsigned)((rows + 63) / 64));
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
        if (b->stage[k] && !b->borrowed[k]) cudaFree(b->stage[k]);
    if (b->bias_buf) cudaFree(b->bias_buf);
    if (b->cap) cudaStreamDestroy(b->cap);
    free(b);
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

// The algorithm for a description and its layouts: cuBLASLt's heuristic proposes up to
// BLAS_CANDIDATES, and each is timed on buffers of the step's sizes (as PyTorch's TunableOp and
// cuDNN's benchmark mode do), the fastest kept for the process (g_tuned: every step of the same
// product shares it, so a plan's products round alike). The heuristic's first pick is not always
// the fastest: on the H200 it gave the 4096^3 TF32 product a 128x128 tile at 530 us where a
// 128x256 one runs it in about 330 (bench/README.md, the Scale section); with 8 candidates timed
// on constant data the bf16 4k-wide step's products ran 178-202 us where PyTorch's ran 161-167.
// GTC_BLAS_TUNE=0 keeps the heuristic's first pick, GTC_BLAS_TUNE=N times its first N (1 to 64).
#define BLAS_CANDIDATES 32
#define BLAS_CANDIDATES_MAX 64

typedef struct BlasKey {
    int precision, dtype, ta, tb, flip, bf16, align, bias, relu, out16, bias16;
    int64_t m, n, k, batch, lda, ldb, ldc, sa, sb, sc;
} BlasKey;

typedef struct BlasTuned {
    BlasKey key;
    cublasLtMatmulAlgo_t algo;
    struct BlasTuned *next;
} BlasTuned;

static BlasTuned *g_tuned;

static BlasKey blas_key(const RtCudaBlas *b, uint32_t align) {
    const RtPlanGemm *g = &b->gm;
    BlasKey key;
    memset(&key, 0, sizeof key); /* compared with memcmp: no stray padding */
    key.precision = g->precision, key.dtype = (int)g->dtype, key.ta = g->ta, key.tb = g->tb, key.flip = b->flip;
    key.bf16 = g->dtype != DT_FLOAT64 && g->precision == RT_PREC_BF16, key.align = (int)align, key.bias = b->lib_bias;
    key.out16 = g->out16, key.bias16 = b->bias16;
    key.relu = b->lib_bias && g->relu;
    key.m = g->m, key.n = g->n, key.k = g->k, key.batch = g->batch, key.lda = g->lda, key.ldb = g->ldb;
    key.ldc = g->ldc, key.sa = g->sa, key.sb = g->sb, key.sc = g->sc;
    return key;
}

extern "C" void rt_cuda_blas_shutdown(void) {
    if (g_lt) cublasLtDestroy(g_lt);
    g_lt = nullptr;
    while (g_tuned) {
        BlasTuned *t = g_tuned;
        g_tuned = t->next;
        free(t);
    }
}

// Tuning data: pseudo-random values of magnitude [0.5, 1) and either sign in the buffer's element
// type (el: 2 bfloat16, 4 float, 8 double). Tensor cores run all-zero or constant data faster
// than real data (less switching, higher clocks), which skews the choice.
__global__ void gtc_blas_fill(void *p, int64_t n, int el) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 0x9e3779b9u ^ (uint32_t)(i >> 32);
        h ^= h >> 16, h *= 0x85ebca6bu, h ^= h >> 13, h *= 0xc2b2ae35u, h ^= h >> 16;
        if (el == 2) ((uint16_t *)p)[i] = (uint16_t)((h & 0x807fu) | 0x3f00u);
        else if (el == 4) ((uint32_t *)p)[i] = (h & 0x807fffffu) | 0x3f000000u;
        else ((uint64_t *)p)[i] = (uint64_t)((h & 0x800fffffu) | 0x3fe00000u) << 32 | (uint32_t)(h * 0x27d4eb2du);
    }
}

// Each candidate runs once to warm up, then BLAS_TIMED times between two events; all candidates
// are timed in a first round, the BLAS_FINALISTS fastest again in a second, and the least total
// of a candidate's rounds wins (one round's clocks can favour whichever ran first). Operands
// and C are scratch buffers of gtc_blas_fill's data, so tuning never touches the plan's buffers.
// Returns the index of the fastest, or 0 (the heuristic's pick) when timing cannot run.
#define BLAS_TIMED 3
#define BLAS_FINALISTS 4
static int time_candidates(RtCudaBlas *b, const cublasLtMatmulHeuristicResult_t *r, int n) {
    const RtPlanGemm *gm = &b->gm;
    const size_t el = gm->dtype == DT_FLOAT64 ? 8 : 4, in = el == 4 && gm->precision == RT_PREC_BF16 ? 2 : el;
    const int64_t ce = extent(gm->m, gm->ldc, gm->batch, gm->sc);
    void *buf[3] = {nullptr, nullptr, nullptr};
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    const size_t ebytes[3] = {in, in, gm->out16 ? 2 : el}, count[3] = {(size_t)b->extent[0], (size_t)b->extent[1], (size_t)ce};
    float ms[BLAS_CANDIDATES_MAX];
    bool ok = cudaEventCreate(&e0) == cudaSuccess && cudaEventCreate(&e1) == cudaSuccess;
    for (int i = 0; ok && i < 3; i++) {
        ok = cudaMalloc(&buf[i], count[i] * ebytes[i]) == cudaSuccess;
        if (ok) gtc_blas_fill<<<1024, 256, 0, g_cuda.stream>>>(buf[i], (int64_t)count[i], (int)ebytes[i]);
    }
    const double one = 1, zero = 0;
    const float onef = 1, zerof = 0;
    const bool f64 = gm->dtype == DT_FLOAT64;
    /* beta as the call has it: a weight update (beta = 1) runs cuBLASLt's "badd" kernels, which read C */
    const void *al = f64 ? (const void *)&one : &onef,
               *be = gm->update ? (f64 ? (const void *)&one : &onef) : f64 ? (const void *)&zero : &zerof;
    auto time_one = [&](int c) -> float {
        bool run = true;
        float t = 0;
        for (int rep = 0; run && rep <= BLAS_TIMED; rep++) {
            if (rep == 1) run = cudaEventRecord(e0, g_cuda.stream) == cudaSuccess;
            run = run && cublasLtMatmul(g_lt, b->op, al, buf[1], b->la, buf[0], b->lb, be, buf[2], b->lc, buf[2], b->lc,
                                        &r[c].algo, b->ws, BLAS_WORKSPACE, g_cuda.stream) == CUBLAS_STATUS_SUCCESS;
        }
        run = run && cudaEventRecord(e1, g_cuda.stream) == cudaSuccess && cudaEventSynchronize(e1) == cudaSuccess &&
              cudaEventElapsedTime(&t, e0, e1) == cudaSuccess;
        return run ? t : -1.0f;
    };
    for (int c = 0; c < n; c++) ms[c] = ok ? time_one(c) : -1.0f;
    for (int f = 0; ok && f < BLAS_FINALISTS; f++) { /* the f-th fastest of the first round, again */
        int c = -1;
        for (int j = 0; j < n; j++) {
            if (ms[j] < 0) continue;
            int rank = 0;
            for (int i = 0; i < n; i++) rank += ms[i] >= 0 && (ms[i] < ms[j] || (ms[i] == ms[j] && i < j));
            if (rank == f) c = j;
        }
        if (c < 0) break;
        const float t = time_one(c);
        if (t >= 0 && t < ms[c]) ms[c] = t;
    }
    int best = 0;
    for (int c = 0; c < n; c++)
        if (ms[c] >= 0 && (ms[best] < 0 || ms[c] < ms[best])) best = c;
    cudaStreamSynchronize(g_cuda.stream);
    cudaGetLastError(); /* a candidate that failed to launch is only skipped */
    for (int i = 0; i < 3; i++)
        if (buf[i]) cudaFree(buf[i]);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    return best;
}

// cuBLASLt's choice for the step's description and layouts, for operands aligned to 16 bytes
// (k = 0: what the arena, the allocator and the staging buffers give) or only to their element
// (k = 1: a view starting inside an allocation), as PyTorch also chooses by alignment.
static cublasStatus_t choose(RtCudaBlas *b, int k) {
    if (b->have[k]) return CUBLAS_STATUS_SUCCESS;
    cublasLtMatmulPreference_t pref = nullptr;
    size_t wsz = BLAS_WORKSPACE;
    const uint32_t align = k ? (b->gm.dtype == DT_FLOAT64 ? 8 : b->gm.precision == RT_PREC_BF16 ? 2 : 4) : 16;
    const BlasKey key = blas_key(b, align);
    for (const BlasTuned *t = g_tuned; t; t = t->next)
        if (!memcmp(&t->key, &key, sizeof key)) {
            b->algo[k] = t->algo, b->have[k] = true;
            return CUBLAS_STATUS_SUCCESS;
        }
    const char *tune = getenv("GTC_BLAS_TUNE");
    int want = BLAS_CANDIDATES;
    if (tune && *tune) {
        char *end;
        const long v = strtol(tune, &end, 10);
        want = *end || v < 0 || v > BLAS_CANDIDATES_MAX ? BLAS_CANDIDATES : v ? (int)v : 1;
    }
    cublasLtMatmulHeuristicResult_t r[BLAS_CANDIDATES_MAX];
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
        s = cublasLtMatmulAlgoGetHeuristic(g_lt, b->op, b->la, b->lb, b->lc, b->lc, pref, want, r, &n);
    if (pref) cublasLtMatmulPreferenceDestroy(pref);
    if (s == CUBLAS_STATUS_SUCCESS && n < 1) s = CUBLAS_STATUS_NOT_SUPPORTED;
    if (s != CUBLAS_STATUS_SUCCESS) return s;
    const int pick = n > 1 ? time_candidates(b, r, n) : 0;
    b->algo[k] = r[pick].algo, b->have[k] = true;
    BlasTuned *t = (BlasTuned *)malloc(sizeof *t);
    if (t) t->key = key, t->algo = r[pick].algo, t->next = g_tuned, g_tuned = t;
    return CUBLAS_STATUS_SUCCESS;
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
    /* TF32 tensor cores on A^T B: A staged transposed, then read as an untransposed [m][k]
     * (cuBLASLt's TF32 A^T B kernels are slow: the 4k-wide step took 3,836 us without, 3,485
     * with). Not in bf16: its transposed kernels keep pace, and A's plain bfloat16 copy is then
     * the one its forward product staged (x, a1, a2 in the 4k-wide step: 2,163 -> 2,051-2,097 us
     * on the H200, bench/README.md). */
    b->flip = !f64 && gm->precision == RT_PREC_TF32 && gm->ta && !gm->tb && gm->batch == 1 && gm->m < 65535LL * 32 &&
              gm->k < 65535LL * 32;
    RtPlanGemm staged = *gm;
    if (b->flip) staged.ta = 0, staged.lda = gm->k;
    gm = &staged;
    if ((gm->in16[0] || gm->in16[1] || gm->out16) && !bf16) {
        rt_error(RT_ERUNTIME, "plan %s, step %d: a bfloat16 operand or product outside bf16 precision", graph, step);
        rt_cuda_blas_free(b);
        return nullptr;
    }
    const cudaDataType_t t = f64 ? CUDA_R_64F : CUDA_R_32F, tin = bf16 ? CUDA_R_16BF : t, tout = gm->out16 ? CUDA_R_16BF : t;
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
    if (s == CUBLAS_STATUS_SUCCESS) s = layout(&b->lc, tout, gm->m, gm->n, gm->ldc, gm->batch, gm->sc);
    if (s == CUBLAS_STATUS_SUCCESS) {
        e = cudaMalloc(&b->ws, BLAS_WORKSPACE);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&b->cap, cudaStreamNonBlocking);
        b->extent[0] = extent(gm->ta ? gm->k : gm->m, gm->lda, gm->batch, gm->sa);
        b->extent[1] = extent(gm->tb ? gm->n : gm->k, gm->ldb, gm->batch, gm->sb);
        for (int k = 0; e == cudaSuccess && k < 2; k++)
            if ((bf16 && !gm->in16[k]) || (k == 0 && b->flip))
                e = cudaMalloc(&b->stage[k], (size_t)b->extent[k] * (bf16 ? sizeof(__nv_bfloat16) : sizeof(float)));
        if (e != cudaSuccess) {
            cuda_fail("allocating a cuBLASLt step's workspace", e);
            rt_cuda_blas_free(b);
            return nullptr;
        }
        if (e == cudaSuccess && gm->bias) { /* its own copy target, and the pointer tuning runs with */
            e = cudaMalloc(&b->bias_buf, (size_t)gm->n * sizeof(float));
            if (e == cudaSuccess) e = cudaMemset(b->bias_buf, 0x3c, (size_t)gm->n * sizeof(float));
        }
        if (e != cudaSuccess) {
            cuda_fail("allocating a cuBLASLt step's bias", e);
            rt_cuda_blas_free(b);
            return nullptr;
        }
        what = "cublasLtMatmulAlgoGetHeuristic";
        if (gm->bias) { /* cuBLASLt's BIAS (RELU_BIAS) epilogue where it has an algorithm for it */
            const cublasLtEpilogue_t epi = gm->relu ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
            /* the bias row as float32 (with a bfloat16 D, said explicitly: its default is D's type),
             * else, with a bfloat16 D, rounded to bfloat16 as PyTorch's autocast has it */
            for (int form = 0; form < (gm->out16 ? 2 : 1) && !b->lib_bias; form++) {
                const cudaDataType_t bias_type = form ? CUDA_R_16BF : CUDA_R_32F;
                b->lib_bias = true, b->bias16 = form == 1; /* part of the tuned choice's key */
                b->have[0] = false;
                b->lib_bias = cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi) ==
                                  CUBLAS_STATUS_SUCCESS &&
                              (!gm->out16 || cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                                                            &bias_type, sizeof bias_type) ==
                                                 CUBLAS_STATUS_SUCCESS) &&
                              cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &b->bias_buf,
                                                             sizeof b->bias_buf) == CUBLAS_STATUS_SUCCESS &&
                              choose(b, 0) == CUBLAS_STATUS_SUCCESS;
            }
            if (!b->lib_bias) {
                b->have[0] = false, b->bias16 = false;
                const cublasLtEpilogue_t none = CUBLASLT_EPILOGUE_DEFAULT;
                const cudaDataType_t dtype = tout; /* the bias type's default */
                cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &none, sizeof none);
                if (gm->out16) cublasLtMatmulDescSetAttribute(b->op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &dtype, sizeof dtype);
            }
        }
        if (!b->lib_bias) s = choose(b, 0);
    }
    if (s != CUBLAS_STATUS_SUCCESS) {
        rt_error(RT_ERUNTIME, "plan %s, step %d: cuBLASLt cannot run its %lld x %lld x %lld product: %s: %s (%s)", graph,
                 step, (long long)gm->m, (long long)gm->n, (long long)gm->k, what, cublasGetStatusName(s),
                 cublasGetStatusString(s));
        rt_cuda_blas_free(b);
        return nullptr;
    }
    return b;
}

// One staged copy per value and form: in the bf16 4k-wide step, a weight is read by its forward
// product and by the input gradient's, and an output gradient by the two products it feeds; 4 of
// 16 staging passes (about 21 us each on the H200) repeated another's.
extern "C" bool rt_cuda_blas_share(RtCudaBlas *b, int k, const RtCudaBlas *from) {
    const RtPlanGemm *g = &b->gm, *f = &from->gm;
    if (!b->stage[k] || b->borrowed[k] || g->precision != f->precision || g->dtype != f->dtype) return false;
    const bool tr = k == 0 && b->flip;
    for (int j = 0; j < 2; j++) {
        const bool ftr = j == 0 && from->flip;
        if (!from->stage[j] || ftr != tr || f->value[j] != g->value[k] || f->slot[j] != g->slot[k] ||
            f->off[j] != g->off[k] || from->extent[j] != b->extent[k] || (tr && (f->m != g->m || f->k != g->k)))
            continue;
        cudaFree(b->stage[k]);
        b->stage[k] = from->stage[j], b->borrowed[k] = true;
        return true;
    }
    return false;
}

static char *slot_ptr(const void *args, int slot, int64_t off) {
    return ((char *const *)args)[slot] + off;
}

// The call with the argument block's current pointers, captured into a new graph.
extern "C" int rt_cuda_blas_capture(RtCudaBlas *b, const void *args, cudaGraph_t *out) {
    const RtPlanGemm *gm = &b->gm;
    const double one = 1, zero = 0;
    const bool f64 = gm->dtype == DT_FLOAT64;
    const void *A = slot_ptr(args, gm->slot[0], gm->off[0]), *B = slot_ptr(args, gm->slot[1], gm->off[1]);
    /* C: the product's buffer; with an update, D = C - lr A B from w's buffer into the difference's */
    void *C = gm->update ? slot_ptr(args, gm->d_slot, gm->d_off) : slot_ptr(args, gm->slot[2], gm->off[2]);
    const void *Cin = gm->update ? slot_ptr(args, gm->c_slot, gm->c_off) : C;
    const float alphaf = gm->update ? -(float)(gm->lr_slot >= 0 ? ((const double *)args)[gm->lr_slot] : gm->lr_value) : 1.0f;
    const float betaf = gm->update ? 1.0f : 0.0f;
    *out = nullptr;
    /* a view that starts inside an allocation may be aligned to its element only (the staging
     * buffers, the arena and fresh outputs are 256-byte aligned) */
    const uintptr_t used = (b->stage[0] ? 0 : (uintptr_t)A) | (b->stage[1] ? 0 : (uintptr_t)B) | (uintptr_t)C | (uintptr_t)Cin;
    const int k = used % 16 ? 1 : 0;
    cublasStatus_t s = choose(b, k);
    if (s != CUBLAS_STATUS_SUCCESS) return cublas_fail("cuBLASLt's algorithm for operands aligned to their element", s);
    CU_TRY("capturing a cuBLASLt step", cudaStreamBeginCapture(b->cap, cudaStreamCaptureModeThreadLocal));
    const void *ops[2] = {A, B};
    for (int i = 0; i < 2; i++) { /* bf16: round the operands first; A^T B: A transposed */
        if (!b->stage[i]) continue;
        if (b->borrowed[i]) { /* staged by an earlier step of this replay */
            ops[i] = b->stage[i];
            continue;
        }
        const bool tr = i == 0 && b->flip;
        if (gm->precision == RT_PREC_BF16)
            stage_launch<__nv_bfloat16>((const float *)ops[i], b->stage[i], b->extent[i], tr, gm->k, gm->m, b->cap);
        else
            stage_launch<float>((const float *)ops[i], b->stage[i], b->extent[i], tr, gm->k, gm->m, b->cap);
        ops[i] = b->stage[i];
    }
    A = ops[0], B = ops[1];
    const float *bias = gm->bias ? (const float *)slot_ptr(args, gm->bias_slot, gm->bias_off) : nullptr;
    s = CUBLAS_STATUS_SUCCESS;
    /* The bias row copied (gtc_blas_stage<float>) into bias_buf, the pointer the call was set up
     * with, before every call whatever the caller's pointer: a view may start anywhere, and the
     * captured graph keeps one shape (a re-capture that added a copy only for an unaligned view
     * could not be swapped into the executable graph, and rebuilding it failed with
     * cudaErrorInvalidValue on the H200). */
    if (b->lib_bias) { /* the element-wise form always: one kernel function whatever the alignment */
        const int64_t blocks = (gm->n + 255) / 256;
        if (b->bias16)
            gtc_blas_stage<__nv_bfloat16><<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, b->cap>>>(
                bias, (__nv_bfloat16 *)b->bias_buf, gm->n);
        else
            gtc_blas_stage<float><<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, b->cap>>>(bias, b->bias_buf, gm->n);
    }
    if (s == CUBLAS_STATUS_SUCCESS)
        s = cublasLtMatmul(g_lt, b->op, f64 ? (const void *)&one : &alphaf, B, b->la, A, b->lb,
                           f64 ? (const void *)&zero : &betaf, Cin, b->lc, C, b->lc, &b->algo[k], b->ws, BLAS_WORKSPACE,
                           b->cap);
    if (s == CUBLAS_STATUS_SUCCESS && gm->bias && !b->lib_bias) {
        const int64_t blocks = (gm->m * gm->n + 255) / 256;
        const unsigned grid = (unsigned)(blocks < 4096 ? blocks : 4096);
        if (gm->out16)
            gtc_blas_bias<<<grid, 256, 0, b->cap>>>((__nv_bfloat16 *)C, bias, gm->m, gm->n, gm->ldc, gm->relu);
        else
            gtc_blas_bias<<<grid, 256, 0, b->cap>>>((float *)C, bias, gm->m, gm->n, gm->ldc, gm->relu);
    }
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
