/* runtime/php/cudaarray_data.c: data helpers of Cuda\CudaArray: the seeded factories randn,
 * randint and permutation (runtime/core/tensor.c generates them on the host, so a seed gives the
 * same values on every device), NumPy's arange and linspace, and the methods oneHot (the graph
 * op one_hot, traced by Cuda\Fusion) and contiguous. take is gather itself (gtc_arginfo.h). */
#include "php_gtc.h"

#include <math.h>

ZEND_METHOD(Cuda_CudaArray, randn) {
    HashTable *shape_ht;
    zend_long seed;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_ARRAY_HT(shape_ht)
        Z_PARAM_LONG(seed)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    int64_t shape[IR_MAX_RANK];
    DType dt = DT_FLOAT32;
    int rank = php_gtc_shape_dtype_args(shape_ht, 1, dtype_name, 3, shape, &dt);
    if (rank < 0) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RETURN_TENSOR(rt_randn(b, dt, rank, shape, (uint64_t)seed));
}

ZEND_METHOD(Cuda_CudaArray, randint) {
    zend_long low, high, seed;
    HashTable *shape_ht;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(4, 5)
        Z_PARAM_LONG(low)
        Z_PARAM_LONG(high)
        Z_PARAM_ARRAY_HT(shape_ht)
        Z_PARAM_LONG(seed)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    int64_t shape[IR_MAX_RANK];
    DType dt = DT_INT64;
    int rank = php_gtc_shape_dtype_args(shape_ht, 3, dtype_name, 5, shape, &dt);
    if (rank < 0) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RETURN_TENSOR(rt_randint(b, dt, rank, shape, low, high, (uint64_t)seed));
}

ZEND_METHOD(Cuda_CudaArray, permutation) {
    zend_long n, seed;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_LONG(n)
        Z_PARAM_LONG(seed)
    ZEND_PARSE_PARAMETERS_END();
    if (n < 0) {
        zend_argument_value_error(1, "must not be negative, " ZEND_LONG_FMT " given", n);
        RETURN_THROWS();
    }
    int64_t shape[1] = {n};
    if (!php_gtc_check_shape(DT_INT64, 1, shape)) RETURN_THROWS();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RETURN_TENSOR(rt_permutation(b, n, (uint64_t)seed));
}

/* A number argument as a double; *is_int tells whether it was an int. */
static double num_arg(zval *z, bool *is_int) {
    *is_int = Z_TYPE_P(z) == IS_LONG;
    return *is_int ? (double)Z_LVAL_P(z) : Z_DVAL_P(z);
}

/* A new rank-1 tensor of n values (host, int64 or float64: hdt) as dtype dt on the current
 * backend; NULL after throwing. vals is freed. */
static RtTensor *vector_of(DType dt, DType hdt, int64_t n, void *vals) {
    const RtBackend *b = php_gtc_backend();
    RtTensor *t = b ? rt_from_host_cast(b, dt, hdt, 1, &n, vals) : NULL;
    efree(vals);
    if (!t && b) php_gtc_throw_rt();
    return t;
}

/* arange(start, stop = null, step = 1, dtype = null), as NumPy: ceil((stop - start) / step)
 * values start + i * step; integers stay exact in int64 when every argument is an int. The dtype
 * is int64 for int arguments and float32 otherwise (gtc's default float). */
ZEND_METHOD(Cuda_CudaArray, arange) {
    zval *zstart, *zstop = NULL, *zstep = NULL;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 4)
        Z_PARAM_NUMBER(zstart)
        Z_PARAM_OPTIONAL
        Z_PARAM_NUMBER_OR_NULL(zstop)
        Z_PARAM_NUMBER(zstep)
        Z_PARAM_STR_OR_NULL(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    bool i0, i1 = true, i2 = true;
    double start = num_arg(zstart, &i0), stop = 0, step = zstep ? num_arg(zstep, &i2) : 1;
    if (zstop) stop = num_arg(zstop, &i1);
    else stop = start, start = 0, i1 = i0, i0 = true;
    bool ints = i0 && i1 && i2;
    DType dt = ints ? DT_INT64 : DT_FLOAT32;
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, 4, &dt)) RETURN_THROWS();
    if (!isfinite(start) || !isfinite(stop) || !isfinite(step)) {
        php_gtc_throw(RT_EINVAL, "arange: start, stop and step must be finite");
        RETURN_THROWS();
    }
    if (step == 0) {
        zend_argument_value_error(3, "must not be 0");
        RETURN_THROWS();
    }
    int64_t n;
    if (ints) { /* exact, in 128 bits: stop - start can overflow int64 */
        __int128 a = zstop ? Z_LVAL_P(zstart) : 0, z = zstop ? Z_LVAL_P(zstop) : Z_LVAL_P(zstart);
        __int128 s = zstep ? Z_LVAL_P(zstep) : 1, c = s > 0 ? (z - a + s - 1) / s : (a - z - s - 1) / -s;
        n = c < 0 ? 0 : c > INT64_MAX ? INT64_MAX : (int64_t)c;
    } else {
        double c = ceil((stop - start) / step);
        n = c < 0 ? 0 : c > 9e18 ? INT64_MAX : (int64_t)c;
    }
    if (!php_gtc_check_shape(dt, 1, &n)) RETURN_THROWS();
    void *vals = safe_emalloc((size_t)(n ? n : 1), 8, 0);
    if (ints) {
        int64_t a = zstop ? Z_LVAL_P(zstart) : 0, s = zstep ? Z_LVAL_P(zstep) : 1;
        for (int64_t i = 0; i < n; i++) ((int64_t *)vals)[i] = (int64_t)((uint64_t)a + (uint64_t)i * (uint64_t)s);
    } else {
        for (int64_t i = 0; i < n; i++) ((double *)vals)[i] = start + (double)i * step;
    }
    RtTensor *t = vector_of(dt, ints ? DT_INT64 : DT_FLOAT64, n, vals);
    if (!t) RETURN_THROWS();
    RETURN_OBJ(php_gtc_array_wrap(t));
}

/* linspace(start, stop, num = 50, endpoint = true, dtype = 'float32'), as NumPy: step =
 * (stop - start) / (endpoint ? num - 1 : num), the last value exactly stop when endpoint. */
ZEND_METHOD(Cuda_CudaArray, linspace) {
    zval *zstart, *zstop;
    zend_long num = 50;
    bool endpoint = true, unused;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(2, 5)
        Z_PARAM_NUMBER(zstart)
        Z_PARAM_NUMBER(zstop)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(num)
        Z_PARAM_BOOL(endpoint)
        Z_PARAM_STR(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    DType dt = DT_FLOAT32;
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, 5, &dt)) RETURN_THROWS();
    if (!ir_dtype_is_float(dt)) {
        zend_argument_value_error(5, "must be \"float32\" or \"float64\", \"%s\" given", ir_dtype_name(dt));
        RETURN_THROWS();
    }
    if (num < 0) {
        zend_argument_value_error(3, "must not be negative, " ZEND_LONG_FMT " given", num);
        RETURN_THROWS();
    }
    double start = num_arg(zstart, &unused), stop = num_arg(zstop, &unused);
    if (!isfinite(start) || !isfinite(stop)) {
        php_gtc_throw(RT_EINVAL, "linspace: start and stop must be finite");
        RETURN_THROWS();
    }
    int64_t n = num;
    if (!php_gtc_check_shape(dt, 1, &n)) RETURN_THROWS();
    double *vals = safe_emalloc((size_t)(n ? n : 1), sizeof *vals, 0);
    int64_t div = endpoint ? n - 1 : n;
    double step = div > 0 ? (stop - start) / (double)div : 0;
    for (int64_t i = 0; i < n; i++) vals[i] = start + (double)i * step;
    if (endpoint && n > 1) vals[n - 1] = stop;
    RtTensor *t = vector_of(dt, DT_FLOAT64, n, vals);
    if (!t) RETURN_THROWS();
    RETURN_OBJ(php_gtc_array_wrap(t));
}

/* oneHot($depth, $dtype): the graph op one_hot (a new last axis of depth; an index outside
 * [0, depth) gives a row of zeros, as ONNX OneHot and torch's one_hot of a valid index). */
ZEND_METHOD(Cuda_CudaArray, oneHot) {
    zend_long depth;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_LONG(depth)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    Attrs a = {.has_dtype = true, .dtype = DT_FLOAT32};
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, 2, &a.dtype)) RETURN_THROWS();
    if (depth < 1 || depth >= IR_MAX_DIM) {
        zend_argument_value_error(1, "must be from 1 to 2^31-1, " ZEND_LONG_FMT " given", depth);
        RETURN_THROWS();
    }
    a.depth = depth;
    RtOperand in = {.t = t};
    RETURN_TENSOR(php_gtc_apply(OP_ONE_HOT, &in, 1, &a));
}

/* contiguous(): $this when it is contiguous (or a traced value, which has no layout), else a
 * contiguous copy. */
ZEND_METHOD(Cuda_CudaArray, contiguous) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (php_gtc_is_placeholder(t) || rt_is_contiguous(t)) RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
    RETURN_TENSOR(rt_contiguous(t));
}
