/* runtime/cpu/cpu_reduce.c: reductions (sum mean max min prod argmax argmin) over any set of
 * axes on the CPU. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../ir/fsum.h"
#include "../../ir/scalar.h"
#include "cpu.h"

/* sum/prod/mean/max/min walk the input once in C order with an accumulator array that has the
 * output's layout and stride 0 on the reduced axes: rows reduce into a register, columns into a
 * vector of accumulators, and every output sees its inputs in index order (first NaN wins).
 * float32 products and the 2-byte floats accumulate in double (rounded once at the end); float32
 * sums and means are fsum_f32's (below); integers accumulate in unsigned types, so overflow
 * wraps. v is the element as arithmetic sees it. */
#define RED_LOOP(fn, AT, IT, STEP)                                                            \
    static void fn(int64_t n, char *const p[], const int64_t s[], int64_t aux) {             \
        (void)aux;                                                                            \
        AT *acc = (AT *)p[0];                                                                 \
        const IT *x = (const IT *)p[1];                                                       \
        if (s[0] == 0) {                                                                      \
            AT t = acc[0];                                                                    \
            if (s[1] == 1)                                                                    \
                for (int64_t i = 0; i < n; i++) {                                             \
                    __typeof__(gtc_val(x[i]) + 0) v = gtc_val(x[i]);                              \
                    STEP(t, v);                                                               \
                }                                                                             \
            else                                                                              \
                for (int64_t i = 0; i < n; i++) {                                             \
                    __typeof__(gtc_val(x[i]) + 0) v = gtc_val(x[i * s[1]]);                       \
                    STEP(t, v);                                                               \
                }                                                                             \
            acc[0] = t;                                                                       \
        } else if (s[0] == 1 && s[1] == 1) {                                                  \
            for (int64_t i = 0; i < n; i++) {                                                 \
                __typeof__(gtc_val(x[i]) + 0) v = gtc_val(x[i]);                                  \
                STEP(acc[i], v);                                                              \
            }                                                                                 \
        } else {                                                                              \
            for (int64_t i = 0; i < n; i++) {                                                 \
                __typeof__(gtc_val(x[i]) + 0) v = gtc_val(x[i * s[1]]);                           \
                STEP(acc[i * s[0]], v);                                                       \
            }                                                                                 \
        }                                                                                     \
    }

#define ST_SUM(A, v) ((A) += (v))
#define ST_PROD(A, v) ((A) *= (v))
/* keeps the first NaN: once A is NaN nothing replaces it */
#define ST_MAX(A, v) ((v) > (A) || ((v) != (v) && (A) == (A)) ? (void)((A) = (v)) : (void)0)
#define ST_MIN(A, v) ((v) < (A) || ((v) != (v) && (A) == (A)) ? (void)((A) = (v)) : (void)0)

RED_LOOP(sum_f64, double, double, ST_SUM)
RED_LOOP(sum_i32, uint32_t, int32_t, ST_SUM)
RED_LOOP(sum_i64, uint64_t, int64_t, ST_SUM)
RED_LOOP(prod_f32, double, float, ST_PROD)
RED_LOOP(prod_f64, double, double, ST_PROD)
RED_LOOP(prod_i32, uint32_t, int32_t, ST_PROD)
RED_LOOP(prod_i64, uint64_t, int64_t, ST_PROD)
RED_LOOP(sum_bf16, double, gtc_bf16, ST_SUM)
RED_LOOP(sum_f16, double, gtc_f16, ST_SUM)
RED_LOOP(prod_bf16, double, gtc_bf16, ST_PROD)
RED_LOOP(prod_f16, double, gtc_f16, ST_PROD)
RED_LOOP(max_bf16, double, gtc_bf16, ST_MAX)
RED_LOOP(min_bf16, double, gtc_bf16, ST_MIN)
RED_LOOP(max_f16, double, gtc_f16, ST_MAX)
RED_LOOP(min_f16, double, gtc_f16, ST_MIN)
/* max/min accumulate in the dtype itself (the 2-byte floats above, in double) */
#define MINMAX(ID, name, sh, sfx, T, WT, size, kind) IR_DT_NUM_##kind(IR_DT_MINMAX_##kind(sfx, T))
#define IR_DT_MINMAX_S(sfx, T) RED_LOOP(max_##sfx, T, T, ST_MAX) RED_LOOP(min_##sfx, T, T, ST_MIN)
#define IR_DT_MINMAX_U(sfx, T) IR_DT_MINMAX_S(sfx, T)
#define IR_DT_MINMAX_F(sfx, T) IR_DT_MINMAX_S(sfx, T)
#define IR_DT_MINMAX_H(sfx, T)
RED_LOOP(max_b8, gtc_bool, gtc_bool, ST_MAX)
RED_LOOP(min_b8, gtc_bool, gtc_bool, ST_MIN)
IR_DTYPES(MINMAX)

/* argmax/argmin: the index of the first best element along one axis; a NaN is the best (NumPy). */
typedef int64_t (*ArgScan)(const char *p, int64_t len, int64_t stride);
#define ARG_SCAN(fn, T, BETTER)                                                               \
    static int64_t fn(const char *p, int64_t len, int64_t st) {                               \
        const T *x = (const T *)p;                                                            \
        __typeof__(gtc_val(x[0]) + 0) best = gtc_val(x[0]);                                       \
        int64_t bi = 0;                                                                       \
        for (int64_t k = 1; k < len && best == best; k++) {                                   \
            __typeof__(gtc_val(x[0]) + 0) v = gtc_val(x[k * st]);                                 \
            if (v BETTER best || v != v) best = v, bi = k;                                    \
        }                                                                                     \
        return bi;                                                                            \
    }
#define ARGS(ID, name, sh, sfx, T, WT, size, kind)                                            \
    ARG_SCAN(argmax_##sfx, T, >) ARG_SCAN(argmin_##sfx, T, <)
IR_DTYPES(ARGS)
#define ARGMAX_ROW(ID, name, sh, sfx, T, WT, size, kind) [DT_##ID] = argmax_##sfx,
#define ARGMIN_ROW(ID, name, sh, sfx, T, WT, size, kind) [DT_##ID] = argmin_##sfx,
static const ArgScan arg_scans[2][DT_COUNT] = {{IR_DTYPES(ARGMAX_ROW)}, {IR_DTYPES(ARGMIN_ROW)}};

static int argreduce(Op op, RtTensor *out, const RtTensor *in, int axis, const int64_t *ost) {
    if (out->dtype != DT_INT64)
        return rt_error(RT_EINVAL, "internal: %s output must be int64", ir_ops[op].name);
    int64_t len = in->shape[axis], shape[IR_MAX_RANK];
    if (len == 0)
        return rt_error(RT_EINVAL, "%s of an empty axis %d has no result", ir_ops[op].name, axis);
    for (int i = 0; i < in->rank; i++) shape[i] = i == axis ? 1 : in->shape[i];
    ArgScan scan = arg_scans[op == OP_ARGMIN][in->dtype];
    size_t ies = ir_dtype_size(in->dtype);
    char *base[2] = {cpu_data(out), cpu_data(in)};
    const int64_t *st[2] = {ost, in->strides};
    size_t es[2] = {sizeof(int64_t), ies};
    CpuIter it;
    if (!cpu_iter_init(&it, in->rank, shape, 2, base, st, es)) return 0;
    do {
        int64_t *o = (int64_t *)it.ptr[0];
        for (int64_t i = 0; i < it.inner; i++)
            o[i * it.istride[0]] =
                scan(it.ptr[1] + i * it.istride[1] * (int64_t)ies, len, in->strides[axis]);
    } while (cpu_iter_next(&it));
    return 0;
}

/* ---- float32 sums and means: ir/fsum.h's blocked order, the generated code's ---------------- */

/* Columns summed together when the input's last axis is kept, at most: rows of a tile are read
 * whole, its lanes (256 KB) stay in L2. Over a [4096, 4096] at 1 thread here (bench/cpu_sum.php,
 * one run each): tiles of 64 columns 9.1 ms, 1024 7.0, 4096 3.5-4.9; the double accumulators'
 * walk in memory order before them 9.8-10.4. Fewer columns when that leaves a thread without a
 * tile (the tile changes no value). */
#define FSUM_TILE 4096

/* One reduction's geometry: the reduced axes (in index order) and the items the outputs are cut
 * into, a mixed radix over the kept axes (with the column path, the last kept axis counted in
 * tiles of FSUM_TILE) with the input's and the output's element step per axis. */
typedef struct {
    const float *in;
    float *out;
    int nr, ni;
    int64_t rshape[IR_MAX_RANK], rstride[IR_MAX_RANK];
    int64_t ishape[IR_MAX_RANK], istep[IR_MAX_RANK], ostep[IR_MAX_RANK];
    int64_t ncols, cstride; /* column path: the last axis' length and input stride; 0: no */
    int64_t tile;           /* column path: columns per item (FSUM_TILE at most) */
    bool mean;
    double count; /* mean: the divisor */
} Fsum;

/* A mean divides in double and rounds once, as the generated code's does. */
static float fsum_final(const Fsum *f, float s) { return f->mean ? (float)((double)s / f->count) : s; }

/* The sum of one output: the reduced axes' runs fed in order (one contiguous block: its sum). */
static void fsum_one(const Fsum *f, const float *x, float *o) {
    char *base[1] = {(char *)x};
    const int64_t *st[1] = {f->rstride};
    size_t es[1] = {sizeof(float)};
    CpuIter it;
    if (!cpu_iter_init(&it, f->nr, f->rshape, 1, base, st, es)) {
        *o = fsum_final(f, 0.0f);
        return;
    }
    if (it.ndim == 0 && it.istride[0] == 1 && it.inner <= GTC_FSUM_BLOCK) {
        *o = fsum_final(f, gtc_fsum_block(x, it.inner));
        return;
    }
    gtc_fsum acc;
    gtc_fsum_init(&acc);
    do gtc_fsum_add(&acc, (const float *)it.ptr[0], it.inner, it.istride[0]);
    while (cpu_iter_next(&it));
    *o = fsum_final(f, gtc_fsum_end(&acc));
}

/* One output over one contiguous run of n elements, on nt threads: the blocks' sums in parallel
 * (a block's sum does not depend on who computes it), then pushed in order, as gtc_fsum_add
 * would. -1: out of memory. */
static int fsum_par_run(const Fsum *f, const float *x, int64_t n, int nt) {
    int64_t nb = (n + GTC_FSUM_BLOCK - 1) / GTC_FSUM_BLOCK;
    float *t = malloc((size_t)nb * sizeof *t), lv[GTC_FSUM_LEVELS];
    if (!t) return -1;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t b = 0; b < nb; b++) {
        int64_t m = n - b * GTC_FSUM_BLOCK < GTC_FSUM_BLOCK ? n - b * GTC_FSUM_BLOCK : GTC_FSUM_BLOCK;
        t[b] = gtc_fsum_block(x + b * GTC_FSUM_BLOCK, m);
    }
    for (int64_t b = 0; b < nb; b++) gtc_fsum_push(lv, 1, (uint64_t)b, &t[b], 1);
    gtc_fsum_result(lv, 1, (uint64_t)nb, f->out, 1);
    *f->out = fsum_final(f, *f->out);
    free(t);
    return 0;
}

/* The sums of w adjacent columns (the input's last axis, kept): each reduced position's row of w
 * values adds into its lane of every column (a loop over the columns, which vectorises). lanes
 * ([LANES][tile], zero) and lv ([levels][tile]) are the caller's; lanes end zero. */
static void fsum_cols(const Fsum *f, const float *x, float *o, int64_t w, float *lanes, float *lv) {
    uint64_t k = 0, nb = 0;
    const int64_t cs = f->cstride;
    char *base[1] = {(char *)x};
    const int64_t *st[1] = {f->rstride};
    size_t es[1] = {sizeof(float)};
    CpuIter it;
    if (cpu_iter_init(&it, f->nr, f->rshape, 1, base, st, es)) do {
            const float *p = (const float *)it.ptr[0];
            for (int64_t i = 0; i < it.inner; i++, p += it.istride[0]) {
                float *l = lanes + k % GTC_FSUM_LANES * f->tile;
                if (cs == 1)
                    for (int64_t c = 0; c < w; c++) l[c] += p[c];
                else
                    for (int64_t c = 0; c < w; c++) l[c] += p[c * cs];
                if (++k % GTC_FSUM_BLOCK == 0) gtc_fsum_cols_block(lanes, lv, f->tile, &nb, w);
            }
        } while (cpu_iter_next(&it));
    if (k % GTC_FSUM_BLOCK) gtc_fsum_cols_block(lanes, lv, f->tile, &nb, w);
    gtc_fsum_result(lv, f->tile, nb, o, w);
    for (int64_t c = 0; c < w; c++) o[c] = fsum_final(f, o[c]);
}

/* Items [lo, hi): the first one's offsets from its digits, then an odometer. -1: out of memory. */
static int fsum_items(const Fsum *f, int64_t lo, int64_t hi) {
    int64_t d[IR_MAX_RANK], io = 0, oo = 0, rest = lo;
    for (int i = f->ni - 1; i >= 0; i--) {
        d[i] = rest % f->ishape[i], rest /= f->ishape[i];
        io += d[i] * f->istep[i], oo += d[i] * f->ostep[i];
    }
    float *lanes = NULL, *lv = NULL;
    if (f->ncols) { /* the column path's lanes and as many levels as its blocks need */
        uint64_t blocks = (uint64_t)(f->count / GTC_FSUM_BLOCK) + 1;
        int levels = 1;
        while (levels < GTC_FSUM_LEVELS && (blocks >> levels)) levels++;
        lanes = calloc((size_t)GTC_FSUM_LANES * (size_t)f->tile, sizeof *lanes);
        lv = malloc((size_t)levels * (size_t)f->tile * sizeof *lv);
        if (!lanes || !lv) return free(lanes), free(lv), -1;
    }
    for (int64_t t = lo; t < hi; t++) {
        if (f->ncols) {
            int64_t c0 = d[f->ni - 1] * f->tile;
            fsum_cols(f, f->in + io, f->out + oo, f->ncols - c0 < f->tile ? f->ncols - c0 : f->tile, lanes, lv);
        } else fsum_one(f, f->in + io, f->out + oo);
        for (int i = f->ni - 1; i >= 0; i--) {
            io += f->istep[i], oo += f->ostep[i];
            if (++d[i] < f->ishape[i]) break;
            io -= d[i] * f->istep[i], oo -= d[i] * f->ostep[i], d[i] = 0;
        }
    }
    free(lanes), free(lv);
    return 0;
}

/* float32 sum (or mean) of in over the axes in mask (count elements each) into the contiguous
 * out; every output is one thread's, in the same order at any thread count. */
static int fsum_f32(RtTensor *out, const RtTensor *in, unsigned mask, bool mean, int64_t count) {
    Fsum f = {.in = (const float *)cpu_data(in), .out = (float *)cpu_data(out), .mean = mean, .count = (double)count};
    int r = in->rank, nt = rt_cpu_threads();
    bool par = nt > 1 && cpu_numel(r, in->shape) >= RT_CPU_PAR_MIN && !omp_in_parallel();
    bool cols = r > 0 && !(mask & (1u << (r - 1))) && mask != 0 && in->shape[r - 1] > 1;
    int64_t ostride = 1, items = 1;
    for (int i = r - 1; i >= 0; i--) {
        if (mask & (1u << i)) {
            f.rshape[f.nr] = in->shape[i], f.rstride[f.nr++] = in->strides[i];
            continue;
        }
        int64_t n = in->shape[i], istep = in->strides[i], ostep = ostride;
        if (cols && i == r - 1) {
            int64_t per = par ? (n + nt - 1) / nt : n; /* a tile for each thread, 16 columns at least */
            f.tile = per < 16 ? 16 : per > FSUM_TILE ? FSUM_TILE : per;
            f.ncols = n, f.cstride = istep;
            n = (n + f.tile - 1) / f.tile, istep *= f.tile, ostep = f.tile;
        }
        f.ishape[f.ni] = n, f.istep[f.ni] = istep, f.ostep[f.ni++] = ostep;
        ostride *= in->shape[i], items *= n;
    }
    /* collected innermost first: reverse into index order */
    for (int a = 0, b = f.nr - 1; a < b; a++, b--) {
        int64_t t = f.rshape[a]; f.rshape[a] = f.rshape[b], f.rshape[b] = t;
        t = f.rstride[a], f.rstride[a] = f.rstride[b], f.rstride[b] = t;
    }
    for (int a = 0, b = f.ni - 1; a < b; a++, b--) {
        int64_t t = f.ishape[a]; f.ishape[a] = f.ishape[b], f.ishape[b] = t;
        t = f.istep[a], f.istep[a] = f.istep[b], f.istep[b] = t;
        t = f.ostep[a], f.ostep[a] = f.ostep[b], f.ostep[b] = t;
    }
    int failed = 0;
    CpuIter it; /* one output over one contiguous run (a full sum): its blocks over the threads */
    char *base[1] = {(char *)f.in};
    const int64_t *st[1] = {f.rstride};
    size_t es[1] = {sizeof(float)};
    if (par && items == 1 && !f.ncols && cpu_iter_init(&it, f.nr, f.rshape, 1, base, st, es) && it.ndim == 0 &&
        it.istride[0] == 1)
        failed = fsum_par_run(&f, f.in, it.inner, nt) != 0;
    else if (par && items > 1) {
        if (nt > items) nt = (int)items;
#pragma omp parallel num_threads(nt) reduction(| : failed)
        {
            int t = omp_get_thread_num(), T = omp_get_num_threads();
            failed |= fsum_items(&f, items * t / T, items * (t + 1) / T) != 0;
        }
    } else failed = fsum_items(&f, 0, items) != 0;
    return failed ? rt_error(RT_EOOM, "%s: out of host memory", mean ? "mean" : "sum") : 0;
}

static void init_acc(void *acc, DType dt, int64_t n, double v) {
    RtTensor t = {.dtype = dt, .rank = 1, .shape = {n}, .strides = {1}};
    RtStorage s = {.data = acc};
    t.storage = &s;
    cpu_fill(&t, v);
}

int cpu_reduce(Op op, RtTensor *out, const RtTensor *in, unsigned mask) {
    if ((unsigned)op >= OP_COUNT || ir_ops[op].kind != K_REDUCE)
        return rt_error(RT_EINVAL, "internal: %s is not a reduction",
                        (unsigned)op < OP_COUNT ? ir_ops[op].name : "?");
    const char *name = ir_ops[op].name;
    int rank = in->rank, nred = 0, axis = -1;
    if (rank < 32 && (mask >> rank) != 0)
        return rt_error(RT_EINVAL, "internal: %s axis mask 0x%x for rank %d", name, mask, rank);
    /* out is contiguous with the kept axes (reduced ones as 1, or dropped); acc strides read
     * it over the input's index space */
    int64_t ast[IR_MAX_RANK], kept = 1, count = 1;
    for (int i = rank - 1; i >= 0; i--) {
        if (mask & (1u << i)) {
            ast[i] = 0;
            count *= in->shape[i];
            nred++;
            axis = i;
        } else {
            ast[i] = kept;
            kept *= in->shape[i];
        }
    }
    bool shape_ok = out->rank == rank || out->rank == rank - nred;
    for (int i = 0, j = 0; shape_ok && i < rank; i++) {
        bool red = mask & (1u << i);
        if (out->rank == rank) shape_ok = out->shape[i] == (red ? 1 : in->shape[i]);
        else if (!red) shape_ok = out->shape[j++] == in->shape[i];
    }
    if (!shape_ok || !cpu_is_contiguous(out))
        return rt_error(RT_EINVAL, "internal: %s output is not a contiguous keepdims shape", name);
    if (kept == 0) return 0;

    DType dt = in->dtype;
    if ((unsigned)dt >= DT_COUNT) return rt_error(RT_EINVAL, "internal: %s: unknown dtype", name);
    if (ir_ops[op].rule == R_ARG) {
        if (nred != 1)
            return rt_error(RT_EINVAL, "internal: %s takes one axis, got %d", name, nred);
        return argreduce(op, out, in, axis, ast);
    }
    if (out->dtype != dt)
        return rt_error(RT_EINVAL, "internal: %s of %s into %s", name, ir_dtype_name(dt),
                        ir_dtype_name(out->dtype));

    if (dt == DT_FLOAT32 && (op == OP_SUM || op == OP_MEAN)) {
        return fsum_f32(out, in, mask, op == OP_MEAN, count);
    }
    CpuLoop loop = NULL;
    double init = 0;
    bool flt = ir_dtype_is_float(dt);
    switch (op) {
    case OP_SUM:
    case OP_MEAN: {
        /* integer sums come here as int64 (rt_apply converts the input to the result dtype) */
        static const CpuLoop sums[DT_COUNT] = {[DT_INT32] = sum_i32, [DT_INT64] = sum_i64,
                                               [DT_FLOAT64] = sum_f64,
                                               [DT_BFLOAT16] = sum_bf16, [DT_FLOAT16] = sum_f16};
        loop = op == OP_MEAN && !flt ? NULL : sums[dt];
        break;
    }
    case OP_PROD: {
        static const CpuLoop prods[DT_COUNT] = {[DT_INT32] = prod_i32, [DT_INT64] = prod_i64,
                                                [DT_FLOAT32] = prod_f32, [DT_FLOAT64] = prod_f64,
                                                [DT_BFLOAT16] = prod_bf16, [DT_FLOAT16] = prod_f16};
        loop = prods[dt];
        init = 1;
        break;
    }
    case OP_MAX:
    case OP_MIN: {
#define MAX_ROW(ID, name, sh, sfx, T, WT, size, kind) [DT_##ID] = max_##sfx,
#define MIN_ROW(ID, name, sh, sfx, T, WT, size, kind) [DT_##ID] = min_##sfx,
        static const CpuLoop maxs[DT_COUNT] = {IR_DTYPES(MAX_ROW)};
        static const CpuLoop mins[DT_COUNT] = {IR_DTYPES(MIN_ROW)};
        if (count == 0)
            return rt_error(RT_EINVAL, "%s of an empty axis has no result", name);
        loop = op == OP_MAX ? maxs[dt] : mins[dt];
        /* -inf/inf convert (saturating) to an integer type's extremes; bool's are 0 and 1 */
        if (dt == DT_BOOL) init = op == OP_MAX ? 0 : 1;
        else init = op == OP_MAX ? -INFINITY : INFINITY;
        break;
    }
    default: break;
    }
    if (!loop)
        return rt_error(RT_EINVAL, "%s is not defined for %s on the cpu backend", name,
                        ir_dtype_name(dt));

    /* float32 products, and every 2-byte float reduction, accumulate in a double array (rounded
     * once into out); the rest in out itself */
    bool wide = (dt == DT_FLOAT32 && op == OP_PROD) || ir_dtype_is_half(dt);
    double *tmp = NULL;
    if (wide && !(tmp = malloc((size_t)kept * sizeof(double))))
        return rt_error(RT_EOOM, "%s: out of host memory", name);
    void *acc = wide ? (void *)tmp : (void *)cpu_data(out);
    init_acc(acc, wide ? DT_FLOAT64 : dt, kept, init);
    char *base[2] = {acc, cpu_data(in)};
    const int64_t *st[2] = {ast, in->strides};
    size_t es[2] = {wide ? sizeof(double) : ir_dtype_size(dt), ir_dtype_size(dt)};
    cpu_run(loop, 0, rank, in->shape, 2, base, st, es);

    if (op == OP_MEAN) {
        double *a = wide ? tmp : (double *)acc;
        for (int64_t i = 0; i < kept; i++) a[i] = count ? a[i] / (double)count : NAN;
    }
    if (wide) {
        RtStorage ts = {.data = tmp};
        RtTensor t = {.dtype = DT_FLOAT64, .rank = 1, .shape = {kept}, .strides = {1}, .storage = &ts};
        RtTensor o = *out;
        o.rank = 1, o.shape[0] = kept, o.strides[0] = 1;
        int rc = cpu_copy(&o, &t);
        free(tmp);
        return rc;
    }
    return 0;
}
