/* runtime/php/hostarray.c: Cuda\HostArray, an array in host memory (a tensor on the CPU
 * backend whatever gtc.device says), converted to and from PHP arrays and CudaArray. */
#include "php_gtc.h"

static zend_object_handlers hostarray_handlers;

static zend_object *hostarray_create(zend_class_entry *ce) {
    return php_gtc_array_create(ce, &hostarray_handlers);
}

ZEND_METHOD(Cuda_HostArray, __construct) {
    ZEND_PARSE_PARAMETERS_NONE();
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
    if (!php_gtc_to_php(t, return_value)) RETURN_THROWS();
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

ZEND_METHOD(Cuda_HostArray, toDevice) {
    ZEND_PARSE_PARAMETERS_NONE();
    GTC_THIS_TENSOR(t);
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    RETURN_TENSOR(php_gtc_to_backend(t, b));
}

void php_gtc_hostarray_minit(zend_class_entry *ce) {
    ce->create_object = hostarray_create;
    memcpy(&hostarray_handlers, &std_object_handlers, sizeof(zend_object_handlers));
    hostarray_handlers.offset = XtOffsetOf(php_gtc_array, std);
    hostarray_handlers.free_obj = php_gtc_array_free;
    hostarray_handlers.clone_obj = php_gtc_array_clone;
}
