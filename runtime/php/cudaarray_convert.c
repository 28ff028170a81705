/* runtime/php/cudaarray_convert.c: conversions between PHP values and tensors: dtype names,
 * shapes and axis lists given as PHP arrays, nested PHP arrays to tensors and back. */
#include "php_gtc.h"

#include "../../ir/scalar.h"

bool php_gtc_parse_dtype(zend_string *name, uint32_t arg_num, DType *out) {
    if (ir_dtype_from_name(ZSTR_VAL(name), out) == 0 && strlen(ZSTR_VAL(name)) == ZSTR_LEN(name))
        return true;
    char names[256], given[4 * 64 + 8];
    size_t k = 0;
    for (int i = 0; i < DT_COUNT && k < sizeof names; i++)
        k += (size_t)snprintf(names + k, sizeof names - k, "%s\"%s\"", i ? ", " : "", ir_dtype_name(ir_dtype_sorted(i)));
    /* the rejected name apart from the list, cut and with control characters escaped */
    char cut[68];
    snprintf(cut, sizeof cut, "%.64s%s", ZSTR_VAL(name), ZSTR_LEN(name) > 64 ? "..." : "");
    ir_escape_invisible(cut, given, sizeof given, false);
    /* Cuda\InvalidArgumentException, as php-gpu-tensors has it for a bad dtype (not ValueError) */
    zend_argument_error(php_gtc_ce_InvalidArgumentException, arg_num, "must be one of %s; \"%s\" given", names, given);
    return false;
}

int php_gtc_parse_int_list(HashTable *ht, uint32_t arg_num, int64_t *out) {
    int n = 0;
    zval *v;
    if (zend_hash_num_elements(ht) > IR_MAX_RANK) {
        zend_argument_error(php_gtc_ce_InvalidArgumentException, arg_num, "must have at most %d elements", IR_MAX_RANK);
        return -1;
    }
    ZEND_HASH_FOREACH_VAL(ht, v) {
        ZVAL_DEREF(v);
        if (Z_TYPE_P(v) != IS_LONG) {
            zend_argument_type_error(arg_num, "must contain only integers, %s given",
                                     zend_zval_type_name(v));
            return -1;
        }
        out[n++] = Z_LVAL_P(v);
    } ZEND_HASH_FOREACH_END();
    return n;
}

int php_gtc_parse_shape(HashTable *ht, uint32_t arg_num, bool allow_neg1, int64_t *shape) {
    int n = php_gtc_parse_int_list(ht, arg_num, shape);
    for (int i = 0; i < n; i++) {
        if (shape[i] < 0 && !(allow_neg1 && shape[i] == -1)) {
            zend_argument_error(php_gtc_ce_InvalidArgumentException, arg_num, "must contain only non-negative dimensions%s, "
                                      ZEND_LONG_FMT " given", allow_neg1 ? " (or one -1)" : "",
                                      (zend_long)shape[i]);
            return -1;
        }
        if (shape[i] >= IR_MAX_DIM) {
            zend_argument_error(php_gtc_ce_InvalidArgumentException, arg_num, "must contain dimensions below 2^31, "
                                      ZEND_LONG_FMT " given", (zend_long)shape[i]);
            return -1;
        }
    }
    return n;
}

void php_gtc_dims_to_php(int rank, const int64_t *dims, zval *rv) {
    array_init_size(rv, (uint32_t)rank);
    for (int i = 0; i < rank; i++) add_next_index_long(rv, (zend_long)dims[i]);
}

/* ---- PHP arrays → tensor ---------------------------------------------------------------- */

enum { SEEN_BOOL = 1, SEEN_INT = 2, SEEN_FLOAT = 4 };

typedef struct {
    int rank;
    int64_t shape[IR_MAX_RANK];
    unsigned seen;
    char path[256];
} Walk;

/* Appends "[i]" to the path; returns the old length to restore. */
static size_t path_push(Walk *w, uint32_t i) {
    size_t len = strlen(w->path);
    snprintf(w->path + len, sizeof w->path - len, "[%u]", i);
    return len;
}

/* Checks nested arrays against the shape read from their first elements. Keys are ignored: the
 * values are read in order, as array_values() would give them (php-gpu-tensors does the same,
 * so lists with gaps from array_filter() or unset() work); a path names the i-th value. */
static bool validate(Walk *w, zval *z, int depth) {
    ZVAL_DEREF(z);
    if (depth < w->rank) {
        if (Z_TYPE_P(z) != IS_ARRAY) {
            php_gtc_throw(RT_EINVAL, "ragged array: %s is %s, expected an array of %lld elements",
                          w->path, Z_TYPE_P(z) == IS_LONG || Z_TYPE_P(z) == IS_DOUBLE ||
                          Z_TYPE_P(z) == IS_TRUE || Z_TYPE_P(z) == IS_FALSE ? "a number"
                          : zend_zval_type_name(z), (long long)w->shape[depth]);
            return false;
        }
        HashTable *ht = Z_ARRVAL_P(z);
        if (zend_hash_num_elements(ht) != w->shape[depth]) {
            php_gtc_throw(RT_EINVAL, "ragged array: %s has %u elements, expected %lld", w->path,
                          zend_hash_num_elements(ht), (long long)w->shape[depth]);
            return false;
        }
        uint32_t i = 0;
        zval *e;
        ZEND_HASH_FOREACH_VAL(ht, e) {
            size_t len = path_push(w, i++);
            if (!validate(w, e, depth + 1)) return false;
            w->path[len] = 0;
        } ZEND_HASH_FOREACH_END();
        return true;
    }
    switch (Z_TYPE_P(z)) {
    case IS_TRUE: case IS_FALSE: w->seen |= SEEN_BOOL; return true;
    case IS_LONG: w->seen |= SEEN_INT; return true;
    case IS_DOUBLE: w->seen |= SEEN_FLOAT; return true;
    case IS_ARRAY:
        php_gtc_throw(RT_EINVAL, "ragged array: %s is an array, expected a number", w->path);
        return false;
    default:
        php_gtc_throw(RT_EINVAL, "%s must be int, float or bool, %s given", w->path,
                      zend_zval_type_name(z));
        return false;
    }
}

/* One PHP leaf into dtype dt: floats convert as `cast` does (saturating, NaN -> 0); PHP ints
 * saturate at the dtype's limits too (a negative int into an unsigned dtype gives 0), int64 and
 * uint64 keep every bit of the range they share with PHP's int. */
#define STORE_LONG_B(CT, sfx, size) (CT)(l != 0)
#define STORE_LONG_S(CT, sfx, size) (size == 8 ? (CT)l : gtc_to_##sfx((double)l))
#define STORE_LONG_U(CT, sfx, size) (l < 0 ? (CT)0 : size == 8 ? (CT)l : gtc_to_##sfx((double)l))
#define STORE_LONG_F(CT, sfx, size) (CT)d
#define STORE_LONG_H(CT, sfx, size) gtc_to_##sfx((int64_t)l) /* rounded once, not through d */
static void store(DType dt, char *dst, zval *z) {
    bool is_long = Z_TYPE_P(z) == IS_LONG;
    zend_long l = is_long ? Z_LVAL_P(z) : Z_TYPE_P(z) == IS_TRUE;
    double d = Z_TYPE_P(z) == IS_DOUBLE ? Z_DVAL_P(z) : (double)l;
    bool fl = Z_TYPE_P(z) == IS_DOUBLE;
    switch (dt) {
#define STORE(ID, name, sh, sfx, CT, WT, size, kind)                                          \
    case DT_##ID: {                                                                           \
        CT v = fl ? gtc_to_##sfx(d) : STORE_LONG_##kind(CT, sfx, size);                       \
        memcpy(dst, &v, sizeof v);                                                            \
        break;                                                                                \
    }
        IR_DTYPES(STORE)
#undef STORE
    default: break;
    }
}

/* Writes the (validated) leaves in C order; returns the advanced destination. */
static char *fill(const Walk *w, DType dt, zval *z, int depth, char *dst) {
    ZVAL_DEREF(z);
    if (depth == w->rank) {
        store(dt, dst, z);
        return dst + ir_dtype_size(dt);
    }
    zval *e;
    ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(z), e) { dst = fill(w, dt, e, depth + 1, dst); }
    ZEND_HASH_FOREACH_END();
    return dst;
}

RtTensor *php_gtc_from_php(const RtBackend *b, zval *data, DType dt, bool infer_dtype) {
    Walk w = {0};
    strcpy(w.path, "$data");
    zval *cur = data;
    ZVAL_DEREF(cur);
    /* The shape follows the first element at every level; validate() checks the rest. */
    while (Z_TYPE_P(cur) == IS_ARRAY) {
        if (w.rank == IR_MAX_RANK) {
            php_gtc_throw(RT_EINVAL, "$data is nested deeper than %d levels", IR_MAX_RANK);
            return NULL;
        }
        uint32_t n = zend_hash_num_elements(Z_ARRVAL_P(cur));
        w.shape[w.rank++] = n;
        if (n == 0) break;
        zval *first = NULL;
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(cur), first) { break; } ZEND_HASH_FOREACH_END();
        cur = first;
        ZVAL_DEREF(cur);
    }
    if (!validate(&w, data, 0)) return NULL;
    if (infer_dtype)
        dt = (w.seen & SEEN_FLOAT) ? DT_FLOAT32 : (w.seen & SEEN_INT) ? DT_INT64
             : w.seen ? DT_BOOL : DT_FLOAT32;
    size_t numel = 1;
    for (int i = 0; i < w.rank; i++) numel *= (size_t)w.shape[i];
    char *buf = safe_emalloc(numel ? numel : 1, ir_dtype_size(dt), 0);
    fill(&w, dt, data, 0, buf);
    RtTensor *t = rt_from_host(b, dt, w.rank, w.shape, buf);
    efree(buf);
    if (!t) php_gtc_throw_rt();
    return t;
}

/* ---- tensor → PHP arrays ------------------------------------------------------------------ */

/* One element as a PHP value: bool, int, or float for the floats and for uint64 values above
 * PHP_INT_MAX (PHP's own rule for integers that overflow: the nearest float, never a wrap). */
#define LOAD_B(rv, v) ZVAL_BOOL(rv, v != 0)
#define LOAD_S(rv, v) ZVAL_LONG(rv, (zend_long)v)
#define LOAD_U(rv, v)                                                                         \
    if ((uint64_t)v > (uint64_t)ZEND_LONG_MAX) ZVAL_DOUBLE(rv, (double)v);                   \
    else ZVAL_LONG(rv, (zend_long)v)
#define LOAD_F(rv, v) ZVAL_DOUBLE(rv, (double)v)
#define LOAD_H(rv, v) ZVAL_DOUBLE(rv, gtc_to_f64(v))
static void load(DType dt, const char *src, zval *rv) {
    switch (dt) {
#define LOAD(ID, name, sh, sfx, CT, WT, size, kind)                                           \
    case DT_##ID: {                                                                           \
        CT v;                                                                                 \
        memcpy(&v, src, sizeof v);                                                            \
        LOAD_##kind(rv, v);                                                                   \
        break;                                                                                \
    }
        IR_DTYPES(LOAD)
#undef LOAD
    default: ZVAL_NULL(rv); break;
    }
}

static const char *build(const RtTensor *t, int depth, const char *src, zval *rv) {
    if (depth == t->rank) {
        load(t->dtype, src, rv);
        return src + ir_dtype_size(t->dtype);
    }
    int64_t n = t->shape[depth];
    array_init_size(rv, (uint32_t)n);
    for (int64_t i = 0; i < n; i++) {
        zval e;
        src = build(t, depth + 1, src, &e);
        zend_hash_next_index_insert_new(Z_ARRVAL_P(rv), &e);
    }
    return src;
}

bool php_gtc_to_php(const RtTensor *t, zval *rv) {
    size_t bytes = rt_nbytes(t);
    char *buf = emalloc(bytes ? bytes : 1);
    if (bytes && rt_to_host(t, buf) != 0) {
        efree(buf);
        php_gtc_throw_rt();
        return false;
    }
    build(t, 0, buf, rv);
    efree(buf);
    return true;
}

/* toArray() of CudaArray and HostArray: always an array, as its name and the peer extension's
 * say: a rank-0 array gives a one-element list ([v]; item() gives v). */
bool php_gtc_to_array(const RtTensor *t, zval *rv) {
    if (t->rank > 0) return php_gtc_to_php(t, rv);
    zval v;
    if (!php_gtc_to_php(t, &v)) return false;
    array_init_size(rv, 1);
    zend_hash_next_index_insert_new(Z_ARRVAL_P(rv), &v);
    return true;
}
