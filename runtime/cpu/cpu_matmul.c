/* runtime/cpu/cpu_matmul.c: (batched) matrix products on the CPU through the GEMM call that
 * generated code makes too (templates/kernels_cpu_gemm.h: gtc's own float32 kernel for small
 * products, OpenBLAS's cblas for the others; bfloat16 and float16 through float32's). */
#include <cblas.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "../../templates/kernels_cpu_gemm.h"

/* How a [rows, cols] matrix with element strides (sr, sc) can be passed to a row-major GEMM:
 * as is (ld = sr) when its rows are contiguous, as CblasTrans (ld = sc) when its columns are (a
 * transposed view). False otherwise (broadcast, negative or scattered strides): the caller packs
 * a contiguous copy. The stride of a size-1 axis does not matter. A transposed view reaches only
 * gtc's own kernel so (cpu_matmul undoes it for OpenBLAS, no_trans): OpenBLAS's transposed
 * kernels round differently, so a product would depend on its operands' layout
 * (x->transpose() against x->transpose()->contiguous(), found by tests/fuzz/fuzz_runtime.c). */
static bool blas_layout(int64_t rows, int64_t cols, int64_t sr, int64_t sc,
                        enum CBLAS_TRANSPOSE *tr, int64_t *ld) {
    int64_t c1 = cols > 1 ? cols : 1, r1 = rows > 1 ? rows : 1;
    int64_t l = rows <= 1 ? c1 : sr, lt = cols <= 1 ? r1 : sc;
    if ((cols <= 1 || sc == 1) && l >= c1 && l <= INT_MAX) {
        *tr = CblasNoTrans;
        *ld = l;
        return true;
    }
    if ((rows <= 1 || sr == 1) && lt >= r1 && lt <= INT_MAX) {
        *tr = CblasTrans;
        *ld = lt;
        return true;
    }
    return false;
}

/* dst[rows, cols] (contiguous) = src viewed with element strides (sr, sc). */
static void pack(DType dt, void *dst, const char *src, int64_t rows, int64_t cols, int64_t sr,
                 int64_t sc) {
    if (dt == DT_FLOAT32) {
        float *d = dst;
        const float *s = (const float *)src;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = 0; c < cols; c++) d[r * cols + c] = s[r * sr + c * sc];
    } else {
        double *d = dst;
        const double *s = (const double *)src;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = 0; c < cols; c++) d[r * cols + c] = s[r * sr + c * sc];
    }
}

/* One product through the call generated code makes too (templates/kernels_cpu_gemm.h: a
 * small one on the calling thread). */
static void gemm(DType dt, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int64_t m,
                 int64_t n, int64_t k, const void *a, int64_t lda, const void *b, int64_t ldb,
                 void *c) {
    int t1 = ta == CblasTrans, t2 = tb == CblasTrans;
    if (dt == DT_FLOAT32)
        gtc_cpu_sgemm(t1, t2, (int)m, (int)n, (int)k, a, (int)lda, b, (int)ldb, c, (int)n);
    else
        gtc_cpu_dgemm(t1, t2, (int)m, (int)n, (int)k, a, (int)lda, b, (int)ldb, c, (int)n);
}

/* One operand's matrix axes and its batch strides against out's batch shape. */
typedef struct {
    int64_t rows, cols, sr, sc;
    int64_t bst[IR_MAX_RANK];
    enum CBLAS_TRANSPOSE tr;
    int64_t ld;
    bool direct;
} MatArg;

static int mat_arg(const RtTensor *t, bool is_b, int nb, const int64_t *bshape, MatArg *m) {
    int r = t->rank;
    if (r < 1) return -1;
    if (r == 1) { /* a vector: a as [1, k], b as [k, 1] */
        m->rows = is_b ? t->shape[0] : 1;
        m->cols = is_b ? 1 : t->shape[0];
        m->sr = is_b ? t->strides[0] : 0;
        m->sc = is_b ? 0 : t->strides[0];
    } else {
        m->rows = t->shape[r - 2], m->cols = t->shape[r - 1];
        m->sr = t->strides[r - 2], m->sc = t->strides[r - 1];
    }
    int tb = r > 2 ? r - 2 : 0;
    if (tb > nb) return -1;
    for (int i = 0; i < nb; i++) {
        int j = i - (nb - tb);
        if (j < 0) m->bst[i] = 0;
        else if (t->shape[j] == bshape[i]) m->bst[i] = bshape[i] == 1 ? 0 : t->strides[j];
        else if (t->shape[j] == 1) m->bst[i] = 0;
        else return -1;
    }
    m->direct = blas_layout(m->rows, m->cols, m->sr, m->sc, &m->tr, &m->ld);
    if (!m->direct) m->tr = CblasNoTrans, m->ld = m->cols > 1 ? m->cols : 1;
    return 0;
}

/* A transposed operand made a contiguous copy instead (for OpenBLAS: blas_layout). */
static void no_trans(MatArg *m) {
    if (m->tr == CblasTrans) m->direct = false, m->tr = CblasNoTrans, m->ld = m->cols > 1 ? m->cols : 1;
}

/* A contiguous float32 tensor of t's shape in malloc'd st->data (the caller frees it), holding t
 * converted (exactly, from a 2-byte float) when conv. NULL: out of memory. */
static RtTensor *as_f32(const RtTensor *t, RtTensor *tmp, RtStorage *st, bool conv) {
    *tmp = *t;
    tmp->dtype = DT_FLOAT32;
    tmp->offset = 0;
    rt_contiguous_strides(t->rank, t->shape, tmp->strides);
    int64_t n = cpu_numel(t->rank, t->shape);
    memset(st, 0, sizeof *st);
    if (!(st->data = malloc((size_t)(n ? n : 1) * sizeof(float)))) return NULL;
    tmp->storage = st;
    if (conv && cpu_copy(tmp, t)) return NULL;
    return tmp;
}

/* bfloat16 and float16 products: the operands widened to float32 (exact), one sgemm with float
 * accumulation, and each result rounded once to out's dtype (cuBLAS's fp32-compute GemmEx). */
static int matmul_half(RtTensor *out, const RtTensor *a, const RtTensor *b) {
    RtTensor ta, tb, to;
    RtStorage sa, sb, so;
    memset(&sa, 0, sizeof sa), memset(&sb, 0, sizeof sb), memset(&so, 0, sizeof so);
    int rc = rt_error(RT_EOOM, "matmul: out of host memory");
    if (as_f32(a, &ta, &sa, true) && as_f32(b, &tb, &sb, true) && as_f32(out, &to, &so, false)) {
        rt_clear_error();
        rc = cpu_matmul(&to, &ta, &tb);
        if (!rc) rc = cpu_copy(out, &to);
    }
    free(sa.data), free(sb.data), free(so.data);
    return rc;
}

int cpu_matmul(RtTensor *out, const RtTensor *a, const RtTensor *b) {
    DType dt = out->dtype;
    if (ir_dtype_is_half(dt) && a->dtype == dt && b->dtype == dt) return matmul_half(out, a, b);
    if ((dt != DT_FLOAT32 && dt != DT_FLOAT64) || a->dtype != dt || b->dtype != dt)
        return rt_error(RT_EINVAL, "matmul needs float operands of one dtype, got %s "
                        "and %s into %s on the cpu backend", ir_dtype_name(a->dtype),
                        ir_dtype_name(b->dtype), ir_dtype_name(dt));
    if (a->rank < 1 || b->rank < 1)
        return rt_error(RT_EINVAL, "internal: matmul operands must have rank >= 1");
    int nb = out->rank - (a->rank >= 2) - (b->rank >= 2);
    if (nb < 0 || !cpu_is_contiguous(out))
        return rt_error(RT_EINVAL, "internal: matmul output is not a contiguous [..., m, n]");
    MatArg A, B;
    if (mat_arg(a, false, nb, out->shape, &A) || mat_arg(b, true, nb, out->shape, &B) ||
        A.cols != B.rows || (a->rank >= 2 && out->shape[nb] != A.rows) ||
        (b->rank >= 2 && out->shape[out->rank - 1] != B.cols))
        return rt_error(RT_EINVAL, "internal: matmul operand shapes do not match the output");
    int64_t m = A.rows, k = A.cols, n = B.cols;
    int64_t batch = cpu_numel(nb, out->shape);
    size_t es = ir_dtype_size(dt);
    if (m == 0 || n == 0 || batch == 0) return 0;
    if (k == 0) {
        memset(cpu_data(out), 0, (size_t)(batch * m * n) * es);
        return 0;
    }

    bool shared_b = batch > 1 && batch * m <= INT_MAX;
    for (int i = 0; i < nb; i++) shared_b = shared_b && B.bst[i] == 0;
    if (dt != DT_FLOAT32 || !gtc_cpu_sgemm_own((double)(shared_b ? batch * m : m) * n * k))
        no_trans(&A), no_trans(&B); /* OpenBLAS's product: copies of transposed views */

    void *pa = NULL, *pb = NULL;
    if ((!A.direct && !(pa = malloc((size_t)(m * k) * es))) ||
        (!B.direct && !(pb = malloc((size_t)(k * n) * es)))) {
        free(pa);
        return rt_error(RT_EOOM, "matmul: out of host memory");
    }
    int64_t ost[IR_MAX_RANK];
    for (int64_t i = nb - 1, s = m * n; i >= 0; i--) ost[i] = s, s *= out->shape[i];
    char *base[3] = {cpu_data(out), cpu_data(a), cpu_data(b)};
    const int64_t *st[3] = {ost, A.bst, B.bst};
    size_t esz[3] = {es, es, es};
    CpuIter it;
    cpu_iter_init(&it, nb, out->shape, 3, base, st, esz);
    /* A batch of a's against one shared b is one GEMM with batch*m rows: in place when the a's
     * are stacked rows, else from a stacked copy. Always one GEMM, so the bits do not depend on
     * a's layout: OpenBLAS's Haswell kernels round a row differently in a taller product (a batch
     * of every other matrix against its contiguous copy, tests/php/matmul_layout_bitwise.phpt). */
    char *stack = NULL;
    if (shared_b && !(it.ndim == 0 && A.direct && A.tr == CblasNoTrans && (m == 1 || it.istride[1] == m * A.sr) &&
                      it.istride[1] >= k)) {
        if (!(stack = malloc((size_t)(batch * m * k) * es))) {
            free(pa), free(pb);
            return rt_error(RT_EOOM, "matmul: out of host memory");
        }
        int64_t j = 0;
        do {
            for (int64_t i = 0; i < it.inner; i++, j++)
                pack(dt, stack + j * m * k * (int64_t)es, it.ptr[1] + i * it.istride[1] * (int64_t)es, m, k, A.sr, A.sc);
        } while (cpu_iter_next(&it));
    }
    if (shared_b) {
        const bool stacked = stack != NULL;
        int64_t lda = stacked ? k : m == 1 ? it.istride[1] : A.ld;
        gemm(dt, CblasNoTrans, B.tr, batch * m, n, k, stacked ? stack : it.ptr[1], lda,
             B.direct ? base[2] : (pack(dt, pb, base[2], k, n, B.sr, B.sc), pb), B.ld, base[0]);
        free(stack);
    } else {
        do {
            for (int64_t i = 0; i < it.inner; i++) {
                char *c = it.ptr[0] + i * it.istride[0] * (int64_t)es;
                char *x = it.ptr[1] + i * it.istride[1] * (int64_t)es;
                char *y = it.ptr[2] + i * it.istride[2] * (int64_t)es;
                if (!A.direct) pack(dt, pa, x, m, k, A.sr, A.sc), x = pa;
                if (!B.direct) pack(dt, pb, y, k, n, B.sr, B.sc), y = pb;
                gemm(dt, A.tr, B.tr, m, n, k, x, A.ld, y, B.ld, c);
            }
        } while (cpu_iter_next(&it));
    }
    free(pa);
    free(pb);
    return 0;
}
