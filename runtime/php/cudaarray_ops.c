/* runtime/php/cudaarray_ops.c: Cuda\CudaArray's op methods. Every method only converts its PHP
 * arguments into RtOperands and Attrs and calls php_gtc_apply (rt_apply, or a traced node
 * while Cuda\Fusion traces: fusion_trace.c); the shape, dtype and broadcasting
 * rules (and their error messages) are the runtime's. */
#include "php_gtc.h"

#include <errno.h>

/* A CudaArray or a number (a weak scalar) as argument arg_num. */
static bool method_operand(zval *z, uint32_t arg_num, RtOperand *o) {
    *o = (RtOperand){0};
    if (Z_TYPE_P(z) == IS_OBJECT && Z_OBJCE_P(z) == php_gtc_ce_CudaArray) {
        o->t = php_gtc_tensor(Z_OBJ_P(z));
        return o->t != NULL;
    }
    zval *num;
    if (Z_TYPE_P(z) == IS_OBJECT || Z_TYPE_P(z) == IS_NULL ||
        !zend_parse_arg_number(z, &num, false, arg_num)) {
        if (!EG(exception))
            zend_argument_type_error(arg_num, "must be of type Cuda\\CudaArray|int|float, %s given",
                                     zend_zval_type_name(z));
        return false;
    }
    o->value = Z_TYPE_P(num) == IS_LONG ? (double)Z_LVAL_P(num) : Z_DVAL_P(num);
    o->is_float = Z_TYPE_P(num) == IS_DOUBLE;
    return true;
}

static void apply(INTERNAL_FUNCTION_PARAMETERS, Op op, const RtOperand *in, int nin,
                  const Attrs *a) {
    RETURN_TENSOR(php_gtc_apply(op, in, nin, a));
}

/* An axis from PHP as an int; anything outside int's range is out of range for any rank. */
static bool axis_to_int(int64_t v, int rank, const char *what, int *out) {
    if (v < -(int64_t)IR_MAX_RANK - 1 || v > IR_MAX_RANK) {
        php_gtc_throw(RT_EINVAL, "%s: axis %lld is out of range for rank %d", what, (long long)v,
                      rank);
        return false;
    }
    *out = (int)v;
    return true;
}

/* ---- elementwise ---------------------------------------------------------------------------- */

static void binary(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    zval *other;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(other)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[2] = {{.t = t}};
    if (!method_operand(other, 1, &in[1])) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, in, 2, NULL);
}

#define BINARY(name, op) \
    ZEND_METHOD(Cuda_CudaArray, name) { binary(INTERNAL_FUNCTION_PARAM_PASSTHRU, op); }
BINARY(add, OP_ADD)
BINARY(subtract, OP_SUB)
BINARY(multiply, OP_MUL)
BINARY(divide, OP_DIV)
BINARY(power, OP_POW)
BINARY(maximum, OP_MAXIMUM)
BINARY(minimum, OP_MINIMUM)
BINARY(eq, OP_EQ)
BINARY(ne, OP_NE)
BINARY(lt, OP_LT)
BINARY(le, OP_LE)
BINARY(gt, OP_GT)
BINARY(ge, OP_GE)

static void unary(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, &in, 1, NULL);
}

#define UNARY(name, op) \
    ZEND_METHOD(Cuda_CudaArray, name) { unary(INTERNAL_FUNCTION_PARAM_PASSTHRU, op); }
UNARY(neg, OP_NEG)
UNARY(abs, OP_ABS)
UNARY(exp, OP_EXP)
UNARY(log, OP_LOG)
UNARY(sqrt, OP_SQRT)
UNARY(rsqrt, OP_RSQRT)
UNARY(sin, OP_SIN)
UNARY(cos, OP_COS)
UNARY(tan, OP_TAN)
UNARY(tanh, OP_TANH)
UNARY(sigmoid, OP_SIGMOID)
UNARY(relu, OP_RELU)
UNARY(floor, OP_FLOOR)
UNARY(ceil, OP_CEIL)
UNARY(round, OP_ROUND)
UNARY(sign, OP_SIGN)

ZEND_METHOD(Cuda_CudaArray, clamp) {
    zval *lo, *hi;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_ZVAL(lo)
        Z_PARAM_ZVAL(hi)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[3] = {{.t = t}};
    if (!method_operand(lo, 1, &in[1]) || !method_operand(hi, 2, &in[2])) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_CLAMP, in, 3, NULL);
}

ZEND_METHOD(Cuda_CudaArray, where) {
    zend_object *cond;
    zval *x, *y;
    ZEND_PARSE_PARAMETERS_START(3, 3)
        Z_PARAM_OBJ_OF_CLASS(cond, php_gtc_ce_CudaArray)
        Z_PARAM_ZVAL(x)
        Z_PARAM_ZVAL(y)
    ZEND_PARSE_PARAMETERS_END();
    RtOperand in[3] = {{.t = php_gtc_tensor(cond)}};
    if (!in[0].t || !method_operand(x, 2, &in[1]) || !method_operand(y, 3, &in[2]))
        RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_WHERE, in, 3, NULL);
}

ZEND_METHOD(Cuda_CudaArray, astype) {
    zend_string *name;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(name)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {.has_dtype = true};
    if (!php_gtc_parse_dtype(name, 1, &a.dtype)) RETURN_THROWS();
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_CAST, &in, 1, &a);
}

/* ---- reductions and matmul -------------------------------------------------------------------- */

/* The (axis: int, list of ints or null for all; keepdims) arguments of every reduction method:
 * declares axes_ht, axis, axis_null and keepdims. */
#define REDUCE_ARGS()                                                  \
    HashTable *axes_ht = NULL;                                         \
    zend_long axis = 0;                                                \
    bool axis_null = true, keepdims = false;                           \
    ZEND_PARSE_PARAMETERS_START(0, 2)                                  \
        Z_PARAM_OPTIONAL                                               \
        Z_PARAM_ARRAY_HT_OR_LONG_OR_NULL(axes_ht, axis, axis_null)     \
        Z_PARAM_BOOL(keepdims)                                         \
    ZEND_PARSE_PARAMETERS_END()

/* A reduction's attributes from (axis: int, list of ints or null for all, keepdims); false
 * after throwing. */
static bool reduce_attrs(const RtTensor *t, HashTable *axes_ht, zend_long axis, bool axis_null, bool keepdims,
                         const char *name, Attrs *a) {
    memset(a, 0, sizeof *a);
    a->keepdims = keepdims;
    int64_t axes[IR_MAX_RANK];
    int n = 0;
    if (axes_ht) {
        n = php_gtc_parse_int_list(axes_ht, 1, axes);
        if (n < 0) return false;
    } else if (!axis_null) {
        axes[n++] = axis;
    }
    a->has_axes = axes_ht || !axis_null;
    a->naxes = n;
    for (int i = 0; i < n; i++)
        if (!axis_to_int(axes[i], t->rank, name, &a->axes[i])) return false;
    return true;
}

/* reduce_attrs, and every axis within the rank (for composites, whose first op is not the
 * reduction a message should name); false after throwing. */
static bool reduce_attrs_checked(const RtTensor *t, HashTable *axes_ht, zend_long axis, bool axis_null, bool keepdims,
                                 const char *name, Attrs *a) {
    if (!reduce_attrs(t, axes_ht, axis, axis_null, keepdims, name, a)) return false;
    for (int i = 0; i < a->naxes; i++)
        if (a->axes[i] < -t->rank || a->axes[i] >= t->rank) {
            php_gtc_throw(RT_EINVAL, "%s: axis %d is out of range for rank %d", name, a->axes[i], t->rank);
            return false;
        }
    return true;
}

static void reduce(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    REDUCE_ARGS();
    GTC_THIS_TENSOR(t);
    Attrs a;
    if (!reduce_attrs(t, axes_ht, axis, axis_null, keepdims, ir_ops[op].name, &a)) RETURN_THROWS();
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, &in, 1, &a);
}

/* One op from C on tensors and numbers (NULL t: the number), consuming nothing. */
static RtTensor *op2(Op op, RtTensor *x, RtTensor *y, double yv, const Attrs *a) {
    RtOperand in[2] = {{.t = x}, {.t = y, .value = yv}}; /* an integral weak number */
    return php_gtc_apply(op, in, ir_ops[op].arity, a);
}

/* all()/any(): whether every / some element along the axes is nonzero (NaN counts as nonzero),
 * as bool: the count of zeros (all) or nonzeros (any) along the axes, == 0 / != 0; an empty axis
 * gives true / false, as NumPy's. Composed of graph ops, so traced too. */
static void logical_reduce(INTERNAL_FUNCTION_PARAMETERS, bool all) {
    REDUCE_ARGS();
    GTC_THIS_TENSOR(t);
    Attrs a, cast = {.has_dtype = true, .dtype = DT_INT32};
    if (!reduce_attrs_checked(t, axes_ht, axis, axis_null, keepdims, all ? "all" : "any", &a)) RETURN_THROWS();
    RtTensor *hit = op2(all ? OP_EQ : OP_NE, t, NULL, 0, NULL), *i = hit ? op2(OP_CAST, hit, NULL, 0, &cast) : NULL;
    RtTensor *r = i ? op2(OP_SUM, i, NULL, 0, &a) : NULL, *out = r ? op2(all ? OP_EQ : OP_NE, r, NULL, 0, NULL) : NULL;
    rt_release(hit), rt_release(i), rt_release(r);
    RETURN_TENSOR(out);
}

ZEND_METHOD(Cuda_CudaArray, all) { logical_reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, true); }
ZEND_METHOD(Cuda_CudaArray, any) { logical_reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, false); }

/* var()/std(): sum((x - mean)^2) / (n - correction) over the axes (correction 0: the population
 * variance, php-gpu-tensors' default; 1: the sample variance), std its square root. Composed of
 * graph ops, so traced (and differentiated) too. */
static void variance(INTERNAL_FUNCTION_PARAMETERS, bool sd) {
    HashTable *axes_ht = NULL;
    zend_long axis = 0, correction = 0;
    bool axis_null = true, keepdims = false;
    ZEND_PARSE_PARAMETERS_START(0, 3)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT_OR_LONG_OR_NULL(axes_ht, axis, axis_null)
        Z_PARAM_LONG(correction)
        Z_PARAM_BOOL(keepdims)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    const char *name = sd ? "std" : "var";
    Attrs a, mk;
    if (!reduce_attrs_checked(t, axes_ht, axis, axis_null, keepdims, name, &a)) RETURN_THROWS();
    mk = a;
    mk.keepdims = true;
    int64_t n = 1;
    for (int d = 0; d < t->rank; d++) {
        bool reduced = !a.has_axes;
        for (int k = 0; k < a.naxes; k++) reduced |= a.axes[k] == d || a.axes[k] + t->rank == d;
        if (reduced) n *= t->shape[d];
    }
    if (correction < 0 || correction >= n) {
        php_gtc_throw(RT_EINVAL, "%s: correction " ZEND_LONG_FMT " leaves no degrees of freedom for %lld element%s",
                      name, correction, (long long)n, n == 1 ? "" : "s");
        RETURN_THROWS();
    }
    RtTensor *m = op2(OP_MEAN, t, NULL, 0, &mk), *d = m ? op2(OP_SUB, t, m, 0, NULL) : NULL;
    RtTensor *sq = d ? op2(OP_MUL, d, d, 0, NULL) : NULL, *s = sq ? op2(OP_SUM, sq, NULL, 0, &a) : NULL;
    RtTensor *v = s ? op2(OP_DIV, s, NULL, (double)(n - correction), NULL) : NULL;
    RtTensor *out = v && sd ? op2(OP_SQRT, v, NULL, 0, NULL) : v ? rt_retain(v) : NULL;
    rt_release(m), rt_release(d), rt_release(sq), rt_release(s), rt_release(v);
    RETURN_TENSOR(out);
}

ZEND_METHOD(Cuda_CudaArray, var) { variance(INTERNAL_FUNCTION_PARAM_PASSTHRU, false); }
ZEND_METHOD(Cuda_CudaArray, std) { variance(INTERNAL_FUNCTION_PARAM_PASSTHRU, true); }

ZEND_METHOD(Cuda_CudaArray, sum) { reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_SUM); }
ZEND_METHOD(Cuda_CudaArray, mean) { reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_MEAN); }
ZEND_METHOD(Cuda_CudaArray, max) { reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_MAX); }
ZEND_METHOD(Cuda_CudaArray, min) { reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_MIN); }
ZEND_METHOD(Cuda_CudaArray, prod) { reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_PROD); }

static RtTensor *reshape_to(RtTensor *t, int rank, const int64_t *shape);

/* argMax/argMin along an axis; without one (php-gpu-tensors' form) over the flattened array:
 * the graph ops reshape([n]) then argmax(0), so a traced closure records the same. */
static void arg_reduce(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    zend_long axis = 0;
    bool axis_null = true, keepdims = false;
    ZEND_PARSE_PARAMETERS_START(0, 2)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG_OR_NULL(axis, axis_null)
        Z_PARAM_BOOL(keepdims)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {.has_axes = true, .naxes = 1, .keepdims = keepdims};
    if (!axis_null) {
        if (!axis_to_int(axis, t->rank, ir_ops[op].name, &a.axes[0])) RETURN_THROWS();
        RtOperand in = {.t = t};
        apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, &in, 1, &a);
        return;
    }
    int64_t n = rt_numel(t), ones[IR_MAX_RANK];
    RtTensor *flat = reshape_to(t, 1, &n);
    a.keepdims = false;
    RtOperand in = {.t = flat};
    RtTensor *r = flat ? php_gtc_apply(op, &in, 1, &a) : NULL, *out = r;
    if (r && keepdims) { /* every axis kept, of size 1 */
        for (int i = 0; i < t->rank; i++) ones[i] = 1;
        out = reshape_to(r, t->rank, ones);
        rt_release(r);
    }
    rt_release(flat);
    RETURN_TENSOR(out);
}

ZEND_METHOD(Cuda_CudaArray, argMax) { arg_reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_ARGMAX); }
ZEND_METHOD(Cuda_CudaArray, argMin) { arg_reduce(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_ARGMIN); }

ZEND_METHOD(Cuda_CudaArray, matmul) {
    zend_object *other;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_OBJ_OF_CLASS(other, php_gtc_ce_CudaArray)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[2] = {{.t = t}, {.t = php_gtc_tensor(other)}};
    if (!in[1].t) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_MATMUL, in, 2, NULL);
}

/* ---- views ------------------------------------------------------------------------------------- */

/* A reshape to an explicit shape (also squeeze, unsqueeze and dropped slice indices). */
static RtTensor *reshape_to(RtTensor *t, int rank, const int64_t *shape) {
    Attrs a = {.nshape = rank};
    memcpy(a.shape, shape, (size_t)rank * sizeof *shape);
    RtOperand in = {.t = t};
    return php_gtc_apply(OP_RESHAPE, &in, 1, &a);
}

static void shape_method(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    HashTable *ht;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY_HT(ht)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    a.nshape = php_gtc_parse_shape(ht, 1, op == OP_RESHAPE, a.shape);
    if (a.nshape < 0) RETURN_THROWS();
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, &in, 1, &a);
}

ZEND_METHOD(Cuda_CudaArray, reshape) { shape_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_RESHAPE); }

/* flatten(): reshape([-1]) (a view when the data is contiguous, as reshape is); traced too. */
ZEND_METHOD(Cuda_CudaArray, flatten) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    a.nshape = 1;
    a.shape[0] = rt_numel(t);
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_RESHAPE, &in, 1, &a);
}
ZEND_METHOD(Cuda_CudaArray, broadcastTo) {
    shape_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_BROADCAST_TO);
}

ZEND_METHOD(Cuda_CudaArray, transpose) {
    HashTable *ht = NULL;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT_OR_NULL(ht)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    if (ht) {
        int64_t perm[IR_MAX_RANK];
        int n = php_gtc_parse_int_list(ht, 1, perm);
        if (n < 0) RETURN_THROWS();
        if (n != t->rank) { /* nperm == 0 would mean "reverse" to the runtime */
            php_gtc_throw(RT_EINVAL, "transpose: perm has %d entries for rank %d", n, t->rank);
            RETURN_THROWS();
        }
        a.nperm = n;
        for (int i = 0; i < n; i++)
            if (!axis_to_int(perm[i], t->rank, "transpose", &a.perm[i])) RETURN_THROWS();
    }
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_TRANSPOSE, &in, 1, &a);
}

ZEND_METHOD(Cuda_CudaArray, squeeze) {
    HashTable *axes_ht = NULL;
    zend_long axis = 0;
    bool axis_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT_OR_LONG_OR_NULL(axes_ht, axis, axis_null)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    int64_t axes[IR_MAX_RANK];
    int n = 0;
    unsigned drop = 0;
    if (axes_ht) {
        if ((n = php_gtc_parse_int_list(axes_ht, 1, axes)) < 0) RETURN_THROWS();
    } else if (!axis_null) {
        axes[n++] = axis;
    }
    for (int i = 0; i < n; i++) {
        int64_t ax = axes[i];
        if (ax < -t->rank || ax >= t->rank) {
            php_gtc_throw(RT_EINVAL, "squeeze: axis %lld is out of range for rank %d",
                          (long long)ax, t->rank);
            RETURN_THROWS();
        }
        if (ax < 0) ax += t->rank;
        if (t->shape[ax] != 1) {
            php_gtc_throw(RT_EINVAL, "squeeze: axis %lld has size %lld, not 1", (long long)ax,
                          (long long)t->shape[ax]);
            RETURN_THROWS();
        }
        drop |= 1u << ax;
    }
    if (axes_ht == NULL && axis_null)
        for (int i = 0; i < t->rank; i++)
            if (t->shape[i] == 1) drop |= 1u << i;
    int64_t shape[IR_MAX_RANK];
    int rank = 0;
    for (int i = 0; i < t->rank; i++)
        if (!(drop & (1u << i))) shape[rank++] = t->shape[i];
    RETURN_TENSOR(reshape_to(t, rank, shape));
}

ZEND_METHOD(Cuda_CudaArray, unsqueeze) {
    zend_long axis;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_LONG(axis)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    if (axis < -(zend_long)t->rank - 1 || axis > t->rank) {
        php_gtc_throw(RT_EINVAL, "unsqueeze: axis " ZEND_LONG_FMT " is out of range for rank %d",
                      axis, t->rank);
        RETURN_THROWS();
    }
    if (t->rank == IR_MAX_RANK) {
        php_gtc_throw(RT_EINVAL, "unsqueeze: rank %d exceeds the limit of %d", t->rank + 1,
                      IR_MAX_RANK);
        RETURN_THROWS();
    }
    if (axis < 0) axis += t->rank + 1;
    int64_t shape[IR_MAX_RANK];
    for (int i = 0, j = 0; i <= t->rank; i++) shape[i] = i == axis ? 1 : t->shape[j++];
    RETURN_TENSOR(reshape_to(t, t->rank + 1, shape));
}

/* ---- slice --------------------------------------------------------------------------------- */

/* Parses a decimal integer field (surrounding blanks allowed); false if it is not one. */
static bool parse_int(const char *s, size_t n, int64_t *out) {
    char buf[32];
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || (i == 0 && (buf[i] == '-' || buf[i] == '+'))))
            return false;
    errno = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || end == buf) return false;
    *out = v;
    return true;
}

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return false;
    return true;
}

#define SPEC_ERR(...) (php_gtc_throw(RT_EINVAL, __VA_ARGS__), false)

/* One component of a slice spec ("1:3", "::-1", "2") for axis ax into slot i of a. */
static bool parse_component(const char *spec, const char *s, size_t n, const RtTensor *t, int ax,
                            Attrs *a, int i, bool *dropped) {
    const char *colon1 = memchr(s, ':', n);
    int64_t dim = t->shape[ax];
    a->axes[i] = ax;
    if (!colon1) { /* an index: selects one element and drops the axis */
        int64_t k;
        if (!parse_int(s, n, &k))
            return SPEC_ERR("slice: \"%.*s\" is not an index in \"%s\"", (int)n, s, spec);
        int64_t kk = k < 0 ? k + dim : k;
        if (kk < 0 || kk >= dim)
            return SPEC_ERR("slice: index %lld is out of range for axis %d of size %lld",
                            (long long)k, ax, (long long)dim);
        a->starts[i] = kk, a->ends[i] = kk + 1, a->steps[i] = 1;
        *dropped = true;
        return true;
    }
    const char *f[3] = {s, colon1 + 1, NULL};
    size_t fl[3] = {(size_t)(colon1 - s), 0, 0};
    const char *rest = colon1 + 1, *end = s + n;
    const char *colon2 = memchr(rest, ':', (size_t)(end - rest));
    if (colon2) {
        fl[1] = (size_t)(colon2 - rest);
        f[2] = colon2 + 1;
        fl[2] = (size_t)(end - f[2]);
        if (memchr(f[2], ':', fl[2]))
            return SPEC_ERR("slice: \"%.*s\" has more than two ':' in \"%s\"", (int)n, s, spec);
    } else {
        fl[1] = (size_t)(end - rest);
    }
    int64_t v[3];
    bool given[3];
    for (int k = 0; k < 3; k++) {
        given[k] = f[k] && !blank(f[k], fl[k]);
        if (given[k] && !parse_int(f[k], fl[k], &v[k]))
            return SPEC_ERR("slice: \"%.*s\" is not an integer in \"%s\"", (int)fl[k], f[k], spec);
    }
    int64_t step = given[2] ? v[2] : 1;
    if (step == 0) return SPEC_ERR("slice: step is 0 on axis %d in \"%s\"", ax, spec);
    a->steps[i] = step;
    a->starts[i] = given[0] ? v[0] : step > 0 ? 0 : INT64_MAX;
    a->ends[i] = given[1] ? v[1] : step > 0 ? INT64_MAX : INT64_MIN;
    return true;
}

/* Python-style "a:b:c, i, ..., ::-1" into ONNX-style slice attributes plus axes to drop. */
static bool parse_spec(const char *spec, size_t len, const RtTensor *t, Attrs *a,
                       unsigned *drop) {
    const char *comp[IR_MAX_RANK + 2];
    size_t clen[IR_MAX_RANK + 2];
    int n = 0, ellipsis = -1;
    *drop = 0;
    if (strlen(spec) != len) return SPEC_ERR("slice: the spec contains a NUL byte");
    if (!blank(spec, len)) {
        const char *p = spec, *end = spec + len;
        for (;;) {
            const char *c = memchr(p, ',', (size_t)(end - p));
            const char *e = c ? c : end;
            if (n == IR_MAX_RANK + 1)
                return SPEC_ERR("slice: too many indices for rank %d in \"%s\"", t->rank, spec);
            comp[n] = p, clen[n] = (size_t)(e - p);
            while (clen[n] && (*comp[n] == ' ' || *comp[n] == '\t')) comp[n]++, clen[n]--;
            while (clen[n] && (comp[n][clen[n] - 1] == ' ' || comp[n][clen[n] - 1] == '\t'))
                clen[n]--;
            if (clen[n] == 0) return SPEC_ERR("slice: empty index %d in \"%s\"", n, spec);
            if (clen[n] == 3 && !memcmp(comp[n], "...", 3)) {
                if (ellipsis >= 0) return SPEC_ERR("slice: more than one \"...\" in \"%s\"", spec);
                ellipsis = n;
            }
            n++;
            if (!c) break;
            p = c + 1;
        }
    }
    int nidx = n - (ellipsis >= 0);
    if (nidx > t->rank)
        return SPEC_ERR("slice: %d indices for rank %d in \"%s\"", nidx, t->rank, spec);
    a->has_axes = a->has_steps = true;
    a->nslice = a->naxes = nidx;
    for (int i = 0, slot = 0; i < n; i++) {
        if (i == ellipsis) continue;
        int ax = ellipsis >= 0 && i > ellipsis ? t->rank - (n - i) : i;
        bool dropped = false;
        if (!parse_component(spec, comp[i], clen[i], t, ax, a, slot++, &dropped)) return false;
        if (dropped) *drop |= 1u << ax;
    }
    return true;
}

/* ---- ArrayAccess: $t[i] --------------------------------------------------------------------- */

/* The index of $t[offset] along axis 0 (negative counts from the end); false after throwing. */
static bool array_index(const RtTensor *t, zval *offset, int64_t *k) {
    if (Z_TYPE_P(offset) != IS_LONG) { /* $t[] = v passes null: appending to a fixed shape */
        zend_type_error("Cuda\\CudaArray index must be of type int, %s given", zend_zval_type_name(offset));
        return false;
    }
    if (t->rank == 0) {
        php_gtc_throw(RT_EINVAL, "cannot index a rank-0 Cuda\\CudaArray (item() reads its value)");
        return false;
    }
    zend_long i = Z_LVAL_P(offset);
    int64_t dim = t->shape[0];
    if (i < -dim || i >= dim) {
        php_gtc_throw(RT_EINVAL, "index " ZEND_LONG_FMT " is out of range for axis 0 of size %lld", i, (long long)dim);
        return false;
    }
    *k = i < 0 ? i + dim : i;
    return true;
}

/* $t[k]: a view of row k along axis 0, that axis dropped (traced like slice). */
static RtTensor *index_view(RtTensor *t, int64_t k) {
    Attrs a = {0};
    a.has_axes = a.has_steps = true;
    a.nslice = a.naxes = 1;
    a.axes[0] = 0;
    a.starts[0] = k, a.ends[0] = k + 1, a.steps[0] = 1;
    RtOperand in = {.t = t};
    RtTensor *r = php_gtc_apply(OP_SLICE, &in, 1, &a);
    if (!r) return NULL;
    RtTensor *v = reshape_to(r, t->rank - 1, t->shape + 1);
    rt_release(r);
    return v;
}

/* offsetGet: a view for rank 2 and up (shares storage: writes through it show in $t), the
 * element's value (int, float or bool) at rank 1; while tracing, a rank-0 array there (a traced
 * value has no data yet, and arithmetic takes it as it would the number). */
ZEND_METHOD(Cuda_CudaArray, offsetGet) {
    zval *offset;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(offset)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    int64_t k;
    if (!array_index(t, offset, &k)) RETURN_THROWS();
    RtTensor *v = index_view(t, k);
    if (!v) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    if (t->rank > 1 || php_gtc_is_placeholder(v)) RETURN_TENSOR(v);
    bool ok = php_gtc_check_data(v) && php_gtc_to_php(v, return_value);
    rt_release(v);
    if (!ok) RETURN_THROWS();
}

ZEND_METHOD(Cuda_CudaArray, offsetExists) {
    zval *offset;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(offset)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RETURN_BOOL(Z_TYPE_P(offset) == IS_LONG && t->rank > 0 && Z_LVAL_P(offset) >= -t->shape[0] &&
                Z_LVAL_P(offset) < t->shape[0]);
}

/* offsetSet: $t[k] = number | CudaArray (broadcast to the row's shape, converted to $t's dtype),
 * written into $t's storage. The row must be contiguous memory (any row of a contiguous array
 * is); eager only. */
ZEND_METHOD(Cuda_CudaArray, offsetSet) {
    zval *offset, *value;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_ZVAL(offset)
        Z_PARAM_ZVAL(value)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_gtc_trace_forbid("writing through $t[i]")) RETURN_THROWS();
    GTC_THIS_DATA_TENSOR(t);
    int64_t k;
    if (!array_index(t, offset, &k)) RETURN_THROWS();
    RtTensor *src = NULL, *dst = index_view(t, k), *b = NULL;
    bool ok = false;
    if (!dst) goto rt;
    if (!rt_is_contiguous(dst)) {
        php_gtc_throw(RT_EINVAL, "cannot write through $t[" ZEND_LONG_FMT "]: the row is a strided view of a "
                      "transposed or sliced array; write to a contiguous copy", Z_LVAL_P(offset));
        goto done;
    }
    ZVAL_DEREF(value);
    if (Z_TYPE_P(value) == IS_OBJECT && instanceof_function(Z_OBJCE_P(value), php_gtc_ce_CudaArray)) {
        src = php_gtc_tensor(Z_OBJ_P(value));
        if (!src || !php_gtc_check_data(src)) goto done;
        src = rt_retain(src);
    } else if (Z_TYPE_P(value) == IS_LONG || Z_TYPE_P(value) == IS_DOUBLE || Z_TYPE_P(value) == IS_TRUE ||
               Z_TYPE_P(value) == IS_FALSE) {
        double d = Z_TYPE_P(value) == IS_LONG ? (double)Z_LVAL_P(value) : Z_TYPE_P(value) == IS_DOUBLE ? Z_DVAL_P(value)
                                                                                                       : Z_TYPE_P(value) == IS_TRUE;
        src = rt_full(t->storage->backend, t->dtype, 0, NULL, d);
        if (!src) goto rt;
    } else {
        zend_type_error("a value stored in a Cuda\\CudaArray must be int, float, bool or Cuda\\CudaArray, %s given",
                        zend_zval_type_name(value));
        goto done;
    }
    Attrs a = {.nshape = dst->rank};
    memcpy(a.shape, dst->shape, (size_t)dst->rank * sizeof *dst->shape);
    RtOperand in = {.t = src};
    if (!(b = rt_apply(OP_BROADCAST_TO, &in, 1, &a)) || rt_assign(dst, b)) goto rt;
    ok = true;
    goto done;
rt:
    php_gtc_throw_rt();
done:
    rt_release(src);
    rt_release(b);
    rt_release(dst);
    if (!ok) RETURN_THROWS();
}

ZEND_METHOD(Cuda_CudaArray, offsetUnset) {
    zval *offset;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(offset)
    ZEND_PARSE_PARAMETERS_END();
    (void)offset;
    zend_throw_error(NULL, "Cannot unset an element of a Cuda\\CudaArray: its shape is fixed");
    RETURN_THROWS();
}

/* $t(...$selectors), php-gpu-tensors' form: one selector per leading axis: an int selects that
 * index and drops the axis, null keeps the whole axis, [start, end] keeps start..end INCLUSIVE
 * (the peer's "legacy" ranges; negative values count from the end, bounds clamp). A view, traced
 * as slice (+ reshape). */
ZEND_METHOD(Cuda_CudaArray, __invoke) {
    zval *sel = NULL;
    uint32_t n = 0;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC('*', sel, n)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    if (n > (uint32_t)t->rank) {
        php_gtc_throw(RT_EINVAL, "%u selectors for a rank-%d array", n, t->rank);
        RETURN_THROWS();
    }
    Attrs a = {0};
    a.has_axes = a.has_steps = true;
    unsigned drop = 0;
    for (uint32_t i = 0; i < n; i++) {
        zval *z = &sel[i];
        ZVAL_DEREF(z);
        int64_t dim = t->shape[i], s, e;
        if (Z_TYPE_P(z) == IS_NULL) continue;
        if (Z_TYPE_P(z) == IS_LONG) {
            zend_long k = Z_LVAL_P(z);
            if (k < -dim || k >= dim) {
                php_gtc_throw(RT_EINVAL, "index " ZEND_LONG_FMT " is out of range for axis %u of size %lld", k, i,
                              (long long)dim);
                RETURN_THROWS();
            }
            s = k < 0 ? k + dim : k, e = s + 1;
            drop |= 1u << i;
        } else if (Z_TYPE_P(z) == IS_ARRAY && zend_hash_num_elements(Z_ARRVAL_P(z)) == 2 &&
                   zend_array_is_list(Z_ARRVAL_P(z)) && Z_TYPE_P(zend_hash_index_find(Z_ARRVAL_P(z), 0)) == IS_LONG &&
                   Z_TYPE_P(zend_hash_index_find(Z_ARRVAL_P(z), 1)) == IS_LONG) {
            s = Z_LVAL_P(zend_hash_index_find(Z_ARRVAL_P(z), 0));
            e = Z_LVAL_P(zend_hash_index_find(Z_ARRVAL_P(z), 1));
            if (e < 0) e += dim;    /* inclusive end, from the end */
            e = e >= INT64_MAX - 1 ? INT64_MAX : e + 1;
            if (e < 0) e = 0;       /* still before the start: an empty range */
        } else {
            zend_argument_type_error(i + 1, "must be an int, null or a list [start, end] of two ints, %s given",
                                     zend_zval_type_name(z));
            RETURN_THROWS();
        }
        int k = a.nslice++;
        a.axes[k] = (int)i, a.starts[k] = s, a.ends[k] = e, a.steps[k] = 1;
    }
    a.naxes = a.nslice;
    RtOperand in = {.t = t};
    RtTensor *r = a.nslice ? php_gtc_apply(OP_SLICE, &in, 1, &a) : rt_retain(t);
    if (r && drop) {
        int64_t shape[IR_MAX_RANK];
        int rank = 0;
        for (int i = 0; i < r->rank; i++)
            if (!(drop & (1u << i))) shape[rank++] = r->shape[i];
        RtTensor *v = reshape_to(r, rank, shape);
        rt_release(r);
        r = v;
    }
    RETURN_TENSOR(r);
}

ZEND_METHOD(Cuda_CudaArray, slice) {
    HashTable *starts_ht = NULL, *ends_ht = NULL, *steps_ht = NULL, *axes_ht = NULL;
    zend_string *spec = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 4)
        Z_PARAM_ARRAY_HT_OR_STR(starts_ht, spec)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT_OR_NULL(ends_ht)
        Z_PARAM_ARRAY_HT_OR_NULL(steps_ht)
        Z_PARAM_ARRAY_HT_OR_NULL(axes_ht)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    unsigned drop = 0;
    if (spec) {
        uint32_t extra = ends_ht ? 2 : steps_ht ? 3 : axes_ht ? 4 : 0;
        if (extra) {
            zend_argument_value_error(extra, "must be null when $starts is a slice string");
            RETURN_THROWS();
        }
        if (!parse_spec(ZSTR_VAL(spec), ZSTR_LEN(spec), t, &a, &drop)) RETURN_THROWS();
    } else {
        if (!ends_ht) {
            zend_argument_value_error(2, "must be an array when $starts is an array");
            RETURN_THROWS();
        }
        int64_t axes[IR_MAX_RANK];
        int n = php_gtc_parse_int_list(starts_ht, 1, a.starts);
        if (n < 0 || php_gtc_parse_int_list(ends_ht, 2, a.ends) < 0) RETURN_THROWS();
        HashTable *lists[3] = {ends_ht, steps_ht, axes_ht};
        for (int k = 0; k < 3; k++)
            if (lists[k] && (int)zend_hash_num_elements(lists[k]) != n) {
                zend_argument_value_error((uint32_t)k + 2, "must have as many elements as $starts");
                RETURN_THROWS();
            }
        if (steps_ht && php_gtc_parse_int_list(steps_ht, 3, a.steps) < 0) RETURN_THROWS();
        if (axes_ht && php_gtc_parse_int_list(axes_ht, 4, axes) < 0) RETURN_THROWS();
        a.nslice = n;
        a.has_steps = steps_ht != NULL;
        a.has_axes = axes_ht != NULL;
        a.naxes = axes_ht ? n : 0;
        for (int i = 0; axes_ht && i < n; i++)
            if (!axis_to_int(axes[i], t->rank, "slice", &a.axes[i])) RETURN_THROWS();
    }
    RtOperand in = {.t = t};
    RtTensor *r = php_gtc_apply(OP_SLICE, &in, 1, &a);
    if (r && drop) {
        int64_t shape[IR_MAX_RANK];
        int rank = 0;
        for (int i = 0; i < r->rank; i++)
            if (!(drop & (1u << i))) shape[rank++] = r->shape[i];
        RtTensor *v = reshape_to(r, rank, shape);
        rt_release(r);
        r = v;
    }
    RETURN_TENSOR(r);
}
