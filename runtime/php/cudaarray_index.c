/* runtime/php/cudaarray_index.c: selecting parts of a Cuda\CudaArray: slice() (php-gpu-tensors'
 * per-axis selectors or a Python-style spec string; ONNX-style named lists), $t(...) (php-gpu-tensors' per-axis selectors) and $t[i]
 * (ArrayAccess: row views, element values, writes through to storage). Every selection is a
 * slice (plus a reshape that drops indexed axes) through php_gtc_apply, so Cuda\Fusion traces it. */
#include "php_gtc.h"

/* r without the size-1 axes in mask drop (indices that select one element); r is consumed. */
static RtTensor *drop_axes(RtTensor *r, unsigned drop) {
    int64_t shape[IR_MAX_RANK];
    int rank = 0;
    for (int i = 0; i < r->rank; i++)
        if (!(drop & (1u << i))) shape[rank++] = r->shape[i];
    RtTensor *v = php_gtc_reshape_to(r, rank, shape);
    rt_release(r);
    return v;
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
    RtTensor *v = php_gtc_reshape_to(r, t->rank - 1, t->shape + 1);
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
 * written into $t's storage, whatever its layout (a row of a stepped slice or of a transposed
 * array too; a value overlapping the row is read whole first), but not into a broadcast view,
 * whose rows share elements; eager only. */
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
    if (rt_repeats_elements(t)) { /* NumPy makes broadcast views read-only for the same reason */
        php_gtc_throw(RT_EINVAL, "cannot write through $t[" ZEND_LONG_FMT "]: $t is a broadcast view, whose rows "
                      "share elements; write to a copy", Z_LVAL_P(offset));
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
    if (r && drop) r = drop_axes(r, drop);
    RETURN_TENSOR(r);
}

/* ---- slice ------------------------------------------------------------------------------------ */

/* One positional selector of slice() for axis ax (argument argn): null keeps the axis, an int
 * selects and drops it, [start, end] or [start, end, step] (ints, null for a default) is a range,
 * a string is Python-style text (the whole spec when it is the only selector). */
static bool axis_selector(zval *z, uint32_t argn, const TensorType *tt, int ax, bool only, Attrs *a,
                          unsigned *drop) {
    char err[256];
    ZVAL_DEREF(z);
    switch (Z_TYPE_P(z)) {
    case IS_NULL: return true;
    case IS_LONG:
        if (ir_select_index(a, tt, ax, Z_LVAL_P(z), drop, err, sizeof err)) break;
        return true;
    case IS_STRING:
        if (ir_select_text(Z_STRVAL_P(z), Z_STRLEN_P(z), only ? -1 : ax, tt, a, drop, err, sizeof err)) break;
        return true;
    case IS_ARRAY: {
        HashTable *ht = Z_ARRVAL_P(z);
        uint32_t n = zend_hash_num_elements(ht);
        int64_t v[3];
        const int64_t *given[3] = {NULL, NULL, NULL};
        bool ok = (n == 2 || n == 3) && zend_array_is_list(ht);
        for (uint32_t k = 0; ok && k < n; k++) {
            zval *e = zend_hash_index_find(ht, k);
            ZVAL_DEREF(e);
            if (Z_TYPE_P(e) == IS_LONG) v[k] = Z_LVAL_P(e), given[k] = &v[k];
            else ok = Z_TYPE_P(e) == IS_NULL;
        }
        if (!ok) {
            php_gtc_throw(RT_EINVAL, "slice: selector %u must be [start, end] or [start, end, step] of ints (null "
                          "for a default)", argn);
            return false;
        }
        if (ir_select_range(a, tt, ax, given[0], given[1], given[2], err, sizeof err)) break;
        return true;
    }
    default:
        zend_argument_type_error(argn, "must be an int, null, a string or a list [start, end(, step)], %s given",
                                 zend_zval_type_name(z));
        return false;
    }
    php_gtc_throw(RT_EINVAL, "%s", err);
    return false;
}

/* A list of ints given as the named argument $name of the ONNX form (NULL when absent or null);
 * its length in *n, -1 after throwing. */
static int onnx_list(HashTable *named, const char *name, int64_t *out, bool *given) {
    zval *z = zend_hash_str_find_deref(named, name, strlen(name)), *v;
    *given = z && Z_TYPE_P(z) != IS_NULL;
    if (!*given) return 0;
    if (Z_TYPE_P(z) != IS_ARRAY) {
        zend_type_error("Cuda\\CudaArray::slice(): Argument $%s must be of type array, %s given", name,
                        zend_zval_type_name(z));
        return -1;
    }
    if (zend_hash_num_elements(Z_ARRVAL_P(z)) > IR_MAX_RANK) {
        zend_value_error("Cuda\\CudaArray::slice(): Argument $%s must have at most %d elements", name, IR_MAX_RANK);
        return -1;
    }
    int n = 0;
    ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(z), v) {
        ZVAL_DEREF(v);
        if (Z_TYPE_P(v) != IS_LONG) {
            zend_type_error("Cuda\\CudaArray::slice(): Argument $%s must contain only integers, %s given", name,
                            zend_zval_type_name(v));
            return -1;
        }
        out[n++] = Z_LVAL_P(v);
    } ZEND_HASH_FOREACH_END();
    return n;
}

/* slice(starts: [...], ends: [...], steps: [...], axes: [...]): ONNX-style lists (negative
 * indices from the end, bounds clamp; steps default to 1, axes to 0..n-1). */
static bool onnx_form(HashTable *named, const RtTensor *t, Attrs *a) {
    static const char *const keys[] = {"starts", "ends", "steps", "axes"};
    zend_string *key;
    ZEND_HASH_FOREACH_STR_KEY(named, key) {
        bool known = false;
        for (int k = 0; k < 4; k++) known |= zend_string_equals_cstr(key, keys[k], strlen(keys[k]));
        if (!known) {
            zend_throw_error(NULL, "Unknown named parameter $%s", ZSTR_VAL(key));
            return false;
        }
    } ZEND_HASH_FOREACH_END();
    int64_t axes[IR_MAX_RANK];
    int64_t *lists[4] = {a->starts, a->ends, a->steps, axes};
    bool given[4];
    int n[4];
    for (int k = 0; k < 4; k++)
        if ((n[k] = onnx_list(named, keys[k], lists[k], &given[k])) < 0) return false;
    for (int k = 0; k < 2; k++)
        if (!given[k]) {
            zend_argument_count_error("Cuda\\CudaArray::slice(): the named form needs $starts and $ends (and "
                                      "optionally $steps, $axes); positional arguments are per-axis selectors");
            return false;
        }
    for (int k = 1; k < 4; k++)
        if (given[k] && n[k] != n[0]) {
            zend_value_error("Cuda\\CudaArray::slice(): Argument $%s must have as many elements as $starts", keys[k]);
            return false;
        }
    a->nslice = n[0];
    a->has_steps = given[2];
    a->has_axes = given[3];
    a->naxes = given[3] ? n[0] : 0;
    for (int i = 0; given[3] && i < n[0]; i++)
        if (!php_gtc_axis_to_int(axes[i], t->rank, "slice", &a->axes[i])) return false;
    return true;
}

/* slice(...$selectors): php-gpu-tensors' per-axis selectors (axis_selector; slice() keeps
 * everything), or with named arguments only, the ONNX form (onnx_form). Traced as slice plus a
 * reshape that drops indexed axes. */
ZEND_METHOD(Cuda_CudaArray, slice) {
    zval *sel = NULL;
    uint32_t n = 0;
    HashTable *named = NULL;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC_WITH_NAMED(sel, n, named)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {0};
    unsigned drop = 0;
    if (named && zend_hash_num_elements(named)) {
        if (n) {
            zend_argument_count_error("Cuda\\CudaArray::slice(): pass either per-axis selectors (positional) or "
                                      "the named lists starts:, ends:, steps:, axes:, not both");
            RETURN_THROWS();
        }
        if (!onnx_form(named, t, &a)) RETURN_THROWS();
    } else {
        if (n > (uint32_t)t->rank && !(n == 1 && Z_TYPE_P(&sel[0]) == IS_STRING)) { /* a spec: its own check */
            php_gtc_throw(RT_EINVAL, "slice: %u selectors for a rank-%d array", n, t->rank);
            RETURN_THROWS();
        }
        TensorType tt = rt_type(t);
        for (uint32_t i = 0; i < n; i++)
            if (!axis_selector(&sel[i], i + 1, &tt, (int)i, n == 1, &a, &drop)) RETURN_THROWS();
    }
    RtOperand in = {.t = t};
    RtTensor *r = php_gtc_apply(OP_SLICE, &in, 1, &a);
    if (r && drop) r = drop_axes(r, drop);
    RETURN_TENSOR(r);
}
