/* runtime/php/gtc_api.c: small entry points for code outside gtc.so's PHP classes: the API
 * version (models compiled before version 2 check it and stop with a message), wrapping tensors
 * in Cuda\CudaArray objects and reading them back. A model extension of today calls only
 * php_gtc_plan_class_register (plan_class.h), fetched by name. */
#include "php_gtc.h"

int php_gtc_api_version(void) { return PHP_GTC_API_VERSION; }

zend_object *php_gtc_array_wrap(RtTensor *t) {
    zval z;
    if (!php_gtc_wrap(&z, php_gtc_ce_CudaArray, t)) return NULL;
    return Z_OBJ(z);
}

RtTensor *php_gtc_array_tensor(zval *z) {
    ZVAL_DEREF(z);
    if (Z_TYPE_P(z) != IS_OBJECT || !instanceof_function(Z_OBJCE_P(z), php_gtc_ce_CudaArray))
        return NULL;
    return Z_GTC_ARRAY_P(z)->t;
}
