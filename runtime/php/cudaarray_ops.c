/* runtime/php/cudaarray_ops.c: Cuda\CudaArray's op methods. Every method only converts its PHP
 * arguments into RtOperands and Attrs and calls php_gtc_apply (rt_apply, or a traced node
 * while Cuda\Fusion traces: fusion_trace.c); the shape, dtype and broadcasting
 * rules (and their error messages) are the runtime's. */
#include "php_gtc.h"


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
bool php_gtc_axis_to_int(int64_t v, int rank, const char *what, int *out) {
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
UNARY(erf, OP_ERF)

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
    /* a condition of another dtype means != 0 (NumPy's truthiness; php-gpu-tensors takes any) */
    RtTensor *truth = NULL;
    if (in[0].t->dtype != DT_BOOL) {
        Attrs a = {.has_dtype = true, .dtype = DT_BOOL};
        if (!(truth = php_gtc_apply(OP_CAST, &in[0], 1, &a))) {
            php_gtc_throw_rt();
            RETURN_THROWS();
        }
        in[0].t = truth;
    }
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_WHERE, in, 3, NULL);
    rt_release(truth);
}

/* astype($dtype, $casting = 'same_kind'): NumPy's casting rule (ir_can_cast), checked on dtypes
 * only so eager and traced calls agree; 'unsafe' is the graph op cast's saturating conversion. */
ZEND_METHOD(Cuda_CudaArray, astype) {
    zend_string *name, *casting_name = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_STR(name)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(casting_name)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {.has_dtype = true};
    if (!php_gtc_parse_dtype(name, 1, &a.dtype)) RETURN_THROWS();
    IrCasting casting = IR_CAST_SAME_KIND;
    if (casting_name && (ir_casting_from_name(ZSTR_VAL(casting_name), &casting) ||
                         strlen(ZSTR_VAL(casting_name)) != ZSTR_LEN(casting_name))) {
        zend_argument_value_error(2, "must be one of \"no\", \"equiv\", \"safe\", \"same_kind\", \"unsafe\"");
        RETURN_THROWS();
    }
    if (!ir_can_cast(t->dtype, a.dtype, casting)) {
        php_gtc_throw(RT_EINVAL, "astype: unsafe cast from %s to %s under casting '%s'; pass casting: 'unsafe' "
                      "for the saturating conversion", ir_dtype_name(t->dtype), ir_dtype_name(a.dtype),
                      ir_casting_name(casting));
        RETURN_THROWS();
    }
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
        if (!php_gtc_axis_to_int(axes[i], t->rank, name, &a->axes[i])) return false;
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
        if (!php_gtc_axis_to_int(axis, t->rank, ir_ops[op].name, &a.axes[0])) RETURN_THROWS();
        RtOperand in = {.t = t};
        apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, &in, 1, &a);
        return;
    }
    int64_t n = rt_numel(t), ones[IR_MAX_RANK];
    RtTensor *flat = php_gtc_reshape_to(t, 1, &n);
    a.keepdims = false;
    RtOperand in = {.t = flat};
    RtTensor *r = flat ? php_gtc_apply(op, &in, 1, &a) : NULL, *out = r;
    if (r && keepdims) { /* every axis kept, of size 1 */
        for (int i = 0; i < t->rank; i++) ones[i] = 1;
        out = php_gtc_reshape_to(r, t->rank, ones);
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
    if (!EG(exception) && !php_gtc_tracing()) GTC_G(last_matmul) = t->storage->backend->gemm;
}

/* ---- index-mapped ops -------------------------------------------------------------------------- */

ZEND_METHOD(Cuda_CudaArray, gather) {
    zend_object *indices;
    zend_long axis = 0;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_OBJ_OF_CLASS(indices, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(axis)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[2] = {{.t = t}, {.t = php_gtc_tensor(indices)}};
    Attrs a = {0};
    if (!in[1].t || !php_gtc_axis_to_int(axis, t->rank, "gather", &a.axis)) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_GATHER, in, 2, &a);
}

ZEND_METHOD(Cuda_CudaArray, scatterAdd) {
    zend_object *indices, *updates;
    zend_long axis = 0;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_OBJ_OF_CLASS(indices, php_gtc_ce_CudaArray)
        Z_PARAM_OBJ_OF_CLASS(updates, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(axis)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[3] = {{.t = t}, {.t = php_gtc_tensor(indices)}, {.t = php_gtc_tensor(updates)}};
    Attrs a = {0};
    if (!in[1].t || !in[2].t || !php_gtc_axis_to_int(axis, t->rank, "scatter_add", &a.axis)) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_SCATTER_ADD, in, 3, &a);
}

/* This array and a list of CudaArrays joined along an axis (null: 0, as torch.cat), at most
 * IR_MAX_INPUTS in all: php-gpu-tensors' instance method concat(array $tensors, ?int $axis). */
ZEND_METHOD(Cuda_CudaArray, concat) {
    HashTable *list;
    zend_long axis = 0;
    bool axis_null = true;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ARRAY_HT(list)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG_OR_NULL(axis, axis_null)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    uint32_t n = zend_hash_num_elements(list);
    if (n > IR_MAX_INPUTS - 1) {
        php_gtc_throw(RT_EINVAL, "concat: joins this array and at most %d others, got %u", IR_MAX_INPUTS - 1, n);
        RETURN_THROWS();
    }
    RtOperand in[IR_MAX_INPUTS] = {{.t = t}};
    int k = 1;
    zval *z;
    ZEND_HASH_FOREACH_VAL(list, z) {
        ZVAL_DEREF(z);
        if (Z_TYPE_P(z) != IS_OBJECT || Z_OBJCE_P(z) != php_gtc_ce_CudaArray) {
            zend_argument_type_error(1, "must contain only Cuda\\CudaArray, %s given at position %d", zend_zval_type_name(z), k - 1);
            RETURN_THROWS();
        }
        if (!(in[k++].t = php_gtc_tensor(Z_OBJ_P(z)))) RETURN_THROWS();
    } ZEND_HASH_FOREACH_END();
    Attrs a = {0};
    if (!axis_null && !php_gtc_axis_to_int(axis, in[0].t->rank, "concat", &a.axis)) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_CONCAT, in, k, &a);
}

/* Constant padding: $pads are all begins, then all ends (2 per axis, ONNX order). */
ZEND_METHOD(Cuda_CudaArray, pad) {
    HashTable *pads;
    zval *value = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ARRAY_HT(pads)
        Z_PARAM_OPTIONAL
        Z_PARAM_NUMBER(value)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    uint32_t n = zend_hash_num_elements(pads);
    if (n != (uint32_t)(2 * t->rank)) {
        php_gtc_throw(RT_EINVAL, "pad: $pads has %u entries for rank %d (all begins, then all ends: %d)", n, t->rank, 2 * t->rank);
        RETURN_THROWS();
    }
    zval *z;
    ZEND_HASH_FOREACH_VAL(pads, z) {
        ZVAL_DEREF(z);
        if (Z_TYPE_P(z) != IS_LONG || Z_LVAL_P(z) < 0 || Z_LVAL_P(z) >= IR_MAX_DIM) {
            php_gtc_throw(RT_EINVAL, "pad: $pads[%d] must be an integer from 0 to 2^31-1", a.npads);
            RETURN_THROWS();
        }
        a.pads[a.npads++] = Z_LVAL_P(z);
    } ZEND_HASH_FOREACH_END();
    if (value) a.value = Z_TYPE_P(value) == IS_LONG ? (double)Z_LVAL_P(value) : Z_DVAL_P(value);
    if (!isfinite(a.value)) {
        php_gtc_throw(RT_EINVAL, "pad: $value must be a finite number");
        RETURN_THROWS();
    }
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_PAD, &in, 1, &a);
}

/* dropout($ratio, $seed): an int seed becomes a rank-0 int64 tensor on x's device (exact within
 * 2^53, as a compiled plan's rank-0 inputs travel as doubles); a CudaArray seed is used as is, so
 * a traced closure's seed input changes per run. */
ZEND_METHOD(Cuda_CudaArray, dropout) {
    double ratio;
    zval *seed;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_DOUBLE(ratio)
        Z_PARAM_ZVAL(seed)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    if (!(ratio >= 0 && ratio < 1)) {
        php_gtc_throw(RT_EINVAL, "dropout: $ratio must be at least 0 and less than 1");
        RETURN_THROWS();
    }
    RtOperand in[2] = {{.t = t}};
    RtTensor *own = NULL;
    if (Z_TYPE_P(seed) == IS_OBJECT && Z_OBJCE_P(seed) == php_gtc_ce_CudaArray) {
        if (!(in[1].t = php_gtc_tensor(Z_OBJ_P(seed)))) RETURN_THROWS();
    } else if (Z_TYPE_P(seed) == IS_LONG) {
        const zend_long lim = (zend_long)1 << 53;
        if (Z_LVAL_P(seed) < -lim || Z_LVAL_P(seed) > lim) {
            php_gtc_throw(RT_EINVAL, "dropout: $seed must be from -2^53 to 2^53");
            RETURN_THROWS();
        }
        const RtBackend *b = php_gtc_is_placeholder(t) ? rt_default_backend() : t->storage->backend;
        int64_t v = Z_LVAL_P(seed);
        if (!(own = rt_from_host(b, DT_INT64, 0, NULL, &v))) {
            php_gtc_throw_rt();
            RETURN_THROWS();
        }
        in[1].t = own;
    } else {
        zend_argument_type_error(2, "must be of type Cuda\\CudaArray|int, %s given", zend_zval_type_name(seed));
        RETURN_THROWS();
    }
    Attrs a = {.ratio = ratio};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_DROPOUT, in, 2, &a);
    rt_release(own);
}

/* ---- composite ops: rt_apply expands them into primitives (ir/composite.c; traced as those) ---- */

/* An axis far out of any rank (the IR's check takes an int) is refused here, in its words. */
static bool composite_axis(Op op, const RtTensor *t, zend_long v, Attrs *a) {
    if (v < -IR_MAX_RANK || v >= IR_MAX_RANK) {
        php_gtc_throw(RT_EINVAL, "%s: axis %lld is out of range for rank %d", ir_ops[op].name, (long long)v, t->rank);
        return false;
    }
    a->axis = (int)v, a->has_axis = true;
    return true;
}

static void softmax_like(INTERNAL_FUNCTION_PARAMETERS, Op op) {
    zend_long axis = -1;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(axis)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    if (!composite_axis(op, t, axis, &a)) RETURN_THROWS();
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, op, &in, 1, &a);
}

ZEND_METHOD(Cuda_CudaArray, softmax) { softmax_like(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_SOFTMAX); }
ZEND_METHOD(Cuda_CudaArray, logSoftmax) { softmax_like(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_LOG_SOFTMAX); }

ZEND_METHOD(Cuda_CudaArray, layerNorm) {
    zval *scale, *bias;
    zend_long axis = -1;
    double eps = 1e-5;
    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_ZVAL(scale)
        Z_PARAM_ZVAL(bias)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(axis)
        Z_PARAM_DOUBLE(eps)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[3] = {{.t = t}};
    if (!method_operand(scale, 1, &in[1]) || !method_operand(bias, 2, &in[2])) RETURN_THROWS();
    Attrs a = {.epsilon = eps, .has_epsilon = true};
    if (!composite_axis(OP_LAYER_NORM, t, axis, &a)) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_LAYER_NORM, in, 3, &a);
}

ZEND_METHOD(Cuda_CudaArray, gelu) {
    zend_string *approx = NULL;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(approx)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    if (approx && strcmp(ZSTR_VAL(approx), "none") != 0) {
        if (strcmp(ZSTR_VAL(approx), "tanh") != 0) {
            php_gtc_throw(RT_EINVAL, "gelu: $approximate must be 'none' or 'tanh'");
            RETURN_THROWS();
        }
        a.approx_tanh = true;
    }
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_GELU, &in, 1, &a);
}

ZEND_METHOD(Cuda_CudaArray, crossEntropy) {
    zend_object *target;
    zend_long axis = 1;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_OBJ_OF_CLASS(target, php_gtc_ce_CudaArray)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(axis)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    RtOperand in[2] = {{.t = t}, {.t = php_gtc_tensor(target)}};
    if (!in[1].t) RETURN_THROWS();
    Attrs a = {0};
    if (!composite_axis(OP_CROSS_ENTROPY, t, axis, &a)) RETURN_THROWS();
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_CROSS_ENTROPY, in, 2, &a);
}

/* ---- views ------------------------------------------------------------------------------------- */

/* A reshape to an explicit shape (also squeeze, unsqueeze and dropped indices; php_gtc.h). */
RtTensor *php_gtc_reshape_to(RtTensor *t, int rank, const int64_t *shape) {
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
            if (!php_gtc_axis_to_int(perm[i], t->rank, "transpose", &a.perm[i])) RETURN_THROWS();
    }
    RtOperand in = {.t = t};
    apply(INTERNAL_FUNCTION_PARAM_PASSTHRU, OP_TRANSPOSE, &in, 1, &a);
}

/* squeeze and unsqueeze: reshapes to the shape ir_squeeze_shape / ir_unsqueeze_shape compute
 * (ir/select.c), as a PHP graph reads ->squeeze() and ->unsqueeze(). */
ZEND_METHOD(Cuda_CudaArray, squeeze) {
    HashTable *axes_ht = NULL;
    zend_long axis = 0;
    bool axis_null = true;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_ARRAY_HT_OR_LONG_OR_NULL(axes_ht, axis, axis_null)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    int64_t axes[IR_MAX_RANK], shape[IR_MAX_RANK];
    int n = 0;
    if (axes_ht) {
        if ((n = php_gtc_parse_int_list(axes_ht, 1, axes)) < 0) RETURN_THROWS();
    } else if (!axis_null) {
        axes[n++] = axis;
    }
    char err[160];
    int rank = ir_squeeze_shape(t->rank, t->shape, axes_ht || !axis_null ? axes : NULL, n, shape, err, sizeof err);
    if (rank < 0) {
        php_gtc_throw(RT_EINVAL, "squeeze: %s", err);
        RETURN_THROWS();
    }
    RETURN_TENSOR(php_gtc_reshape_to(t, rank, shape));
}

ZEND_METHOD(Cuda_CudaArray, unsqueeze) {
    zend_long axis;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_LONG(axis)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    int64_t shape[IR_MAX_RANK];
    char err[160];
    int rank = ir_unsqueeze_shape(t->rank, t->shape, axis, shape, err, sizeof err);
    if (rank < 0) {
        php_gtc_throw(RT_EINVAL, "unsqueeze: %s", err);
        RETURN_THROWS();
    }
    RETURN_TENSOR(php_gtc_reshape_to(t, rank, shape));
}
