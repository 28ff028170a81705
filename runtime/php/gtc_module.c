/* runtime/php/gtc_module.c: the gtc extension's module entry: INI settings (gtc.device,
 * gtc.memory_limit, gtc.cpu_threads), class registration, phpinfo(), and the choice of backend. */
#include "php_gtc.h"

#include "ext/standard/info.h"
#include "php_ini.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

#include "device_functions_arginfo.h"
#include "gtc_arginfo.h"
#include "plan_class.h"

#include "../core/dist.h"

/* The backends come from the build's table (runtime/backends.c): a build without CUDA simply
 * has no "cuda" row, and every device question goes through the row's functions. */
static const RtBackend *cuda_backend(void) {
    const RtBackend *b = rt_backend_find("cuda");
    return b && b->device_count && b->init ? b : NULL;
}

ZEND_DECLARE_MODULE_GLOBALS(gtc)

zend_class_entry *php_gtc_ce_CudaArray;
zend_class_entry *php_gtc_ce_HostArray;

/* "auto", "cpu", "cuda" or "cuda:N" (N decimal). */
static bool device_name_ok(const char *s) {
    if (!strcmp(s, "auto") || !strcmp(s, "cpu") || !strcmp(s, "cuda")) return true;
    if (strncmp(s, "cuda:", 5) || !s[5]) return false;
    for (const char *p = s + 5; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return strlen(s + 5) <= 4;
}

static ZEND_INI_MH(OnUpdateDevice) {
    if (php_gtc_tracing()) { /* placeholders and the traced graph belong to one device */
        php_gtc_trace_forbid("changing gtc.device");
        return FAILURE;
    }
    if (!device_name_ok(ZSTR_VAL(new_value))) {
        php_error_docref(NULL, E_WARNING,
                         "gtc.device must be auto, cpu, cuda or cuda:N, \"%s\" given",
                         ZSTR_VAL(new_value));
        return FAILURE;
    }
    return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

static ZEND_INI_MH(OnUpdateMemoryLimit) {
    (void)mh_arg1, (void)mh_arg2, (void)mh_arg3, (void)stage;
    zend_string *err = NULL;
    zend_ulong v = zend_ini_parse_uquantity(new_value, &err);
    if (err) {
        php_error_docref(NULL, E_WARNING, "Invalid \"%s\" setting. %s", ZSTR_VAL(entry->name),
                         ZSTR_VAL(err));
        zend_string_release(err);
        return FAILURE;
    }
    if (v == ZEND_ULONG_MAX) v = 0; /* "-1", as for PHP's memory_limit: unlimited */
    GTC_G(memory_limit) = (zend_long)v;
    rt_set_memory_limit((size_t)v);
    return SUCCESS;
}

/* cuda.memory_size, php-gpu-tensors' name (its memory pool's size), sets gtc.memory_limit's
 * limit when given; unset, it changes nothing (its entry comes after gtc.memory_limit's). */
static ZEND_INI_MH(OnUpdateCudaMemorySize) {
    if (!ZSTR_LEN(new_value)) return SUCCESS;
    return OnUpdateMemoryLimit(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* gtc.cpu_threads: the CPU backend's thread count (runtime/cpu/cpu_threads.c; GTC_CPU_THREADS
 * wins over it). Applied at once: the next eager op, plan run or BLAS call uses it. */
static ZEND_INI_MH(OnUpdateCpuThreads) {
    (void)entry, (void)mh_arg1, (void)mh_arg2, (void)mh_arg3, (void)stage;
    char err[160];
    if (rt_cpu_set_threads(ZSTR_VAL(new_value), "gtc.cpu_threads", err, sizeof err) != 0) {
        php_error_docref(NULL, E_WARNING, "gtc.cpu_threads: %s", err);
        return FAILURE;
    }
    return SUCCESS;
}

PHP_INI_BEGIN()
    STD_PHP_INI_ENTRY("gtc.device", "auto", PHP_INI_ALL, OnUpdateDevice, device,
                      zend_gtc_globals, gtc_globals)
    PHP_INI_ENTRY("gtc.memory_limit", "0", PHP_INI_ALL, OnUpdateMemoryLimit)
    PHP_INI_ENTRY("cuda.memory_size", "", PHP_INI_ALL, OnUpdateCudaMemorySize)
    PHP_INI_ENTRY("gtc.cpu_threads", "auto", PHP_INI_ALL, OnUpdateCpuThreads)
PHP_INI_END()

/* Which device is asked for, and by whom (for messages): GTC_DEVICE wins over gtc.device. */
static const char *requested_device(const char **source) {
    const char *env = getenv("GTC_DEVICE");
    if (env && *env) {
        *source = "GTC_DEVICE";
        return env;
    }
    *source = "gtc.device";
    return GTC_G(device) && *GTC_G(device) ? GTC_G(device) : "auto";
}

/* Initialises CUDA device `index` once per process; 0, or -1 with the reason in err. The
 * outcome of the first attempt is kept: the runtime drives one device per process. */
static int cuda_start(int index, char *err, size_t n) {
    static int tried = -1, rc = -1;
    static char reason[256];
    const RtBackend *cu = cuda_backend();
    if (!cu) {
        snprintf(err, n, "no CUDA device is available (gtc.so was built without the CUDA backend)");
        return -1;
    }
    if (tried < 0) {
        tried = index;
        rc = cu->device_count() > 0 ? cu->init(index, reason, sizeof reason)
                                    : (snprintf(reason, sizeof reason, "no CUDA device is available"), -1);
    } else if (rc == 0 && index != tried) {
        snprintf(err, n, "device %d was selected first (one CUDA device per process)", tried);
        return -1;
    } else if (rc != 0 && index != tried) {
        rc = cu->init(index, reason, sizeof reason), tried = index;
    }
    if (rc) snprintf(err, n, "%s", reason);
    return rc;
}

/* The backend a request should use, or NULL with a reason (no exception thrown): cpu, cuda:N,
 * or for "auto" the first CUDA device when there is one, else cpu. */
static const RtBackend *resolve_backend(char *why, size_t n) {
    const char *source, *dev = requested_device(&source);
    char err[256];
    const char *threads = rt_cpu_threads_error();
    if (threads) { /* a broken setting is said at once, not ignored (GTC_DEVICE's rule) */
        snprintf(why, n, "%s", threads);
        return NULL;
    }
    if (!device_name_ok(dev)) {
        snprintf(why, n, "%s=%s is not a device (auto, cpu, cuda or cuda:N)", source, dev);
        return NULL;
    }
    if (!strcmp(dev, "cpu")) return &rt_cpu_backend;
    const RtBackend *cu = cuda_backend();
    if (cu && cu->ready() && (!strcmp(dev, "auto") || !strcmp(dev, "cuda")))
        return cu; /* the device selected first (cuda_set_device, or an earlier request) */
    if (!strcmp(dev, "auto")) {
        static int auto_cuda = -1; /* decided once: probing the driver is not free */
        if (auto_cuda < 0) auto_cuda = cuda_backend() && cuda_backend()->device_count() > 0 &&
                                       cuda_start(0, err, sizeof err) == 0;
        return auto_cuda ? cuda_backend() : &rt_cpu_backend;
    }
    int index = dev[4] == ':' ? atoi(dev + 5) : 0;
    if (cuda_start(index, err, sizeof err) != 0) {
        if (!strncmp(err, "no CUDA device is available", 27))
            snprintf(why, n, "%s=%s but %s", source, dev, err);
        else
            snprintf(why, n, "%s=%s but no CUDA device is available: %s", source, dev, err);
        return NULL;
    }
    return cuda_backend();
}

const RtBackend *php_gtc_cuda_backend(void) { return cuda_backend(); }

const char *php_gtc_requested_device(void) {
    const char *source;
    return requested_device(&source);
}

int php_gtc_requested_device_index(void) {
    const char *source, *dev = requested_device(&source);
    return !strncmp(dev, "cuda:", 5) && device_name_ok(dev) ? atoi(dev + 5) : 0;
}

int php_gtc_select_device(int index, char *why, size_t n) { return cuda_start(index, why, n); }

const RtBackend *php_gtc_device_backend(char *why, size_t n) {
    const RtBackend *cu = cuda_backend();
    if (cu && cu->ready && cu->ready()) return cu;
    const char *source, *dev = requested_device(&source);
    int index = !strncmp(dev, "cuda:", 5) && device_name_ok(dev) ? atoi(dev + 5) : 0;
    return cuda_start(index, why, n) == 0 ? cu : NULL;
}

const char *php_gtc_device_name(const RtTensor *t, char *buf, size_t n) {
    const RtBackend *b = t->storage ? t->storage->backend : NULL;
    if (b && b->device_index) {
        snprintf(buf, n, "%s:%d", b->name, b->device_index());
        return buf;
    }
    return b && b->name ? b->name : "cpu";
}

const RtBackend *php_gtc_backend(void) {
    char why[256];
    const RtBackend *b = resolve_backend(why, sizeof why);
    if (!b) {
        php_gtc_throw(RT_ERUNTIME, "%s", why);
        return NULL;
    }
    if (rt_default_backend() != b) rt_set_default_backend(b);
    return b;
}

/* The backend that holds a device and has set it up, or NULL (asking initialises nothing). */
static const RtBackend *ready_device_backend(void) {
    for (int i = 0; rt_backends[i]; i++)
        if (rt_backends[i]->ready && rt_backends[i]->ready()) return rt_backends[i];
    return NULL;
}

static PHP_GINIT_FUNCTION(gtc) {
#if defined(ZTS) && defined(COMPILE_DL_GTC)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    memset(gtc_globals, 0, sizeof *gtc_globals);
}

static PHP_MINIT_FUNCTION(gtc) {
    (void)type;
    REGISTER_INI_ENTRIES();
    php_gtc_ce_Exception = register_class_Cuda_Exception(zend_ce_exception);
    php_gtc_ce_InvalidArgumentException =
        register_class_Cuda_InvalidArgumentException(php_gtc_ce_Exception);
    php_gtc_ce_RuntimeException = register_class_Cuda_RuntimeException(php_gtc_ce_Exception);
    /* as php-gpu-tensors has them: allocation and compilation failures are runtime errors */
    php_gtc_ce_OutOfMemoryException = register_class_Cuda_OutOfMemoryException(php_gtc_ce_RuntimeException);
    php_gtc_ce_CompilationException = register_class_Cuda_CompilationException(php_gtc_ce_RuntimeException);
    php_gtc_ce_CudaArray = register_class_Cuda_CudaArray();
    php_gtc_cudaarray_minit(php_gtc_ce_CudaArray);
    php_gtc_ce_HostArray = register_class_Cuda_HostArray();
    php_gtc_hostarray_minit(php_gtc_ce_HostArray);
    php_gtc_ce_Compiler = register_class_Cuda_Compiler();
    php_gtc_compiler_minit(php_gtc_ce_Compiler);
    register_class_Cuda_NN();
    register_class_Cuda_Distributed();
    php_gtc_ce_Fusion = register_class_Cuda_Fusion();
    php_gtc_ce_FusionGraph = register_class_Cuda_FusionGraph();
    php_gtc_ce_FusionExecution = register_class_Cuda_FusionExecution();
    php_gtc_batches_minit(register_class_Cuda_Batches(zend_ce_iterator, zend_ce_countable));
    php_gtc_fusion_minit();
    php_gtc_optimizer_minit();
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(gtc) {
    (void)type;
    UNREGISTER_INI_ENTRIES();
    php_gtc_fusion_mshutdown();
    php_gtc_plan_class_mshutdown();
    rt_dist_destroy(); /* the communicator before the device it runs on */
    const RtBackend *dev = ready_device_backend();
    if (dev && dev->shutdown) dev->shutdown();
    return SUCCESS;
}

static PHP_RINIT_FUNCTION(gtc) {
    (void)type, (void)module_number;
#if defined(ZTS) && defined(COMPILE_DL_GTC)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    rt_clear_error();
    php_gtc_fusion_rinit();
    php_gtc_autograd_rinit();
    GTC_G(last_matmul) = NULL;
    return SUCCESS;
}

/* Request-bound objects a module-level cache holds go before the object store does. */
static PHP_RSHUTDOWN_FUNCTION(gtc) {
    (void)type, (void)module_number;
    php_gtc_eager_plan_clear();
    return SUCCESS;
}

/* CudaArray::memoryInfo(): the runtime's accounting, plus the CUDA allocator's and the device's
 * figures once the CUDA backend is in use (null before: asking never initialises a device). */
ZEND_METHOD(Cuda_CudaArray, memoryInfo) {
    ZEND_PARSE_PARAMETERS_NONE();
    array_init_size(return_value, 6);
    add_assoc_long(return_value, "allocated", (zend_long)rt_memory_used());
    add_assoc_long(return_value, "peak", (zend_long)rt_memory_peak());
    add_assoc_long(return_value, "limit", (zend_long)rt_memory_limit());
    size_t in_use = 0, cached = 0, fr = 0, tot = 0;
    const RtBackend *dev = ready_device_backend();
    bool cuda = dev && dev->mem_stats && dev->mem_info;
    if (cuda) {
        dev->mem_stats(&in_use, &cached, NULL);
        if (dev->mem_info(&fr, &tot) != 0) {
            rt_clear_error();
            fr = tot = 0;
        }
        add_assoc_long(return_value, "reserved", (zend_long)(in_use + cached));
    } else {
        add_assoc_null(return_value, "reserved");
    }
    if (cuda && tot) {
        add_assoc_long(return_value, "device_free", (zend_long)fr);
        add_assoc_long(return_value, "device_total", (zend_long)tot);
    } else {
        add_assoc_null(return_value, "device_free");
        add_assoc_null(return_value, "device_total");
    }
}

static void format_bytes(size_t v, char *buf, size_t n) {
    if (v >= ((size_t)1 << 30) && v % ((size_t)1 << 30) == 0) snprintf(buf, n, "%zuG", v >> 30);
    else if (v >= ((size_t)1 << 20) && v % ((size_t)1 << 20) == 0) snprintf(buf, n, "%zuM", v >> 20);
    else if (v >= 1024 && v % 1024 == 0) snprintf(buf, n, "%zuK", v >> 10);
    else snprintf(buf, n, "%zu", v);
}

static PHP_MINFO_FUNCTION(gtc) {
    (void)zend_module;
    char why[256], buf[300];
    const RtBackend *b = resolve_backend(why, sizeof why);
    php_info_print_table_start();
    php_info_print_table_row(2, "gtc support", "enabled");
    php_info_print_table_row(2, "Version", PHP_GTC_VERSION);
    if (b && b->device_index && b->device_name) {
        snprintf(buf, sizeof buf, "%s:%d (%s)", b->name, b->device_index(), b->device_name());
        php_info_print_table_row(2, "Backend", buf);
    } else {
        php_info_print_table_row(2, "Backend", b ? b->name : why);
    }
    php_info_print_table_row(2, "CUDA backend", cuda_backend() ? "built in" : "not built");
    const char *nvrtc = php_gtc_nvrtc_version(buf, sizeof buf);
    php_info_print_table_row(2, "NVRTC", nvrtc ? nvrtc : "not available");
    const RtBackend *cb = cuda_backend();
    /* cuDNN: larger eager convolutions (runtime/cuda/cuda_cudnn.cu) */
    php_info_print_table_row(2, "Convolution library", cb && cb->conv_library ? cb->conv_library(buf, sizeof buf)
                                                                            : "none (no CUDA backend)");
    php_info_print_table_row(2, "NCCL", php_gtc_nccl_info(buf, sizeof buf));
    php_info_print_table_row(2, "CPU BLAS", rt_cpu_blas_info(buf, sizeof buf));
    snprintf(buf, sizeof buf, "%d", rt_cpu_threads());
    php_info_print_table_row(2, "CPU threads", buf);
    size_t limit = rt_memory_limit();
    if (limit) format_bytes(limit, buf, sizeof buf);
    else snprintf(buf, sizeof buf, "unlimited");
    php_info_print_table_row(2, "Memory limit", buf);
    snprintf(buf, sizeof buf, "%zu bytes", rt_memory_used());
    php_info_print_table_row(2, "Memory used", buf);
    snprintf(buf, sizeof buf, "%zu bytes", rt_memory_peak());
    php_info_print_table_row(2, "Memory peak", buf);
    php_info_print_table_end();
    DISPLAY_INI_ENTRIES();
}

zend_module_entry gtc_module_entry = {
    STANDARD_MODULE_HEADER,
    "gtc",
    ext_functions, /* the cuda_* device functions (device_functions.c) */
    PHP_MINIT(gtc),
    PHP_MSHUTDOWN(gtc),
    PHP_RINIT(gtc),
    PHP_RSHUTDOWN(gtc),
    PHP_MINFO(gtc),
    PHP_GTC_VERSION,
    PHP_MODULE_GLOBALS(gtc),
    PHP_GINIT(gtc),
    NULL,
    NULL,
    STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_GTC
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
/* The php-gpu-tensors name: scripts of that extension begin with extension_loaded('cuda'). A
 * module entry of that name, with nothing of its own, registered when PHP loads gtc.so (before
 * startup, so no module table is walked while it changes); gtc is the module that does the work. */
static PHP_MINFO_FUNCTION(cuda_alias) {
    (void)zend_module;
    php_info_print_table_start();
    php_info_print_table_row(2, "cuda", "provided by gtc (php-gpu-tensors compatibility, docs/compat.md)");
    php_info_print_table_end();
}

static zend_module_entry cuda_alias_module_entry = {
    STANDARD_MODULE_HEADER, "cuda", NULL, NULL, NULL, NULL, NULL, PHP_MINFO(cuda_alias), PHP_GTC_VERSION,
    STANDARD_MODULE_PROPERTIES,
};

BEGIN_EXTERN_C()
ZEND_DLEXPORT zend_module_entry *get_module(void) {
    /* a real "cuda" extension loaded first keeps its name (PHP warns "already loaded") */
    if (!zend_hash_str_exists(&module_registry, "cuda", sizeof "cuda" - 1))
        zend_register_internal_module(&cuda_alias_module_entry);
    return &gtc_module_entry;
}
END_EXTERN_C()
#endif
