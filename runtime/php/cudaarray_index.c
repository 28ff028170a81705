/* runtime/php/cudaarray_index.c: selecting parts of a Cuda\CudaArray: slice() (ONNX-style lists
 * or a Python-style spec string), $t(...) (php-gpu-tensors' per-axis selectors) and $t[i]
 * (ArrayAccess: row views, element values, writes through to storage). Every selection is a
 * slice (plus a reshape that drops indexed axes) through php_gtc_apply, so Cuda\Fusion traces it. */
#include "php_gtc.h"

#include <errno.h>

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
    if (r && drop) r = drop_axes(r, drop);
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
            if (!php_gtc_axis_to_int(axes[i], t->rank, "slice", &a.axes[i])) RETURN_THROWS();
    }
    RtOperand in = {.t = t};
    RtTensor *r = php_gtc_apply(OP_SLICE, &in, 1, &a);
    if (r && drop) r = drop_axes(r, drop);
    RETURN_TENSOR(r);
}
