/* runtime/php/gtc_api.c: the C API that other PHP extensions — the per-model extensions that
 * `gtc compile` generates — call into gtc.so for: wrapping tensors in Cuda\CudaArray objects,
 * reading them back, and throwing the runtime's errors. PHP loads extensions RTLD_GLOBAL, so
 * these (and libgtcrt, linked whole into gtc.so) resolve in a model loaded after gtc.so. */
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
