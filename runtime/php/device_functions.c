/* runtime/php/device_functions.c: the `cuda_*` device functions php-gpu-tensors scripts call
 * (device_functions.stub.php), answered through the backend table: the CUDA row's device
 * functions where this build has one, truthful answers where it has not (0 devices, backend
 * "cpu") and Cuda\RuntimeException for what only a device can answer. */
#include "php_gtc.h"

#include "zend_exceptions.h"

/* The CUDA backend set up for this process, or NULL after throwing Cuda\RuntimeException. */
static const RtBackend *device_or_throw(void) {
    char why[300];
    const RtBackend *b = php_gtc_device_backend(why, sizeof why);
    if (!b) php_gtc_throw(RT_ERUNTIME, "%s", why);
    return b;
}

/* The CUDA row of this build, or NULL after throwing (a build without the CUDA backend). */
static const RtBackend *cuda_row_or_throw(void) {
    const RtBackend *b = php_gtc_cuda_backend();
    if (!b) php_gtc_throw(RT_ERUNTIME, "no CUDA device is available (gtc.so was built without the CUDA backend)");
    return b;
}

ZEND_FUNCTION(cuda_get_device_count) {
    ZEND_PARSE_PARAMETERS_NONE();
    const RtBackend *b = php_gtc_cuda_backend();
    RETURN_LONG(b ? b->device_count() : 0);
}

ZEND_FUNCTION(cuda_get_device_info) {
    zend_long id = 0;
    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(id)
    ZEND_PARSE_PARAMETERS_END();
    if (id < 0 || id > INT32_MAX) {
        zend_argument_value_error(1, "must be between 0 and 2147483647");
        RETURN_THROWS();
    }
    const RtBackend *b = cuda_row_or_throw();
    if (!b) RETURN_THROWS();
    int n = b->device_count();
    if (n == 0) {
        php_gtc_throw(RT_ERUNTIME, "no CUDA device is available (cudaGetDeviceCount found 0 devices)");
        RETURN_THROWS();
    }
    RtDeviceInfo d;
    if (b->device_info((int)id, &d)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    array_init_size(return_value, 7);
    add_assoc_string(return_value, "name", d.name);
    add_assoc_long(return_value, "compute_capability_major", d.cc_major);
    add_assoc_long(return_value, "compute_capability_minor", d.cc_minor);
    add_assoc_long(return_value, "total_global_memory", (zend_long)d.total_mem);
    add_assoc_long(return_value, "multiprocessor_count", d.sms);
    add_assoc_long(return_value, "shared_memory_per_block_optin", d.smem_block);
    add_assoc_long(return_value, "shared_memory_per_multiprocessor", d.smem_sm);
}

ZEND_FUNCTION(cuda_set_device) {
    zend_long id;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_LONG(id)
    ZEND_PARSE_PARAMETERS_END();
    if (id < 0 || id > INT32_MAX) {
        zend_argument_value_error(1, "must be between 0 and 2147483647");
        RETURN_THROWS();
    }
    if (!php_gtc_trace_forbid("cuda_set_device()")) RETURN_THROWS();
    char why[300];
    if (php_gtc_select_device((int)id, why, sizeof why)) {
        php_gtc_throw(RT_ERUNTIME, "cannot select CUDA device " ZEND_LONG_FMT ": %s", id, why);
        RETURN_THROWS();
    }
    RETURN_TRUE;
}

ZEND_FUNCTION(cuda_get_current_device) {
    ZEND_PARSE_PARAMETERS_NONE();
    const RtBackend *b = cuda_row_or_throw();
    if (!b) RETURN_THROWS();
    if (b->ready()) RETURN_LONG(b->device_index());
    if (b->device_count() == 0) {
        php_gtc_throw(RT_ERUNTIME, "no CUDA device is available (cudaGetDeviceCount found 0 devices)");
        RETURN_THROWS();
    }
    RETURN_LONG(php_gtc_requested_device_index()); /* asking selects nothing */
}

ZEND_FUNCTION(cuda_get_memory_info) {
    ZEND_PARSE_PARAMETERS_NONE();
    const RtBackend *b = device_or_throw();
    size_t fr = 0, tot = 0;
    if (!b) RETURN_THROWS();
    if (b->mem_info(&fr, &tot)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    array_init_size(return_value, 4);
    add_assoc_long(return_value, "free_memory", (zend_long)fr);
    add_assoc_long(return_value, "total_memory", (zend_long)tot);
    add_assoc_long(return_value, "used_memory", (zend_long)(tot - fr));
    add_assoc_double(return_value, "usage_percentage", tot ? 100.0 * (double)(tot - fr) / (double)tot : 0.0);
}

/* Not cudaDeviceReset: that would free the memory of every live CudaArray under it. This waits
 * for the device and gives the allocator's cache back, which is what a script calling it wants. */
ZEND_FUNCTION(cuda_device_reset) {
    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_gtc_trace_forbid("cuda_device_reset()")) RETURN_THROWS();
    const RtBackend *b = device_or_throw();
    if (!b) RETURN_THROWS();
    b->synchronize();
    b->empty_cache();
    RETURN_TRUE;
}

static void version_to_php(int v, zval *rv) {
    char s[32];
    snprintf(s, sizeof s, "%d.%d", v / 1000, (v % 1000) / 10);
    array_init_size(rv, 2);
    add_assoc_long(rv, "version", v);
    add_assoc_string(rv, "version_string", s);
}

static void versions(INTERNAL_FUNCTION_PARAMETERS, bool driver) {
    ZEND_PARSE_PARAMETERS_NONE();
    const RtBackend *b = cuda_row_or_throw();
    int dv = 0, rv = 0;
    if (!b) RETURN_THROWS();
    if (b->versions(&dv, &rv)) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    version_to_php(driver ? dv : rv, return_value);
}

ZEND_FUNCTION(cuda_get_driver_version) { versions(INTERNAL_FUNCTION_PARAM_PASSTHRU, true); }
ZEND_FUNCTION(cuda_get_runtime_version) { versions(INTERNAL_FUNCTION_PARAM_PASSTHRU, false); }

/* The backend new tensors go to: nothing is queued on the CPU, so that returns at once. */
ZEND_FUNCTION(cuda_synchronize) {
    ZEND_PARSE_PARAMETERS_NONE();
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    b->synchronize();
    RETURN_TRUE;
}

/* gtc throws a runtime error as an exception when it happens, so one is pending here only when
 * C code recorded it without throwing; reading it clears it, as the peer's does. */
ZEND_FUNCTION(cuda_get_last_error) {
    ZEND_PARSE_PARAMETERS_NONE();
    RtStatus st = rt_status();
    if (st == RT_OK) RETURN_NULL();
    static const char *const types[] = {"none", "invalid_argument", "runtime", "out_of_memory", "compilation",
                                        "unsupported"};
    array_init_size(return_value, 3);
    add_assoc_long(return_value, "code", (zend_long)st);
    add_assoc_string(return_value, "error_message", rt_message());
    add_assoc_string(return_value, "error_type", (unsigned)st < sizeof types / sizeof *types ? types[st] : "unknown");
    rt_clear_error();
}

ZEND_FUNCTION(cuda_clear_error) {
    ZEND_PARSE_PARAMETERS_NONE();
    rt_clear_error();
    RETURN_TRUE;
}

ZEND_FUNCTION(cuda_get_peer_access) {
    zend_long a, c;
    ZEND_PARSE_PARAMETERS_START(2, 2)
        Z_PARAM_LONG(a)
        Z_PARAM_LONG(c)
    ZEND_PARSE_PARAMETERS_END();
    if (a < 0 || a > INT32_MAX) {
        zend_argument_value_error(1, "must be between 0 and 2147483647");
        RETURN_THROWS();
    }
    if (c < 0 || c > INT32_MAX) {
        zend_argument_value_error(2, "must be between 0 and 2147483647");
        RETURN_THROWS();
    }
    const RtBackend *b = cuda_row_or_throw();
    if (!b) RETURN_THROWS();
    int r = b->peer_access((int)a, (int)c);
    if (r < 0) {
        php_gtc_throw_rt();
        RETURN_THROWS();
    }
    RETURN_BOOL(r);
}

/* The precision of eager float32 matrix products on the default backend: "fp32-strict" (also
 * "fp32", "highest") or "tf32" (also "high": TF32 tensor cores, a CUDA device of compute
 * capability 8.0 or later). Compiled steps (Fusion, gtc compile) stay strict FP32 until the
 * precision issue brings them a policy; bf16 is not offered yet. Returns the mode now in force. */
static const char *precision_name(const RtBackend *b) { return b->tf32 && b->tf32() ? "tf32" : "fp32-strict"; }

ZEND_FUNCTION(cuda_set_matmul_precision) {
    zend_string *p;
    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(p)
    ZEND_PARSE_PARAMETERS_END();
    const char *s = ZSTR_VAL(p);
    bool strict = !strcmp(s, "fp32-strict") || !strcmp(s, "fp32") || !strcmp(s, "highest");
    bool tf32 = !strcmp(s, "tf32") || !strcmp(s, "high");
    if (!strict && !tf32) {
        bool later = !strcmp(s, "bf16") || !strcmp(s, "medium");
        php_gtc_throw(later ? RT_ERUNTIME : RT_EINVAL,
                      later ? "matmul precision \"%.64s\" is not available in this gtc (fp32-strict or tf32)"
                            : "unknown matmul precision \"%.64s\": fp32-strict (or fp32, highest) or tf32 (or high)",
                      s);
        RETURN_THROWS();
    }
    const RtBackend *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    if (tf32) {
        RtDeviceInfo d;
        if (!b->set_tf32 || !b->device_info || b->device_info(-1, &d) || d.cc_major < 8) {
            rt_clear_error();
            php_gtc_throw(RT_ERUNTIME, "matmul precision tf32 needs a CUDA device of compute capability 8.0 or later; "
                          "the %s backend computes float32 products in strict FP32", b->name);
            RETURN_THROWS();
        }
        b->set_tf32(true);
    } else if (b->set_tf32) {
        b->set_tf32(false);
    }
    RETURN_STRING(precision_name(b));
}

ZEND_FUNCTION(cuda_get_backend_info) {
    ZEND_PARSE_PARAMETERS_NONE();
    const RtBackend *cu = php_gtc_cuda_backend(), *b = php_gtc_backend();
    if (!b) RETURN_THROWS();
    char buf[32];
    const char *nvrtc = php_gtc_nvrtc_version(buf, sizeof buf);
    array_init_size(return_value, 10);
    add_assoc_string(return_value, "backend", b->name);
    add_assoc_bool(return_value, "cuda", cu != NULL);
    add_assoc_long(return_value, "devices", cu ? cu->device_count() : 0);
    add_assoc_long(return_value, "device", b->device_index ? b->device_index() : -1);
    add_assoc_bool(return_value, "cublas", cu != NULL); /* eager float matmul on CUDA is cuBLAS */
    add_assoc_bool(return_value, "cublasLt", false);
    add_assoc_bool(return_value, "cub", false);
    char lib[300]; /* cuDNN, when found: large eager convolutions (runtime/cuda/cuda_cudnn.cu) */
    add_assoc_bool(return_value, "cudnn", cu && cu->conv_library && !strncmp(cu->conv_library(lib, sizeof lib), "cuDNN ", 6));
    add_assoc_string(return_value, "blas", rt_cpu_backend.gemm); /* the CPU backend's GEMM */
    if (GTC_G(last_matmul)) add_assoc_string(return_value, "lastMatmul", GTC_G(last_matmul));
    else add_assoc_null(return_value, "lastMatmul"); /* no eager matmul yet */
    if (nvrtc) add_assoc_string(return_value, "nvrtc", nvrtc);
    else add_assoc_null(return_value, "nvrtc");
    add_assoc_string(return_value, "precision", precision_name(b));
}
