/* runtime/cpu/cpu_reduce.c: reductions (sum mean max min prod argmax argmin) over any set of
 * axes on the CPU. */
#include <math.h>
#include <stdlib.h>

#include "../../ir/scalar.h"
#include "cpu.h"

/* sum/prod/mean/max/min walk the input once in C order with an accumulator array that has the
 * output's layout and stride 0 on the reduced axes: rows reduce into a register, columns into a
 * vector of accumulators, and every output sees its inputs in index order (first NaN wins).
 * float32 and the 2-byte floats accumulate in double (rounded once at the end); integers
 * accumulate in unsigned types, so overflow wraps. v is the element as arithmetic sees it. */
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

RED_LOOP(sum_f32, double, float, ST_SUM)
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

    CpuLoop loop = NULL;
    double init = 0;
    bool flt = ir_dtype_is_float(dt);
    switch (op) {
    case OP_SUM:
    case OP_MEAN: {
        /* integer sums come here as int64 (rt_apply converts the input to the result dtype) */
        static const CpuLoop sums[DT_COUNT] = {[DT_INT32] = sum_i32, [DT_INT64] = sum_i64,
                                               [DT_FLOAT32] = sum_f32, [DT_FLOAT64] = sum_f64,
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

    /* float32 sums and products, and every 2-byte float reduction, accumulate in a double array
     * (rounded once into out); the rest in out itself */
    bool wide = (dt == DT_FLOAT32 && op != OP_MAX && op != OP_MIN) || ir_dtype_is_half(dt);
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
