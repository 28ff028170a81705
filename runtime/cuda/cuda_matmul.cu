// runtime/cuda/cuda_matmul.cu: matmul through cuBLAS (cublasGemmStridedBatchedEx).
//
// out[..., m, n] = a[..., m, k] @ b[..., k, n]; out is contiguous, a and b are views whose batch
// axes are already broadcast to out's (stride 0 on broadcast axes). Row-major C = A B is computed
// as column-major C^T = B^T A^T. Each matrix operand is passed as is when one of its last two
// strides is 1 (stride-1 columns: CUBLAS_OP_N; stride-1 rows, i.e. a transposed view:
// CUBLAS_OP_T), otherwise through a contiguous temporary. (The CPU backend copies transposed
// views so that a product never depends on its operands' layout, bit for bit; here the copy would
// cost a kernel launch and a pass over memory in every eager x^T @ g, so cuBLAS's transposed
// kernels are used and may round differently in the last bits.) Batch axes that collapse to one stride
// for a, b and out (0 allowed: broadcast) become one strided-batched call; the rest are looped.
// float32 runs in strict FP32 (CUBLAS_COMPUTE_32F) unless rt_cuda_set_tf32(true).
#include "cuda_internal.cuh"

#include <limits.h>

// How cuBLAS sees a row-major view [rows, cols] with strides (sr, sc): `trans` = stored
// column-major (a transposed view), ld = its leading dimension. False: needs a copy.
static bool mat_layout(int64_t rows, int64_t cols, int64_t sr, int64_t sc, bool *trans, int64_t *ld) {
    int64_t mc = cols > 1 ? cols : 1, mr = rows > 1 ? rows : 1;
    if (sc == 1 || cols <= 1) {  // row-major: element (i, j) at i*ld + j
        int64_t l = rows <= 1 ? mc : sr;
        if (l >= mc && l <= INT_MAX) {
            *trans = false, *ld = l;
            return true;
        }
    }
    if (sr == 1 || rows <= 1) {  // column-major: element (i, j) at i + j*ld
        int64_t l = cols <= 1 ? mr : sc;
        if (l >= mr && l <= INT_MAX) {
            *trans = true, *ld = l;
            return true;
        }
    }
    return false;
}

// A contiguous copy of view v in a temporary device buffer (caller cuda_frees *buf).
static int make_contig(const RtTensor *v, RtTensor *tmp, RtStorage *st, void **buf) {
    size_t bytes = (size_t)numel_of(v->rank, v->shape) * ir_dtype_size(v->dtype);
    *buf = cuda_alloc(bytes ? bytes : 1);
    if (!*buf) return -1;
    if (cuda_copy_into(*buf, v->dtype, v)) return -1;
    memset(st, 0, sizeof *st);
    st->refcount = 1;
    st->backend = &rt_cuda_backend;
    st->data = *buf;
    st->bytes = bytes;
    *tmp = *v;
    tmp->offset = 0;
    tmp->storage = st;
    rt_contiguous_strides(v->rank, v->shape, tmp->strides);
    return 0;
}

int cuda_matmul(RtTensor *out, const RtTensor *a, const RtTensor *b) {
    if (cuda_check_ready("matmul")) return -1;
    int r = out->rank;
    if (r < 2 || a->rank != r || b->rank != r || (rt_numel(out) != 0 && !rt_is_contiguous(out)))
        return rt_error(RT_EINVAL, "cuda matmul: operands must be broadcast views of out's rank (>= 2)");
    DType dt = out->dtype;
    if (!ir_dtype_is_float(dt) || a->dtype != dt || b->dtype != dt)
        return rt_error(RT_EINVAL, "cuda matmul: needs float operands of out's dtype");
    int64_t m = out->shape[r - 2], n = out->shape[r - 1], k = a->shape[r - 1];
    if (a->shape[r - 2] != m || b->shape[r - 2] != k || b->shape[r - 1] != n)
        return rt_error(RT_EINVAL, "cuda matmul: inner dimensions differ");
    int brank = r - 2;
    for (int d = 0; d < brank; d++)
        if (a->shape[d] != out->shape[d] || b->shape[d] != out->shape[d])
            return rt_error(RT_EINVAL, "cuda matmul: batch axes must be broadcast to out's");
    int64_t nbatch = numel_of(brank, out->shape);
    size_t es = ir_dtype_size(dt);
    if (m == 0 || n == 0 || nbatch == 0) return 0;
    if (k == 0) {
        CU_TRY("matmul (cudaMemsetAsync)", cudaMemsetAsync(rt_data(out), 0, (size_t)(nbatch * m * n) * es, g_cuda.stream));
        return 0;
    }

    // operand layouts, with contiguous temporaries where cuBLAS cannot read the view
    RtTensor ta, tb;
    RtStorage sa, sb;
    void *bufa = nullptr, *bufb = nullptr;
    bool trA, trB;
    int64_t lda, ldb;
    int rc = 0;
    if (!mat_layout(m, k, a->strides[r - 2], a->strides[r - 1], &trA, &lda)) {
        if ((rc = make_contig(a, &ta, &sa, &bufa))) goto done;
        a = &ta;
        mat_layout(m, k, a->strides[r - 2], a->strides[r - 1], &trA, &lda);
    }
    if (!mat_layout(k, n, b->strides[r - 2], b->strides[r - 1], &trB, &ldb)) {
        if ((rc = make_contig(b, &tb, &sb, &bufb))) goto done;
        b = &tb;
        mat_layout(k, n, b->strides[r - 2], b->strides[r - 1], &trB, &ldb);
    }
    {
        // batch axes: drop size 1, merge neighbours that one stride walks for a, b and out
        Layout<3> l = {};
        l.nd = brank;
        int64_t so = m * n;
        for (int d = brank - 1; d >= 0; d--) {
            l.dims[d] = out->shape[d];
            l.st[0][d] = so;
            l.st[1][d] = a->strides[d];
            l.st[2][d] = b->strides[d];
            so *= out->shape[d];
        }
        layout_coalesce(&l);
        int64_t inner = l.nd ? l.dims[l.nd - 1] : 1;
        long long sA = l.nd ? l.st[1][l.nd - 1] : 0, sB = l.nd ? l.st[2][l.nd - 1] : 0;
        long long sC = l.nd ? l.st[0][l.nd - 1] : m * n;
        int64_t outer = nbatch / inner;
        // C^T (n x m) = op(B^T) (n x k) * op(A^T) (k x m): cuBLAS's "A" is our b, "B" our a
        cublasOperation_t opB = trB ? CUBLAS_OP_T : CUBLAS_OP_N, opA = trA ? CUBLAS_OP_T : CUBLAS_OP_N;
        // bfloat16 / float16: 2-byte operands and result, float accumulation (rounded once into C),
        // as the CPU backend's widen-sgemm-round
        cudaDataType_t ct = dt == DT_FLOAT32    ? CUDA_R_32F
                            : dt == DT_FLOAT64  ? CUDA_R_64F
                            : dt == DT_BFLOAT16 ? CUDA_R_16BF
                                                : CUDA_R_16F;
        cublasComputeType_t comp = dt == DT_FLOAT64                  ? CUBLAS_COMPUTE_64F
                                   : dt == DT_FLOAT32 && g_cuda.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                     : CUBLAS_COMPUTE_32F;
        float one_f = 1.0f, zero_f = 0.0f;
        double one_d = 1.0, zero_d = 0.0;
        const void *alpha = dt != DT_FLOAT64 ? (const void *)&one_f : (const void *)&one_d;
        const void *beta = dt != DT_FLOAT64 ? (const void *)&zero_f : (const void *)&zero_d;
        const char *pa0 = (const char *)rt_data(a), *pb0 = (const char *)rt_data(b);
        char *pc0 = (char *)rt_data(out);
        for (int64_t ob = 0; ob < outer && !rc; ob++) {
            // offsets of this outer batch index over the non-innermost merged batch axes
            int64_t rem = ob, oa = 0, obb = 0, oc = 0;
            for (int d = l.nd - 2; d >= 0; d--) {
                int64_t c = rem % l.dims[d];
                rem /= l.dims[d];
                oc += c * l.st[0][d], oa += c * l.st[1][d], obb += c * l.st[2][d];
            }
            for (int64_t done = 0; done < inner && !rc; done += INT_MAX) {
                int cnt = (int)(inner - done < INT_MAX ? inner - done : INT_MAX);
                const void *A_ = pb0 + (obb + done * sB) * (int64_t)es;
                const void *B_ = pa0 + (oa + done * sA) * (int64_t)es;
                void *C_ = pc0 + (oc + done * sC) * (int64_t)es;
                cublasStatus_t s = cublasGemmStridedBatchedEx(
                    g_cuda.blas, opB, opA, (int)n, (int)m, (int)k, alpha, A_, ct, (int)ldb, sB, B_, ct, (int)lda, sA, beta,
                    C_, ct, (int)n, sC, cnt, comp, CUBLAS_GEMM_DEFAULT);
                if (s != CUBLAS_STATUS_SUCCESS) rc = cublas_fail("matmul (cublasGemmStridedBatchedEx)", s);
            }
        }
    }
done:
    if (bufa) cuda_free(bufa);
    if (bufb) cuda_free(bufb);
    return rc;
}
