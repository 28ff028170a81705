/* runtime/php/hostarray.c: Cuda\HostArray (also Cuda\ContiguousArray, php-gpu-tensors' name), an
 * array in host memory (a tensor on the CPU backend whatever gtc.device says), converted to and
 * from PHP arrays, packed bytes and CudaArray, with element access by coordinates. */
#include "php_gtc.h"

#include "zend_interfaces.h"

static zend_object_handlers hostarray_handlers;

static zend_object *hostarray_create(zend_class_entry *ce) {
    return php_gtc_array_create(ce, &hostarray_handlers);
}

/* new HostArray($values, $dtype, $pinned): as fromArray. Page-locked (pinned) memory is not
 * offered: $pinned is accepted and isPinned() says false. */
ZEND_METHOD(Cuda_HostArray, __construct) {
    zval *data;
    zend_string *dtype_name = NULL;
    bool pinned = false;
    ZEND_PARSE_PARAMETERS_START(1, 3)
        Z_PARAM_ARRAY(data)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR_OR_NULL(dtype_name)
        Z_PARAM_BOOL(pinned)
    ZEND_PARSE_PARAMETERS_END();
    (void)pinned;
    php_gtc_array *self = Z_GTC_ARRAY_P(ZEND_THIS);
    DType dt = DT_FLOAT32;
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, 2, &dt)) RETURN_THROWS();
    RtTensor *t = php_gtc_from_php(&rt_cpu_backend, data, dt, false);
    if (!t) RETURN_THROWS();
    rt_release(self->t); /* called again: new values, as CudaArray's constructor */
    self->t = t;
}

ZEND_METHOD(Cuda_HostArray, fromBuffer) {
    zend_string *bytes, *dtype_name = NULL;
    HashTable *shape_ht;
    bool pinned = false;
    ZEND_PARSE_PARAMETERS_START(2, 4)
        Z_PARAM_STR(bytes)
        Z_PARAM_ARRAY_HT(shape_ht)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR_OR_NULL(dtype_name)
        Z_PARAM_BOOL(pinned)
    ZEND_PARSE_PARAMETERS_END();
    (void)pinned;
    RtTensor *t = php_gtc_buffer_args(&rt_cpu_backend, bytes, shape_ht, dtype_name);
    if (!t || !php_gtc_wrap(return_value, php_gtc_ce_HostArray, t)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_HostArray, toBuffer) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (!php_gtc_to_bytes(t, return_value)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_HostArray, isPinned) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    (void)t;
    RETURN_FALSE;
}

ZEND_METHOD(Cuda_HostArray, getNdims) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_LONG(t->rank);
}

ZEND_METHOD(Cuda_HostArray, getSize) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_LONG((zend_long)rt_numel(t));
}

ZEND_METHOD(Cuda_HostArray, getElementSize) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_LONG((zend_long)ir_dtype_size(t->dtype));
}

/* count(): the length of the first axis (1 for a rank-0 array, which holds one value). */
ZEND_METHOD(Cuda_HostArray, count) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_LONG(t->rank ? (zend_long)t->shape[0] : 1);
}

/* The element at coordinates idx[0..n) (negative from the end) into rv; false after throwing. */
static bool element(const RtTensor *t, const zend_long *idx, uint32_t n, zval *rv) {
    if (n != (uint32_t)t->rank) {
        php_gtc_throw(RT_EINVAL, "%u coordinate%s for a rank-%d array", n, n == 1 ? "" : "s", t->rank);
        return false;
    }
    RtTensor v = *t; /* a rank-0 view of the element (borrowed storage) */
    for (int d = 0; d < t->rank; d++) {
        zend_long i = idx[d], dim = (zend_long)t->shape[d];
        if (i < -dim || i >= dim) {
            php_gtc_throw(RT_EINVAL, "index " ZEND_LONG_FMT " is out of range for axis %d of size " ZEND_LONG_FMT, i, d,
                          dim);
            return false;
        }
        v.offset += (i < 0 ? i + dim : i) * t->strides[d];
    }
    v.rank = 0;
    return php_gtc_to_php(&v, rv);
}

/* get([$i, $j, ...]): one element by its coordinates. */
ZEND_METHOD(Cuda_HostArray, get) {
    HashTable *ht;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY_HT(ht)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    int64_t idx64[IR_MAX_RANK];
    zend_long idx[IR_MAX_RANK];
    int n = php_gtc_parse_int_list(ht, 1, idx64);
    if (n < 0) RETURN_THROWS();
    for (int i = 0; i < n; i++) idx[i] = (zend_long)idx64[i];
    if (!element(t, idx, (uint32_t)n, return_value)) RETURN_THROWS();
}

/* at($i, $j, ...): get() with the coordinates as arguments. */
ZEND_METHOD(Cuda_HostArray, at) {
    zval *args = NULL;
    uint32_t argc = 0;
    ZEND_PARSE_PARAMETERS_START(0, -1)
        Z_PARAM_VARIADIC('+', args, argc)
    ZEND_PARSE_PARAMETERS_END();
    GTC_THIS_TENSOR(t);
    zend_long idx[IR_MAX_RANK];
    if (argc > IR_MAX_RANK) {
        php_gtc_throw(RT_EINVAL, "%u coordinates for a rank-%d array", argc, t->rank);
        RETURN_THROWS();
    }
    for (uint32_t i = 0; i < argc; i++) {
        if (Z_TYPE(args[i]) != IS_LONG) {
            zend_argument_type_error(i + 1, "must be of type int, %s given", zend_zval_type_name(&args[i]));
            RETURN_THROWS();
        }
        idx[i] = Z_LVAL(args[i]);
    }
    if (!element(t, idx, argc, return_value)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_HostArray, fromArray) {
    zval *data;
    zend_string *dtype_name = NULL;
    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ARRAY(data)
        Z_PARAM_OPTIONAL
        Z_PARAM_STR(dtype_name)
    ZEND_PARSE_PARAMETERS_END();
    DType dt = DT_FLOAT32;
    if (dtype_name && !php_gtc_parse_dtype(dtype_name, 2, &dt)) RETURN_THROWS();
    RtTensor *t = php_gtc_from_php(&rt_cpu_backend, data, dt, false);
    if (!t) RETURN_THROWS();
    php_gtc_wrap(return_value, php_gtc_ce_HostArray, t);
}

ZEND_METHOD(Cuda_HostArray, toArray) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (!php_gtc_to_array(t, return_value)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_HostArray, getShape) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    php_gtc_dims_to_php(t->rank, t->shape, return_value);
}

ZEND_METHOD(Cuda_HostArray, dtype) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_STRING(ir_dtype_name(t->dtype));
}

ZEND_METHOD(Cuda_HostArray, getDtype) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    RETURN_STRING(ir_dtype_name(t->dtype));
}

ZEND_METHOD(Cuda_HostArray, toDevice) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RETURN_TENSOR(php_gtc_to_backend(t, b));
}

/* toGpu(): php-gpu-tensors' name for toDevice(). */
ZEND_METHOD(Cuda_HostArray, toGpu) { ZEND_MN(Cuda_HostArray_toDevice)(INTERNAL_FUNCTION_PARAM_PASSTHRU); }

/* Serialization in CudaArray's format (php-gpu-tensors' ContiguousArray is serializable). */
ZEND_METHOD(Cuda_HostArray, __serialize) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    if (!php_gtc_serialize(t, return_value)) RETURN_THROWS();
}

ZEND_METHOD(Cuda_HostArray, __unserialize) {
    HashTable *data;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ARRAY_HT(data)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_gtc_unserialize_into(ZEND_THIS, data, &rt_cpu_backend, "Cuda\\HostArray")) RETURN_THROWS();
}

void php_gtc_hostarray_minit(zend_class_entry *ce) {
    ce->create_object = hostarray_create;
    memcpy(&hostarray_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    hostarray_handlers.offset = XtOffsetOf(php_gtc_array, std);
    hostarray_handlers.free_obj = php_gtc_array_free;
    hostarray_handlers.clone_obj = php_gtc_array_clone;
    /* php-gpu-tensors' name for the same class */
    zend_register_class_alias("Cuda\\ContiguousArray", ce);
}
