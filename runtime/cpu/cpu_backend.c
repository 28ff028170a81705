/* runtime/cpu/cpu_backend.c: the CPU backend (host memory, plain C loops, OpenBLAS GEMM): the
 * backend struct, memory, fill and copy/convert, and the strided iterator the kernels share. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/scalar.h"
#include "cpu.h"

/* ---- iteration ------------------------------------------------------------------------------ */

bool cpu_is_contiguous(const RtTensor *t) {
    int64_t expect = 1;
    for (int i = t->rank - 1; i >= 0; i--) {
        if (t->shape[i] == 0) return true;
        if (t->shape[i] != 1 && t->strides[i] != expect) return false;
        expect *= t->shape[i];
    }
    return true;
}

int cpu_bcast_strides(const RtTensor *t, int rank, const int64_t *shape, int64_t *strides) {
    if (t->rank > rank) return -1;
    int lead = rank - t->rank;
    for (int i = 0; i < rank; i++) {
        if (i < lead) {
            strides[i] = 0;
            continue;
        }
        int64_t d = t->shape[i - lead];
        if (d == shape[i]) strides[i] = d == 1 ? 0 : t->strides[i - lead];
        else if (d == 1) strides[i] = 0;
        else return -1;
    }
    return 0;
}

bool cpu_iter_init(CpuIter *it, int rank, const int64_t *shape, int nop, char *const base[],
                   const int64_t *const strides[], const size_t esize[]) {
    /* merged axes, innermost first */
    int64_t dims[IR_MAX_RANK], st[CPU_MAX_OPS][IR_MAX_RANK];
    int nd = 0;
    it->nop = nop;
    for (int k = 0; k < nop; k++) it->ptr[k] = base[k];
    for (int i = 0; i < rank; i++)
        if (shape[i] == 0) return false;
    for (int i = rank - 1; i >= 0; i--) {
        if (shape[i] == 1) continue;
        if (nd > 0) {
            bool merge = true;
            for (int k = 0; k < nop && merge; k++)
                merge = strides[k][i] == st[k][nd - 1] * dims[nd - 1];
            if (merge) {
                dims[nd - 1] *= shape[i];
                continue;
            }
        }
        dims[nd] = shape[i];
        for (int k = 0; k < nop; k++) st[k][nd] = strides[k][i];
        nd++;
    }
    if (nd == 0) {
        it->ndim = 0;
        it->inner = 1;
        for (int k = 0; k < nop; k++) it->istride[k] = 0;
        return true;
    }
    it->inner = dims[0];
    for (int k = 0; k < nop; k++) it->istride[k] = st[k][0];
    it->ndim = nd - 1;
    for (int j = 0; j < it->ndim; j++) {
        it->shape[j] = dims[nd - 1 - j];
        it->idx[j] = 0;
        for (int k = 0; k < nop; k++) it->bstride[k][j] = st[k][nd - 1 - j] * (int64_t)esize[k];
    }
    return true;
}

bool cpu_iter_next(CpuIter *it) {
    for (int d = it->ndim - 1; d >= 0; d--) {
        if (++it->idx[d] < it->shape[d]) {
            for (int k = 0; k < it->nop; k++) it->ptr[k] += it->bstride[k][d];
            return true;
        }
        it->idx[d] = 0;
        for (int k = 0; k < it->nop; k++) it->ptr[k] -= it->bstride[k][d] * (it->shape[d] - 1);
    }
    return false;
}

static void run_serial(CpuLoop loop, int64_t aux, int rank, const int64_t *shape, int nop,
                       char *const base[], const int64_t *const strides[], const size_t esize[]) {
    CpuIter it;
    if (!cpu_iter_init(&it, rank, shape, nop, base, strides, esize)) return;
    do loop(it.inner, it.ptr, it.istride, aux);
    while (cpu_iter_next(&it));
}

/* Above RT_CPU_PAR_MIN elements, the index space is cut into one slab per thread along the first
 * axis that has at least as many indices as threads and that operand 0 (the output, or a
 * reduction's accumulator) does not broadcast over: every output element is then written by one
 * thread, in the same order as on one, so results do not depend on the thread count. */
void cpu_run(CpuLoop loop, int64_t aux, int rank, const int64_t *shape, int nop,
             char *const base[], const int64_t *const strides[], const size_t esize[]) {
    int nt = rt_cpu_threads(), ax = -1;
    if (nt > 1 && cpu_numel(rank, shape) >= RT_CPU_PAR_MIN && !omp_in_parallel())
        for (int i = 0; i < rank && ax < 0; i++)
            if (shape[i] >= nt && strides[0][i] != 0) ax = i;
    if (ax < 0) return run_serial(loop, aux, rank, shape, nop, base, strides, esize);
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), T = omp_get_num_threads();
        int64_t lo = shape[ax] * t / T, hi = shape[ax] * (t + 1) / T;
        int64_t sub[IR_MAX_RANK];
        char *b[CPU_MAX_OPS];
        memcpy(sub, shape, (size_t)rank * sizeof *sub);
        sub[ax] = hi - lo;
        for (int k = 0; k < nop; k++) b[k] = base[k] + lo * strides[k][ax] * (int64_t)esize[k];
        if (hi > lo) run_serial(loop, aux, rank, sub, nop, b, strides, esize);
    }
}

/* ---- memory ----------------------------------------------------------------------------------- */

static void *cpu_alloc(size_t bytes) {
    if (bytes > SIZE_MAX - 64) return NULL;
    size_t n = (bytes + 63) & ~(size_t)63;
    return aligned_alloc(64, n ? n : 64);
}

static void cpu_free(void *p) { free(p); }

static int cpu_memcpy(void *dst, const void *src, size_t bytes) {
    if (bytes) memcpy(dst, src, bytes);
    return 0;
}

static void cpu_synchronize(void) {}

/* ---- fill: the value converted once, then its bytes repeated ---------------------------------- */

#define FILL_LOOP(T)                                                                          \
    static void fill_##T(int64_t n, char *const p[], const int64_t s[], int64_t aux) {      \
        T v, *o = (T *)p[0];                                                                  \
        memcpy(&v, &aux, sizeof v);                                                           \
        if (s[0] == 1)                                                                        \
            for (int64_t i = 0; i < n; i++) o[i] = v;                                         \
        else                                                                                  \
            for (int64_t i = 0; i < n; i++) o[i * s[0]] = v;                                  \
    }
FILL_LOOP(uint8_t)
FILL_LOOP(uint16_t)
FILL_LOOP(uint32_t)
FILL_LOOP(uint64_t)

int cpu_fill(RtTensor *out, double value) {
    int64_t bits = 0;
    CpuLoop loop;
    switch (out->dtype) {
#define FILL_CASE(ID, name, sh, sfx, CT, WT, size, kind)                                      \
    case DT_##ID: {                                                                           \
        CT v = gtc_to_##sfx(value);                                                           \
        memcpy(&bits, &v, sizeof v);                                                          \
        loop = size == 1 ? fill_uint8_t : size == 2 ? fill_uint16_t : size == 4 ? fill_uint32_t \
                                                                                : fill_uint64_t; \
        break;                                                                                \
    }
        IR_DTYPES(FILL_CASE)
#undef FILL_CASE
    default: return rt_error(RT_EINVAL, "fill: unknown dtype %d", (int)out->dtype);
    }
    char *base[1] = {cpu_data(out)};
    const int64_t *st[1] = {out->strides};
    size_t es[1] = {ir_dtype_size(out->dtype)};
    cpu_run(loop, bits, out->rank, out->shape, 1, base, st, es);
    return 0;
}

/* ---- copy and conversion: one loop per (out, in) dtype pair, conversions from scalar.h ------- */

#define COPY_LOOP(OT, OS, CONV, IT, IS)                                                       \
    static void copy_##OS##_##IS(int64_t n, char *const p[], const int64_t s[], int64_t aux) { \
        (void)aux;                                                                            \
        OT *o = (OT *)p[0];                                                                   \
        const IT *x = (const IT *)p[1];                                                       \
        if (s[0] == 1 && s[1] == 1)                                                           \
            for (int64_t i = 0; i < n; i++) o[i] = CONV(x[i]);                                \
        else                                                                                  \
            for (int64_t i = 0; i < n; i++) o[i * s[0]] = CONV(x[i * s[1]]);                  \
    }
/* The (out, in) product: IR_DTYPES walks the outputs; a macro cannot expand itself, so the inputs
 * are listed once more here (the assertion catches a dtype added to ir.h and not here). */
_Static_assert(DT_COUNT == 13, "a new dtype: add it to COPY_INPUTS and COPY_TAB");
#define COPY_INPUTS(OT, OS, CONV)                                                             \
    COPY_LOOP(OT, OS, CONV, uint8_t, b8) COPY_LOOP(OT, OS, CONV, int32_t, i32)                \
    COPY_LOOP(OT, OS, CONV, int64_t, i64) COPY_LOOP(OT, OS, CONV, float, f32)                 \
    COPY_LOOP(OT, OS, CONV, double, f64) COPY_LOOP(OT, OS, CONV, int8_t, i8)                  \
    COPY_LOOP(OT, OS, CONV, uint8_t, u8) COPY_LOOP(OT, OS, CONV, int16_t, i16)                \
    COPY_LOOP(OT, OS, CONV, uint16_t, u16) COPY_LOOP(OT, OS, CONV, uint32_t, u32)             \
    COPY_LOOP(OT, OS, CONV, uint64_t, u64) COPY_LOOP(OT, OS, CONV, gtc_bf16, bf16)            \
    COPY_LOOP(OT, OS, CONV, gtc_f16, f16)
#define COPY_ROW(ID, name, sh, sfx, CT, WT, size, kind) COPY_INPUTS(CT, sfx, gtc_to_##sfx)
IR_DTYPES(COPY_ROW)

#define COPY_TAB(OS)                                                                          \
    {copy_##OS##_b8, copy_##OS##_i32, copy_##OS##_i64, copy_##OS##_f32, copy_##OS##_f64,      \
     copy_##OS##_i8, copy_##OS##_u8, copy_##OS##_i16, copy_##OS##_u16, copy_##OS##_u32,       \
     copy_##OS##_u64, copy_##OS##_bf16, copy_##OS##_f16}
static const CpuLoop copy_loops[DT_COUNT][DT_COUNT] = {
#define COPY_TAB_ROW(ID, name, sh, sfx, CT, WT, size, kind) [DT_##ID] = COPY_TAB(sfx),
    IR_DTYPES(COPY_TAB_ROW)
#undef COPY_TAB_ROW
};

/* out = convert(in); in may be any view that broadcasts to out's shape, out any view. */
int cpu_copy(RtTensor *out, const RtTensor *in) {
    if ((unsigned)out->dtype >= DT_COUNT || (unsigned)in->dtype >= DT_COUNT)
        return rt_error(RT_EINVAL, "copy: unknown dtype");
    int64_t sin[IR_MAX_RANK];
    if (cpu_bcast_strides(in, out->rank, out->shape, sin))
        return rt_error(RT_EINVAL, "copy: shapes do not match (rank %d into rank %d)", in->rank,
                        out->rank);
    int64_t n = cpu_numel(out->rank, out->shape);
    if (n == 0) return 0;
    if (out->dtype == in->dtype && cpu_numel(in->rank, in->shape) == n && cpu_is_contiguous(in) &&
        cpu_is_contiguous(out)) {
        memmove(cpu_data(out), cpu_data(in), (size_t)n * ir_dtype_size(out->dtype));
        return 0;
    }
    char *base[2] = {cpu_data(out), cpu_data(in)};
    const int64_t *st[2] = {out->strides, sin};
    size_t es[2] = {ir_dtype_size(out->dtype), ir_dtype_size(in->dtype)};
    cpu_run(copy_loops[out->dtype][in->dtype], 0, out->rank, out->shape, 2, base, st, es);
    return 0;
}

const RtBackend rt_cpu_backend = {
    .name = "cpu",
    .gemm = "openblas", /* cpu_matmul.c: cblas_sgemm / cblas_dgemm */
    .alloc = cpu_alloc,
    .free = cpu_free,
    .upload = cpu_memcpy,
    .download = cpu_memcpy,
    .copy = cpu_copy,
    .fill = cpu_fill,
    .elementwise = cpu_elementwise,
    .reduce = cpu_reduce,
    .matmul = cpu_matmul,
    .synchronize = cpu_synchronize,
    .plan = &rt_cpu_plan_ops,
    .gather = cpu_gather,
    .dropout = cpu_dropout,
    .scatter_add = cpu_scatter_add,
    .copy_rows = cpu_copy_rows,
};
